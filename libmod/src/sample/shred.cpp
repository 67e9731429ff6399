// SHRED sample forge: character and layer PAKs with skinned quartets (shred-quartet/1 layout,
// RIDE PAK layout), and the disc-scale synthetic set for the benchmark. Deterministic.
#include "libmod/sample/shred.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/quartet.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace mod::sample {

namespace {

using shred::BoneSpec;
using shred::Influence;
using shred::SkinnedMesh;
using shred::SkinnedVertex;

struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
    float unit() { return static_cast<float>(next() >> 40) / static_cast<float>(1u << 24); }
};

// Strictly descending byte weights summing to 255 for k influences (so the palette order is
// the planned one whatever the bone ids).
std::array<std::uint8_t, 4> descending_weights(std::uint32_t k, Rng& rng) {
    std::array<std::uint8_t, 4> w{};
    switch (k) {
    case 1: w = {255, 0, 0, 0}; break;
    case 2: {
        std::uint32_t a = 128 + rng.below(120);
        w = {std::uint8_t(a), std::uint8_t(255 - a), 0, 0};
        break;
    }
    case 3: {
        std::uint32_t c = 1 + rng.below(40), rem = 255 - c;
        std::uint32_t lo = c + 1, hi = (rem - 1) / 2;
        std::uint32_t b = lo + rng.below(hi - lo + 1);
        w = {std::uint8_t(rem - b), std::uint8_t(b), std::uint8_t(c), 0};
        break;
    }
    default: {
        std::uint32_t d = 1 + rng.below(20), c = d + 1 + rng.below(20), rem = 255 - d - c;
        std::uint32_t lo = c + 1, hi = (rem - 1) / 2;
        std::uint32_t b = lo + rng.below(hi - lo + 1);
        w = {std::uint8_t(rem - b), std::uint8_t(b), std::uint8_t(c), std::uint8_t(d)};
        break;
    }
    }
    return w;
}

void set_influences(SkinnedVertex& v, const std::array<std::uint8_t, 4>& bones, const std::array<std::uint8_t, 4>& w,
                    std::uint32_t k) {
    v.influence_count = static_cast<std::uint8_t>(k);
    for (std::uint32_t j = 0; j < k; ++j) v.influences[j] = {bones[j], float(w[j]) / 255.0f};
}

std::array<float, 16> translation(float x, float y, float z) {
    return {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1};
}

// A humanoid-ish skeleton: named core bones first, then filler named `filler`NN, `count` in all.
std::vector<BoneSpec> skeleton(const std::vector<std::string>& named, std::size_t count, const std::string& filler) {
    std::vector<BoneSpec> bones;
    for (std::size_t i = 0; i < count; ++i) {
        BoneSpec b;
        if (i < named.size()) b.name = named[i];
        else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%s%02zu", filler.c_str(), i - named.size());
            b.name = buf;
        }
        b.parent = i == 0 ? shred::no_parent : static_cast<std::uint32_t>((i - 1) / 2);
        b.matrix = translation(0.01f * float(i % 7), 0.05f * float(i % 11), -0.02f * float(i % 5));
        b.word0 = static_cast<std::uint32_t>(i);
        bones.push_back(std::move(b));
    }
    return bones;
}

std::vector<std::string> character_core_names() {
    std::vector<std::string> n = {"Root", "Pelvis", "Spine", "Spine1", "Spine2", "Neck", "Head", "HeadEnd"};
    for (const char* side : {"Left", "Right"}) {
        for (const char* part : {"Shoulder", "Arm", "ArmRoll", "ForeArm", "ForeArmRoll", "Hand"})
            n.push_back(std::string(side) + part);
        for (const char* finger : {"Thumb", "Index", "Middle", "Ring", "Pinky"})
            for (int j = 1; j <= 3; ++j) n.push_back(std::string(side) + "Hand" + finger + std::to_string(j));
    }
    for (int f = 0; n.size() < 82; ++f) n.push_back("Face" + std::string(f < 10 ? "0" : "") + std::to_string(f));
    // 82 LeftLeg, 83 LeftLegRoll, 84 LeftFoot ... 88 RightLeg, 89 RightLegRoll, 90 RightFoot
    for (const char* side : {"Left", "Right"})
        for (const char* part : {"Leg", "LegRoll", "Foot", "ToeBase", "UpLeg", "UpLegRoll"})
            n.push_back(std::string(side) + part);
    return n;
}

