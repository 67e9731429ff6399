#include "libmod/sample/stadium.hpp"

#include "libmod/codec/szp.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/core/parallel.hpp"
#include "libmod/sample/payload.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/builder.hpp"
#include "sample/stadium_animations.hpp"
#include "sample/stadium_cases.hpp"

#include <cstring>

namespace mod::sample {

namespace {

using namespace mod::stadium;

std::uint64_t mix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Texels with structure (stripes and blocks) so Yay0 has something to find.
Bytes texels(std::size_t bytes, std::uint64_t seed) {
    Bytes b(bytes);
    std::uint64_t s = seed;
    std::uint8_t run = static_cast<std::uint8_t>(mix(s));
    for (std::size_t i = 0; i < bytes; ++i) {
        if (i % 16 == 0 && mix(s) % 3 == 0) run = static_cast<std::uint8_t>(mix(s));
        b[i] = static_cast<std::uint8_t>(run + (i % 8 < 4 ? 0 : 0x11));
    }
    return b;
}

std::vector<std::uint16_t> palette(std::size_t n, std::uint64_t seed) {
    std::vector<std::uint16_t> p(n);
    std::uint64_t s = seed;
    const unsigned r0 = mix(s) % 32, g0 = mix(s) % 32, b0 = mix(s) % 32;
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned k = static_cast<unsigned>(i * 31 / (n - 1));
        p[i] = static_cast<std::uint16_t>((((r0 + k) % 32) << 11) | (((g0 + k / 2) % 32) << 6) | (((b0 + 31 - k) % 32) << 1) | 1);
    }
    return p;
}

// Eight corners of a box around the bone's origin, texture coordinates in S10.5.
std::vector<Vertex> box(int bone, std::uint64_t seed) {
    std::uint64_t s = seed;
    const std::int16_t size = static_cast<std::int16_t>(20 + mix(s) % 40);
    std::vector<Vertex> v;
    for (int c = 0; c < 8; ++c) {
        Vertex x;
        x.x = static_cast<std::int16_t>((c & 1 ? size : -size));
        x.y = static_cast<std::int16_t>((c & 2 ? size : 0) + bone * 60);
        x.z = static_cast<std::int16_t>((c & 4 ? size : -size));
        x.s = static_cast<std::int16_t>((c & 1) ? 31 * 32 : 0);
        x.t = static_cast<std::int16_t>((c & 2) ? 31 * 32 : 0);
        // Lit models store signed normals in bytes 12..14.
        x.color = {static_cast<std::uint8_t>(c & 1 ? 0x49 : 0xB7), static_cast<std::uint8_t>(c & 2 ? 0x49 : 0xB7),
                   static_cast<std::uint8_t>(c & 4 ? 0x49 : 0xB7), 0xFF};
        v.push_back(x);
    }
    return v;
}

Bytes build_model(std::size_t index) {
    const std::uint64_t seed = 0x5354414449554Dull + index * 0x1000193;
    const int bones = 2 + static_cast<int>(index % 4);
    ModelBuilder m(static_cast<std::uint16_t>(index + 1));
    m.set_root_unknowns(0, 0);

    // Textures: CI4 + 16-colour TLUT, RGBA16, and on even models CI8 + 256-colour TLUT.
    std::vector<std::pair<std::int16_t, std::int16_t>> materials;  // texture, palette (-1 none)
    const auto pal16 = m.add_palette(palette(16, seed + 1));
    const std::uint16_t ci4_w = index % 3 == 0 ? 64 : 32;
    const auto ci4 = m.add_texture(TexFormat::ci, TexSize::b4, ci4_w, 32, texels(ci4_w * 32 / 2, seed + 2));
    materials.push_back({ci4, pal16});
    const auto rgba = m.add_texture(TexFormat::rgba, TexSize::b16, 16, 16, texels(16 * 16 * 2, seed + 3));
    materials.push_back({rgba, -1});
    if (index % 2 == 0) {
        const auto pal256 = m.add_palette(palette(256, seed + 4));
        const auto ci8 = m.add_texture(TexFormat::ci, TexSize::b8, 32, 32, texels(32 * 32, seed + 5));
        materials.push_back({ci8, pal256});
    }
    std::vector<DlId> material_dls;
    for (std::size_t k = 0; k < materials.size(); ++k) material_dls.push_back(sample_material_dl(m, k, materials[k].first));

    // Geometry: bone b loads its 8 corners into cache half (b % 2) and stitches its bottom face
    // to the previous bone's top face still in the other half (cross-bone vertex-cache reuse).
    std::vector<DlId> geometry;
    for (int b = 0; b < bones; ++b) {
        auto corners = box(b, seed + 10 + b);
        const bool unlit = sample_bone_unlit(index, bones, b);  // stadium_cases.cpp
        if (unlit)
            for (int c = 0; c < 8; ++c) corners[std::size_t(c)].color = sample_unlit_colour(c);
        const std::uint32_t first = m.add_vertices(corners);
        const std::uint8_t me = static_cast<std::uint8_t>((b % 2) * 8), prev = static_cast<std::uint8_t>(((b + 1) % 2) * 8);
        DisplayList dl;
        // G_GEOMETRYMODE: shade, cull back, lighting (none on the unlit bone)
        dl.raw(0xD9000000u, unlit ? sample_unlit_geometry_mode : sample_lit_geometry_mode);
        dl.vtx(first, 8, me);
        dl.tri2(me + 0, me + 1, me + 3, me + 0, me + 3, me + 2);
        dl.tri2(me + 4, me + 6, me + 7, me + 4, me + 7, me + 5);
        dl.tri1(me + 0, me + 4, me + 5);
        if (b > 0) dl.tri2(prev + 2, prev + 3, me + 1, prev + 2, me + 1, me + 0);
        dl.end();
        geometry.push_back(m.add_display_list(std::move(dl)));
    }
    // A wrapper list that calls the first bone's geometry (G_DL push), drawn with bone 0's matrix.
    DisplayList outer;
    outer.call(geometry[0]).end();
    const DlId outer_dl = m.add_display_list(std::move(outer));

    // Skeletal and texture animations (stadium_animations.cpp).
    std::vector<std::int16_t> anim_textures;
    for (const auto& mt : materials) anim_textures.push_back(mt.first);
    add_sample_animations(m, index, bones, anim_textures);
    if (index == sample_large_model) {  // stadium_cases.hpp: texture page, root last, shared HI16
        for (int k = 0; k < sample_texture_page; ++k)
            m.add_texture(TexFormat::rgba, TexSize::b16, 32, 32, texels(32 * 32 * 2, seed + 100 + std::uint64_t(k)));
        m.set_root_last(true);
        m.set_getter(FragmentLinker::Getter::shared_hi16);
    }

    auto& s = m.layout();
    // 0x1D, 0x05, 0x23, 0x22: bone b with its material and geometry (its level left open).
    auto bone_block = [&](LayoutScript& l, int b) {
        const auto& mt = materials[std::size_t(b) % materials.size()];
        const SampleBoneFlags bf = sample_bone_flags(index, b);  // stadium_cases.hpp: issue 33 flag paths
        l.bone(static_cast<std::uint8_t>(b), bf.flags, sample_bone_channel(index, bones, b),
               {0, static_cast<std::int16_t>(b ? 60 : 0), 0}, sample_bone_rotation(index, b), bf.sx, bf.sy, bf.sz);
        l.open();
        l.material(1, sample_material_channel(index, b), material_dls[std::size_t(b) % materials.size()], mt.first,
                   mt.second, 0xFFFFFFFF);
        l.draw(1, geometry[std::size_t(b)]);
    };
    // 17 05 1C 05 …: the 0x17 header is the script's one level-0 node (the game's root rule,
    // src/geo_layout.c func_80017AC4); the root scale and every bone hang under it.
    s.model_header().open().scale(0x10000, 0x10000, 0x10000).open();
    if (index == sample_layout_case_model) {
        sample_case_layout(s, bone_block, outer_dl);  // stadium_cases.cpp: 0x00/0x03/0x02, 0x20/0x21
    } else {
        for (int b = 0; b < bones; ++b) bone_block(s, b);
        s.draw_with_bone(1, 0, outer_dl);
        for (int b = 0; b < bones; ++b) s.close();
        s.close().close().end();
    }
    Bytes fragment = m.build();
    sample_tlut_override(fragment, index);  // stadium_cases.cpp
    sample_fixup_content(fragment, index);  // stadium_cases.cpp
    return fragment;
}

constexpr std::uint32_t ipl3_end = 0x1000;
constexpr std::uint32_t main_code_end = 0x101000;

}  // namespace

