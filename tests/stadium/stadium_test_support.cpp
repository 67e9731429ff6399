#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/stadium/palette_edit.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <set>

namespace stadiumtest {

namespace fs = std::filesystem;
using namespace mod::stadium;

namespace {
struct SampleHolder {
    modtest::TempDir dir;
    fs::path rom;
    mod::Bytes bytes;
    SampleHolder() {
        auto r = modtest::run_cli({"sample", dir.path().string(), "--game", "stadium"});
        BOOST_TEST_REQUIRE(r.exit_code == 0, "modkit sample failed: " + r.err);
        rom = dir / "stadium" / "pokemon_stadium_sample.z64";
        bytes = mod::read_file(rom);
    }
};
SampleHolder& holder() {
    static SampleHolder h;
    return h;
}
}  // namespace

const fs::path& sample_rom() { return holder().rom; }
const mod::Bytes& sample_rom_bytes() { return holder().bytes; }

mod::Bytes small_model(std::uint16_t model_id) {
    ModelBuilder m(model_id);
    std::vector<std::uint16_t> colors(16);
    for (std::size_t i = 0; i < 16; ++i) colors[i] = static_cast<std::uint16_t>(i * 0x0842 | 1);
    auto pal = m.add_palette(colors);
    mod::Bytes ci4(16 * 16 / 2);
    for (std::size_t i = 0; i < ci4.size(); ++i) ci4[i] = static_cast<std::uint8_t>(i * 7);
    auto tex = m.add_texture(TexFormat::ci, TexSize::b4, 16, 16, ci4);
    mod::Bytes rgba(8 * 8 * 2, 0x5A);
    auto tex2 = m.add_texture(TexFormat::rgba, TexSize::b16, 8, 8, rgba);
    auto mat = m.add_material_dl(tex);
    auto mat2 = m.add_material_dl(tex2);
    std::vector<Vertex> v(16);
    for (std::size_t i = 0; i < v.size(); ++i) {
        v[i].x = static_cast<std::int16_t>(i * 3);
        v[i].y = static_cast<std::int16_t>(i * 5);
    }
    auto first = m.add_vertices(v);
    DisplayList a;
    a.vtx(first, 8, 0).tri2(0, 1, 2, 2, 3, 0).end();
    DisplayList b;
    b.vtx(first + 8, 8, 8).tri2(0, 1, 8, 8, 9, 1).tri1(10, 11, 2).end();  // reuses bone 0's slots
    auto da = m.add_display_list(std::move(a));
    auto db = m.add_display_list(std::move(b));
    DisplayList wrap;
    wrap.call(da).end();
    auto dw = m.add_display_list(std::move(wrap));
    SkeletalAnimation anim;
    anim.frame_count = 2;
    anim.channels.resize(2);
    anim.rotation = {0, 100};
    anim.channels[1].n_rot = 2;
    m.add_animation(anim);
    AuxAnimation aux;
    aux.channels.push_back({2, 0});
    aux.stream = {0, 1};
    m.add_aux_animation(aux);
    m.layout()
        .model_header()
        .open()  // the one level-0 node is the 0x17 header (the game's root rule)
        .scale(0x10000, 0x10000, 0x10000)
        .open()
        .bone(0, 0, 0, {}, {})
        .open()
        .material(1, 0, mat, tex, pal, 0xFFFFFFFF)
        .draw(1, da)
        .bone(1, 0, 1, {0, 40, 0}, {0, 0, 0x4000})  // 90° about z (binary angle)
        .open()
        .material(1, -1, mat2, tex2, -1, 0xFF8040FF)
        .draw(1, db)
        .draw_with_bone(2, 0, dw)
        .close()
        .close()
        .close()
        .close()
        .end();
    return m.build();
}

mod::Bytes random_fragment(modtest::Rng& rng) {
    const bool large = rng.below(4) == 0;
    const std::uint32_t body = (large ? 0x9000 + rng.below(0x4000) : 0x100 + rng.below(0x800)) & ~0xFu;
    mod::Bytes b(body);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next());
    auto put = [&](std::uint32_t at, std::uint32_t v) { mod::endian::store_be32(&b[at], v); };
    const std::uint32_t base = model_link_base;
    auto random_target = [&] { return 0x20 + 4 * rng.below((body - 0x20) / 4 + 1); };
    std::set<std::uint32_t> used = {0x00, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18, 0x1C, 0x20, 0x24, 0x28, 0x2C};
    auto random_site = [&] {
        for (;;) {
            std::uint32_t s = 0x30 + 4 * rng.below((body - 0x30) / 4);
            if (used.insert(s).second) return s;
        }
    };
    put(0, 0x0BFC0008);
    put(4, 0);
    std::copy(std::begin(fragment_magic), std::end(fragment_magic), b.begin() + 8);
    put(0x10, 0x20);
    // Getter: for large bodies aim at an offset with bit 15 set, so the carry rule matters.
    const std::uint32_t root = large ? 0x8000 + 4 * rng.below((body - 0x8000) / 4) : random_target();
    put(0x20, mips::lui(2, mips::hi16(base + root)));
    put(0x24, mips::jr_ra);
    put(0x28, mips::addiu(2, 2, mips::lo16(base + root)));
    put(0x2C, 0);
    std::vector<Reloc> relocs = {Reloc::make(RelocType::mips_26, 0), Reloc::make(RelocType::mips_hi16, 0x20),
                                 Reloc::make(RelocType::mips_lo16, 0x28)};
    // A JAL inside the fragment.
    const std::uint32_t jal_site = random_site();
    put(jal_site, mips::with_jump_target(mips::op_jal << 26, base + random_target()));
    relocs.push_back(Reloc::make(RelocType::mips_26, jal_site));
    const std::uint32_t n = 4 + rng.below(40);
    std::vector<std::uint32_t> sites;
    for (std::uint32_t i = 0; i < n; ++i) sites.push_back(random_site());
    std::sort(sites.begin(), sites.end());
    for (auto s : sites) {
        const std::uint32_t kind = rng.below(10);
        if (kind == 0) put(s, 0x80012340);       // main RAM: the game leaves it alone
        else if (kind == 1) put(s, 0x8E001000);  // another fragment's address
        else put(s, base + random_target());
        relocs.push_back(Reloc::make(RelocType::mips_32, s, rng.below(8) == 0));
    }
    // Words that look like pointers but have no entry: data, never rewritten.
    for (int i = 0; i < 3; ++i) put(random_site(), base + random_target());
    mod::ByteWriter w(mod::Endian::big);
    w.u32(static_cast<std::uint32_t>(relocs.size()));
    for (auto r : relocs) w.u32(r.raw);
    w.align(16);
    put(0x14, body);
    put(0x18, body + static_cast<std::uint32_t>(w.size()));
    put(0x1C, body);
    b.insert(b.end(), w.data().begin(), w.data().end());
    return b;
}