std::vector<std::string> crowd_core_names() {
    std::vector<std::string> n = {"Root", "Pelvis", "Spine", "Spine1", "Neck", "Head"};
    for (const char* side : {"Left", "Right"})
        for (const char* part : {"Shoulder", "Arm", "ArmRoll", "ForeArm", "Hand", "UpLeg", "Leg", "LegRoll", "Foot", "ToeBase"})
            n.push_back(std::string(side) + part);
    return n;  // 26; the rest are cloth bones
}

// A tube around a chain of bones: `rings` x `segments` vertices, quads split in triangles.
// Vertices of a ring pair share bones; the influence count varies by groups of segments, so
// batches hold a handful of vertices each, as on the disc.
SkinnedMesh tube(const std::vector<std::uint8_t>& region, std::uint32_t rings, std::uint32_t segments, float radius,
                 std::uint64_t seed) {
    Rng rng{seed};
    SkinnedMesh m;
    const float pi = 3.14159265f;
    for (std::uint32_t r = 0; r < rings; ++r) {
        // Influence count per group of 4 segments: the disc's batch shares (about 10/22/30/38 %).
        std::array<std::uint32_t, 8> group_k{};
        for (auto& k : group_k) {
            std::uint32_t x = rng.below(100);
            k = x < 12 ? 1 : x < 34 ? 2 : x < 64 ? 3 : 4;
        }
        std::uint32_t base = (r / 2) % static_cast<std::uint32_t>(region.size());
        for (std::uint32_t s = 0; s < segments; ++s) {
            SkinnedVertex v;
            float a = 2 * pi * float(s) / float(segments);
            float ca = std::cos(a), sa = std::sin(a);
            v.position = {radius * ca, 0.05f * float(r), radius * sa};
            v.normal = {ca, 0, sa};
            v.tangent = {-sa, 0, ca};
            v.tangent_sign = (s % 2) ? -1.0f : 1.0f;
            v.uv0 = {float(s) / float(segments), float(r) / float(rings)};
            v.uv1 = {0.5f * v.uv0[0], 0.5f * v.uv0[1]};
            std::uint32_t k = std::min<std::uint32_t>(group_k[(s / 4) % 8], static_cast<std::uint32_t>(region.size()));
            std::array<std::uint8_t, 4> bones{};
            for (std::uint32_t j = 0; j < k; ++j) bones[j] = region[(base + j) % region.size()];
            set_influences(v, bones, descending_weights(k, rng), k);
            m.vertices.push_back(v);
        }
    }
    for (std::uint32_t r = 0; r + 1 < rings; ++r)
        for (std::uint32_t s = 0; s < segments; ++s) {
            std::uint32_t a = r * segments + s, b = r * segments + (s + 1) % segments;
            std::uint32_t c = a + segments, d = b + segments;
            m.triangles.push_back({a, c, b});
            m.triangles.push_back({b, c, d});
        }
    return m;
}