Bytes stadium_model(std::size_t index) {
    if (index >= stadium_model_count)
        throw Error(ErrorKind::usage, "the sample archive has " + std::to_string(stadium_model_count) + " models");
    return build_model(index);
}

Bytes stadium_model_archive() {
    auto blobs = parallel_map(stadium_model_count, [](std::size_t i) {
        Bytes fragment = build_model(i);
        Bytes blob = i == stadium_raw_entry     ? fragment
                     : i == sample_fixup_entry ? sample_fixup_blob(fragment)  // stadium_cases.cpp
                                               : szp::pack(fragment, yay0::Mode::nintendo);
        blob.resize(align_up(blob.size(), entry_alignment), 0);
        return blob;
    });
    ByteWriter w(Endian::big);
    w.u16(0);
    w.u16(model_fragment_id);
    w.u32(0);
    const std::size_t total_at = w.placeholder_u32();
    w.u32(static_cast<std::uint32_t>(stadium_model_count));
    std::uint32_t offset = static_cast<std::uint32_t>(archive_header_size + descriptor_size * stadium_model_count);
    for (const auto& b : blobs) {
        w.u32(offset);
        w.u32(static_cast<std::uint32_t>(b.size()));
        w.u32(0);
        w.u32(0);
        offset += static_cast<std::uint32_t>(b.size());
    }
    for (const auto& b : blobs) w.bytes(b);
    w.patch_u32(total_at, total_size_u6(static_cast<std::uint32_t>(w.size())));
    return w.take();
}

