// apply_manifests on the Stadium sample: results equal the library's own edits, determinism,
// dry runs, atomicity, wrong bases, byte orders, conflicts within and across manifests, patches.
#include "test_support.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/manifest/apply.hpp"
#include "libmod/image/png.hpp"
#include "libmod/n64/rom.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <fstream>

using namespace mod::manifest;
using modtest::TempDir;
namespace fs = std::filesystem;
namespace st = mod::stadium;

namespace {

const mod::Bytes& sample_rom() {
    static const mod::Bytes rom = mod::sample::stadium_rom();
    return rom;
}

// The first model with a palette of at least 16 colours: (entry, palette).
std::pair<std::size_t, std::size_t> palette_model() {
    const auto archive = st::read_archive(st::load_rom_bytes(sample_rom()));
    for (std::size_t i = 0; i < archive.entries.size(); ++i) {
        try {
            const auto m = st::read_archive_model(archive, i);
            for (std::size_t p = 0; p < m.palettes.size(); ++p)
                if (m.palettes[p].color_count >= 16) return {i, p};
        } catch (const mod::Error&) {
        }
    }
    BOOST_FAIL("the sample has no model with a 16-colour palette");
    return {};
}

void write_text(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

void write_bytes(const fs::path& p, const mod::Bytes& b) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

std::string manifest(const std::string& edits, const std::string& extra_input = "", const std::string& out = "out/mod.z64") {
    return R"({"modkit": 1, "name": "test", "game": "pokemon-stadium",
 "inputs": {"rom": {"path": "base/stadium.z64")" + extra_input + R"(}},
 "outputs": {"rom": ")" + out + R"(", "patches": ["bps"], "report": "out/report"},
 "edits": [)" + edits + "]}";
}

ApplyResult apply_in(const fs::path& dir, const std::vector<std::string>& manifests, ApplyOptions o = {}) {
    std::vector<fs::path> files;
    for (std::size_t i = 0; i < manifests.size(); ++i) {
        files.push_back(dir / ("mod" + std::to_string(i) + ".json"));
        write_text(files.back(), manifests[i]);
    }
    o.quiet = true;
    return apply_manifests(load_manifests(files), o);
}

std::string hsv_edit(std::size_t model, std::size_t palette, const std::string& id = "hsv") {
    return R"({"id": ")" + id + R"(", "op": "palette.hsv", "model": )" + std::to_string(model) + R"(, "palette": )" +
           std::to_string(palette) + R"(, "hue": 120, "saturation": 0.8, "lock": "0-1"})";
}

std::string set_edit(std::size_t model, std::size_t palette, unsigned slot, const std::string& id = "set") {
    return R"({"id": ")" + id + R"(", "op": "palette.set", "model": )" + std::to_string(model) + R"(, "palette": )" +
           std::to_string(palette) + R"(, "colours": {")" + std::to_string(slot) + R"(": "FF0000"}})";
}

std::size_t files_under(const fs::path& dir) {
    std::size_t n = 0;
    if (fs::exists(dir))
        for (const auto& e : fs::recursive_directory_iterator(dir)) n += e.is_regular_file();
    return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_apply_stadium)

BOOST_AUTO_TEST_CASE(edits_give_what_the_library_gives_and_colours_round_to_rgba5551) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    const auto [model, palette] = palette_model();
    const ApplyResult r = apply_in(tmp.path(), {manifest(hsv_edit(model, palette) + "," + set_edit(model, palette, 1, "red"))});
    const mod::Bytes out = mod::read_file(tmp / "out/mod.z64");

    // The same two edits through the library, one after the other.
    st::StadiumRom rom = st::load_rom_bytes(sample_rom());
    auto archive = st::read_archive(rom);
    auto m = st::read_archive_model(archive, model);
    st::FragmentImage image(m.fragment);
    mod::image::HsvShift shift;
    shift.hue_degrees = 120, shift.saturation = 0.8;
    const std::vector<unsigned> locked{0, 1};
    st::shift_palette_hsv(m, image, palette, shift, {}, locked);
    const mod::Bytes once = st::apply_model_edit(rom, archive, model, image.build());
    rom = st::load_rom_bytes(once);
    archive = st::read_archive(rom);
    m = st::read_archive_model(archive, model);
    st::FragmentImage image2(m.fragment);
    const std::vector<mod::image::SlotColour> red{{1, {0xFF, 0, 0, 0xFF}}};
    st::set_palette_slots(m, image2, palette, red);
    BOOST_TEST((out == st::apply_model_edit(rom, archive, model, image2.build())));

    // Slot 1 (locked for the shift, then set): pure red in RGBA5551 is R=31 << 11 | alpha 1.
    const auto after = st::read_archive_model(st::read_archive(st::load_rom_bytes(out)), model);
    BOOST_TEST(after.palettes[palette].entries[1] == 0xF801);
    BOOST_TEST(r.plan.edits.size() == 2u);
    const auto report_problems = check_report(r.report_json);
    BOOST_TEST_INFO((report_problems.empty() ? std::string() : report_problems[0]));
    BOOST_TEST(report_problems.empty());
    BOOST_TEST(fs::exists(tmp / "out/report/report.json"));
    // The BPS patch was verified; check it again independently.
    const mod::Bytes patch = mod::read_file(tmp / "out/mod.z64.bps");
    BOOST_TEST((mod::bps::apply(patch, sample_rom()) == out));
}

