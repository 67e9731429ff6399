// Errors say where the damage is: archive offsets are file offsets (the archive sits at ROM
// 0x920000), an entry stored as is reports file offsets too, and a PERS-SZP entry's error says
// its offset is in the decompressed data. And `stadium export` / `stadium textures` write their
// PNGs into a folder of their own, never over unrelated files.
#include "stadium_test_support.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/file.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/stadium/palette_edit.hpp"

using namespace mod;
using namespace mod::stadium;
namespace fs = std::filesystem;

namespace {

// The sample ROM with the first relocation word of entry `index`'s FRAGMENT made an R_MIPS_32
// whose offset lies past the body (a type the game does not know would be skipped, not refused).
Bytes rom_with_bad_reloc(std::size_t index, std::uint64_t* reloc_in_content = nullptr) {
    StadiumRom rom = load_rom_bytes(stadiumtest::sample_rom_bytes(), "sample.z64");
    const Archive a = read_archive(rom);
    DecodedEntry d = decode_entry(a, index);
    const Fragment f = parse_fragment(ByteReader(d.content, Endian::big));
    const std::uint64_t at = f.header.reloc_offset + 4;  // count word, then the first entry
    BOOST_REQUIRE(!f.relocs.empty());
    d.content[at] = 0x02;  // R_MIPS_32 at offset 0xFFFFFC: not a word of the body
    d.content[at + 1] = 0xFF;
    d.content[at + 2] = 0xFF;
    d.content[at + 3] = 0xFC;
    if (reloc_in_content) *reloc_in_content = at;
    if (d.kind != PayloadKind::pers_szp) {
        const std::uint64_t file_at = model_archive_rom + a.entries[index].offset + at;
        for (std::uint64_t k = 0; k < 4; ++k) rom.z64[file_at + k] = d.content[at + k];
        return rom.z64;
    }
    const RepackResult r = repack_archive(a, {{index, d.content}});
    return write_archive(rom, r);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_error_places)

BOOST_AUTO_TEST_CASE(archive_table_damage_is_reported_at_its_file_offset) {
    Bytes image = stadiumtest::sample_rom_bytes();
    // Entry 1's size (descriptor at archive + 0x10 + 16, size word at +4) made huge.
    const std::size_t descriptor = model_archive_rom + 0x10 + 16;
    endian::store_be32(&image[descriptor + 4], 0x7FFFFFF0u);
    modtest::TempDir dir;
    write_file_atomic(dir / "bad.z64", image);
    const auto e = modtest::catch_error([&] { read_archive(load_rom(dir / "bad.z64")); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->offset() == descriptor, std::string(e->what()));
    BOOST_TEST(e->path() == "archive[1]");
    auto r = modtest::run_cli({"stadium", "list", (dir / "bad.z64").string()});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find("bad.z64: offset " + hex(descriptor) + ": archive[1]:") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(an_uncompressed_entry_reports_file_offsets) {
    const std::size_t index = sample::stadium_raw_entry;
    std::uint64_t at = 0;
    const Bytes image = rom_with_bad_reloc(index, &at);
    const Archive a = read_archive(load_rom_bytes(image, "bad.z64"));
    BOOST_REQUIRE(decode_entry(a, index).kind != PayloadKind::pers_szp);
    const std::uint64_t file_at = model_archive_rom + a.entries[index].offset + at;
    const auto e = modtest::catch_error([&] { read_archive_model(a, index); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->offset() == file_at, std::string(e->what()));
    BOOST_TEST(e->file() == "bad.z64");
    BOOST_TEST(std::string(e->what()).find("archive[" + std::to_string(index) + "].fragment.reloc[0]") != std::string::npos,
               e->what());
    BOOST_TEST(std::string(e->what()).find(" in ") == std::string::npos, e->what());
}

BOOST_AUTO_TEST_CASE(a_compressed_entry_says_its_offset_is_in_the_decompressed_data) {
    std::uint64_t at = 0;
    const Bytes image = rom_with_bad_reloc(0, &at);
    const Archive a = read_archive(load_rom_bytes(image, "bad.z64"));
    BOOST_REQUIRE(decode_entry(a, 0).kind == PayloadKind::pers_szp);
    const auto e = modtest::catch_error([&] { read_archive_model(a, 0); });
    BOOST_REQUIRE(e);
    BOOST_TEST(e->offset() == at);
    const std::string expected = "bad.z64: offset " + hex(at) + " in the data decompressed from archive[0] (stored at file offset " +
                                 hex(model_archive_rom + a.entries[0].offset) + "): archive[0].fragment.reloc[0]:";
    BOOST_TEST(std::string(e->what()).find(expected) == 0u, e->what());
    // The CLI prints the same line.
    modtest::TempDir dir;
    write_file_atomic(dir / "bad.z64", image);
    auto r = modtest::run_cli({"stadium", "show", (dir / "bad.z64").string(), "0"});
    BOOST_TEST(r.exit_code == 2);
    BOOST_TEST(r.err.find("in the data decompressed from archive[0]") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(export_writes_its_pngs_into_a_folder_of_its_own) {
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom().string();
    // Someone else's files beside the export.
    write_file_atomic(dir / "tex000.png", std::string_view("mine"));
    write_file_atomic(dir / "textures.json", std::string_view("mine too"));
    auto r = modtest::run_cli({"stadium", "export", rom, "0", (dir / "a.glb").string(), "--json"});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("\"textures_dir\": \"" + (dir / "a_textures").string() + "\"") != std::string::npos, r.out);
    r = modtest::run_cli({"stadium", "export", rom, "2", (dir / "b.gltf").string()});
    BOOST_REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out.find("PNGs in " + (dir / "b_textures").string()) != std::string::npos, r.out);
    BOOST_TEST(fs::exists(dir / "a_textures" / "tex000.png"));
    BOOST_TEST(fs::exists(dir / "a_textures" / "textures.json"));
    BOOST_TEST(fs::exists(dir / "b_textures" / "textures.json"));
    const auto mine = read_file(dir / "tex000.png");
    BOOST_TEST(std::string(mine.begin(), mine.end()) == "mine");
    const auto json = read_file(dir / "textures.json");
    BOOST_TEST(std::string(json.begin(), json.end()) == "mine too");
    // Exporting again over its own earlier export is fine.
    r = modtest::run_cli({"stadium", "export", rom, "0", (dir / "a.glb").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
}

BOOST_AUTO_TEST_CASE(a_folder_of_unrelated_files_is_not_written_into) {
    modtest::TempDir dir;
    const auto rom = stadiumtest::sample_rom().string();
    fs::create_directories(dir / "photos");
    write_file_atomic(dir / "photos" / "tex000.png", std::string_view("holiday"));
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"stadium", "textures", rom, "0", (dir / "photos").string()},
          std::vector<std::string>{"stadium", "export", rom, "0", (dir / "photos").string()}}) {
        auto r = modtest::run_cli(args);
        BOOST_TEST(r.exit_code == 3, args[1] << ": " << r.err);
        BOOST_TEST(r.err.find("photos: ") != std::string::npos, r.err);
        const auto kept = read_file(dir / "photos" / "tex000.png");
        BOOST_TEST(std::string(kept.begin(), kept.end()) == "holiday");
        BOOST_TEST(!fs::exists(dir / "photos" / "model.glb"));
    }
    // A new folder, an empty one and an earlier export are fine.
    fs::create_directories(dir / "empty");
    BOOST_TEST(modtest::run_cli({"stadium", "textures", rom, "0", (dir / "empty").string()}).exit_code == 0);
    BOOST_TEST(modtest::run_cli({"stadium", "textures", rom, "0", (dir / "empty").string()}).exit_code == 0);
    BOOST_TEST(modtest::run_cli({"stadium", "export", rom, "0", (dir / "new").string()}).exit_code == 0);
    BOOST_TEST(fs::exists(dir / "new" / "model.glb"));
}

BOOST_AUTO_TEST_SUITE_END()
