#include "cli.hpp"

#include "libmod/core/folder.hpp"
#include "libmod/image/palette_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>
#include <sstream>

namespace modkit {

namespace {
bool running_lean = false;
}  // namespace

bool lean_front() noexcept { return running_lean; }
void set_lean_front() noexcept { running_lean = true; }

namespace {
std::map<std::string, Group>& registry() {
    static std::map<std::string, Group> groups;
    return groups;
}

void add_global_options(po::options_description& options) {
    options.add_options()
        ("help,h", "show this help")
        ("json", "machine-readable output (one JSON document on stdout)")
        ("quiet,q", "no progress on stderr; apply prints nothing on success")
        ("threads,j", number<unsigned>()->default_value(0), "worker threads (0 = all cores)");
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
        // Positional arguments are declared as options for Boost; the synopsis names them, so
        // the option list leaves them out.
        std::set<std::string> positional_names;
        const unsigned last = positionals.max_total_count();
        for (unsigned i = 0; i < last && i < 64; ++i) positional_names.insert(positionals.name_for_position(i));
        po::options_description shown("options");
        for (const auto& opt : options.options())
            if (!positional_names.count(opt->long_name())) shown.add(opt);
        std::cout << "usage: modkit " << prefix << " " << sub.synopsis << "\n\n" << sub.summary << "\n\n" << shown;
        if (const auto* examples = help_examples(prefix); examples && !examples->empty()) {
            std::cout << "\nexamples (in a folder where 'modkit sample game' wrote the sample games):\n";
            for (const auto& e : *examples) std::cout << "  " << e << "\n";
        }
        return 0;
    }
    Global global;
    global.json = vm.count("json") > 0;
    global.quiet = vm.count("quiet") > 0;
    global.threads = vm["threads"].as<unsigned>();
    try {
        return sub.run(vm, global);
    } catch (const std::filesystem::filesystem_error& e) {
        // A file-system failure the command did not turn into a mod::Error itself is still an
        // I/O error naming its path (exit 4), never an "internal error".
        throw mod::io_error(e);
    }
}
}  // namespace

void register_group(Group group) {
    // Several files may register subcommands of one group (e.g. `shred replace` lives beside
    // the FBX import code); their subcommands are merged, the first non-empty summary wins.
    auto [it, inserted] = registry().try_emplace(group.name, group);
    if (inserted) return;
    Group& existing = it->second;
    if (existing.summary.empty()) existing.summary = group.summary;
    existing.partial = existing.partial && group.partial;
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

void warn(const std::string& message) {
    std::fprintf(stderr, "modkit: warning: %s\n", mod::escape_controls(message).c_str());
}

void report_failure(const std::string& message) {
    std::fprintf(stderr, "modkit: %s\n", mod::escape_controls(message).c_str());
}

// ---- numbers ---------------------------------------------------------------------------------

namespace detail {

namespace {
std::string digits_problem(std::string_view text, std::uint64_t& out, std::uint64_t max, int base) {
    if (text.empty()) return "is not a number (no digits)";
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (ec == std::errc::result_out_of_range) return "is out of range (at most " + std::to_string(max) + ")";
    if (ec != std::errc() || end != text.data() + text.size())
        return base == 16 ? "is not a hexadecimal number" : "is not a whole number";
    if (v > max) return "is out of range (at most " + std::to_string(max) + ")";
    out = v;
    return {};
}
}  // namespace

std::string parse_number(std::string_view text, std::uint64_t& out, std::uint64_t max) {
    // from_chars itself refuses signs and spaces; a leading "0x" selects hex.
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        return digits_problem(text.substr(2), out, max, 16);
    return digits_problem(text, out, max, 10);
}

std::string parse_number(std::string_view text, std::int64_t& out, std::int64_t min, std::int64_t max) {
    const bool negative = !text.empty() && text[0] == '-';
    std::uint64_t magnitude = 0;
    const std::uint64_t limit = negative ? std::uint64_t(0) - std::uint64_t(min) : std::uint64_t(max);
    std::string why = digits_problem(negative ? text.substr(1) : text, magnitude, limit, 10);
    if (!why.empty()) {
        if (why.starts_with("is out of range"))
            return "is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")";
        return why;
    }
    out = negative ? std::int64_t(std::uint64_t(0) - magnitude) : std::int64_t(magnitude);
    return {};
}

std::string parse_number(std::string_view text, double& out, bool as_float) {
    // Decimal notation only: from_chars(general) accepts "nan" and "inf", refused below.
    double v = 0;
    std::string_view digits = text;
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);  // "+1.5" is a fine number
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, std::chars_format::general);
    if (digits.empty() || ec == std::errc::invalid_argument || end != digits.data() + digits.size())
        return "is not a number";
    if (ec == std::errc::result_out_of_range || !std::isfinite(v) ||
        (as_float && !std::isfinite(static_cast<float>(v))))
        return "is not a finite number";
    out = v;
    return {};
}

