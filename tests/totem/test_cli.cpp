// modkit totem … end to end on the sample forge's archives (generated with `modkit sample`).
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/sample/totem.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/extract.hpp"

#include "libmod/core/rapidjson.hpp"

#include <fstream>

namespace fs = std::filesystem;

namespace {

const char* const seed_skin = "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN";
const char* const chum_skin = "DB:>SAMPLE>CHARACTERS>HERO>HERO_ALT.TSKIN";
const char* const plain_skin = "DB:>SAMPLE>PROPS>CRATE.TSKIN";

struct Sample {
    modtest::TempDir dir;
    fs::path dgc, ngc, dps, nps;
    Sample() {
        auto r = modtest::run_cli({"sample", dir.path().string(), "--game", "totem", "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        dgc = dir / "totem/SAMPLE.DGC";
        ngc = dir / "totem/SAMPLE.NGC";
        dps = dir / "totem/SAMPLE.DPS";
        nps = dir / "totem/SAMPLE.NPS";
    }
};

rapidjson::Document json(const std::string& s) {
    rapidjson::Document d;
    d.Parse(s.c_str());
    BOOST_REQUIRE_MESSAGE(!d.HasParseError(), s);
    return d;
}

std::string show_reading(const fs::path& data, const fs::path& names, const char* skin) {
    auto r = modtest::run_cli({"totem", "show", data.string(), names.string(), skin, "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto d = json(r.out);
    BOOST_TEST(d["round_trip"].GetBool());
    BOOST_TEST(d["findings"].Size() == 0u);
    return d["zero2_reading"].GetString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_cli)

BOOST_AUTO_TEST_CASE(list_detects_platform_and_byte_order) {
    Sample s;
    for (auto [data, order, platform] : {std::tuple{s.dgc, "big", "gamecube"}, std::tuple{s.dps, "little", "ps2"}}) {
        auto r = modtest::run_cli({"totem", "list", data.string(), "--json"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        auto d = json(r.out);
        BOOST_TEST(d["byte_order"].GetString() == std::string(order));
        BOOST_TEST(d["platform"].GetString() == std::string(platform));
        // Every record the forge writes for the platform (its BITMAP set differs by platform).
        const auto sample = mod::sample::totem_sample(std::string(platform) == "ps2" ? mod::totem::Platform::ps2 : mod::totem::Platform::gamecube);
        BOOST_TEST(d["records"].Size() == mod::totem::decode_archive(mod::ByteReader(sample.data, data == s.dgc ? mod::Endian::big : mod::Endian::little)).records.size());
        bool hash_shown = false;
        for (const auto& rec : d["records"].GetArray())
            if (rec["subtype"].GetString() == mod::totem::hash_text(mod::totem::name_id("SAMPLE_UNLISTED_GROUP")))
                hash_shown = true;
        BOOST_TEST(hash_shown);
    }
}

BOOST_AUTO_TEST_CASE(verify_and_show_report_each_skins_zero2_reading) {
    Sample s;
    for (auto [data, names] : {std::pair{s.dgc, s.ngc}, std::pair{s.dps, s.nps}}) {
        auto r = modtest::run_cli({"totem", "verify", data.string(), "--json"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.out + r.err);
        auto d = json(r.out);
        BOOST_TEST(d["archive_round_trip"].GetBool());
        BOOST_TEST(d["failures"].GetUint() == 0u);
        BOOST_TEST(d["mismatches"].GetUint() == 0u);
        BOOST_TEST(show_reading(data, names, seed_skin) == "seed");
        BOOST_TEST(show_reading(data, names, chum_skin) == "chum-world");
        BOOST_TEST(show_reading(data, names, plain_skin) == "no-anim-block");
    }
    auto r = modtest::run_cli({"totem", "show", s.dgc.string(), s.ngc.string(), "DB:>SAMPLE>CHARACTERS>HERO>HERO_BODY.TMESH", "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto d = json(r.out);
    BOOST_TEST(d["round_trip"].GetBool());
    BOOST_TEST(d["triangles"].GetUint() == 7u * 16u);
    BOOST_TEST(d["strip_groups"].GetBool());
}

BOOST_AUTO_TEST_CASE(extract_then_repack_unchanged_is_byte_identical) {
    Sample s;
    for (auto [data, names] : {std::pair{s.dgc, s.ngc}, std::pair{s.dps, s.nps}}) {
        const fs::path out = s.dir / ("x" + data.extension().string());
        auto r = modtest::run_cli({"totem", "extract", data.string(), names.string(), out.string()});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        BOOST_TEST(fs::exists(out / "index.json"));
        BOOST_TEST(fs::exists(out / "SAMPLE/CHARACTERS/HERO/HERO.TSKIN.SKIN"));
        const fs::path packed = s.dir / ("re" + data.extension().string());
        r = modtest::run_cli({"totem", "repack", data.string(), names.string(), out.string(), packed.string()});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        BOOST_TEST(mod::read_file(packed) == mod::read_file(data));
    }
}

BOOST_AUTO_TEST_CASE(repack_after_a_record_outgrows_the_chunk_size) {
    Sample s;
    const fs::path out = s.dir / "x";
    BOOST_REQUIRE(modtest::run_cli({"totem", "extract", s.dgc.string(), s.ngc.string(), out.string()}).exit_code == 0);
    // The BITMAP grows to 10000 bytes, more than the 0x2000 chunk size.
    auto bitmap = out / "SAMPLE/TEXTURES/HERO_DIFFUSE.TBITMAP.BITMAP";
    auto bytes = mod::read_file(bitmap);
    bytes.resize(10000, 0x77);
    mod::write_file_atomic(bitmap, bytes);
    const fs::path packed = s.dir / "grown.DGC";
    auto r = modtest::run_cli({"totem", "repack", s.dgc.string(), s.ngc.string(), out.string(), packed.string(), "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("chunk size grew") != std::string::npos);
    auto d = json(r.out);
    BOOST_TEST(d["chunk_size_grew"].GetBool());
    BOOST_TEST(d["new_chunk_size"].GetUint() == 0x2800u);
    const std::size_t records = mod::totem::decode_archive(mod::ByteReader(mod::read_file(s.dgc), mod::Endian::big)).records.size();
    BOOST_TEST(d["unchanged"].GetUint() == records - 1);
    r = modtest::run_cli({"totem", "verify", packed.string(), "--json"});
    BOOST_TEST(r.exit_code == 0);
    auto a = mod::read_file(packed);
    auto archive = mod::totem::decode_archive(mod::ByteReader(a, mod::Endian::big));
    BOOST_TEST(archive.chunk_size == 0x2800u);
    BOOST_TEST(archive.records.size() == records);
}

BOOST_AUTO_TEST_CASE(export_and_reweight_round_trip) {
    Sample s;
    const fs::path glb = s.dir / "hero.glb", out = s.dir / "RE.DGC";
    auto r = modtest::run_cli({"totem", "export", s.dgc.string(), s.ngc.string(), seed_skin, glb.string(), "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto d = json(r.out);
    BOOST_TEST(d["joints"].GetUint() == 5u);
    BOOST_TEST(std::string(d["bind_pose"].GetString()).find("no bind pose") != std::string::npos);
    r = modtest::run_cli({"totem", "reweight", s.dgc.string(), s.ngc.string(), seed_skin, glb.string(), out.string(), "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    d = json(r.out);
    BOOST_TEST(d["meshes"].Size() == 2u);
    for (const auto& m : d["meshes"].GetArray()) {
        BOOST_TEST(m["matched"].GetUint() == m["positions"].GetUint());
        BOOST_TEST(m["unmatched"].Size() == 0u);
        BOOST_TEST(m["findings"].Size() == 0u);
        // Issue 30 item 4: the export's n/255 weights are the stored ones, quantised: kept.
        BOOST_TEST(m["unchanged"].GetUint() == m["positions"].GetUint());
        BOOST_TEST(m["normalised"].GetUint() == 0u);
    }
    r = modtest::run_cli({"totem", "verify", out.string(), "--json"});
    BOOST_TEST(r.exit_code == 0);
    // An unedited round trip is a no-op, byte for byte (it rewrote 820 bytes before).
    BOOST_TEST((mod::read_file(out) == mod::read_file(s.dgc)));
}

// Issue 16: a model in another unit matched 0 positions, left the SKIN as it was and exited 0;
// reweight had no --units/--scale/--axis to fix it.
BOOST_AUTO_TEST_CASE(reweight_with_no_matched_position_fails_and_names_the_options_that_fix_it) {
    Sample s;
    const fs::path glb = s.dir / "hero.glb", out = s.dir / "RE.DGC";
    auto r = modtest::run_cli({"totem", "export", s.dgc.string(), s.ngc.string(), seed_skin, glb.string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"totem", "reweight", s.dgc.string(), s.ngc.string(), seed_skin, glb.string(), out.string(),
                          "--scale", "100"});
    BOOST_TEST(r.exit_code == 2, r.err);
    for (const char* word : {"--tolerance", "--units", "--scale", "--axis", "none of the 72 positions", "HERO_BODY"})
        BOOST_TEST(r.err.find(word) != std::string::npos, word << " in " << r.err);
    BOOST_TEST(!fs::exists(out));
    // The option that undoes the mistake: the same model scaled by 100 then by 0.01.
    r = modtest::run_cli({"totem", "reweight", s.dgc.string(), s.ngc.string(), seed_skin, glb.string(), out.string(),
                          "--scale", "1", "--units", "file", "--axis", "identity", "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(fs::exists(out));
    r = modtest::run_cli({"totem", "reweight", s.dgc.string(), s.ngc.string(), seed_skin, glb.string(),
                          (s.dir / "RE2.DGC").string(), "--units", "inches"});
    BOOST_TEST(r.exit_code == 1);
}

BOOST_AUTO_TEST_CASE(reweight_mesh_errors_name_the_name_typed) {
    Sample s;
    const fs::path glb = s.dir / "hero.glb", out = s.dir / "RE.DGC";
    auto r = modtest::run_cli({"totem", "export", s.dgc.string(), s.ngc.string(), seed_skin, glb.string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"totem", "reweight", s.dgc.string(), s.ngc.string(), seed_skin, glb.string(), out.string(),
                          "--mesh", "HERO_BODYY"});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(r.err.find("'HERO_BODYY'") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("HERO_BODY.TMESH") != std::string::npos, r.err);  // the targets it could be
    // A typed name that is a target works.
    r = modtest::run_cli({"totem", "reweight", s.dgc.string(), s.ngc.string(), seed_skin, glb.string(), out.string(),
                          "--mesh", "DB:>SAMPLE>CHARACTERS>HERO>HERO_HEAD.TMESH", "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(json(r.out)["meshes"].Size() == 1u);
}

BOOST_AUTO_TEST_CASE(corrupt_archive_fails_with_one_line_and_an_offset) {
    Sample s;
    auto bytes = mod::read_file(s.dgc);
    mod::endian::store_be32(&bytes[0x804], 0xFFFFFF);  // first record's size
    const fs::path bad = s.dir / "BAD.DGC";
    mod::write_file_atomic(bad, bytes);
    auto r = modtest::run_cli({"totem", "list", bad.string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find("offset 0x804") != std::string::npos);
    BOOST_TEST(r.err.find("dgc.chunk[0].record[0]") != std::string::npos);
    r = modtest::run_cli({"totem", "show", s.dgc.string(), s.ngc.string(), "NO SUCH RECORD"});
    BOOST_TEST(r.exit_code == 1);
    r = modtest::run_cli({"totem", "repack", s.dgc.string(), s.ngc.string(), (s.dir / "missing").string(), s.dgc.string()});
    BOOST_TEST(r.exit_code == 4);
}

BOOST_AUTO_TEST_SUITE_END()