// The seed's sample shoe: every vertex has 3 or 4 influences; the 3-influence palettes are
// 83,84,82 (left) and 89,90,88 (right), so the stream's first batch header reads "STR\xFF"
// and the next "YZX\xFF"; the very first vertex has weights 139, 113, 3, 0.
SkinnedMesh shoes() {
    Rng rng{0x5348'4F45};
    SkinnedMesh m;
    for (int side = 0; side < 2; ++side) {
        std::uint8_t leg = side == 0 ? 82 : 88;
        SkinnedMesh t = tube({leg}, 6, 12, 0.06f, 77 + side);
        std::uint32_t offset = static_cast<std::uint32_t>(m.vertices.size());
        for (std::size_t i = 0; i < t.vertices.size(); ++i) {
            auto& v = t.vertices[i];
            v.position[0] += side == 0 ? 0.1f : -0.1f;
            bool four = (i % 5) == 4;
            std::array<std::uint8_t, 4> bones = {std::uint8_t(leg + 1), std::uint8_t(leg + 2), leg, std::uint8_t(leg + 3)};
            std::array<std::uint8_t, 4> w = four ? descending_weights(4, rng) : descending_weights(3, rng);
            if (side == 0 && i == 0) w = {139, 113, 3, 0};
            // Input order deliberately not the palette order: the preprocessor sorts by weight.
            v.influence_count = four ? 4 : 3;
            v.influences[0] = {bones[2], float(w[2]) / 255.0f};
            v.influences[1] = {bones[0], float(w[0]) / 255.0f};
            v.influences[2] = {bones[1], float(w[1]) / 255.0f};
            v.influences[3] = {bones[3], float(w[3]) / 255.0f};
            m.vertices.push_back(v);
        }
        for (auto t3 : t.triangles) m.triangles.push_back({t3[0] + offset, t3[1] + offset, t3[2] + offset});
    }
    return m;
}

// The stock data's NaN normals: three vertices of a glove with all components NaN
// (distinct payloads, which the codec must keep bit for bit).
SkinnedMesh gloves() {
    SkinnedMesh m = tube({12, 13, 14, 15, 16, 17, 18, 19}, 8, 12, 0.04f, 0x474C);
    for (std::uint32_t k = 0; k < 3; ++k) {
        auto& v = m.vertices[5 + 17 * k];
        for (std::uint32_t c = 0; c < 3; ++c) v.normal[c] = std::bit_cast<float>(0x7FC00000u | (k * 3 + c + 1));
    }
    return m;
}

shred::PakBuildEntry entry(const std::string& name, Bytes data) {
    shred::PakBuildEntry e;
    e.name = name;
    e.hash = crc32(ByteView(reinterpret_cast<const std::uint8_t*>(name.data()), name.size()));
    auto dot = name.rfind('.');
    std::string ext = dot == std::string::npos ? "" : name.substr(dot + 1);
    e.unknown1 = ext.empty() ? 0 : crc32(ByteView(reinterpret_cast<const std::uint8_t*>(ext.data()), ext.size()));
    e.unknown2 = static_cast<std::uint32_t>(data.size());
    e.data = std::move(data);
    return e;
}

void add_quartet(std::vector<shred::PakBuildEntry>& out, const std::string& base, const std::vector<BoneSpec>& bones,
                 const std::vector<shred::NewQuartetMesh>& meshes) {
    shred::QuartetFiles f = shred::build_quartet(bones, meshes);
    out.push_back(entry(base + ".rmg", std::move(f.meta)));
    out.push_back(entry(base + ".mmp", std::move(f.mmp)));
    out.push_back(entry(base + ".mgp", std::move(f.mgp)));
    out.push_back(entry(base + ".scp", std::move(f.scp)));
}

Bytes filler_bytes(std::size_t n, std::uint64_t seed) {
    Rng rng{seed};
    Bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.below(26) + 'a');
    return b;
}

// Issue 17 forge cases (review §5.1). Skeleton `skater03`: 40 bones whose SCP matrices hold a
// rotation about z by 15° x (i % 6) with the translation in column 3 (elements 3, 7, 11; row 3 =
// 0 0 0 1), the layout affine_layout() calls translation_in_column3.
std::vector<BoneSpec> rotated_column3_skeleton() {
    auto bones = skeleton(crowd_core_names(), 40, "Case");
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const float a = 3.14159265f / 12.0f * float(i % 6), c = std::cos(a), sn = std::sin(a);
        bones[i].matrix = {c, -sn, 0, 0.01f * float(i), sn, c, 0, 0.05f * float(i % 11), 0, 0, 1, -0.02f * float(i % 5),
                           0, 0, 0, 1};
    }
    return bones;
}

// Tied and zero weights. Each quad of the strip has its own influence list:
//  * bones 7, 3, 5 at 1/3 each: byte weights 85, 85, 85, a three-way tie (weight-desc puts tied
//    bones in ascending id order: palette 3, 5, 7);
//  * bones 9, 2, 6, 4 at 64, 64, 64, 63 (/255): palette 2, 6, 9, 4;
//  * bones 10, 11, 12 at 200, 55, 0.01: the third quantises to 0, an active slot with weight 0
//    (palette 10, 11, 12, 255; weights 200, 55, 0, 0; influence count 3).
SkinnedMesh ties_and_zero_weights() {
    SkinnedMesh m;
    const std::array<std::array<std::pair<std::uint32_t, float>, 4>, 3> lists = {{
        {{{7, 1.0f}, {3, 1.0f}, {5, 1.0f}, {0, 0.0f}}},
        {{{9, 64.0f}, {2, 64.0f}, {6, 64.0f}, {4, 63.0f}}},
        {{{10, 200.0f}, {11, 55.0f}, {12, 0.01f}, {0, 0.0f}}},
    }};
    const std::array<std::uint8_t, 3> counts = {3, 4, 3};
    for (std::uint32_t q = 0; q < 3; ++q)
        for (std::uint32_t c = 0; c < 4; ++c) {
            SkinnedVertex v;
            v.position = {0.1f * float(c & 1), 0.1f * float(q * 2 + (c >> 1)), 0.0f};
            v.normal = {0, 0, 1};
            v.tangent = {1, 0, 0};
            v.uv0 = {0.5f * float(c & 1), 0.25f * float(q)};
            v.influence_count = counts[q];
            for (std::uint32_t k = 0; k < counts[q]; ++k) v.influences[k] = {lists[q][k].first, lists[q][k].second};
            m.vertices.push_back(v);
        }
    for (std::uint32_t q = 0; q < 3; ++q) {
        const std::uint32_t a = 4 * q;
        m.triangles.push_back({a, a + 1, a + 2});
        m.triangles.push_back({a + 1, a + 3, a + 2});
    }
    return m;
}