BOOST_AUTO_TEST_CASE(same_manifest_twice_and_any_thread_count_give_the_same_bytes) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    const auto [model, palette] = palette_model();
    const std::string text = manifest(hsv_edit(model, palette));
    ApplyOptions one;
    one.threads = 1;
    apply_in(tmp.path(), {text}, one);
    const mod::Bytes a = mod::read_file(tmp / "out/mod.z64"), pa = mod::read_file(tmp / "out/mod.z64.bps");
    ApplyOptions two;
    two.threads = 2;
    apply_in(tmp.path(), {text}, two);
    BOOST_TEST((a == mod::read_file(tmp / "out/mod.z64")));
    BOOST_TEST((pa == mod::read_file(tmp / "out/mod.z64.bps")));
    BOOST_TEST((a != sample_rom()));
}

BOOST_AUTO_TEST_CASE(a_dry_run_plans_and_writes_nothing) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    const auto [model, palette] = palette_model();
    ApplyOptions o;
    o.dry_run = true;
    const ApplyResult r = apply_in(tmp.path(), {manifest(set_edit(model, palette, 3))}, o);
    BOOST_TEST(!fs::exists(tmp / "out"));
    BOOST_REQUIRE_EQUAL(r.plan.edits.size(), 1u);
    const auto& touches = r.plan.edits[0].touches;
    BOOST_TEST(std::any_of(touches.begin(), touches.end(), [](const Touch& t) {
        return t.exclusive && t.what == "palette " + std::to_string(palette_model().second) + " slots 3";
    }));
    BOOST_TEST(r.written.empty());
}

BOOST_AUTO_TEST_CASE(a_failing_last_edit_leaves_no_output_and_no_temporary_file) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    const auto [model, palette] = palette_model();
    // Two edits that plan fine, then an entry.replace whose file is not a FRAGMENT (checked
    // when it runs, after the first two changed the in-memory ROM).
    const std::string edits = hsv_edit(model, palette) +
                              R"(, {"id": "p1", "op": "bytes.patch", "offset": "0x20", "expect": "50", "bytes": "51"})";
    write_text(tmp / "assets/broken.bin", "FRAGMENT? no");
    const std::string broken = edits + R"(, {"id": "last", "op": "entry.replace", "entry": )" + std::to_string(model == 0 ? 1 : 0) +
                               R"(, "file": "assets/broken.bin"})";
    const mod::Bytes before = mod::read_file(tmp / "base/stadium.z64");
    const auto err = modtest::catch_error([&] { apply_in(tmp.path(), {manifest(broken)}); });
    BOOST_REQUIRE(err);
    BOOST_TEST_INFO(err->what());
    BOOST_TEST(std::string(err->what()).find("entry.replace failed") != std::string::npos);
    BOOST_TEST(!fs::exists(tmp / "out"));
    BOOST_TEST(files_under(tmp.path()) == 3u);  // the ROM, the asset and the manifest: nothing else
    BOOST_TEST((mod::read_file(tmp / "base/stadium.z64") == before));
}

BOOST_AUTO_TEST_CASE(a_wrong_base_is_refused_and_a_byte_swapped_dump_is_recognised) {
    TempDir tmp;
    const std::string sha = mod::to_hex(mod::sha1(sample_rom()));
    mod::Bytes other = sample_rom();
    other[0x2000] ^= 1;
    write_bytes(tmp / "base/stadium.z64", other);
    const auto [model, palette] = palette_model();
    const std::string text = manifest(set_edit(model, palette, 2), R"(, "sha1": ")" + sha + "\"");
    const auto err = modtest::catch_error([&] { apply_in(tmp.path(), {text}); });
    BOOST_REQUIRE(err);
    BOOST_TEST(std::string(err->what()).find("is not the base file this mod was made for") != std::string::npos);
    BOOST_TEST(!fs::exists(tmp / "out"));

    // The right ROM in v64 order: accepted, named as such, output in v64 order.
    write_bytes(tmp / "base/stadium.z64", mod::n64::from_z64(sample_rom(), mod::n64::ByteOrder::v64));
    const ApplyResult r = apply_in(tmp.path(), {text});
    BOOST_REQUIRE_EQUAL(r.plan.files.size(), 1u);
    BOOST_REQUIRE_EQUAL(r.plan.files[0].notes.size(), 1u);
    BOOST_TEST(r.plan.files[0].notes[0].find("byte-swapped (v64)") != std::string::npos);
    const mod::Bytes out = mod::read_file(tmp / "out/mod.z64");
    BOOST_TEST(out[0] == 0x37);
    BOOST_TEST(out[1] == 0x80);
    const auto z = mod::n64::to_z64(out, mod::n64::ByteOrder::v64);
    const auto after = st::read_archive_model(st::read_archive(st::load_rom_bytes(z)), model);
    BOOST_TEST(after.palettes[palette].entries[2] == 0xF801);
}

