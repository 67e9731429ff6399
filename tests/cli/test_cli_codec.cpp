// The CLI contract on the codec commands: exit codes, one-line errors, --json, atomic output.
#include "libmod/core/file.hpp"

#include "test_support.hpp"

#include "libmod/core/rapidjson.hpp"

using modtest::run_cli;

BOOST_AUTO_TEST_SUITE(cli_codec)

BOOST_AUTO_TEST_CASE(compress_decompress_round_trip_through_the_cli) {
    modtest::TempDir dir;
    auto in = modtest::corpus("yay0/ld_font.sprite");
    auto r = run_cli({"yay0", "compress", in.string(), (dir / "f.yay0").string(), "--mode", "nintendo"});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(modtest::read(dir / "f.yay0") == modtest::read(modtest::corpus("yay0/nintendo-parse/ld_font.sprite.yay0")));
    r = run_cli({"yay0", "decompress", (dir / "f.yay0").string(), (dir / "f.bin").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(modtest::read(dir / "f.bin") == modtest::read(in));
}

BOOST_AUTO_TEST_CASE(szp_pack_info_unpack_with_json) {
    modtest::TempDir dir;
    auto in = modtest::corpus("yay0/ld_mario16.sprite");
    BOOST_TEST(run_cli({"szp", "pack", in.string(), (dir / "m.szp").string(), "--mode", "best", "-q"}).exit_code == 0);
    auto r = run_cli({"szp", "info", (dir / "m.szp").string(), "--json"});
    BOOST_TEST(r.exit_code == 0, r.err);
    rapidjson::Document doc;
    doc.Parse(r.out.c_str());
    BOOST_REQUIRE(!doc.HasParseError());
    BOOST_TEST(doc["header_size"].GetUint() == 0x18u);
    BOOST_TEST(doc["size2"].GetUint() == modtest::read(in).size());
    BOOST_TEST(doc["fixups"].GetArray().Size() == 0u);
    BOOST_TEST(run_cli({"szp", "unpack", (dir / "m.szp").string(), (dir / "m.bin").string()}).exit_code == 0);
    BOOST_TEST(modtest::read(dir / "m.bin") == modtest::read(in));
}

BOOST_AUTO_TEST_CASE(exit_codes_and_single_line_errors) {
    modtest::TempDir dir;
    auto r = run_cli({"no-such-group"});
    BOOST_TEST(r.exit_code == 1);
    r = run_cli({"yay0", "compress"});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(r.err.find("missing argument") != std::string::npos);

    mod::write_file_atomic(dir / "junk.yay0", std::string_view("Yay0\x00\x00\x00\x10\x00\x00\x00\x10\x00\x00\x00\x10", 16));
    r = run_cli({"yay0", "decompress", (dir / "junk.yay0").string(), (dir / "out").string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
    BOOST_TEST(r.err.find("junk.yay0: offset 0x10: yay0.mask[0]:") != std::string::npos, r.err);
    BOOST_TEST(!modtest::fs::exists(dir / "out"), "no output on failure");

    r = run_cli({"yay0", "decompress", (dir / "missing").string(), (dir / "out").string()});
    BOOST_TEST(r.exit_code == 4);

    auto copy = dir / "in.bin";
    mod::write_file_atomic(copy, modtest::read(modtest::corpus("yay0/ld_mario16.sprite")));
    r = run_cli({"yay0", "compress", copy.string(), copy.string()});
    BOOST_TEST(r.exit_code == 3, "writing over the input is a conflict");
    BOOST_TEST(modtest::read(copy) == modtest::read(modtest::corpus("yay0/ld_mario16.sprite")));

    r = run_cli({"yay0", "compress", copy.string(), (dir / "o").string(), "--mode", "fastest"});
    BOOST_TEST(r.exit_code == 1);
}

BOOST_AUTO_TEST_CASE(help_is_available_everywhere) {
    BOOST_TEST(run_cli({"--help"}).exit_code == 0);
    for (const char* group : {"yay0", "szp", "sample", "demo"}) {
        auto r = run_cli({group, "--help"});
        BOOST_TEST(r.exit_code == 0, group);
        BOOST_TEST(r.out.find("usage: modkit") != std::string::npos, group);
    }
    BOOST_TEST(run_cli({"yay0", "compress", "--help"}).out.find("--mode") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
