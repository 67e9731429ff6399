// `modkit texture decode/encode`: the standalone texel <-> PNG commands, end to end.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/colour.hpp"
#include "libmod/image/png.hpp"

using namespace mod;

namespace {

Bytes random_bytes(std::uint64_t seed, std::size_t n) {
    modtest::Rng rng(seed);
    Bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    return b;
}

Bytes prefix(const Bytes& b, std::size_t n) { return Bytes(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(texture_cli)

BOOST_AUTO_TEST_CASE(decode_encode_is_identity_for_every_format) {
    modtest::TempDir dir;
    const Bytes texels = random_bytes(41, 4096), tlut = random_bytes(42, 512);
    write_file_atomic(dir / "t.bin", texels);
    write_file_atomic(dir / "pal.bin", tlut);
    struct Case {
        const char* format;
        std::size_t bytes;  // for 16x8
    };
    for (Case c : {Case{"rgba16", 256}, {"rgba32", 512}, {"ia4", 64}, {"ia8", 128}, {"ia16", 256}, {"i4", 64},
                   {"i8", 128}, {"ci8", 128}, {"ci4", 64}}) {
        const std::string f = c.format;
        const bool ci = f.rfind("ci", 0) == 0;
        std::vector<std::string> dec = {"texture", "decode", (dir / "t.bin").string(), (dir / (f + ".png")).string(),
                                        "--format", f, "--width", "16", "--height", "8"};
        if (ci) dec.insert(dec.end(), {"--tlut", (dir / "pal.bin").string(), "--bank", "2"});
        auto r = modtest::run_cli(dec);
        BOOST_TEST_INFO(f << ": " << r.err);
        BOOST_REQUIRE(r.exit_code == 0);
        std::vector<std::string> enc = {"texture", "encode", (dir / (f + ".png")).string(),
                                        (dir / (f + ".out")).string(), "--format", f, "--json"};
        if (ci) enc.insert(enc.end(), {"--palette-out", (dir / (f + ".pal")).string()});
        r = modtest::run_cli(enc);
        BOOST_TEST_INFO(f << ": " << r.err);
        BOOST_REQUIRE(r.exit_code == 0);
        BOOST_TEST((read_file(dir / (f + ".out")) == prefix(texels, c.bytes)));
        if (f == "ci8") {
            BOOST_TEST(r.out.find("\"mode\": \"exact\"") != std::string::npos);
            BOOST_TEST((read_file(dir / "ci8.pal") == tlut));
        }
        if (f == "ci4") {  // bank 2 = entries 32..47
            Bytes bank(tlut.begin() + 64, tlut.begin() + 96);
            BOOST_TEST((read_file(dir / "ci4.pal") == bank));
        }
    }
    // The CI PNG is paletted with the TLUT's colours.
    auto p = image::read_png_paletted(read_file(dir / "ci8.png"));
    BOOST_REQUIRE(p.has_value());
    BOOST_TEST(p->palette.size() == 256u);
}

BOOST_AUTO_TEST_CASE(quantise_and_reindex_report_delta_e) {
    modtest::TempDir dir;
    image::RgbaImage img{24, 24, Bytes(24 * 24 * 4)};
    for (std::size_t i = 0; i < 576; ++i) {
        img.pixels[4 * i] = static_cast<std::uint8_t>(i % 24 * 10);
        img.pixels[4 * i + 1] = static_cast<std::uint8_t>(i / 24 * 10);
        img.pixels[4 * i + 2] = 128;
        img.pixels[4 * i + 3] = i < 24 ? 0 : 255;
    }
    write_file_atomic(dir / "g.png", image::write_png(img));
    auto r = modtest::run_cli({"texture", "encode", (dir / "g.png").string(), (dir / "g.ci4").string(), "--format",
                               "ci4", "--palette-out", (dir / "g.pal").string(), "--lock", "1=F801", "--json"});
    BOOST_TEST_INFO(r.err);
    BOOST_REQUIRE(r.exit_code == 0);
    BOOST_TEST(r.out.find("\"mode\": \"quantised\"") != std::string::npos);
    BOOST_TEST(r.out.find("\"mean_delta_e\"") != std::string::npos);
    BOOST_TEST(r.out.find("\"transparent_slot\": 0") != std::string::npos);
    Bytes pal = read_file(dir / "g.pal");
    BOOST_REQUIRE(pal.size() == 32u);
    BOOST_TEST((pal[2] == 0xF8 && pal[3] == 0x01));  // locked slot 1 kept
    BOOST_TEST(read_file(dir / "g.ci4").size() == 288u);
    // Decoding through the n64 codec shows exactly the colours the image layer's RGBA5551 rule
    // gives for the palette the quantiser wrote (the two layers share one expansion rule).
    r = modtest::run_cli({"texture", "decode", (dir / "g.ci4").string(), (dir / "back.png").string(), "--format",
                          "ci4", "--width", "24", "--height", "24", "--tlut", (dir / "g.pal").string()});
    BOOST_REQUIRE(r.exit_code == 0);
    auto back = image::read_png_paletted(read_file(dir / "back.png"));
    BOOST_REQUIRE(back.has_value());
    BOOST_REQUIRE(back->palette.size() == 16u);
    for (unsigned i = 0; i < 16; ++i) {
        auto entry = static_cast<std::uint16_t>((pal[2 * i] << 8) | pal[2 * i + 1]);
        BOOST_TEST((back->palette[i] == image::from_rgba5551(entry)));
    }
    r = modtest::run_cli({"texture", "encode", (dir / "g.png").string(), (dir / "g.ci8").string(), "--format", "ci8",
                          "--palette-in", (dir / "g.pal").string()});
    BOOST_TEST_INFO(r.err);
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find("reindexed") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(palette_set_and_hsv) {
    modtest::TempDir dir;
    const Bytes pal = {0x00, 0x00, 0xF8, 0x01, 0x07, 0xC1, 0x00, 0x3F};  // transparent, red, green, blue
    write_file_atomic(dir / "p.bin", pal);
    auto r = modtest::run_cli({"texture", "palette-set", (dir / "p.bin").string(), (dir / "s.bin").string(), "--set",
                               "1=FF8000", "--lock", "0", "--json"});
    BOOST_TEST_INFO(r.err);
    BOOST_REQUIRE(r.exit_code == 0);
    BOOST_TEST(r.out.find("\"rounded\": true") != std::string::npos);  // 0x80 is not a 5-bit level
    Bytes s = read_file(dir / "s.bin");
    BOOST_TEST((s == Bytes{0x00, 0x00, 0xFC, 0x01, 0x07, 0xC1, 0x00, 0x3F}));
    r = modtest::run_cli({"texture", "palette-hsv", (dir / "p.bin").string(), (dir / "h.bin").string(), "--hue", "120",
                          "--lock", "0,3"});
    BOOST_TEST_INFO(r.err);
    BOOST_REQUIRE(r.exit_code == 0);
    BOOST_TEST((read_file(dir / "h.bin") == Bytes{0x00, 0x00, 0x07, 0xC1, 0x00, 0x3F, 0x00, 0x3F}));
    r = modtest::run_cli({"texture", "palette-set", (dir / "p.bin").string(), (dir / "x.bin").string(), "--set",
                          "0=FFFFFF", "--lock", "0"});
    BOOST_TEST(r.exit_code == 3);  // locked
    BOOST_TEST(!std::filesystem::exists(dir / "x.bin"));
}

BOOST_AUTO_TEST_CASE(errors_have_exit_codes) {
    modtest::TempDir dir;
    write_file_atomic(dir / "t.bin", random_bytes(1, 100));
    auto r = modtest::run_cli({"texture", "decode", (dir / "t.bin").string(), (dir / "x.png").string(), "--format",
                               "rgba16", "--width", "16", "--height", "16"});
    BOOST_TEST(r.exit_code == 2);  // too short
    BOOST_TEST(r.err.find("needs 512 bytes") != std::string::npos);
    r = modtest::run_cli({"texture", "decode", (dir / "t.bin").string(), (dir / "x.png").string(), "--format", "ci8",
                          "--width", "4", "--height", "4"});
    BOOST_TEST(r.exit_code == 1);  // no TLUT
    r = modtest::run_cli({"texture", "decode", (dir / "t.bin").string(), (dir / "x.png").string(), "--format", "yuv",
                          "--width", "4", "--height", "4"});
    BOOST_TEST(r.exit_code == 1);
    r = modtest::run_cli({"texture", "encode", (dir / "t.bin").string(), (dir / "x.bin").string(), "--format", "i8"});
    BOOST_TEST(r.exit_code == 2);  // not a PNG
    r = modtest::run_cli({"texture", "decode", (dir / "t.bin").string(), (dir / "t.bin").string(), "--format", "i8",
                          "--width", "4", "--height", "4"});
    BOOST_TEST(r.exit_code == 3);  // refuses to overwrite its input
}

BOOST_AUTO_TEST_CASE(the_tlut_is_an_input_and_the_palette_never_lands_on_the_texels) {
    // Issue 22: `decode … OUT --tlut OUT` replaced the TLUT with the PNG (exit 0), and
    // `encode … OUT --palette-out OUT` wrote the TLUT and then the texels over it.
    modtest::TempDir dir;
    const Bytes texels = random_bytes(7, 64), tlut = random_bytes(8, 32);
    write_file_atomic(dir / "t.ci4", texels);
    write_file_atomic(dir / "pal.bin", tlut);
    auto r = modtest::run_cli({"texture", "decode", (dir / "t.ci4").string(), (dir / "pal.bin").string(), "--format",
                               "ci4", "--width", "16", "--height", "8", "--tlut", (dir / "pal.bin").string()});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(r.err.find("same file as the input") != std::string::npos, r.err);
    BOOST_TEST(read_file(dir / "pal.bin") == tlut);
    r = modtest::run_cli({"texture", "decode", (dir / "t.ci4").string(), (dir / "t.png").string(), "--format", "ci4",
                          "--width", "16", "--height", "8", "--tlut", (dir / "pal.bin").string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    r = modtest::run_cli({"texture", "encode", (dir / "t.png").string(), (dir / "o.ci4").string(), "--format", "ci4",
                          "--palette-out", (dir / "o.ci4").string()});
    BOOST_TEST(r.exit_code == 3, r.err);
    BOOST_TEST(r.err.find("two outputs of one command are the same file") != std::string::npos, r.err);
    BOOST_TEST(!std::filesystem::exists(dir / "o.ci4"));
    r = modtest::run_cli({"texture", "encode", (dir / "t.png").string(), (dir / "o.ci4").string(), "--format", "ci4",
                          "--palette-out", (dir / "o.pal").string()});
    BOOST_TEST(r.exit_code == 0, r.err);
    BOOST_TEST(read_file(dir / "o.ci4") == texels);
}

BOOST_AUTO_TEST_SUITE_END()