BOOST_AUTO_TEST_CASE(conflicts_are_found_within_and_across_manifests_before_anything_runs) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    const auto [model, palette] = palette_model();
    // Within one manifest: the hue shift claims slots 2.. and the set claims slot 5.
    auto err = modtest::catch_error([&] { apply_in(tmp.path(), {manifest(hsv_edit(model, palette) + "," + set_edit(model, palette, 5))}); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(std::string(err->what()).find("conflicts with edit \"hsv\"") != std::string::npos);
    BOOST_TEST(!fs::exists(tmp / "out"));
    // A locked slot is free for another edit.
    BOOST_CHECK_NO_THROW(apply_in(tmp.path(), {manifest(hsv_edit(model, palette) + "," + set_edit(model, palette, 0))}));

    // Across two manifests on the same ROM: both set slot 4.
    TempDir tmp2;
    write_bytes(tmp2 / "base/stadium.z64", sample_rom());
    std::vector<Diagnostic> diags;
    try {
        apply_in(tmp2.path(), {manifest(set_edit(model, palette, 4, "mine")),
                               manifest(set_edit(model, palette, 4, "theirs"), "", "out/other.z64")});
    } catch (const ManifestError& e) {
        diags = e.diagnostics();
        BOOST_TEST(e.kind() == mod::ErrorKind::conflict);
    }
    BOOST_REQUIRE_EQUAL(diags.size(), 1u);
    const auto* me = &diags;
    BOOST_TEST((*me)[0].file.find("mod1.json") != std::string::npos);
    BOOST_TEST((*me)[0].message.find("conflicts with edit \"mine\" (") != std::string::npos);
    BOOST_TEST((*me)[0].message.find("mod0.json:") != std::string::npos);
    // Different slots combine: one output holding both edits.
    const ApplyResult r = apply_in(tmp2.path(), {manifest(set_edit(model, palette, 4, "mine")),
                                                 manifest(set_edit(model, palette, 6, "theirs"), "", "out/other.z64")});
    const mod::Bytes out = mod::read_file(tmp2 / "out/mod.z64");
    const auto after = st::read_archive_model(st::read_archive(st::load_rom_bytes(out)), model);
    BOOST_TEST(after.palettes[palette].entries[4] == 0xF801);
    BOOST_TEST(after.palettes[palette].entries[6] == 0xF801);
    BOOST_TEST(!fs::exists(tmp2 / "out/other.z64"));  // the shared input is written once
}

BOOST_AUTO_TEST_CASE(byte_patches_check_the_old_bytes_and_fix_the_boot_checksum) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    const std::uint8_t old = sample_rom()[0x1000];
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02X", old);
    char nb[8];
    std::snprintf(nb, sizeof nb, "%02X", std::uint8_t(old ^ 0xFF));
    apply_in(tmp.path(), {manifest(R"({"op": "bytes.patch", "offset": 4096, "expect": ")" + std::string(buf) +
                                   R"(", "bytes": ")" + nb + "\"}")});
    mod::Bytes out = mod::read_file(tmp / "out/mod.z64");
    BOOST_TEST(out[0x1000] == std::uint8_t(old ^ 0xFF));
    // The CRC words match a fresh computation over the patched code.
    mod::Bytes fixed = out;
    mod::n64::fix_checksums(fixed);
    BOOST_TEST((fixed == out));
    BOOST_TEST((std::equal(out.begin() + 0x10, out.begin() + 0x18, sample_rom().begin() + 0x10) == false));

    const auto err = modtest::catch_error([&] {
        apply_in(tmp.path(), {manifest(R"({"op": "bytes.patch", "offset": 4096, "expect": ")" + std::string(nb) +
                                       R"(", "bytes": "00"})")});
    });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->kind() == mod::ErrorKind::conflict);
    BOOST_TEST(std::string(err->what()).find("not the expected") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_failure_while_writing_leaves_no_output_and_no_temporary_file) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    const auto [model, palette] = palette_model();
    // The report folder is a file: the ROM and its patch are staged first, then the report
    // cannot be; nothing may be left behind (the file in the way stays as it was).
    write_text(tmp / "out/report", "in the way");
    const auto err = modtest::catch_error([&] { apply_in(tmp.path(), {manifest(set_edit(model, palette, 3))}); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->kind() == mod::ErrorKind::io);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(tmp / "out")) left.push_back(e.path().filename().string());
    BOOST_TEST(left == std::vector<std::string>{"report"});
    BOOST_TEST((mod::read_file(tmp / "out/report") == mod::Bytes{'i', 'n', ' ', 't', 'h', 'e', ' ', 'w', 'a', 'y'}));
}

