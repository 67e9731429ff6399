#include "cli.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace modkit {

namespace {
std::map<std::string, Group>& registry() {
    static std::map<std::string, Group> groups;
    return groups;
}

void add_global_options(po::options_description& options) {
    options.add_options()
        ("help,h", "show this help")
        ("json", "machine-readable output (one JSON document on stdout)")
        ("quiet,q", "no progress on stderr")
        ("threads,j", po::value<unsigned>()->default_value(0), "worker threads (0 = all cores)");
}

void print_group_help(const Group& group) {
    std::cout << "usage: modkit " << group.name << " SUBCOMMAND [options]\n\n"
              << group.summary << "\n\nsubcommands:\n";
    for (const auto& sub : group.subcommands)
        std::cout << "  " << sub.name << " " << sub.synopsis << "\n      " << sub.summary << "\n";
    std::cout << "\n'modkit " << group.name << " SUBCOMMAND --help' shows a subcommand's options.\n";
}

int run_subcommand(const Group& group, const Subcommand& sub, const std::vector<std::string>& args) {
    po::options_description options("options");
    po::positional_options_description positionals;
    add_global_options(options);
    if (sub.declare) sub.declare(options, positionals);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(options).positional(positionals).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        usage_error(e.what());
    }
    std::string prefix = group.single ? group.name : group.name + " " + sub.name;
    if (vm.count("help")) {
        std::cout << "usage: modkit " << prefix << " " << sub.synopsis << "\n\n" << sub.summary
                  << "\n\n" << options;
        return 0;
    }
    Global global;
    global.json = vm.count("json") > 0;
    global.quiet = vm.count("quiet") > 0;
    global.threads = vm["threads"].as<unsigned>();
    return sub.run(vm, global);
}
}  // namespace

void register_group(Group group) {
    // Several files may register subcommands of one group (e.g. `shred replace` lives beside
    // the FBX import code); their subcommands are merged, the first non-empty summary wins.
    auto [it, inserted] = registry().try_emplace(group.name, group);
    if (inserted) return;
    Group& existing = it->second;
    if (existing.summary.empty()) existing.summary = group.summary;
    for (auto& sub : group.subcommands) existing.subcommands.push_back(std::move(sub));
}

const std::map<std::string, Group>& groups() { return registry(); }

int run_group(const Group& group, const std::vector<std::string>& args) {
    if (group.single) return run_subcommand(group, group.subcommands.at(0), args);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        print_group_help(group);
        return args.empty() ? 1 : 0;
    }
    for (const auto& sub : group.subcommands)
        if (sub.name == args[0])
            return run_subcommand(group, sub, std::vector<std::string>(args.begin() + 1, args.end()));
    usage_error("unknown subcommand '" + args[0] + "' for 'modkit " + group.name +
                "' (see 'modkit " + group.name + " --help')");
}

std::string required(const po::variables_map& vm, const std::string& name) {
    if (!vm.count(name)) usage_error("missing argument " + name);
    return vm[name].as<std::string>();
}

std::vector<std::string> required_list(const po::variables_map& vm, const std::string& name) {
    if (!vm.count(name)) usage_error("missing argument " + name);
    return vm[name].as<std::vector<std::string>>();
}

void usage_error(const std::string& message) { throw mod::Error(mod::ErrorKind::usage, message); }

void warn(const std::string& message) { std::fprintf(stderr, "modkit: warning: %s\n", message.c_str()); }

}  // namespace modkit