Bytes stadium_rom() {
    Bytes rom(stadium_rom_size, 0);
    ByteWriter h(Endian::big);
    h.u32(0x80371240);
    h.u32(0x0000000F);
    h.u32(0x80100400);
    h.u32(0x00001449);
    h.u32(0);
    h.u32(0);
    h.fill(8);
    h.string("POKEMON STADIUM     ");
    h.fill(7);
    h.string("NPOE");
    h.u8(0);
    std::copy(h.data().begin(), h.data().end(), rom.begin());

    // Synthetic IPL3 area with the anti-tamper value the game checks. Its first word is then
    // chosen so the area's CRC-32 is the one CIC-6103's IPL3 has: CIC detection identifies the
    // sample as a 6103 image (the boot code itself is not real and would not boot).
    Bytes ipl3 = synthetic_payload(ipl3_end - 0x40, 0x49504C33);
    std::copy(ipl3.begin(), ipl3.begin() + (ipl3_end - 0x40), rom.begin() + 0x40);
    endian::store_be16(&rom[0xE38], 0x828A);
    n64::forge_ipl3_crc32(rom, 0x40, n64::ipl3_crc32(stadium_sample_cic));

    Bytes code = synthetic_payload(main_code_end - ipl3_end, 0x434F4445);
    std::copy(code.begin(), code.begin() + (main_code_end - ipl3_end), rom.begin() + ipl3_end);

    Bytes archive = stadium_model_archive();
    std::copy(archive.begin(), archive.end(), rom.begin() + model_archive_rom);
    std::fill(rom.begin() + model_archive_rom + archive.size(), rom.begin() + model_archive_rom_end, std::uint8_t{0xFF});
    // Stand-in for the audio archive that starts at 0x15C0000.
    const char audio[] = "modkit sample: audio bank archive stand-in";
    std::memcpy(&rom[model_archive_rom_end], audio, sizeof audio - 1);

    write_sample_battle_tables(rom);  // pointer table in main code, rows at 0x70D3A0
    const auto crc = n64::compute_checksums(rom, stadium_sample_cic);
    endian::store_be32(&rom[0x10], crc.crc1);
    endian::store_be32(&rom[0x14], crc.crc2);
    return rom;
}

std::vector<std::filesystem::path> write_stadium_sample(const std::filesystem::path& dir) {
    create_folder(dir);
    const auto path = dir / stadium_sample_file;
    write_file_atomic(path, stadium_rom());
    return {path};
}

}  // namespace mod::sample