// A quartet of one static mesh (ep = 0xFFFFFFFF at +0x9C): metadata header and table as in
// shred-quartet/1, a 0xC0-byte record whose only meaningful words are the name hash, ep and the
// processed flag (the real static-record layout is not known: a stand-in), MMP with the six
// indices of a quad, MGP with four 36-byte vertices of filler, and a one-bone SCP.
void add_static_quartet(std::vector<shred::PakBuildEntry>& out, const std::string& base) {
    ByteWriter meta(Endian::big);
    meta.u32(1);
    meta.u32(0x20);
    const std::size_t size_at = meta.placeholder_u32();
    meta.fill(0x20 - meta.size());
    meta.u32(0x30);
    meta.fill(0x30 - meta.size());
    Bytes record(0xC0, 0);
    endian::store_be32(record.data(), 0xB0A4D001);
    endian::store_be32(record.data() + shred::metadata_field::stream_offset, shred::metadata_field::not_skinned);
    endian::store_be32(record.data() + shred::metadata_field::flags, shred::metadata_field::processed_bit);
    meta.bytes(record);
    meta.patch_u32(size_at, static_cast<std::uint32_t>(meta.size()));
    ByteWriter mmp(Endian::big);
    for (std::uint16_t i : {0, 1, 2, 1, 3, 2}) mmp.u16(i);
    mmp.fill(4);
    BoneSpec root;
    root.name = "BoardRoot";
    root.matrix = translation(0, 0, 0);
    const std::array<BoneSpec, 1> one = {root};
    out.push_back(entry(base + ".rmg", meta.take()));
    out.push_back(entry(base + ".mmp", mmp.take()));
    out.push_back(entry(base + ".mgp", filler_bytes(4 * 36, 4)));
    out.push_back(entry(base + ".scp", shred::build_skeleton(one)));
}

}  // namespace

Bytes shred_character_pak() {
    std::vector<shred::PakBuildEntry> entries;
    entries.push_back(entry("scripts/skater01.txt", filler_bytes(300, 1)));
    {
        auto bones = skeleton(character_core_names(), 120, "Prop");
        std::vector<shred::NewQuartetMesh> meshes;
        meshes.push_back({0xF1CF719C, 0x1001, shoes()});
        meshes.push_back({0xB0D10001, 0x1002, tube({1, 2, 3, 4, 8, 9, 10, 29, 30, 31}, 20, 16, 0.2f, 11)});
        meshes.push_back({0x6EAD0001, 0x1003, tube({5, 6, 7, 50, 51, 52, 53}, 12, 16, 0.1f, 12)});
        meshes.push_back({0x610FE001, 0x1004, gloves()});
        add_quartet(entries, "skater01", bones, meshes);
    }
    {
        auto bones = skeleton(character_core_names(), 96, "Cloth");
        std::vector<shred::NewQuartetMesh> meshes;
        meshes.push_back({0xB0D10002, 0x2001, tube({1, 2, 3, 4, 8, 9, 86, 87, 92, 93}, 16, 16, 0.2f, 21)});
        meshes.push_back({0x6EAD0002, 0x2002, tube({5, 6, 7, 60, 61}, 10, 12, 0.1f, 22)});
        add_quartet(entries, "skater02", bones, meshes);
    }
    {
        // Issue 17 cases: rotated column-3 SCP matrices, tied and zero weights, an unprocessed
        // mesh (flag word 0 at +0xB4), and next to it a static quartet.
        auto bones = rotated_column3_skeleton();
        std::vector<shred::NewQuartetMesh> meshes;
        meshes.push_back({0xCA5E0001, 0x4001, ties_and_zero_weights()});
        shred::NewQuartetMesh raw{0xCA5E0002, 0x4002, tube({1, 2, 3, 20, 21}, 4, 8, 0.1f, 31)};
        raw.flags = 0;
        meshes.push_back(std::move(raw));
        add_quartet(entries, "skater03", bones, meshes);
        add_static_quartet(entries, "board01");
    }
    entries.push_back(entry("skate", filler_bytes(200, 2)));  // a Morpheme-like entry without extension
    return shred::build_pak(entries, 2, 1, 16);
}

