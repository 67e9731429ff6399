// The sample forge's animations and battle tables (contract in stadium_animations.hpp; what is
// written: doc/formats/stadium-sample.md). Encoded as the decompilation reads them
// (../shared/reference/stadium_animation.md §4.2-§4.9), independently of modkit's decoder.
#include "sample/stadium_animations.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/stadium/battle_table.hpp"

#include <algorithm>

namespace mod::sample {

namespace {

using stadium::SkeletalAnimation;
using Desc = SkeletalAnimation::Channel;

// Packs signed fields of `bits` bits MSB first into big-endian halfwords (stored as s16 values
// the builder writes big-endian), plus one trailing zero halfword: the game's reader loads the
// halfword after a field's first one.
std::vector<std::int16_t> pack_fields(const std::vector<std::int32_t>& fields, unsigned bits) {
    const std::size_t total_bits = fields.size() * bits;
    std::vector<std::uint16_t> w((total_bits + 15) / 16 + 1, 0);
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::uint32_t v = std::uint32_t(fields[i]) & ((1u << bits) - 1);
        for (unsigned b = 0; b < bits; ++b) {
            const std::size_t p = i * bits + b;  // bit position from the MSB of word 0
            if (v & (1u << (bits - 1 - b))) w[p / 16] = std::uint16_t(w[p / 16] | (0x8000u >> (p % 16)));
        }
    }
    return std::vector<std::int16_t>(w.begin(), w.end());
}

// Distinct channels the bones use (0 .. n - 1).
int channel_count(int bones) { return bones >= 3 ? bones - 1 : bones; }

std::uint16_t frames_of(std::size_t index) { return static_cast<std::uint16_t>(4 + index % 5); }

// Packed, 12-bit translations, looping (flags 0, loop start 1).
SkeletalAnimation packed12(std::size_t index, int channels) {
    const std::uint16_t F = frames_of(index);
    SkeletalAnimation a;
    a.flags = 0;
    a.unknown2 = {0x12, static_cast<std::uint8_t>(index)};
    a.start_frame = 0;
    a.loop_frame = 1;
    a.frame_count = F;
    a.scale = {1000};  // element 0, read by the z descriptors' count-0 scale (offset 1 → index 0)
    std::vector<std::int32_t> rot, trans;
    for (int c = 0; c < channels; ++c) {
        Desc x, y, z;
        // x: constant scale, 12-bit rotation stream, 12-bit translation stream.
        x.n_scale = 1;
        x.scale_off = static_cast<std::uint16_t>(1000 + 10 * c);
        x.n_rot = static_cast<std::uint8_t>(F);
        x.rot_off = static_cast<std::uint16_t>(rot.size());
        for (int f = 0; f < F; ++f) rot.push_back(((f * 300 + c * 500 + 2048) % 4096) - 2048);
        x.n_trans = static_cast<std::uint8_t>(F);
        x.trans_off = static_cast<std::uint16_t>(trans.size());
        for (int f = 0; f < F; ++f) trans.push_back(f == 1 ? -2000 + c : (f * 37 + c * 11) % 200 - 100);
        // y: scale stream shorter than the animation (clamped), constant rotation (×16, the
        // first channel's wraps negative), constant translation (low 12 bits, sign-extended;
        // the high nibble is ignored).
        y.n_scale = static_cast<std::uint8_t>(F - 1);
        y.scale_off = static_cast<std::uint16_t>(a.scale.size());
        for (int f = 0; f < F - 1; ++f) a.scale.push_back(static_cast<std::int16_t>(1000 + 50 * f + c));
        y.n_rot = 1;
        y.rot_off = static_cast<std::uint16_t>(c == 0 ? 0xC00 : 0x100 + 0x10 * c);
        y.n_trans = 1;
        y.trans_off = static_cast<std::uint16_t>(0xAFC0 + c);
        // z: count-0 scale (element offset − 1), count-0 rotation (the field before its offset),
        // constant zero translation.
        z.n_scale = 0;
        z.scale_off = 1;
        z.n_rot = 0;
        z.rot_off = static_cast<std::uint16_t>(x.rot_off + 2);  // reads x's field 1
        z.n_trans = 1;
        z.trans_off = 0;
        a.channels.insert(a.channels.end(), {x, y, z});
    }
    a.rotation = pack_fields(rot, 12);
    a.translation = pack_fields(trans, 12);
    return a;
}

// Packed, 16-bit translations, holding the last frame (flags 0x06), start frame 1.
SkeletalAnimation packed16(std::size_t index, int channels) {
    const std::uint16_t F = frames_of(index);
    SkeletalAnimation a;
    a.flags = 0x06;
    a.start_frame = 1;
    a.loop_frame = 0;
    a.frame_count = F;
    a.scale = {0};
    std::vector<std::int32_t> rot, trans;
    for (int c = 0; c < channels; ++c) {
        Desc x, y, z;
        x.scale_off = 1000;
        x.n_rot = static_cast<std::uint8_t>(F);
        x.rot_off = static_cast<std::uint16_t>(rot.size());
        for (int f = 0; f < F; ++f) rot.push_back(-2048 + 400 * f + 40 * c);
        x.n_trans = static_cast<std::uint8_t>(F);
        x.trans_off = static_cast<std::uint16_t>(trans.size());
        for (int f = 0; f < F; ++f) trans.push_back(3000 * f - 5000 + c);  // beyond 12 bits
        y.scale_off = static_cast<std::uint16_t>(2000 - 100 * c);
        y.n_rot = 1;
        y.rot_off = static_cast<std::uint16_t>(0x800 + c);  // ×16 = 0x8000 + 16c: negative
        y.n_trans = 1;
        y.trans_off = static_cast<std::uint16_t>(0xFF00 - c);  // (s16): -256 - c
        z.scale_off = 500;
        z.n_rot = 1;
        z.rot_off = 0;
        z.n_trans = static_cast<std::uint8_t>(F - 2);  // shorter stream: clamped
        z.trans_off = static_cast<std::uint16_t>(trans.size());
        for (int f = 0; f < F - 2; ++f) trans.push_back(-32768 + 12000 * f + c);
        a.channels.insert(a.channels.end(), {x, y, z});
    }
    a.rotation = pack_fields(rot, 12);
    a.translation = pack_fields(trans, 16);
    return a;
}

// Hermite keys (flags 0x08, plus hold on every fourth model): narrow and wide keys, constants.
SkeletalAnimation hermite(std::size_t index, int channels) {
    const std::uint16_t F = static_cast<std::uint16_t>(10 + index % 3);
    SkeletalAnimation a;
    a.flags = static_cast<std::uint16_t>(0x08 | (index % 4 == 0 ? 0x02 : 0));
    a.unknown2 = {0xAB, 0xCD};
    a.frame_count = F;
    a.loop_frame = 2;
    const auto mid = static_cast<std::int16_t>(F / 2), last = static_cast<std::int16_t>(F - 1);
    auto narrow = [](std::vector<std::int16_t>& arr, std::vector<std::array<std::int16_t, 3>> keys) {
        const auto off = static_cast<std::uint16_t>(arr.size());
        for (const auto& k : keys) arr.insert(arr.end(), k.begin(), k.end());
        return off;
    };
    auto wide = [](std::vector<std::int16_t>& arr, std::vector<std::array<std::int16_t, 4>> keys) {
        const auto off = static_cast<std::uint16_t>(arr.size());
        for (const auto& k : keys) arr.insert(arr.end(), k.begin(), k.end());
        return off;
    };
    for (int c = 0; c < channels; ++c) {
        const auto k = static_cast<std::int16_t>(c);
        Desc x, y, z;
        // x: narrow translation keys, wide rotation keys (interp 2), narrow scale keys.
        x.interp = 0x02;
        x.n_trans = 3;
        x.trans_off = narrow(a.translation, {{0, std::int16_t(-40 + k), 90}, {mid, 25, -30}, {last, std::int16_t(60 - k), 0}});
        x.n_rot = 3;
        x.rot_off = wide(a.rotation, {{0, 3599, 0, 600}, {mid, -900, 300, -300}, {last, 1800, 0, 0}});
        x.n_scale = 2;
        x.scale_off = narrow(a.scale, {{0, 100, 0}, {last, std::int16_t(150 + k), 60}});
        // y: wide translation keys (interp 1), narrow rotation keys, constant scale 1.5.
        y.interp = 0x01;
        y.n_trans = 2;
        y.trans_off = wide(a.translation, {{1, 10, -20, 45}, {last, std::int16_t(-10 - k), 15, 0}});
        y.n_rot = 4;
        y.rot_off = narrow(a.rotation, {{0, 0, 0}, {2, 450, 150}, {std::int16_t(mid + 1), -450, 0}, {last, 7200, 900}});
        y.n_scale = 1;
        y.scale_off = 150;
        // z: wide scale keys (interp 4), constant rotation 45° and translation -30.
        z.interp = 0x04;
        z.n_scale = 2;
        z.scale_off = wide(a.scale, {{0, 100, 0, 30}, {last, 200, 90, 0}});
        z.n_rot = 0;
        z.rot_off = 450;
        z.n_trans = 1;
        z.trans_off = static_cast<std::uint16_t>(std::int16_t(-30));
        a.channels.insert(a.channels.end(), {x, y, z});
    }
    return a;
}

}  // namespace