mod::Bytes game_relocate(const Fragment& f, std::uint32_t vaddr) {
    mod::Bytes image = f.body;
    image.resize(std::max<std::size_t>(image.size(), f.header.size_in_ram), 0);
    const std::uint32_t id = f.fragment_id();
    auto map = [&](std::uint32_t a) {
        if (a >= 0x81000000u && a < 0x90000000u && ((a & 0x0FF00000u) >> 20) - 0x10 == id)
            return vaddr + (a & 0xFFFFF);
        return a;
    };
    std::array<std::uint32_t, 32> hi_at{}, hi_word{};
    std::array<bool, 32> hi_seen{};
    for (const Reloc& e : f.relocs) {
        const int type = static_cast<int>((e.raw >> 24) & 0x7F);
        if (type != 2 && type != 4 && type != 5 && type != 6) continue;  // no case: the game skips it
        std::uint8_t* p = &image[e.offset()];
        const std::uint32_t w = mod::endian::load_be32(p);
        // A LO16 with no HI16 for its register before it reads uninitialised stack arrays in the
        // game (undefined): left as is here.
        if (type == 6 && !hi_seen[(w >> 21) & 31]) continue;
        if (type == 5) hi_seen[(w >> 16) & 31] = true;
        switch (type) {
        case 2: mod::endian::store_be32(p, map(w)); break;
        case 4: {
            const std::uint32_t t = map(((w * 4) & 0x0FFFFFFCu) + 0x80000000u);
            mod::endian::store_be32(p, (w & 0xFC000000u) | ((t & 0x0FFFFFFFu) >> 2));
            break;
        }
        case 5: hi_at[(w >> 16) & 31] = e.offset(); hi_word[(w >> 16) & 31] = w; break;
        case 6: {
            const std::uint32_t r = (w >> 21) & 31;
            const std::uint32_t full = ((hi_word[r] & 0xFFFF) << 16) +
                                       static_cast<std::uint32_t>(static_cast<std::int16_t>(w & 0xFFFF));
            const std::uint32_t t = map(full);
            mod::endian::store_be32(&image[hi_at[r]], (hi_word[r] & 0xFFFF0000u) | (((t >> 16) + ((t & 0x8000) ? 1 : 0)) & 0xFFFF));
            mod::endian::store_be32(p, (w & 0xFFFF0000u) | (t & 0xFFFF));
            break;
        }
        default: break;
        }
    }
    std::fill(image.begin() + f.header.reloc_offset, image.begin() + f.header.size_in_ram, std::uint8_t{0});
    return image;
}