Bytes shred_layer_pak() {
    std::vector<shred::PakBuildEntry> entries;
    int outfit = 0;
    for (const char* sex : {"male", "female"}) {
        auto bones = skeleton(crowd_core_names(), 40, "Cloth");
        std::vector<shred::NewQuartetMesh> meshes;
        for (std::uint32_t k = 0; k < 3; ++k) {
            std::vector<std::uint8_t> region;
            for (std::uint32_t j = 0; j < 7; ++j) region.push_back(static_cast<std::uint8_t>((k * 9 + j * 3 + outfit) % 40));
            meshes.push_back({0xC0000000u + 16u * std::uint32_t(outfit) + k, 0x3000u + k,
                              tube(region, 10 + 2 * k, 12, 0.15f, 100 + 10 * std::uint64_t(outfit) + k)});
        }
        add_quartet(entries, std::string("crowd_") + sex + "01", bones, meshes);
        ++outfit;
    }
    entries.push_back(entry("layer.txt", filler_bytes(120, 3)));
    return shred::build_pak(entries, 2, 1, 16);
}

std::vector<std::filesystem::path> write_shred_sample(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> out = {dir / "char_sample.pak", dir / "layer_sample.pak"};
    write_file_atomic(out[0], shred_character_pak());
    write_file_atomic(out[1], shred_layer_pak());
    return out;
}

void generate_shred_disc_set(const std::function<void(std::size_t, const SkinnedMesh&, std::uint32_t)>& sink,
                             const ShredDiscFigures& fig) {
    Rng rng{0xD15C};
    std::uint64_t total_batches = 0;
    for (std::uint32_t k = 1; k <= 4; ++k) total_batches += fig.batches_by_influence[k];
    // Batch sizes: 1..20 at random, then nudged one unit at a time to the exact vertex total.
    std::vector<std::uint16_t> sizes(total_batches);
    std::uint64_t sum = 0;
    for (auto& s : sizes) sum += (s = static_cast<std::uint16_t>(1 + rng.below(20)));
    for (std::size_t j = 0; sum != fig.vertices; j = (j + 1) % sizes.size()) {
        if (sum < fig.vertices) ++sizes[j], ++sum;
        else if (sizes[j] > 1) --sizes[j], --sum;
    }
    std::size_t next_batch = 0;
    for (std::uint32_t mi = 0; mi < fig.meshes; ++mi) {
        // Crowd meshes (about 60 % on the disc) have 40 bones; characters 96 to 192.
        std::uint32_t bone_count = (mi % 5) < 3 ? 40 : 96 + rng.below(97);
        SkinnedMesh mesh;
        for (std::uint32_t k = 1; k <= 4; ++k) {
            std::uint32_t n = fig.batches_by_influence[k] / fig.meshes + (mi < fig.batches_by_influence[k] % fig.meshes);
            std::set<std::array<std::uint8_t, 4>> palettes;
            while (palettes.size() < n) {
                std::array<std::uint8_t, 4> p{255, 255, 255, 255};
                for (std::uint32_t j = 0; j < k;) {
                    auto b = static_cast<std::uint8_t>(rng.below(bone_count));
                    if (std::find(p.begin(), p.begin() + j, b) == p.begin() + j) p[j++] = b;
                }
                palettes.insert(p);
            }
            for (const auto& p : palettes) {
                std::uint16_t count = sizes[next_batch++];
                for (std::uint16_t v = 0; v < count; ++v) {
                    SkinnedVertex vx;
                    vx.position = {rng.unit() - 0.5f, 2 * rng.unit(), rng.unit() - 0.5f};
                    float a = 6.2831853f * rng.unit();
                    vx.normal = {std::cos(a), 0, std::sin(a)};
                    vx.tangent = {-std::sin(a), 0, std::cos(a)};
                    vx.tangent_sign = (rng.next() & 1) ? 1.0f : -1.0f;
                    vx.uv0 = {rng.unit(), rng.unit()};
                    vx.uv1 = {rng.unit(), rng.unit()};
                    set_influences(vx, p, descending_weights(k, rng), k);
                    mesh.vertices.push_back(vx);
                }
            }
        }
        // Shuffle so the preprocessor has real sorting to do, then a triangle strip-like list.
        for (std::size_t i = mesh.vertices.size(); i > 1; --i) std::swap(mesh.vertices[i - 1], mesh.vertices[rng.below(static_cast<std::uint32_t>(i))]);
        for (std::uint32_t i = 0; i + 2 < mesh.vertices.size(); i += 2) mesh.triangles.push_back({i, i + 1, i + 2});
        sink(mi, mesh, bone_count);
    }
}

}  // namespace mod::sample
