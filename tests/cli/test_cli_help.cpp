// Issue 16, "Help and small things a new user trips on": every --help ends with examples that
// run as written on the sample games (this test runs every one), option lists leave out the
// positional arguments, `modkit help GROUP [SUB]`, `modkit --version`, output folders made.
#include "test_support.hpp"

#include "libmod/core/file.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

fs::path modkit_path() {
    const char* exe = std::getenv("MODKIT_CLI");
    return exe ? fs::path(exe) : fs::path(MODKIT_BINARY_DIR) / "modkit";
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// "group" for single-action groups, "group sub" for the others, in help order.
std::vector<std::string> every_command() {
    std::vector<std::string> out;
    const auto overview = modtest::run_cli({"--help"});
    bool in_groups = false;
    for (const auto& line : lines_of(overview.out)) {
        if (line == "groups:") {
            in_groups = true;
            continue;
        }
        if (!in_groups) continue;
        if (line.empty()) break;
        const std::string group = line.substr(2, line.find(' ', 2) - 2);
        const auto help = modtest::run_cli({group, "--help"});
        BOOST_TEST(help.exit_code == 0, group);
        if (help.out.rfind("usage: modkit " + group + " SUBCOMMAND", 0) != 0) {
            out.push_back(group);
            continue;
        }
        bool in_subs = false;
        for (const auto& l : lines_of(help.out)) {
            if (l == "subcommands:") in_subs = true;
            else if (in_subs && l.empty()) break;
            else if (in_subs && l.size() > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ')
                out.push_back(group + " " + l.substr(2, l.find(' ', 2) - 2));
        }
    }
    return out;
}

// The example lines at the end of a --help text.
std::vector<std::string> examples_in(const std::string& help) {
    std::vector<std::string> out;
    bool in = false;
    for (const auto& l : lines_of(help)) {
        if (l.rfind("examples", 0) == 0) in = true;
        else if (in && l.rfind("  ", 0) == 0) out.push_back(l.substr(2));
    }
    return out;
}

int run_shell(const fs::path& dir, const std::string& script, std::string& output) {
    std::ofstream(dir / "example.sh") << "set -e\n" << script;
    const std::string cmd = "cd '" + dir.string() + "' && PATH='" + fs::absolute(modkit_path()).parent_path().string() +
                            "':\"$PATH\" bash example.sh > example.log 2>&1";
    const int status = std::system(cmd.c_str());
    std::ifstream log(dir / "example.log");
    output.assign(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_help)

BOOST_AUTO_TEST_CASE(version_and_help_group) {
    auto r = modtest::run_cli({"--version"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.rfind("modkit ", 0) == 0u);
    BOOST_TEST(r.out.find('.') != std::string::npos, r.out);
    // `modkit help GROUP` used to print the overview, ignoring GROUP.
    r = modtest::run_cli({"help", "totem"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out == modtest::run_cli({"totem", "--help"}).out);
    r = modtest::run_cli({"help", "totem", "reweight"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("--tolerance") != std::string::npos, r.out);
    r = modtest::run_cli({"help", "nope"});
    BOOST_TEST(r.exit_code == 1);
}

BOOST_AUTO_TEST_CASE(option_lists_leave_out_positional_arguments_and_say_what_choices_do) {
    auto r = modtest::run_cli({"yay0", "compress", "--help"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("--in ") == std::string::npos, r.out);
    BOOST_TEST(r.out.find("--out ") == std::string::npos, r.out);
    BOOST_TEST(r.out.find("--mode") != std::string::npos);
    r = modtest::run_cli({"shred", "export", "--help"});
    BOOST_TEST(r.out.find("--args") == std::string::npos, r.out);
    r = modtest::run_cli({"stadium", "texture", "--help"});
    for (const char* mode : {"auto:", "reindex:", "constrained:", "fork:", "shared:"})
        BOOST_TEST(r.out.find(mode) != std::string::npos, mode);
}

// Every --help ends with examples of that very command, and every example runs as written on
// the sample games (they are what a new user copies first).
BOOST_AUTO_TEST_CASE(every_help_ends_with_examples_that_run_on_the_sample_games) {
    modtest::TempDir dir;
    auto r = modtest::run_cli({"sample", (dir / "game").string(), "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto commands = every_command();
    BOOST_TEST(commands.size() >= 40u);
    for (const auto& command : commands) {
        std::vector<std::string> args;
        std::istringstream words(command);
        for (std::string w; words >> w;) args.push_back(w);
        args.push_back("--help");
        const auto help = modtest::run_cli(args);
        BOOST_TEST(help.exit_code == 0, command);
        const auto examples = examples_in(help.out);
        BOOST_TEST((examples.size() >= 1 && examples.size() <= 2), command << ": " << examples.size() << " examples");
        bool names_itself = false;
        std::string script;
        for (const auto& e : examples) {
            names_itself |= e.find("modkit " + command) != std::string::npos;
            script += e + "\n";
        }
        BOOST_TEST(names_itself, command << "'s examples do not show it");
        std::string output;
        const int code = run_shell(dir.path(), script, output);
        BOOST_TEST(code == 0, command << ": examples failed (exit " << code << "):\n" << script << output);
    }
}

BOOST_AUTO_TEST_CASE(output_folders_are_created_when_missing) {
    modtest::TempDir dir;
    auto r = modtest::run_cli({"sample", (dir / "game").string(), "--game", "totem", "--quiet"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"yay0", "compress", (dir / "game/totem/SAMPLE.NGC").string(), (dir / "new/sub/n.yay0").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(fs::exists(dir / "new/sub/n.yay0"));
}

BOOST_AUTO_TEST_SUITE_END()
