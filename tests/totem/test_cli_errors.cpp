// Issue 22 on the totem commands: an archive without records still extracts (an empty folder
// with its index.json), and `totem verify` says on stderr which record failed and why.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/verify.hpp"

namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

struct Sample {
    modtest::TempDir dir;
    fs::path dgc, ngc;
    Sample() {
        auto r = run_cli({"sample", dir.path().string(), "--game", "totem", "--quiet"});
        BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        dgc = dir / "totem/SAMPLE.DGC";
        ngc = dir / "totem/SAMPLE.NGC";
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(totem_cli_errors)

BOOST_AUTO_TEST_CASE(an_archive_without_records_extracts_to_a_folder_with_its_index) {
    Sample s;
    mod::totem::Archive empty;
    mod::write_file_atomic(s.dir / "EMPTY.DGC", mod::totem::encode_archive(empty));
    const fs::path out = s.dir / "x";
    auto r = run_cli({"totem", "extract", (s.dir / "EMPTY.DGC").string(), s.ngc.string(), out.string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(fs::is_directory(out));
    BOOST_TEST(fs::exists(out / "index.json"));
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(out)) ++files;
    BOOST_TEST(files == 1u);
    // …and repacks to the same bytes.
    r = run_cli({"totem", "repack", (s.dir / "EMPTY.DGC").string(), s.ngc.string(), out.string(),
                 (s.dir / "RE.DGC").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(modtest::read(s.dir / "RE.DGC") == modtest::read(s.dir / "EMPTY.DGC"));
}

BOOST_AUTO_TEST_CASE(verify_names_the_failed_record_on_stderr) {
    Sample s;
    mod::Bytes data = modtest::read(s.dgc);
    const auto archive = mod::totem::decode_archive(mod::ByteReader(data, mod::Endian::big, s.dgc.string(), "dgc"));
    std::size_t skin = archive.records.size();
    for (std::size_t i = 0; i < archive.records.size(); ++i)
        if (mod::totem::record_kind(archive.records[i]) == mod::totem::RecordKind::skin) {
            skin = i;
            break;
        }
    BOOST_REQUIRE(skin < archive.records.size());
    const auto& rec = archive.records[skin];
    // The payload (after the 16-byte record header) made all 0xFF: no longer a SKIN.
    std::fill_n(data.begin() + static_cast<std::ptrdiff_t>(rec.offset + mod::totem::record_header_size), rec.payload.size(),
                std::uint8_t(0xFF));
    mod::write_file_atomic(s.dir / "BAD.DGC", data);
    mod::write_file_atomic(s.dir / "BAD.NGC", modtest::read(s.ngc));
    auto r = run_cli({"totem", "verify", (s.dir / "BAD.DGC").string(), (s.dir / "BAD.NGC").string()});
    BOOST_TEST(r.exit_code == 2, r.err);
    const std::string expected_record = "(record " + std::to_string(skin) + " '";
    BOOST_TEST(r.err.find("modkit: " + (s.dir / "BAD.DGC").string() + ": offset ") == 0u, r.err);
    BOOST_TEST(r.err.find(expected_record) != std::string::npos, r.err);
    BOOST_TEST(r.err.find("dgc.record[" + std::to_string(skin) + "]") != std::string::npos, r.err);
    // --json too: the reason is on stderr, the report on stdout.
    r = run_cli({"totem", "verify", (s.dir / "BAD.DGC").string(), (s.dir / "BAD.NGC").string(), "--json"});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find(expected_record) != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