SampleRom::SampleRom() : rom(load_rom(sample_rom())), archive(read_archive(rom)) {}

Model edit_round_trip(const SampleRom& r, std::size_t index, const FragmentImage& image) {
    const std::size_t other = index == 1 ? 0 : 1;
    const mod::Bytes out = apply_model_edit(r.rom, r.archive, index, image.build());
    const auto a2 = read_archive(load_rom_bytes(out));
    BOOST_TEST(decode_entry(a2, other).content == decode_entry(r.archive, other).content);
    Model m = read_archive_model(a2, index);
    BOOST_TEST(cross_check(m.fragment, m.map).ok());
    return m;
}

mod::Bytes two_textures_one_palette(std::uint16_t model_id, const std::vector<std::uint16_t>& palette, bool ia16) {
    ModelBuilder m(model_id);
    const auto pal = ia16 ? m.add_palette_ia16(palette) : m.add_palette(palette);
    mod::Bytes a(8 * 8 / 2), b(8 * 8 / 2);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<std::uint8_t>(((i % 8) << 4) | ((i + 3) % 8));
        b[i] = static_cast<std::uint8_t>(((8 + i % 8) << 4) | (8 + (i + 5) % 8));
    }
    const auto ta = m.add_texture(TexFormat::ci, TexSize::b4, 8, 8, a);
    const auto tb = m.add_texture(TexFormat::ci, TexSize::b4, 8, 8, b);
    const auto ma = m.add_material_dl(ta), mb = m.add_material_dl(tb);
    std::vector<Vertex> v(4);
    for (std::size_t i = 0; i < 4; ++i) v[i].x = static_cast<std::int16_t>(i * 10);
    const auto first = m.add_vertices(v);
    DisplayList dl;
    dl.vtx(first, 4, 0).tri2(0, 1, 2, 2, 3, 0).end();
    const auto d = m.add_display_list(std::move(dl));
    m.layout().model_header().open().bone(0, 0, 0, {}, {}).open()
        .material(1, -1, ma, ta, pal, 0xFFFFFFFF).draw(1, d)
        .material(1, -1, mb, tb, pal, 0xFFFFFFFF).draw(1, d)
        .close().close().end();
    return m.build();
}

}  // namespace stadiumtest