std::uint8_t sample_bone_channel(std::size_t, int bones, int bone) {
    if (bones >= 3 && bone == bones - 1) return 0xFF;
    return static_cast<std::uint8_t>((bone + 1) % channel_count(bones));
}

bool sample_has_aux(std::size_t index) { return index % 3 == 0; }

std::int16_t sample_material_channel(std::size_t index, int bone) {
    return sample_has_aux(index) && bone < 2 ? static_cast<std::int16_t>(bone) : std::int16_t(-1);
}

std::size_t sample_skeletal_count(std::size_t index) { return index % 2 == 0 ? 3 : 2; }
std::size_t sample_aux_count(std::size_t index) { return sample_has_aux(index) ? 2 : 0; }

void add_sample_animations(stadium::ModelBuilder& m, std::size_t index, int bones, const std::vector<std::int16_t>& textures) {
    const int channels = channel_count(bones);
    m.add_animation(packed12(index, channels));
    m.add_animation(packed16(index, channels));
    if (sample_skeletal_count(index) > 2) m.add_animation(hermite(index, channels));
    if (!sample_has_aux(index)) return;
    // Frame textures in the formats and sizes of the materials they replace (the material DL's
    // load words stay): textures[0] is the forge's CI4 (64×32 on these models, palette 0),
    // textures[1] its RGBA16 16×16. Bone 0's material shows channel 0, bone 1's channel 1.
    auto pattern = [&](std::size_t bytes, unsigned salt) {
        Bytes b(bytes);
        for (std::size_t i = 0; i < bytes; ++i) b[i] = static_cast<std::uint8_t>((i / 8 + salt) * 0x25 + (i % 8 < 4 ? 0 : 0x11));
        return b;
    };
    const auto ci4 = static_cast<std::uint8_t>(textures.at(0)), rgba = static_cast<std::uint8_t>(textures.at(1));
    const auto ci4f = static_cast<std::uint8_t>(m.add_texture(stadium::TexFormat::ci, stadium::TexSize::b4, 64, 32,
                                                              pattern(64 * 32 / 2, unsigned(index))));
    const auto rgbaf = static_cast<std::uint8_t>(m.add_texture(stadium::TexFormat::rgba, stadium::TexSize::b16, 16, 16,
                                                               pattern(16 * 16 * 2, unsigned(index) + 7)));
    stadium::AuxAnimation loop;
    loop.frame_count = 4;
    loop.loop_frame = 1;
    loop.channels = {{4, 0}, {2, 4}};
    loop.stream = {ci4, ci4f, ci4, ci4f, rgba, rgbaf};
    m.add_aux_animation(std::move(loop));
    stadium::AuxAnimation hold;
    hold.flags = 0x02;
    hold.frame_count = 3;
    hold.start_frame = 1;
    hold.unknown2 = {0x5A, 0xA5};
    hold.channels = {{1, 0}, {3, 1}, {0, 1}};  // constant, stream, count 0 (reads base − 1 = 0)
    hold.stream = {ci4f, rgba, rgbaf, rgba};
    m.add_aux_animation(std::move(hold));
}

