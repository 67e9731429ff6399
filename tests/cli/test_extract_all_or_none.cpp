// All-or-none extraction (issue 21): `shred pak extract`, `totem extract` and `stadium extract`
// check every entry name and the disk (mod::check_folder_plan, core/folder.hpp) before the first
// write. A name that leaves the folder, one the file system cannot hold, or something in the way
// on disk is one error line naming the entry (exit 1-4, never 70), and nothing is left on disk.
#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/sample/totem.hpp"
#include "libmod/shred/pak.hpp"

#include "test_support.hpp"

#include <algorithm>

namespace fs = std::filesystem;
using modtest::run_cli;

namespace {

mod::Bytes bytes_of(std::string_view s) { return mod::Bytes(s.begin(), s.end()); }

// A PAK of four entries whose third is `third`.
mod::Bytes pak_with_third(const std::string& third) {
    std::vector<mod::shred::PakBuildEntry> e = {
        {"first.txt", 1, 0, 0, bytes_of("one")},
        {"sub/second.txt", 2, 0, 0, bytes_of("two")},
        {third, 3, 0, 0, bytes_of("three")},
        {"fourth.txt", 4, 0, 0, bytes_of("four")},
    };
    return mod::shred::build_pak(e);
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// stderr without its warning lines ("modkit: warning: ..."): the error itself.
std::string error_lines(const std::string& s) {
    std::string out;
    for (std::size_t start = 0; start < s.size();) {
        const std::size_t end = std::min(s.find('\n', start), s.size() - 1) + 1;
        const std::string_view line(s.data() + start, end - start);
        if (!line.starts_with("modkit: warning: ")) out += line;
        start = end;
    }
    return out;
}

// Every file and folder below `dir` (relative paths, sorted).
std::vector<std::string> tree(const fs::path& dir) {
    std::vector<std::string> out;
    if (!fs::exists(dir)) return out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(extract_all_or_none)

BOOST_AUTO_TEST_CASE(a_pak_whose_third_entry_escapes_leaves_nothing_on_disk) {
    struct Case {
        std::string name;
        int exit;
        std::string says;
    };
    const std::vector<Case> cases = {
        {"../escape.txt", 2, "a '..' segment would leave the output folder"},
        {"sub/../../escape.txt", 2, "a '..' segment would leave the output folder"},
        {"..\\escape.txt", 2, "a '..' segment would leave the output folder"},
        {"/tmp/escape.txt", 2, "an absolute path would leave the output folder"},
        {"\\escape.txt", 2, "an absolute path would leave the output folder"},
        {"bad\nname.txt", 2, "the name holds a control byte"},
        {std::string(300, 'x').append("/leaf.txt"), 3, "a folder name is 300 bytes, more than 255"},
        {std::string(300, 'y'), 3, "the file name is 300 bytes, more than 215"},
        {[] {
             std::string deep;
             for (int i = 0; i < 22; ++i) deep.append(200, 'd').append("/");
             return deep.append("leaf");
         }(),
         3, "more than 4095"},
    };
    for (const auto& c : cases) {
        modtest::TempDir dir;
        mod::write_file_atomic(dir / "p.pak", pak_with_third(c.name));
        const auto before = mod::read_file(dir / "p.pak");
        auto r = run_cli({"shred", "pak", "extract", (dir / "p.pak").string(), (dir / "x" / "out").string()});
        BOOST_TEST(r.exit_code == c.exit, c.name.substr(0, 40) << ": " << r.err);
        BOOST_TEST(lines(r.err) == 1u, r.err);
        BOOST_TEST(r.err.find("pak.entries[2]") != std::string::npos, r.err);
        BOOST_TEST(r.err.find(c.says) != std::string::npos, r.err);
        BOOST_TEST(r.err.find("nothing was written") != std::string::npos, r.err);
        BOOST_TEST(r.err.find("internal error") == std::string::npos, r.err);
        // Not the first two entries, not the escape target, not even the output folder.
        BOOST_TEST(tree(dir.path()) == std::vector<std::string>{"p.pak"}, boost::test_tools::per_element());
        BOOST_TEST(!fs::exists("/tmp/escape.txt"));
        BOOST_TEST(mod::read_file(dir / "p.pak") == before);
    }
}

BOOST_AUTO_TEST_CASE(something_in_the_way_on_disk_is_found_before_the_first_write) {
    modtest::TempDir dir;
    mod::write_file_atomic(dir / "p.pak", pak_with_third("third.txt"));
    // A file where the folder "sub" must go.
    mod::write_file_atomic(dir / "x" / "sub", bytes_of("a file"));
    auto r = run_cli({"shred", "pak", "extract", (dir / "p.pak").string(), (dir / "x").string()});
    BOOST_TEST(r.exit_code == 4, r.err);
    BOOST_TEST(lines(r.err) == 1u, r.err);
    BOOST_TEST(r.err.find("pak.entries[1]") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("it exists and is not a folder") != std::string::npos, r.err);
    BOOST_TEST(tree(dir / "x") == std::vector<std::string>{"sub"}, boost::test_tools::per_element());
    // A folder where a file must go.
    fs::remove(dir / "x" / "sub");
    fs::create_directories(dir / "x" / "fourth.txt");
    r = run_cli({"shred", "pak", "extract", (dir / "p.pak").string(), (dir / "x").string()});
    BOOST_TEST(r.exit_code == 4, r.err);
    BOOST_TEST(lines(r.err) == 1u, r.err);
    BOOST_TEST(r.err.find("pak.entries[3]") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("a folder is in the way") != std::string::npos, r.err);
    BOOST_TEST(tree(dir / "x") == std::vector<std::string>{"fourth.txt"}, boost::test_tools::per_element());
    // Cleared, it extracts.
    fs::remove(dir / "x" / "fourth.txt");
    r = run_cli({"shred", "pak", "extract", (dir / "p.pak").string(), (dir / "x").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(mod::read_file(dir / "x" / "third.txt") == bytes_of("three"));
}

BOOST_AUTO_TEST_CASE(a_totem_name_too_long_for_the_file_system_is_one_line_and_nothing_written) {
    modtest::TempDir dir;
    const auto gc = mod::sample::totem_sample(mod::totem::Platform::gamecube);
    const fs::path data = dir / "SAMPLE.DGC", names = dir / "SAMPLE.NGC";
    mod::write_file_atomic(data, gc.data);
    mod::write_file_atomic(names, gc.names);
    // HERO_BODY's name (ID kept: an ID that is not the name's CRC is a finding, not an error)
    // gets a 300-byte folder segment.
    std::string s(gc.names.begin(), gc.names.end());
    const std::string from = std::string("\"").append(mod::sample::totem_body_mesh_name).append("\"");
    BOOST_REQUIRE(s.find(from) != std::string::npos);
    s.replace(s.find(from), from.size(), std::string("\"DB:>SAMPLE>").append(300, 'C').append(">HERO_BODY.TMESH\""));
    mod::write_file_atomic(names, s);
    auto r = run_cli({"totem", "extract", data.string(), names.string(), (dir / "out").string()});
    BOOST_TEST(r.exit_code == 3, r.err);
    // (the ID that is not the new name's CRC-32 is a warning line before it)
    BOOST_TEST(lines(error_lines(r.err)) == 1u, r.err);
    BOOST_TEST(r.err.find("dgc.record[") != std::string::npos, r.err);
    BOOST_TEST(r.err.find("a folder name is 300 bytes") != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(dir / "out"));
}

BOOST_AUTO_TEST_CASE(a_stadium_extract_with_a_folder_in_the_way_writes_nothing) {
    modtest::TempDir dir;
    const auto rom = dir / "s.z64";
    mod::write_file_atomic(rom, mod::sample::stadium_rom());
    fs::create_directories(dir / "out" / "entries" / "002.fragment");
    auto r = run_cli({"stadium", "extract", rom.string(), (dir / "out").string()});
    BOOST_TEST(r.exit_code == 4, r.err);
    BOOST_TEST(lines(r.err) == 1u, r.err);
    BOOST_TEST(r.err.find("archive[2]") != std::string::npos, r.err);
    BOOST_TEST(tree(dir / "out") == (std::vector<std::string>{"entries", "entries/002.fragment"}),
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(plans_refuse_clashes_and_a_failed_write_takes_back_what_it_made) {
    using mod::FolderFile;
    // Two entries on one path, and a file where another needs a folder: conflicts naming both.
    std::vector<FolderFile> same = {{"a/b.bin", "e[0]"}, {"a/b.bin", "e[1]"}};
    auto e = modtest::catch_error([&] { mod::check_folder_plan(same, "in.pak"); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(e->path() == "e[1]");
    BOOST_TEST(e->message().find("entry e[0] is extracted to the same file") != std::string::npos, e->message());
    BOOST_TEST(e->file() == "in.pak");
    std::vector<FolderFile> folder = {{"a", "e[0]"}, {"a/b.bin", "e[1]"}};
    e = modtest::catch_error([&] { mod::check_folder_plan(folder); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(e->path() == "e[1]");
    std::vector<FolderFile> folder_first = {{"a/b.bin", "e[0]"}, {"a", "e[1]"}};
    e = modtest::catch_error([&] { mod::check_folder_plan(folder_first); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message().find("entry e[0] needs a folder of that name") != std::string::npos, e->message());
    // Exactly at the limits is fine; one byte more is not.
    std::vector<FolderFile> edge = {{std::string(255, 'f').append("/").append(215, 'n'), "e[0]"}};
    BOOST_CHECK_NO_THROW(mod::check_folder_plan(edge));
    edge[0].path += "n";
    e = modtest::catch_error([&] { mod::check_folder_plan(edge); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->kind() == mod::ErrorKind::limit);
    // A write that fails half way (here: the third file's content cannot be produced) removes
    // the files and folders this call made, and keeps what was there before.
    modtest::TempDir dir;
    mod::write_file_atomic(dir / "out" / "kept.txt", bytes_of("mine"));
    std::vector<FolderFile> plan = {{"one.bin", "e[0]"}, {"deep/er/two.bin", "e[1]"}, {"three.bin", "e[2]"}};
    e = modtest::catch_error([&] {
        mod::write_folder(dir / "out", plan, [&](std::size_t i) -> mod::ByteView {
            if (i == 2) throw mod::Error(mod::ErrorKind::io, "disk full (simulated)");
            return mod::ByteView(reinterpret_cast<const std::uint8_t*>("data"), 4);
        });
    });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->message() == "disk full (simulated)");
    BOOST_TEST(tree(dir / "out") == std::vector<std::string>{"kept.txt"}, boost::test_tools::per_element());
    // And a successful one writes every file.
    mod::write_folder(dir / "out", std::span<const FolderFile>(plan).first(2),
                      [&](std::size_t) { return mod::ByteView(reinterpret_cast<const std::uint8_t*>("data"), 4); });
    BOOST_TEST(tree(dir / "out") == (std::vector<std::string>{"deep", "deep/er", "deep/er/two.bin", "kept.txt", "one.bin"}),
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
