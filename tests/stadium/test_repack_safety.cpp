// `stadium repack ROM DIR OUT` (issue 22): every file of the extraction folder is an input,
// and an entry file that is no longer what the entry was (a FRAGMENT) is refused before
// anything is written.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"

namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

struct Extracted {
    modtest::TempDir dir;
    fs::path rom, x;
    Extracted() : rom(dir / "in.z64"), x(dir / "x") {
        mod::write_file_atomic(rom, stadiumtest::sample_rom_bytes());
        auto r = run_cli({"stadium", "extract", rom.string(), x.string()});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_repack_safety)

BOOST_AUTO_TEST_CASE(the_index_and_entry_files_are_inputs) {
    Extracted e;
    const mod::Bytes index = mod::read_file(e.x / "index.json");
    const mod::Bytes entry = mod::read_file(e.x / "entries" / "003.fragment");
    fs::create_directory_symlink(e.x, e.dir / "alias");
    for (const fs::path& out : {e.x / "index.json", e.x / "entries" / "003.fragment", e.dir / "alias" / "index.json"}) {
        auto r = run_cli({"stadium", "repack", e.rom.string(), e.x.string(), out.string()});
        BOOST_TEST(r.exit_code == 3, out.string() + ": " + r.err);
        BOOST_TEST(r.err.find("of the input folder") != std::string::npos, r.err);
    }
    BOOST_TEST(mod::read_file(e.x / "index.json") == index);
    BOOST_TEST(mod::read_file(e.x / "entries" / "003.fragment") == entry);
    // A new file beside them is fine.
    auto r = run_cli({"stadium", "repack", e.rom.string(), e.x.string(), (e.x / "out.z64").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(mod::read_file(e.x / "out.z64") == stadiumtest::sample_rom_bytes());
}

BOOST_AUTO_TEST_CASE(an_entry_file_that_is_no_fragment_is_refused_and_nothing_is_written) {
    Extracted e;
    const fs::path frag = e.x / "entries" / "004.fragment";
    const mod::Bytes good = mod::read_file(frag);
    const fs::path out = e.dir / "out.z64";
    struct Case {
        std::string what;
        std::function<void()> damage;
    };
    const std::vector<Case> cases = {
        {"empty", [&] { mod::write_file_atomic(frag, mod::Bytes{}); }},
        {"truncated", [&] { mod::write_file_atomic(frag, mod::Bytes(good.begin(), good.begin() + 0x30)); }},
        {"index.json", [&] { mod::write_file_atomic(frag, mod::read_file(e.x / "index.json")); }},
    };
    for (const auto& c : cases) {
        c.damage();
        auto r = run_cli({"stadium", "repack", e.rom.string(), e.x.string(), out.string()});
        BOOST_TEST(r.exit_code == 2, c.what + ": " + r.err);
        BOOST_TEST(r.err.find(frag.string()) != std::string::npos, c.what + ": " + r.err);
        BOOST_TEST(r.err.find("archive[4].fragment") != std::string::npos, c.what + ": " + r.err);
        BOOST_TEST(r.err.find("entry 4 was a FRAGMENT and its file is not one, so nothing was written") !=
                       std::string::npos,
                   c.what + ": " + r.err);
        BOOST_TEST(!fs::exists(out), c.what);
    }
    // The index itself named as the entry's file.
    mod::write_file_atomic(frag, good);
    std::string text;
    {
        const mod::Bytes b = mod::read_file(e.x / "index.json");
        text.assign(b.begin(), b.end());
    }
    const std::string from = "\"entries/004.fragment\"";
    BOOST_REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), "\"index.json\"");
    mod::write_file_atomic(e.x / "index.json", std::string_view(text));
    auto r = run_cli({"stadium", "repack", e.rom.string(), e.x.string(), out.string()});
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.err.find((e.x / "index.json").string() + ":") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("archive[4].fragment") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(out));
}

BOOST_AUTO_TEST_SUITE_END()
