// Welding with every attribute, weights included, in the key (contract: weld.hpp).
#include "libmod/scene/weld.hpp"

#include "libmod/core/error.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

// The two-lane path needs x86-64 (_mm_cvtsi128_si64 does not exist on 32-bit x86).
#if defined(__SSE2__) && defined(__x86_64__)
#define MODKIT_WELD_SSE2 1
#include <emmintrin.h>
#endif

namespace mod::scene {
namespace {

// Quotients at or beyond 2^62 in magnitude (a tolerance finer than the floats, a huge UV) are
// already integers in double, so rounding would keep them as they are; they do not fit the
// grid's 64-bit words (llround made every one of them the same error value, merging different
// normals and UVs), and are compared by their float bits instead, which is the same equality.
constexpr double grid_limit = 4.611686018427388e18;  // 2^62

// llround(x) for the grid: an exact round-half-away-from-zero for |x| < 2^62 (x - trunc(x) is
// exact in double); callers keep larger quotients out (see grid_limit).
std::int64_t round_to_grid(double x) {
    auto t = static_cast<std::int64_t>(x);
    double fraction = x - static_cast<double>(t);
    // Branch-free: the fraction of noisy normals is unpredictable.
    return t + static_cast<std::int64_t>(fraction >= 0.5) - static_cast<std::int64_t>(fraction <= -0.5);
}

// Everything compared except the raw influence lists (compared separately: variable length).
// Fixed size without padding, hashed and compared as plain words. Each rounded component is
// a finite value on the tolerance grid, or (exact mode, a NaN / infinity, or a quotient beyond
// grid_limit) the float's bits with its bit set in `as_bits`, so a rounded value never equals a bit pattern. vertex_key
// assigns the head and tail words directly (only the ten rounded words are zeroed first, for
// absent attributes), each with one 8-byte store: the hash reads the key back at once, and a
// word assembled from two 4-byte stores cannot be forwarded to that load (it waits for the
// stores to retire; those stalls were a sixth of the weld's time).
struct Key {
    std::array<std::uint64_t, 3> head;     // position x | y, position z | present, as_bits | tangent sign (bits)
    std::array<std::int64_t, 10> rounded;  // normal xyz, tangent xyz, uv0 uv, uv1 uv
    std::array<std::uint64_t, 5> tail;     // colour r | g, b | a (bits), skin count | bone 0, bones 1 | 2, bone 3 | weights
};
static_assert(sizeof(Key) == 18 * 8 && std::has_unique_object_representations_v<Key>);

std::uint64_t pair_word(std::uint32_t low, std::uint32_t high) { return std::uint64_t{high} << 32 | low; }
std::uint64_t pair_word(float low, float high) {
    return pair_word(std::bit_cast<std::uint32_t>(low), std::bit_cast<std::uint32_t>(high));
}

enum Present : std::uint32_t { normal = 1, tangent = 2, uv0 = 4, uv1 = 8, colour = 16, skin = 32, influences = 64 };

// `Rounded` is tolerance > 0, decided once per weld rather than per component.
template <bool Rounded>
void round_into(Key& k, std::uint32_t& as_bits, std::size_t c, float f, double tolerance) {
    if constexpr (Rounded) {
        const double q = double(f) / tolerance;  // NaN and infinities fail the test: bits
        if (std::abs(q) < grid_limit) {
            k.rounded[c] = round_to_grid(q);
            return;
        }
    }
    k.rounded[c] = std::bit_cast<std::int32_t>(f);
    as_bits |= 1u << c;
}

// Components c0 and c1 at once: round_into of each, with the same double division and the same
// truncate-and-compare rounding, two lanes per instruction (the ten divisions and roundings
// were half of the key's cost). Quotients of 2^31 or more, and non-finite ones, take
// round_into (the scalar grid, or bit patterns beyond grid_limit and for non-finite values).
template <bool Rounded>
[[gnu::always_inline]] inline void round_pair(Key& k, std::uint32_t& as_bits, std::size_t c0, std::size_t c1, float f0,
                                              float f1, double tolerance) {
#if defined(MODKIT_WELD_SSE2)
    if constexpr (Rounded) {
        const __m128d q = _mm_div_pd(_mm_cvtps_pd(_mm_setr_ps(f0, f1, 0, 0)), _mm_set1_pd(tolerance));
        const __m128d magnitude = _mm_andnot_pd(_mm_set1_pd(-0.0), q);
        // False for NaN: those lanes are not "small" either.
        if (_mm_movemask_pd(_mm_cmplt_pd(magnitude, _mm_set1_pd(2147483648.0))) == 3) {
            const __m128i t32 = _mm_cvttpd_epi32(q);
            const __m128d fraction = _mm_sub_pd(q, _mm_cvtepi32_pd(t32));
            // Sign-extend the two truncated values to 64 bits (SSE2 has no cvtepi32_epi64).
            __m128i t = _mm_unpacklo_epi32(t32, _mm_srai_epi32(t32, 31));
            // Comparison masks are all ones (-1): subtracting the "up" mask adds one.
            t = _mm_sub_epi64(t, _mm_castpd_si128(_mm_cmpge_pd(fraction, _mm_set1_pd(0.5))));
            t = _mm_add_epi64(t, _mm_castpd_si128(_mm_cmple_pd(fraction, _mm_set1_pd(-0.5))));
            k.rounded[c0] = _mm_cvtsi128_si64(t);
            k.rounded[c1] = _mm_cvtsi128_si64(_mm_unpackhi_epi64(t, t));
            return;
        }
    }
#endif
    round_into<Rounded>(k, as_bits, c0, f0, tolerance);
    round_into<Rounded>(k, as_bits, c1, f1, tolerance);
}

std::uint64_t hash_key(const Key& k) {
    constexpr std::size_t n = sizeof(Key) / 8;
    static_assert(n % 3 == 0);
    // Words loaded straight from the key (no copy of it).
    const auto* bytes = reinterpret_cast<const unsigned char*>(&k);
    auto word = [bytes](std::size_t i) {
        std::uint64_t w;
        std::memcpy(&w, bytes + 8 * i, 8);
        return w;
    };
    // Three independent multiply chains (a third of the latency of one), then mixed.
    std::uint64_t a = 1, b = 2, c = 3;
    for (std::size_t i = 0; i < n; i += 3) {
        a = (a ^ word(i)) * 0x9E3779B97F4A7C15ull;
        b = (b ^ word(i + 1)) * 0xC2B2AE3D27D4EB4Full;
        c = (c ^ word(i + 2)) * 0x165667B19E3779F9ull;
    }
    std::uint64_t h = (a ^ (b >> 21) ^ (c << 17)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

// The mesh's per-vertex arrays, null when absent (check_sizes: each is empty or one entry per
// vertex), and the presence bits they give every key: decided once per weld, not per vertex.
struct Columns {
    const Vec3* positions;
    const Vec3* normals;
    const Vec4* tangents;
    const Vec2* uv0;
    const Vec2* uv1;
    const Vec4* colours;
    const SkinWeights* skin;
    std::uint32_t present = 0;

    explicit Columns(const Mesh& m)
        : positions(m.positions.data()), normals(column(m.normals)), tangents(column(m.tangents)),
          uv0(column(m.uv0)), uv1(column(m.uv1)), colours(column(m.colours)), skin(column(m.skin)) {
        auto bit = [](bool has, Present p) { return has ? std::uint32_t{p} : 0u; };
        present = bit(normals, Present::normal) | bit(tangents, Present::tangent) | bit(uv0, Present::uv0) |
                  bit(uv1, Present::uv1) | bit(colours, Present::colour) | bit(skin, Present::skin) |
                  bit(!skin && !m.influences.empty(), Present::influences);  // raw lists: same_bits
    }
    template <class T>
    static const T* column(const std::vector<T>& values) {
        return values.empty() ? nullptr : values.data();
    }
};

template <bool Rounded>
Key vertex_key(const Columns& m, std::size_t v, double tolerance) {
    Key k;
    std::uint32_t as_bits = 0;
    k.rounded.fill(0);
    if (m.normals && m.tangents) {
        round_pair<Rounded>(k, as_bits, 0, 1, m.normals[v][0], m.normals[v][1], tolerance);
        round_pair<Rounded>(k, as_bits, 3, 4, m.tangents[v][0], m.tangents[v][1], tolerance);
        round_pair<Rounded>(k, as_bits, 2, 5, m.normals[v][2], m.tangents[v][2], tolerance);  // the third components
    } else if (m.normals) {
        round_pair<Rounded>(k, as_bits, 0, 1, m.normals[v][0], m.normals[v][1], tolerance);
        round_into<Rounded>(k, as_bits, 2, m.normals[v][2], tolerance);
    } else if (m.tangents) {
        round_pair<Rounded>(k, as_bits, 3, 4, m.tangents[v][0], m.tangents[v][1], tolerance);
        round_into<Rounded>(k, as_bits, 5, m.tangents[v][2], tolerance);
    }
    if (m.uv0) round_pair<Rounded>(k, as_bits, 6, 7, m.uv0[v][0], m.uv0[v][1], tolerance);
    if (m.uv1) {
        // The second set is often a copy of the first (--second-uv copy): the same bits round
        // to the same values, so they are copied rather than divided again.
        if (m.uv0 && std::memcmp(m.uv1[v].data(), m.uv0[v].data(), sizeof(Vec2)) == 0) {
            // Element by element: one 16-byte copy of the two just-stored words stalls on
            // store forwarding.
            const std::int64_t u = k.rounded[6], w = k.rounded[7];
            k.rounded[8] = u;
            k.rounded[9] = w;
            as_bits |= (as_bits >> 6 & 3u) << 8;
        } else {
            round_pair<Rounded>(k, as_bits, 8, 9, m.uv1[v][0], m.uv1[v][1], tolerance);
        }
    }
    const Vec3& p = m.positions[v];
    k.head = {pair_word(p[0], p[1]), pair_word(std::bit_cast<std::uint32_t>(p[2]), m.present),
              pair_word(as_bits, m.tangents ? std::bit_cast<std::uint32_t>(m.tangents[v][3]) : 0u)};
    const Vec4 colour = m.colours ? m.colours[v] : Vec4{};
    k.tail[0] = pair_word(colour[0], colour[1]);
    k.tail[1] = pair_word(colour[2], colour[3]);
    if (m.skin) {
        const SkinWeights& s = m.skin[v];
        k.tail[2] = pair_word(std::uint32_t{s.count}, s.bones[0]);
        k.tail[3] = pair_word(s.bones[1], s.bones[2]);
        k.tail[4] = pair_word(s.bones[3], std::bit_cast<std::uint32_t>(s.weights));
    } else {
        k.tail[2] = k.tail[3] = k.tail[4] = 0;
    }
    return k;
}

// Per-vertex arrays must be empty or have one entry per vertex (what keep() relies on).
void check_sizes(const Mesh& m) {
    auto check = [&](std::size_t size, const char* what) {
        if (size != 0 && size != m.vertex_count())
            throw Error(ErrorKind::format, "mesh '" + m.name + "' has " + std::to_string(size) + " " + what + " for " +
                                               std::to_string(m.vertex_count()) + " vertices");
    };
    check(m.normals.size(), "normals");
    check(m.tangents.size(), "tangents");
    check(m.uv0.size(), "uv0 entries");
    check(m.uv1.size(), "uv1 entries");
    check(m.colours.size(), "colours");
    check(m.influences.size(), "influence lists");
    check(m.skin.size(), "skin entries");
}

template <class T>
void keep(std::vector<T>& values, const std::vector<std::uint32_t>& first_of) {
    if (values.empty()) return;
    // first_of is increasing and first_of[i] >= i: gathering in place moves each value down.
    for (std::size_t i = 0; i < first_of.size(); ++i)
        if (first_of[i] != i) values[i] = std::move(values[first_of[i]]);
    values.resize(first_of.size());
}

// The weld proper (weld() checks the options and sizes first).
template <bool Rounded>
WeldResult weld_checked(Mesh mesh, double tolerance) {
    std::size_t n = mesh.vertex_count();
    WeldResult result;
    result.remap.resize(n);
    // Open addressing over the first occurrences (slot = new vertex + 1, 0 = empty), with
    // their hashes by new vertex. Keys are not kept: a candidate's key is rebuilt when its
    // hash matches (about once per merged vertex). Keeping them (144 bytes a vertex) costs
    // more, in fresh memory pages, than rebuilding the matched ones.
    std::size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    std::vector<std::uint32_t> table(capacity, 0);
    std::vector<std::uint64_t> hashes;
    std::vector<std::uint32_t> first_of;  // new vertex -> its first old vertex
    hashes.reserve(n);
    first_of.reserve(n);
    const Columns columns(mesh);
    for (std::size_t v = 0; v < n; ++v) {
        const Key key = vertex_key<Rounded>(columns, v, tolerance);
        const std::uint64_t h = hash_key(key);
        for (std::size_t at = h & (capacity - 1);; at = (at + 1) & (capacity - 1)) {
            std::uint32_t slot = table[at];
            if (slot == 0) {
                table[at] = static_cast<std::uint32_t>(first_of.size() + 1);
                result.remap[v] = static_cast<std::uint32_t>(first_of.size());
                first_of.push_back(static_cast<std::uint32_t>(v));
                hashes.push_back(h);
                break;
            }
            std::size_t id = slot - 1;
            if (hashes[id] != h) continue;
            const Key candidate = vertex_key<Rounded>(columns, first_of[id], tolerance);
            if (std::memcmp(&candidate, &key, sizeof key) == 0 &&
                (!(columns.present & Present::influences) ||
                 same_bits(mesh.influences[first_of[id]], mesh.influences[v]))) {
                result.remap[v] = static_cast<std::uint32_t>(id);
                break;
            }
        }
    }
    keep(mesh.positions, first_of);
    keep(mesh.normals, first_of);
    keep(mesh.tangents, first_of);
    keep(mesh.uv0, first_of);
    keep(mesh.uv1, first_of);
    mesh.influences.keep_only(first_of);
    keep(mesh.skin, first_of);
    keep(mesh.colours, first_of);
    for (auto& tri : mesh.triangles)
        for (auto& index : tri) index = result.remap[index];
    result.mesh = std::move(mesh);
    return result;
}

}  // namespace

WeldResult weld(Mesh mesh, const WeldOptions& options) {
    if (!(options.tolerance >= 0) || !std::isfinite(options.tolerance))
        throw Error(ErrorKind::usage, "the weld tolerance must be a finite value >= 0");
    std::size_t n = mesh.vertex_count();
    for (const auto& tri : mesh.triangles)
        for (auto index : tri)
            if (index >= n)
                throw Error(ErrorKind::format, "mesh '" + mesh.name + "' triangle index " + std::to_string(index) +
                                                   " is out of range (" + std::to_string(n) + " vertices)");
    check_sizes(mesh);
    // The grid divides by the float tolerance converted to double, as every component did.
    if (options.tolerance > 0) return weld_checked<true>(std::move(mesh), double(options.tolerance));
    return weld_checked<false>(std::move(mesh), 0.0);
}

}  // namespace mod::scene
