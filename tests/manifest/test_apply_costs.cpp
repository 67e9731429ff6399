// Issue 31: what a run need not compute is left out, and the bytes stay the same. `-q` without
// a report (ApplyOptions::digests = false) hashes neither input nor output; a run that never
// reads the base bytes again (no patch, no report, or a dry run) edits the read buffer itself;
// the hashes a manifest declares are found in the digest cache by the file's stamp, and a
// rewritten file is hashed again.
#include "test_support.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/core/digest_cache.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/manifest/apply.hpp"
#include "libmod/sample/stadium.hpp"

#include <cstdlib>
#include <fstream>

using namespace mod::manifest;
namespace fs = std::filesystem;

namespace {

const mod::Bytes& costs_rom() {
    static const mod::Bytes rom = mod::sample::stadium_rom();
    return rom;
}

void put_text(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

// A recolour of sample models 1 and 2 (two edits), with `outputs` as given.
std::string costs_manifest(const std::string& outputs, const std::string& input_extra = "") {
    return R"({"modkit": 1, "name": "costs", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": "base/stadium.z64")" + input_extra + R"(}},
 "outputs": {"rom": "out/mod.z64")" + outputs + R"(},
 "edits": [{"id": "a", "op": "palette.hsv", "model": 1, "palette": 0, "hue": 90},
           {"id": "b", "op": "palette.set", "model": 2, "palette": 0, "colours": {"3": "FF0000"}}]})";
}

struct CostMod {
    modtest::TempDir tmp;
    CostMod() { mod::write_file_atomic(tmp / "base/stadium.z64", costs_rom()); }
    ApplyResult run(const std::string& text, ApplyOptions o = {}) const {
        put_text(tmp / "mod.json", text);
        o.quiet = true;
        const std::vector<fs::path> files{tmp / "mod.json"};
        return apply_manifests(load_manifests(files), o);
    }
    mod::Bytes output() const { return mod::read_file(tmp / "out/mod.z64"); }
};

