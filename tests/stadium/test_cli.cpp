// modkit stadium list / extract / repack / verify / fragment check, through the executable.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/n64/rom.hpp"

#include "libmod/core/rapidjson.hpp"

namespace fs = std::filesystem;
using modtest::run_cli;

BOOST_AUTO_TEST_SUITE(stadium_cli)

BOOST_AUTO_TEST_CASE(list_reports_every_entry_as_json) {
    auto r = run_cli({"stadium", "list", stadiumtest::sample_rom().string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    BOOST_TEST_REQUIRE(d.IsObject());
    BOOST_TEST(d["fragment_id"].GetUint() == 0xEFu);
    const auto& e = d["entries"];
    BOOST_TEST_REQUIRE(e.Size() == 14u);
    BOOST_TEST(std::string(e[0]["kind"].GetString()) == "pers-szp");
    BOOST_TEST(std::string(e[12]["kind"].GetString()) == "fragment");
    BOOST_TEST(e[3]["model_id"].GetUint() == 4u);
    BOOST_TEST(e[3]["root"]["model_id"].GetUint() == 4u);
    BOOST_TEST(e[3]["relocations"].GetUint() > 3u);
    BOOST_TEST(e[3]["root"]["textures"].GetUint() >= 2u);
}

BOOST_AUTO_TEST_CASE(extract_edit_repack_in_the_input_byte_order) {
    modtest::TempDir dir;
    // A v64 copy of the sample: output must come back in v64.
    const mod::Bytes v64 = mod::n64::from_z64(stadiumtest::sample_rom_bytes(), mod::n64::ByteOrder::v64);
    const fs::path in = dir / "sample.v64";
    mod::write_file_atomic(in, v64);
    auto r = run_cli({"stadium", "extract", in.string(), (dir / "x").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(fs::exists(dir / "x" / "index.json"));
    r = run_cli({"stadium", "repack", in.string(), (dir / "x").string(), (dir / "same.v64").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(mod::read_file(dir / "same.v64") == v64);
    // Edit one fragment: flip a texel byte (the last bytes of the body are texels).
    const fs::path frag = dir / "x" / "entries" / "002.fragment";
    mod::Bytes f = mod::read_file(frag);
    const std::uint32_t reloc = mod::endian::load_be32(&f[0x14]);
    f[reloc - 20] ^= 0x5A;
    mod::write_file_atomic(frag, f);
    r = run_cli({"stadium", "repack", in.string(), (dir / "x").string(), (dir / "edited.v64").string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"reencoded\": 1") != std::string::npos);
    mod::Bytes edited = mod::read_file(dir / "edited.v64");
    BOOST_TEST(edited.size() == v64.size());
    BOOST_TEST((edited[0] == 0x37 && edited[1] == 0x80));
    // The edited ROM verifies and extracts the edited fragment back.
    r = run_cli({"stadium", "verify", (dir / "edited.v64").string()});
    BOOST_TEST(r.exit_code == 0, r.out + r.err);
    r = run_cli({"stadium", "extract", (dir / "edited.v64").string(), (dir / "y").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(mod::read_file(dir / "y" / "entries" / "002.fragment") == f);
    // The repacked output never overwrites its input.
    r = run_cli({"stadium", "repack", in.string(), (dir / "x").string(), in.string()});
    BOOST_TEST(r.exit_code == 3);
}

BOOST_AUTO_TEST_CASE(verify_proves_identity_and_counts_matching_streams) {
    auto r = run_cli({"stadium", "verify", stadiumtest::sample_rom().string(), "--json"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    BOOST_TEST_REQUIRE(d.IsObject());
    BOOST_TEST(d["rom_identical"].GetBool());
    BOOST_TEST(d["ok"].GetBool());
    BOOST_TEST(d["nintendo_matches"].GetUint() == 13u);
    BOOST_TEST(d["crosscheck_ok"].GetUint() == 14u);
}

BOOST_AUTO_TEST_CASE(fragment_check_reports_mismatches_with_offsets) {
    modtest::TempDir dir;
    auto r = run_cli({"stadium", "extract", stadiumtest::sample_rom().string(), dir.path().string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const fs::path frag = dir / "entries" / "001.fragment";
    r = run_cli({"stadium", "fragment", "check", frag.string()});
    BOOST_TEST(r.exit_code == 0, r.out + r.err);
    // Drop the last relocation entry (an R_MIPS_32): the check names the word it covered.
    mod::Bytes f = mod::read_file(frag);
    const std::uint32_t table = mod::endian::load_be32(&f[0x14]);
    const std::uint32_t count = mod::endian::load_be32(&f[table]);
    const std::uint32_t last = mod::endian::load_be32(&f[table + 4 * count]) & 0xFFFFFF;
    mod::endian::store_be32(&f[table], count - 1);
    const fs::path broken = dir / "broken.fragment";
    mod::write_file_atomic(broken, f);
    r = run_cli({"stadium", "fragment", "check", broken.string()});
    BOOST_TEST(r.exit_code == 3);
    char want[32];
    std::snprintf(want, sizeof want, "0x%X", last);
    BOOST_TEST(r.out.find(std::string("missing relocation: word at ") + want) != std::string::npos, r.out);
    // Garbage is a clean format error.
    mod::write_file_atomic(dir / "junk", std::string_view("not a fragment at all"));
    r = run_cli({"stadium", "fragment", "check", (dir / "junk").string()});
    BOOST_TEST(r.exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
