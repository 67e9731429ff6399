#pragma once
// Helpers shared by the shred tests: deterministic synthetic meshes and the sample PAKs
// (written once per test process through `modkit sample --game shred`).
#include "test_support.hpp"

#include "libmod/shred/mesh.hpp"
#include "libmod/shred/preprocess.hpp"
#include "libmod/shred/stream.hpp"

#include <bit>
#include <cmath>

namespace shredtest {

// A mesh of `n` vertices whose influences come from `bones` bones, with weight orders that
// differ from bone orders and a mix of 1..4 influences; triangles over consecutive vertices.
inline mod::shred::SkinnedMesh random_mesh(std::uint32_t n, std::uint32_t bones, std::uint64_t seed) {
    modtest::Rng rng(seed);
    mod::shred::SkinnedMesh m;
    for (std::uint32_t i = 0; i < n; ++i) {
        mod::shred::SkinnedVertex v;
        for (auto& c : v.position) c = float(rng.below(2000)) / 1000.0f - 1.0f;
        float a = float(rng.below(6283)) / 1000.0f;
        v.normal = {std::cos(a), 0.0f, std::sin(a)};
        v.tangent = {-std::sin(a), 0.0f, std::cos(a)};
        v.tangent_sign = rng.below(2) ? 1.0f : -1.0f;
        v.uv0 = {float(rng.below(1024)) / 1024.0f, float(rng.below(1024)) / 1024.0f};
        v.uv1 = {float(rng.below(256)) / 256.0f, 0.25f};
        // Few distinct bone sets so batches hold several vertices.
        std::uint32_t k = 1 + rng.below(4);
        std::uint32_t base = rng.below(bones > 6 ? 6 : bones);
        v.influence_count = static_cast<std::uint8_t>(k);
        for (std::uint32_t j = 0; j < k; ++j)
            v.influences[j] = {(base + 3 * j) % bones, float(1 + rng.below(3)) * (j == 1 ? 1.7f : 1.0f)};
        m.vertices.push_back(v);
    }
    for (std::uint32_t i = 0; i + 2 < n; i += 3) m.triangles.push_back({i, i + 1, i + 2});
    return m;
}

inline mod::Bytes make_stream(const mod::shred::SkinnedMesh& m,
                              mod::shred::OrderingRule rule = mod::shred::OrderingRule::weight_desc) {
    mod::shred::PreprocessOptions o;
    o.rule = rule;
    return mod::shred::encode_stream(mod::shred::preprocess(m, o).stream);
}

inline mod::shred::Stream decode(mod::ByteView b, const mod::shred::StreamContext& c = {},
                                 mod::shred::StreamReport* r = nullptr) {
    return mod::shred::decode_stream(mod::ByteReader(b, mod::Endian::big, "test", "stream"), c, r);
}

// The folder holding char_sample.pak and layer_sample.pak (made once).
const std::filesystem::path& sample_dir();

}  // namespace shredtest