BOOST_AUTO_TEST_CASE(an_output_that_is_an_input_of_another_edit_is_refused) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    const auto m = st::read_archive_model(st::read_archive(st::load_rom_bytes(sample_rom())), 1);
    BOOST_REQUIRE(m.textures.size() > 1);
    mod::image::RgbaImage img;
    img.width = m.textures[1].descriptor.width, img.height = m.textures[1].descriptor.height;
    img.pixels.assign(std::size_t(img.width) * img.height * 4, 0x80);
    const mod::Bytes png = mod::image::write_png(img);
    write_bytes(tmp / "assets/new.png", png);
    // The edit runs fine; the output path is the PNG it read: inputs are never overwritten.
    const std::string text =
        manifest(R"({"op": "texture.replace", "model": 1, "texture": 1, "png": "assets/new.png", "resize": true})", "",
                 "assets/new.png");
    const auto err = modtest::catch_error([&] { apply_in(tmp.path(), {text}); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->kind() == mod::ErrorKind::conflict);
    BOOST_TEST((mod::read_file(tmp / "assets/new.png") == png));
    BOOST_TEST(!fs::exists(tmp / "out"));
}

BOOST_AUTO_TEST_CASE(plan_problems_are_all_reported_and_the_exit_code_follows_the_first) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    // A fragment offset inside the header (usage), then a wrong expectation (conflict).
    const std::string text = manifest(
        R"({"op": "fragment.bytes", "entry": 1, "offset": 16, "expect": "00", "bytes": "01"},
           {"op": "bytes.patch", "offset": "0x20", "expect": "00", "bytes": "01"})");
    std::vector<Diagnostic> d;
    mod::ErrorKind kind = mod::ErrorKind::format;
    try {
        apply_in(tmp.path(), {text});
    } catch (const ManifestError& e) {
        d = e.diagnostics();
        kind = e.kind();
    }
    BOOST_REQUIRE_EQUAL(d.size(), 2u);
    BOOST_TEST(d[0].message.find("the first 0x20 bytes are the FRAGMENT header") != std::string::npos);
    BOOST_TEST(d[1].message.find("not the expected 00") != std::string::npos);
    BOOST_TEST(kind == mod::ErrorKind::usage);
}

BOOST_AUTO_TEST_CASE(a_missing_base_file_is_an_io_error_at_its_path) {
    TempDir tmp;
    std::vector<Diagnostic> d;
    mod::ErrorKind kind = mod::ErrorKind::format;
    try {
        apply_in(tmp.path(), {manifest(R"({"op": "bytes.patch", "offset": 0, "expect": "80", "bytes": "80"})")});
    } catch (const ManifestError& e) {
        d = e.diagnostics();
        kind = e.kind();
    }
    BOOST_REQUIRE_EQUAL(d.size(), 1u);
    BOOST_TEST(kind == mod::ErrorKind::io);
    BOOST_TEST(d[0].where == "inputs.rom.path");
    BOOST_TEST(d[0].message.find("cannot read base/stadium.z64") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(many_colliding_edits_give_one_line_each_and_a_bounded_list) {
    TempDir tmp;
    write_bytes(tmp / "base/stadium.z64", sample_rom());
    // 300 patches of the same byte: every pair collides (44,850 pairs); each edit after the
    // first is named once, the list stops at 200 lines and says how many more there are.
    std::string edits;
    for (int k = 0; k < 300; ++k)
        edits += std::string(k ? "," : "") + R"({"op": "bytes.patch", "offset": 32, "expect": "50", "bytes": "51"})";
    std::vector<Diagnostic> d;
    try {
        apply_in(tmp.path(), {manifest(edits)});
    } catch (const ManifestError& e) {
        d = e.diagnostics();
    }
    BOOST_REQUIRE_EQUAL(d.size(), 201u);
    BOOST_TEST(d[0].where == "edits[1]");
    BOOST_TEST(d.back().message == "and 99 more edits in conflict (only the first 200 are listed)");
}

BOOST_AUTO_TEST_SUITE_END()
