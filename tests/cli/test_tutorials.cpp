// doc/tutorials/: every tutorial's ```sh blocks, run in order in a fresh folder with the built
// modkit first on PATH, succeed (a tutorial that drifts from the CLI fails here).
#include "test_support.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

fs::path modkit_binary() {
    const char* cli = std::getenv("MODKIT_CLI");
    return cli ? fs::path(cli) : fs::path(MODKIT_BINARY_DIR) / "modkit";
}

// The contents of every ```sh fenced block, in order.
std::string shell_blocks(const fs::path& md) {
    std::ifstream in(md);
    std::string line, script;
    bool inside = false;
    while (std::getline(in, line)) {
        if (!inside && line.rfind("```sh", 0) == 0) inside = true;
        else if (inside && line.rfind("```", 0) == 0) inside = false;
        else if (inside) script += line + "\n";
    }
    return script;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tutorials)

BOOST_AUTO_TEST_CASE(every_tutorial_runs_on_the_sample_data) {
    std::size_t count = 0;
    for (const auto& e : fs::directory_iterator(fs::path(MODKIT_SOURCE_DIR) / "doc" / "tutorials")) {
        if (e.path().extension() != ".md") continue;
        ++count;
        const std::string script = shell_blocks(e.path());
        BOOST_TEST_INFO(e.path().filename().string());
        BOOST_REQUIRE(script.find("modkit ") != std::string::npos);
        modtest::TempDir dir;
        std::ofstream(dir / "tutorial.sh") << "set -eu\n" << script;
        const std::string cmd = "cd '" + dir.path().string() + "' && PATH='" +
                                fs::absolute(modkit_binary()).parent_path().string() +
                                "':\"$PATH\" bash tutorial.sh > tutorial.log 2>&1";
        const int status = std::system(cmd.c_str());
        std::ifstream log(dir / "tutorial.log");
        const std::string output((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
        BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0),
                   e.path().filename().string() << " failed:\n" << output);
    }
    BOOST_TEST(count >= 4u);
}

BOOST_AUTO_TEST_SUITE_END()