// MODKIT_CACHE_DIR for one test, put back afterwards.
struct CacheDir {
    std::optional<std::string> kept;
    explicit CacheDir(const fs::path& dir) {
        if (const char* d = std::getenv("MODKIT_CACHE_DIR")) kept = d;
        ::setenv("MODKIT_CACHE_DIR", dir.c_str(), 1);
        ::unsetenv("MODKIT_DIGEST_CACHE");
    }
    ~CacheDir() {
        if (kept) ::setenv("MODKIT_CACHE_DIR", kept->c_str(), 1);
        else ::unsetenv("MODKIT_CACHE_DIR");
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(apply_costs)

BOOST_AUTO_TEST_CASE(without_digests_the_output_is_the_same_and_nothing_is_hashed_for_show) {
    CostMod m;
    const auto full = m.run(costs_manifest(""));
    const mod::Bytes with = m.output();
    BOOST_TEST(!full.report_json.empty());
    BOOST_REQUIRE(full.plan.files.size() == 1u);
    BOOST_TEST(full.plan.files[0].sha1 == mod::to_hex(mod::sha1(costs_rom())));
    BOOST_REQUIRE(full.written.size() == 1u);
    BOOST_TEST(full.written[0].sha1 == mod::to_hex(mod::sha1(with)));
    fs::remove_all(m.tmp / "out");

    ApplyOptions lean;
    lean.digests = false;
    const auto bare = m.run(costs_manifest(""), lean);
    BOOST_TEST(m.output() == with, "the same bytes with and without digests");
    BOOST_TEST(bare.report_json.empty());
    BOOST_TEST(bare.plan.files[0].sha1.empty());
    BOOST_TEST(bare.plan.files[0].crc32.empty());
    BOOST_REQUIRE(bare.written.size() == 1u);
    BOOST_TEST(bare.written[0].path == full.written[0].path);
    BOOST_TEST(bare.written[0].size == with.size());
    BOOST_TEST(bare.written[0].sha1.empty());
    BOOST_TEST(bare.warnings == full.warnings);
    BOOST_TEST(bare.plan.edits.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_report_folder_gets_its_report_and_digests_without_them_too) {
    CostMod m;
    ApplyOptions lean;
    lean.digests = false;
    const auto r = m.run(costs_manifest(R"(, "report": "out/report")"), lean);
    BOOST_TEST(!r.report_json.empty());
    BOOST_TEST(fs::exists(m.tmp / "out/report/report.json"));
    BOOST_TEST(r.plan.files[0].sha1 == mod::to_hex(mod::sha1(costs_rom())));
    BOOST_TEST(r.report_json.find(mod::to_hex(mod::sha1(m.output()))) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_output_is_the_same_whether_the_base_is_read_again_or_not) {
    // With a patch the base bytes are kept beside the workspace; without one the read buffer is
    // the workspace. The outputs must agree, and the patch must make that output from the base.
    CostMod m;
    m.run(costs_manifest(R"(, "patches": ["bps"])"));
    const mod::Bytes with_patch = m.output();
    const mod::Bytes patch = mod::read_file(m.tmp / "out/mod.z64.bps");
    fs::remove_all(m.tmp / "out");
    ApplyOptions lean;
    lean.digests = false;
    m.run(costs_manifest(""), lean);
    BOOST_TEST(m.output() == with_patch);
    BOOST_TEST(mod::bps::apply(patch, costs_rom()) == with_patch);
    BOOST_TEST(with_patch != costs_rom());
    BOOST_TEST(mod::read_file(m.tmp / "base/stadium.z64") == costs_rom(), "the input is untouched");
    // A dry run edits the read buffer too, and writes nothing.
    fs::remove_all(m.tmp / "out");
    ApplyOptions dry = lean;
    dry.dry_run = true;
    const auto d = m.run(costs_manifest(""), dry);
    BOOST_TEST(d.plan.edits.size() == 2u);
    BOOST_TEST(!fs::exists(m.tmp / "out"));
}

BOOST_AUTO_TEST_CASE(a_declared_hash_is_taken_from_the_digest_cache_until_the_file_is_rewritten) {
    CostMod m;
    CacheDir cache_dir(m.tmp / "cache");
    const fs::path base = m.tmp / "base/stadium.z64";
    const std::string md5 = mod::to_hex(mod::md5(costs_rom()));
    const std::string wrong = std::string(32, '0');
    // Plant a wrong digest under the base file's stamp, as if hashed long after its last change.
    const auto stamp = mod::file_stamp(base);
    BOOST_REQUIRE(stamp);
    {
        mod::DigestCache planted(mod::DigestCache::user_file());
        BOOST_REQUIRE(planted.remember(*stamp, "md5", wrong, stamp->ctime_ns + 10'000'000'000));
        planted.save();
    }
    const std::string text = costs_manifest("", R"(, "md5": ")" + md5 + "\"");
    try {
        m.run(text);
        BOOST_FAIL("the planted digest was not used");
    } catch (const ManifestError& e) {
        BOOST_REQUIRE(!e.diagnostics().empty());
        const std::string said = e.diagnostics().front().text();
        BOOST_TEST(said.find(wrong) != std::string::npos, said);
    }
    // The same bytes written again: a new stamp, so the file is hashed and accepted.
    struct timespec spin {0, 20 * 1000 * 1000};
    ::nanosleep(&spin, nullptr);
    mod::write_file_atomic(base, costs_rom());
    BOOST_TEST(m.run(text).plan.edits.size() == 2u);
    BOOST_TEST(fs::exists(m.tmp / "out/mod.z64"));
    // A file just written is too young to be stored: the cache still holds only the planted entry.
    mod::DigestCache after(mod::DigestCache::user_file());
    BOOST_TEST(after.size() == 1u);
    BOOST_TEST(!after.find(*mod::file_stamp(base), "md5"));
}

BOOST_AUTO_TEST_SUITE_END()
