// `shred pak extract` / `shred pak repack` (issue 22): PAKs may repeat entry names; extraction
// gives every entry a file of its own and index.json maps them back, so an unedited round trip
// is byte-identical. The extraction folder's files are inputs of the repack.
#include "libmod/core/file.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/pak_extract.hpp"

#include "test_support.hpp"

using namespace mod;
namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

Bytes bytes_of(std::string_view s) { return Bytes(s.begin(), s.end()); }

// Names that collide once on disk: exact repeats, another spelling of one path, a name that is
// another's folder, a name below another's file, and the index's own name.
Bytes colliding_pak() {
    std::vector<shred::PakBuildEntry> e = {
        {"skater01.mmp", 0x11, 1, 2, bytes_of("first skater01.mmp")},
        {"skater01.mmp", 0x22, 3, 4, bytes_of("second skater01.mmp, longer")},
        {"dir\\a.bin", 0x33, 0, 0, bytes_of("dir a")},
        {"dir/./a.bin", 0x44, 0, 0, bytes_of("dir a again")},
        {"dir", 0x55, 0, 0, bytes_of("a file named like the folder")},
        {"top.bin", 0x66, 0, 0, bytes_of("top")},
        {"top.bin/below", 0x77, 0, 0, bytes_of("below a file")},
        {"index.json", 0x88, 0, 0, bytes_of("not our index")},
        {"skater01.mmp", 0x99, 5, 6, bytes_of("third")},
    };
    return shred::build_pak(e, 1, 2, 16);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pak_extract)

BOOST_AUTO_TEST_CASE(every_entry_gets_a_file_of_its_own) {
    const auto pak = shred::read_pak(colliding_pak(), "c.pak");
    const auto files = shred::pak_extract_files(pak);
    const std::vector<std::string> want = {"skater01.mmp", "skater01.mmp~1", "dir/a.bin",     "dir/a.bin~1",
                                           "dir~1",        "top.bin",        "top.bin_below", "index.json~1",
                                           "skater01.mmp~2"};
    BOOST_TEST(files == want, boost::test_tools::per_element());
    // The index maps them back, and refuses another PAK's folder.
    const std::string json = shred::pak_extract_index_json(pak, files);
    BOOST_TEST(shred::read_pak_extract_index(json, pak, "index.json") == files, boost::test_tools::per_element());
    auto other = shred::read_pak(shred::build_pak(std::vector<shred::PakBuildEntry>{{"x", 0, 0, 0, {}}}), "o.pak");
    auto e = modtest::catch_error([&] { shred::read_pak_extract_index(json, other, "index.json"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::conflict);
    std::string escaped = json;
    escaped.replace(escaped.find("\"dir~1\""), 7, "\"../x\"");
    e = modtest::catch_error([&] { shred::read_pak_extract_index(escaped, pak, "index.json"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == ErrorKind::format);
    BOOST_TEST(e->path() == "index.entries[4].file");
    BOOST_TEST(e->file() == "index.json");
}

BOOST_AUTO_TEST_CASE(unedited_extract_then_repack_gives_the_pak_back_with_repeated_names) {
    modtest::TempDir dir;
    const Bytes original = colliding_pak();
    write_file_atomic(dir / "c.pak", original);
    auto r = run_cli({"shred", "pak", "extract", (dir / "c.pak").string(), (dir / "x").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(read_file(dir / "x" / "skater01.mmp") == bytes_of("first skater01.mmp"));
    BOOST_TEST(read_file(dir / "x" / "skater01.mmp~1") == bytes_of("second skater01.mmp, longer"));
    BOOST_TEST(read_file(dir / "x" / "skater01.mmp~2") == bytes_of("third"));
    r = run_cli({"shred", "pak", "repack", (dir / "c.pak").string(), (dir / "x").string(), (dir / "same.pak").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(read_file(dir / "same.pak") == original);
    // Editing the second of the repeated names changes that entry only.
    write_file_atomic(dir / "x" / "skater01.mmp~1", bytes_of("edited"));
    r = run_cli({"shred", "pak", "repack", (dir / "c.pak").string(), (dir / "x").string(), (dir / "edited.pak").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const auto edited = shred::read_pak(read_file(dir / "edited.pak"), "edited.pak");
    const auto before = shred::read_pak(original, "c.pak");
    BOOST_REQUIRE(edited.entries.size() == before.entries.size());
    for (std::size_t i = 0; i < before.entries.size(); ++i) {
        const auto a = before.data(i), b = edited.data(i);
        if (i == 1) BOOST_TEST(Bytes(b.begin(), b.end()) == bytes_of("edited"));
        else BOOST_TEST(Bytes(a.begin(), a.end()) == Bytes(b.begin(), b.end()), "entry " << i);
    }
}

BOOST_AUTO_TEST_CASE(files_of_the_extraction_folder_are_never_overwritten) {
    modtest::TempDir dir;
    write_file_atomic(dir / "c.pak", colliding_pak());
    auto r = run_cli({"shred", "pak", "extract", (dir / "c.pak").string(), (dir / "x").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const Bytes index = read_file(dir / "x" / "index.json");
    for (const char* name : {"index.json", "top.bin"}) {
        r = run_cli({"shred", "pak", "repack", (dir / "c.pak").string(), (dir / "x").string(), (dir / "x" / name).string()});
        BOOST_TEST(r.exit_code == 3, name << ": " << r.err);
    }
    BOOST_TEST(read_file(dir / "x" / "index.json") == index);
    BOOST_TEST(read_file(dir / "x" / "top.bin") == bytes_of("top"));
}

BOOST_AUTO_TEST_SUITE_END()
