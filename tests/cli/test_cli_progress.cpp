// Progress lines: shown on a terminal (stderr), never when stderr is not one. The terminal is a
// pseudo-terminal made by util-linux's `script`.
#include "test_support.hpp"

#include "libmod/codec/yay0.hpp"

#include <cstdlib>
#include <fstream>

namespace fs = std::filesystem;

namespace {

fs::path modkit_binary() {
    const char* cli = std::getenv("MODKIT_CLI");
    return cli ? fs::path(cli) : fs::path(MODKIT_BINARY_DIR) / "modkit";
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_progress)

BOOST_AUTO_TEST_CASE(yay0_best_shows_progress_on_a_terminal_only) {
    if (std::system("command -v script > /dev/null 2>&1") != 0) {
        BOOST_TEST_MESSAGE("util-linux `script` is not installed: the terminal case is skipped");
        return;
    }
    modtest::TempDir dir;
    mod::Bytes data(1 << 20);
    modtest::Rng rng(7);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(rng.below(4) * 17 + (i / 4096) % 3);
    std::ofstream(dir / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    const std::string cmd = "'" + modkit_binary().string() + "' yay0 compress '" + (dir / "in.bin").string() + "' '" +
                            (dir / "out.yay0").string() + "' --mode best";
    // On a terminal: the progress line names the mode.
    const std::string tty = "script -qec \"" + cmd + "\" /dev/null > '" + (dir / "tty.log").string() + "' 2>&1";
    BOOST_REQUIRE_EQUAL(std::system(tty.c_str()), 0);
    BOOST_TEST(read_text(dir / "tty.log").find("yay0 best") != std::string::npos, read_text(dir / "tty.log"));
    const mod::Bytes first = modtest::read(dir / "out.yay0");
    // Not a terminal: nothing but the result line, and the same bytes.
    const std::string plain = cmd + " 2> '" + (dir / "err.log").string() + "' > /dev/null";
    BOOST_REQUIRE_EQUAL(std::system(plain.c_str()), 0);
    BOOST_TEST(read_text(dir / "err.log").empty());
    BOOST_TEST((modtest::read(dir / "out.yay0") == first));
    BOOST_TEST((mod::yay0::decode(first) == data));
}

BOOST_AUTO_TEST_SUITE_END()
