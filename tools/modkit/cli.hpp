#pragma once
// The modkit command-line framework. Each command group (yay0, szp, rom, stadium, shred,
// totem, sample, …) lives in its own file and registers itself with a static Registrar, so
// adding a group never touches main.cpp. Groups use only libmod's public headers.
//
// Conventions every command follows:
//  * `modkit GROUP --help` and `modkit GROUP SUB --help` print usage and exit 0.
//  * Results go to stdout; `--json` switches a reporting command to one JSON document.
//  * Progress and warnings go to stderr; `--quiet` silences progress.
//  * Failures print exactly one line "modkit: <file>: offset 0x…: <path>: <message>" and exit
//    with mod::exit_code(kind): 0 ok, 1 usage, 2 invalid input, 3 limit/conflict, 4 I/O.

#include "libmod/core/error.hpp"

#include <boost/program_options.hpp>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace modkit {

namespace po = boost::program_options;

// Options every command understands.
struct Global {
    bool json = false;
    bool quiet = false;
    unsigned threads = 0;  // 0 = all cores
};

struct Subcommand {
    std::string name;
    std::string synopsis;  // "IN OUT [--mode nintendo|best]"
    std::string summary;   // one line
    // Declares options and positionals; may be empty.
    std::function<void(po::options_description&, po::positional_options_description&)> declare;
    std::function<int(const po::variables_map&, const Global&)> run;
};

struct Group {
    std::string name;
    std::string summary;
    std::vector<Subcommand> subcommands;
    // A group with a single action and no subcommands sets `single` instead.
    bool single = false;
};

void register_group(Group group);
const std::map<std::string, Group>& groups();

struct Registrar {
    explicit Registrar(Group group) { register_group(std::move(group)); }
};

// Runs `modkit GROUP ARGS…` (args exclude the program and group names).
int run_group(const Group& group, const std::vector<std::string>& args);

// Helpers for command bodies.
// Required positional argument (usage error naming it when missing).
std::string required(const po::variables_map& vm, const std::string& name);
std::vector<std::string> required_list(const po::variables_map& vm, const std::string& name);
[[noreturn]] void usage_error(const std::string& message);
// Warnings go to stderr as "modkit: warning: …".
void warn(const std::string& message);

}  // namespace modkit