void write_sample_battle_tables(Bytes& rom) {
    using namespace stadium;
    constexpr std::size_t models = stadium_model_count;
    // Words 0..13 (the sample's models) and 152 (the alternative Pikachu, rows after model 13's,
    // animating like model 0) name blocks of their own; the others are 0 (offset 0: model 0's
    // block, as a zero word reads in the game).
    for (std::uint32_t i = 0; i < battle_pointer_table_words; ++i) {
        const bool own = i < models || i == battle_last_species;
        const std::uint32_t word = i < models ? i * 0xB90 : i == battle_last_species ? std::uint32_t(models) * 0xB90 : 0;
        endian::store_be32(&rom[battle_pointer_table_rom + 4 * i], word);
        if (!own) continue;
        const std::size_t model = i < models ? i : 0;
        const std::size_t skeletal = sample_skeletal_count(model), aux = sample_aux_count(model);
        // Moves play every skeletal animation but the last (issue 33, A24): that one is played
        // only through the context rows 0xA50 and 0xB20.
        const std::size_t by_moves = skeletal > 1 ? skeletal - 1 : 1;
        for (std::uint32_t move = 1; move <= battle_move_rows; ++move) {
            std::uint8_t* row = &rom[battle_rows_rom + word + (move - 1) * battle_row_size];
            for (std::uint32_t k = 0; k < battle_row_size; ++k) row[k] = static_cast<std::uint8_t>(move * 7 + k * 13);
            row[0] = static_cast<std::uint8_t>((move - 1) % by_moves);
            row[1] = aux && move % 2 == 0 ? static_cast<std::uint8_t>((move / 2) % aux) : std::uint8_t{0xFF};
            row[6] = static_cast<std::uint8_t>(move % 3);
        }
        // Context rows 0xA50 .. 0xB80 (the rest of the block up to the next one): pattern bytes;
        // the five the game starts skeletal animations from play the last (0xA50, 0xB20), the
        // first (0xA80) and the second (0xAF0, 0xB00) animation, no aux, start frame 0.
        for (std::uint32_t at = battle_move_rows * battle_row_size; at < battle_species_stride; at += battle_row_size) {
            std::uint8_t* row = &rom[battle_rows_rom + word + at];
            for (std::uint32_t k = 0; k < battle_row_size; ++k) row[k] = static_cast<std::uint8_t>(at / 16 * 11 + k * 5);
            if (std::find(battle_context_animation_rows.begin(), battle_context_animation_rows.end(), at) ==
                battle_context_animation_rows.end())
                continue;
            const std::size_t played = at == 0xA50 || at == 0xB20 ? skeletal - 1 : at == 0xA80 ? 0 : 1 % skeletal;
            row[0] = static_cast<std::uint8_t>(played);
            row[1] = 0xFF;
            row[6] = 0;
        }
    }
}

}  // namespace mod::sample