void bad_option_value(const std::string& token, const std::string& why) {
    // The token goes into the text itself: Boost fills in the option's name afterwards but not
    // always the value.
    throw po::error_with_option_name("the argument '" + token + "' for option '%canonical_option%' " + why);
}

}  // namespace detail

std::uint64_t parse_uint(std::string_view text, std::uint64_t max, const std::string& what) {
    std::uint64_t v = 0;
    std::string why = detail::parse_number(text, v, max);
    if (!why.empty()) usage_error(what + ": '" + std::string(text) + "' " + why);
    return v;
}

std::int64_t parse_int(std::string_view text, std::int64_t min, std::int64_t max, const std::string& what) {
    std::int64_t v = 0;
    std::string why = detail::parse_number(text, v, min, max);
    if (!why.empty()) usage_error(what + ": '" + std::string(text) + "' " + why);
    return v;
}

std::uint64_t parse_hex(std::string_view text, std::uint64_t max, const std::string& what) {
    std::uint64_t v = 0;
    std::string why = detail::digits_problem(text, v, max, 16);
    if (!why.empty()) usage_error(what + ": '" + std::string(text) + "' " + why);
    return v;
}

double parse_finite(std::string_view text, const std::string& what, bool as_float) {
    double v = 0;
    std::string why = detail::parse_number(text, v, as_float);
    if (!why.empty()) usage_error(what + ": '" + std::string(text) + "' " + why);
    return v;
}

// ---- palette slots and colours ----------------------------------------------------------------

namespace {
// `parse` with its usage error prefixed by the option's name.
template <class F>
auto naming_option(const std::string& name, F parse) {
    try {
        return parse();
    } catch (const mod::Error& e) {
        if (e.kind() != mod::ErrorKind::usage) throw;
        usage_error("--" + name + " " + e.message());
    }
}
}  // namespace

std::vector<unsigned> slot_list_option(const po::variables_map& vm, const std::string& name, unsigned max_slot) {
    std::vector<unsigned> out;
    if (!vm.count(name)) return out;
    for (const auto& item : vm[name].as<std::vector<std::string>>()) {
        auto part = naming_option(name, [&] { return mod::image::parse_slot_list(item, max_slot); });
        out.insert(out.end(), part.begin(), part.end());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<mod::image::SlotColour> slot_colour_option(const po::variables_map& vm, const std::string& name) {
    if (!vm.count(name)) usage_error("--" + name + " SLOT=RRGGBB[AA] is required");
    std::vector<mod::image::SlotColour> out;
    for (const auto& item : vm[name].as<std::vector<std::string>>())
        out.push_back(naming_option(name, [&] { return mod::image::parse_slot_colour(item); }));
    return out;
}

std::optional<mod::image::Rgba8> colour_option(const po::variables_map& vm, const std::string& name) {
    if (!vm.count(name)) return std::nullopt;
    return naming_option(name, [&] { return mod::image::parse_colour_text(vm[name].as<std::string>()); });
}

}  // namespace modkit
