// The preprocessor: quantise, order influences, sort vertices, batch equal palettes, write the
// stream. The ordering rule lives in ONE place: palette_of() and sort_key() below.
#include "libmod/shred/preprocess.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <optional>
#include <type_traits>

#include "shred/sse2_lanes.hpp"

namespace mod::shred {

namespace {
// Insertion sort of the first n (<= 4) slot indices: stable, and cheaper than std::sort here.
template <class Less>
void sort_slots(std::array<std::size_t, 4>& idx, std::size_t n, Less less) {
    for (std::size_t i = 1; i < n; ++i)
        for (std::size_t j = i; j > 0 && less(idx[j], idx[j - 1]); --j) std::swap(idx[j], idx[j - 1]);
}
}  // namespace

const char* to_string(OrderingRule rule) noexcept {
    switch (rule) {
    case OrderingRule::weight_desc: return "weight-desc";
    case OrderingRule::count_desc: return "count-desc";
    case OrderingRule::bone_sorted: return "bone-sorted";
    }
    return "?";
}

OrderingRule parse_ordering_rule(std::string_view name) {
    for (auto r : all_ordering_rules)
        if (name == to_string(r)) return r;
    throw Error(ErrorKind::usage, "unknown ordering rule '" + std::string(name) +
                                      "' (weight-desc, count-desc or bone-sorted)");
}

std::array<std::uint8_t, 4> quantise_weights(std::span<const Influence> in) {
    std::array<std::uint8_t, 4> out{};
    if (in.empty() || in.size() > 4) throw Error(ErrorKind::format, "a vertex needs 1 to 4 influences");
    double sum = 0;
    for (const auto& i : in) {
        if (!std::isfinite(i.weight) || i.weight < 0)
            throw Error(ErrorKind::format, "influence weight " + std::to_string(i.weight) + " is negative or not finite");
        sum += i.weight;
    }
    if (!(sum > 0)) throw Error(ErrorKind::format, "the influence weights sum to zero");
    // Fast path: weights that are already bytes / 255 (decoded streams, processed scene
    // weights) give those bytes; the general rule below would give the same result.
    {
        int total = 0;
        bool exact = true;
        for (std::size_t k = 0; k < in.size() && exact; ++k) {
            double x = double(in[k].weight) / sum * 255.0;
            // x is in [0, 255]: truncating x + 0.5 rounds to nearest (only exact .5 ties
            // differ from nearbyint, and those are not "exact" either way).
            double r = double(static_cast<int>(x + 0.5));
            exact = std::fabs(x - r) < 1e-4;
            out[k] = static_cast<std::uint8_t>(r);
            total += out[k];
        }
        if (exact && total == 255) return out;
    }
    std::array<double, 4> rem{};
    int total = 0;
    for (std::size_t k = 0; k < in.size(); ++k) {
        double x = double(in[k].weight) / sum * 255.0;
        double base = std::floor(x + 1e-4);
        if (base > 255) base = 255;
        out[k] = static_cast<std::uint8_t>(base);
        rem[k] = x - base;
        total += out[k];
    }
    std::array<std::size_t, 4> idx{0, 1, 2, 3};
    sort_slots(idx, in.size(), [&](std::size_t a, std::size_t b) {
        if (rem[a] != rem[b]) return rem[a] > rem[b];
        if (in[a].bone != in[b].bone) return in[a].bone < in[b].bone;
        return a < b;
    });
    // total <= 255 always (each base <= x + 1e-4 and the bases are integers); hand out the rest.
    for (std::size_t j = 0; total < 255; j = (j + 1) % in.size(), ++total) ++out[idx[j]];
    return out;
}

namespace {

// A vertex's palette and weights under a rule.
struct Palette {
    std::array<std::uint8_t, 4> bones{unused_bone, unused_bone, unused_bone, unused_bone};
    std::array<std::uint8_t, 4> weights{};
    std::uint8_t count = 0;
};

[[noreturn]] void fail_vertex(std::size_t v, const std::string& what) {
    throw Error(ErrorKind::format, what, {}, no_offset, "mesh.vertex[" + std::to_string(v) + "]");
}

// THE ORDERING RULE, part 1: merge by bone, quantise, order the influences.
Palette palette_of(const SkinnedVertex& vx, std::size_t v, const PreprocessOptions& opt) {
    if (vx.influence_count < 1 || vx.influence_count > 4)
        fail_vertex(v, "influence count " + std::to_string(vx.influence_count) + " is not in 1..4");
    std::array<Influence, 4> merged{};
    std::size_t n = 0;
    for (std::size_t k = 0; k < vx.influence_count; ++k) {
        const auto& inf = vx.influences[k];
        if (inf.bone >= unused_bone) fail_vertex(v, "bone " + std::to_string(inf.bone) + " is not in 0..254");
        if (opt.bone_count && inf.bone >= *opt.bone_count)
            fail_vertex(v, "bone " + std::to_string(inf.bone) + " is outside the skeleton (" +
                               std::to_string(*opt.bone_count) + " bones)");
        std::size_t j = 0;
        while (j < n && merged[j].bone != inf.bone) ++j;
        if (j == n) merged[n++] = inf;
        else merged[j].weight += inf.weight;
    }
    std::array<std::uint8_t, 4> q;
    try {
        q = quantise_weights(std::span<const Influence>(merged.data(), n));
    } catch (Error& e) {
        e.prefix_path("mesh.vertex[" + std::to_string(v) + "]");
        throw;
    }
    std::array<std::size_t, 4> idx{0, 1, 2, 3};
    if (opt.rule == OrderingRule::bone_sorted) {
        sort_slots(idx, n, [&](std::size_t a, std::size_t b) { return merged[a].bone < merged[b].bone; });
    } else {
        sort_slots(idx, n, [&](std::size_t a, std::size_t b) {
            if (q[a] != q[b]) return q[a] > q[b];
            return merged[a].bone < merged[b].bone;
        });
    }
    Palette p;
    p.count = static_cast<std::uint8_t>(n);
    for (std::size_t k = 0; k < n; ++k) {
        p.bones[k] = static_cast<std::uint8_t>(merged[idx[k]].bone);
        p.weights[k] = q[idx[k]];
    }
    return p;
}

// THE ORDERING RULE, part 2: the vertex sort key (influence count, then palette bytes).
std::uint64_t sort_key(const Palette& p, OrderingRule rule) {
    std::uint64_t count = rule == OrderingRule::count_desc ? 4u - p.count : p.count;
    return (count << 32) | (std::uint64_t(p.bones[0]) << 24) | (std::uint64_t(p.bones[1]) << 16) |
           (std::uint64_t(p.bones[2]) << 8) | p.bones[3];
}

bool finite(float f) { return std::isfinite(f); }

// The common case of check_vertex_values in one test: position and tangent finite, UVs finite
// as halves. A float becomes a finite half exactly when its magnitude rounds below 65520: the
// magnitude bits of every float that does not (NaNs and infinities included) are at least
// 65520.0f's.
constexpr std::uint32_t half_overflow_bits = 0x477FF000u;  // 65520.0f
static_assert(std::bit_cast<std::uint32_t>(65520.0f) == half_overflow_bits);
#if defined(__SSE2__)
// Four lanes at a time, loaded from the vertex's bytes: position and tangent each with the
// float after them (normal[0], tangent_sign: not tested), uv0 and uv1 together.
static_assert(std::is_standard_layout_v<SkinnedVertex> && offsetof(SkinnedVertex, normal) == 12 &&
              offsetof(SkinnedVertex, tangent_sign) == offsetof(SkinnedVertex, tangent) + 12 &&
              offsetof(SkinnedVertex, uv1) == offsetof(SkinnedVertex, uv0) + 8);
bool values_ok(const SkinnedVertex& vx) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&vx);
    auto load = [bytes](std::size_t at) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at)); };
    const __m128i exponent = _mm_set1_epi32(0x7F800000);
    const __m128i not_finite =
        _mm_or_si128(_mm_cmpeq_epi32(_mm_and_si128(load(offsetof(SkinnedVertex, position)), exponent), exponent),
                     _mm_cmpeq_epi32(_mm_and_si128(load(offsetof(SkinnedVertex, tangent)), exponent), exponent));
    // Magnitudes are below 2^31: the signed comparison is the unsigned one.
    const __m128i half_ok = _mm_cmplt_epi32(_mm_and_si128(load(offsetof(SkinnedVertex, uv0)), _mm_set1_epi32(0x7FFFFFFF)),
                                            _mm_set1_epi32(half_overflow_bits));
    return (_mm_movemask_ps(_mm_castsi128_ps(not_finite)) & 0x7) == 0 && _mm_movemask_ps(_mm_castsi128_ps(half_ok)) == 0xF;
}
#else
bool half_finite_bits(float f) { return (std::bit_cast<std::uint32_t>(f) & 0x7FFFFFFFu) < half_overflow_bits; }
bool values_ok(const SkinnedVertex& vx) {
    return finite(vx.position[0]) & finite(vx.position[1]) & finite(vx.position[2]) & finite(vx.tangent[0]) &
           finite(vx.tangent[1]) & finite(vx.tangent[2]) &
           half_finite_bits(vx.uv0[0]) & half_finite_bits(vx.uv0[1]) & half_finite_bits(vx.uv1[0]) &
           half_finite_bits(vx.uv1[1]);
}
#endif

void check_vertex_values(const SkinnedVertex& vx, std::size_t v) {
    if (values_ok(vx)) return;
    // Which value failed, in this order.
    for (float f : vx.position)
        if (!finite(f)) fail_vertex(v, std::string(to_string(Invariant::position_finite)) + ": position is not finite");
    for (float f : vx.tangent)
        if (!finite(f)) fail_vertex(v, std::string(to_string(Invariant::tangent_finite)) + ": tangent is not finite");
    // A float becomes a non-finite half exactly when it is not finite or rounds to >= 65520.
    for (float f : {vx.uv0[0], vx.uv0[1], vx.uv1[0], vx.uv1[1]})
        if (!finite(f) || std::fabs(f) >= 65520.0f)
            fail_vertex(v, std::string(to_string(Invariant::uv_finite)) + ": UV is not finite as a half float");
}

#if defined(__SSE2__)
using sse2::byte_swap_16;
using sse2::byte_swap_32;

// float_to_half's fast path (floats that become normal halves) on four lanes, stored as four
// big-endian halves; false (nothing stored) when a lane needs the general path.
inline bool store_normal_halves(std::uint8_t* dst, __m128i bits) {
    const __m128i magnitude = _mm_and_si128(bits, _mm_set1_epi32(0x7FFFFFFF));
    // Magnitudes are below 2^31: signed comparisons are the unsigned ones.
    const __m128i normal = _mm_and_si128(_mm_cmpgt_epi32(magnitude, _mm_set1_epi32(0x387FFFFF)),
                                         _mm_cmplt_epi32(magnitude, _mm_set1_epi32(0x47800000)));
    if (_mm_movemask_ps(_mm_castsi128_ps(normal)) != 0xF) return false;
    const __m128i odd = _mm_and_si128(_mm_srli_epi32(magnitude, 13), _mm_set1_epi32(1));
    __m128i h = _mm_srli_epi32(
        _mm_add_epi32(_mm_add_epi32(magnitude, _mm_set1_epi32(0xFFF - 0x38000000)), odd), 13);
    h = _mm_or_si128(h, _mm_and_si128(_mm_srli_epi32(bits, 16), _mm_set1_epi32(0x8000)));
    h = byte_swap_16(sse2::low_halves(h, h));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(dst), h);
    return true;
}

// The vertex's floats are three runs of four in both layouts (position with normal[0],
// normal with tangent[0], tangent with its sign): each is byte-swapped as one vector, and the
// words the first two overrun (weights, extra) are written afterwards.
static_assert(offsetof(SkinnedVertex, normal) == offsetof(SkinnedVertex, position) + 12 &&
              offsetof(SkinnedVertex, tangent) == offsetof(SkinnedVertex, normal) + 12 &&
              offsetof(SkinnedVertex, tangent_sign) == offsetof(SkinnedVertex, tangent) + 12);
static_assert(vertex_field::weights == vertex_field::position + 12 && vertex_field::extra == vertex_field::normal + 12 &&
              vertex_field::tangent_sign == vertex_field::tangent + 12 && vertex_field::uv1 == vertex_field::uv0 + 4);
void write_vertex(VertexRecord& rec, const SkinnedVertex& vx, const Palette& p) {
    const auto* src = reinterpret_cast<const unsigned char*>(&vx);
    std::uint8_t* dst = rec.raw.data();
    auto load = [src](std::size_t at) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + at)); };
    auto store = [dst](std::size_t at, __m128i x) { _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + at), x); };
    store(vertex_field::position, byte_swap_32(load(offsetof(SkinnedVertex, position))));
    store(vertex_field::normal, byte_swap_32(load(offsetof(SkinnedVertex, normal))));
    store(vertex_field::tangent, byte_swap_32(load(offsetof(SkinnedVertex, tangent))));
    std::memcpy(dst + vertex_field::weights, p.weights.data(), 4);
    rec.set_word(vertex_field::extra, vx.extra);
    if (!store_normal_halves(dst + vertex_field::uv0, load(offsetof(SkinnedVertex, uv0)))) {
        rec.set_uv(0, vx.uv0);
        rec.set_uv(1, vx.uv1);
    }
    std::memcpy(dst + vertex_field::trailing, vx.trailing.data(), 8);
}
#else
void write_vertex(VertexRecord& rec, const SkinnedVertex& vx, const Palette& p) {
    rec.set_vec3(vertex_field::position, vx.position);
    rec.set_weights(p.weights);
    rec.set_vec3(vertex_field::normal, vx.normal);
    rec.set_word(vertex_field::extra, vx.extra);
    rec.set_vec3(vertex_field::tangent, vx.tangent);
    rec.set_f32(vertex_field::tangent_sign, vx.tangent_sign);
    rec.set_uv(0, vx.uv0);
    rec.set_uv(1, vx.uv1);
    std::memcpy(rec.raw.data() + vertex_field::trailing, vx.trailing.data(), 8);
}
#endif

// palette_of is a pure function of a vertex's influence list, and meshes made from FBX repeat
// their lists (every corner of a control point carries its list, and the corners welding
// keeps apart still share it: animation_with_skeleton's 2,464 vertices hold 286 distinct
// processed lists): each distinct list is computed once. Lists are equal when count, bones
// and weight bits are.
class ListMemo {
public:
    explicit ListMemo(std::size_t n) : slots_(std::bit_ceil(std::max<std::size_t>(2 * n, 16)), empty) {}

    // The id (0, 1, ... in order of first appearance) of the list of `v`, or none when it is
    // new: then `v` is recorded as the list's first vertex under the next id (the caller
    // computes its palette). Lists outside 1..4 influences are never recorded.
    std::optional<std::uint32_t> find_or_add(const std::vector<SkinnedVertex>& vertices, std::uint32_t v) {
        const SkinnedVertex& vx = vertices[v];
        if (vx.influence_count < 1 || vx.influence_count > 4) return std::nullopt;
        // Neighbours often share their list (a third of animation_with_skeleton's vertices
        // repeat the list of the vertex before): the last list seen is tried before hashing.
        if (last_ != empty && same_list(vertices[first_vertex_[last_]], vx)) return last_;
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t at = hash(vx) & mask;; at = (at + 1) & mask) {
            if (slots_[at] == empty) {
                slots_[at] = last_ = static_cast<std::uint32_t>(first_vertex_.size());
                first_vertex_.push_back(v);
                return std::nullopt;
            }
            if (same_list(vertices[first_vertex_[slots_[at]]], vx)) return last_ = slots_[at];
        }
    }

private:
    static constexpr std::uint32_t empty = 0xFFFFFFFFu;
    std::vector<std::uint32_t> slots_;         // list ids
    std::vector<std::uint32_t> first_vertex_;  // by list id
    std::uint32_t last_ = empty;               // the list id found or added last

    // An influence as one word: its bone and its weight bits (one load).
    static_assert(sizeof(Influence) == 8 && std::is_trivially_copyable_v<Influence>);
    static std::uint64_t word(const Influence& i) {
        std::uint64_t w;
        std::memcpy(&w, &i, sizeof w);
        return w;
    }
    static std::uint64_t hash(const SkinnedVertex& vx) {
        std::uint64_t h = vx.influence_count;
        for (std::size_t k = 0; k < vx.influence_count; ++k) h = (h ^ word(vx.influences[k])) * 0x9E3779B97F4A7C15ull;
        // The products carry low bits upwards only: fold the high bits (weights) back down
        // once, for the slot index (MurmurHash3's finaliser step).
        h ^= h >> 33;
        h *= 0xFF51AFD7ED558CCDull;
        return h ^ (h >> 33);
    }
    static bool same_list(const SkinnedVertex& a, const SkinnedVertex& b) {
        if (a.influence_count != b.influence_count) return false;
        for (std::size_t k = 0; k < a.influence_count; ++k)
            if (word(a.influences[k]) != word(b.influences[k])) return false;
        return true;
    }
};

// The vertex order (THE ORDERING RULE, part 3: stable by sort key) as a counting sort over
// the distinct lists: their keys are sorted (few), equal keys form one group, and the vertices
// are placed group by group in input order.
struct Grouping {
    std::vector<std::uint32_t> order;        // order[new_index] = input vertex
    std::vector<std::uint32_t> group_end;    // new index after each group's last vertex
    std::vector<std::uint32_t> group_list;   // a list of each group (they share the palette bones)
};

Grouping group_by_key(const std::vector<Palette>& lists, const std::vector<std::uint32_t>& list_of, OrderingRule rule) {
    struct Keyed {
        std::uint64_t key;
        std::uint32_t list;
    };
    std::vector<Keyed> keyed(lists.size());
    for (std::size_t l = 0; l < lists.size(); ++l) keyed[l] = {sort_key(lists[l], rule), static_cast<std::uint32_t>(l)};
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
    Grouping g;
    std::vector<std::uint32_t> group_of(lists.size());
    for (std::size_t k = 0; k < keyed.size(); ++k) {
        if (k == 0 || keyed[k].key != keyed[k - 1].key) g.group_list.push_back(keyed[k].list);
        group_of[keyed[k].list] = static_cast<std::uint32_t>(g.group_list.size() - 1);
    }
    // Counting sort: group sizes, their starts, then each vertex in input order.
    std::vector<std::uint32_t> next(g.group_list.size(), 0);
    for (std::uint32_t l : list_of) ++next[group_of[l]];
    g.group_end.resize(next.size());
    std::uint32_t at = 0;
    for (std::size_t k = 0; k < next.size(); ++k) {
        const std::uint32_t size = next[k];
        next[k] = at;
        at += size;
        g.group_end[k] = at;
    }
    g.order.resize(list_of.size());
    for (std::size_t v = 0; v < list_of.size(); ++v) g.order[next[group_of[list_of[v]]]++] = static_cast<std::uint32_t>(v);
    return g;
}

}  // namespace

PreprocessResult preprocess(const SkinnedMesh& mesh, const PreprocessOptions& opt) {
    const std::size_t n = mesh.vertices.size();
    if (n > 0xFFFFFFFFull / record_bytes) throw Error(ErrorKind::limit, "too many vertices for a 32-bit stream_size");
    // Each vertex checked and given its list; the palette computed once per distinct list.
    std::vector<Palette> lists;
    std::vector<std::uint32_t> list_of(n);
    ListMemo memo(n);
    for (std::size_t v = 0; v < n; ++v) {
        check_vertex_values(mesh.vertices[v], v);
        // A list seen before succeeded there: the same palette (a failing list fails at its
        // first vertex, as without the memo).
        if (auto seen = memo.find_or_add(mesh.vertices, static_cast<std::uint32_t>(v))) {
            list_of[v] = *seen;
            continue;
        }
        list_of[v] = static_cast<std::uint32_t>(lists.size());
        lists.push_back(palette_of(mesh.vertices[v], v, opt));
    }
    Grouping g = group_by_key(lists, list_of, opt.rule);

    PreprocessResult out;
    Stream& s = out.stream;
    s.envelope = opt.envelope;
    s.terminal = opt.terminal;
    // Filled in order below: one pass over the records instead of zero-filling them first.
    s.vertices.reserve(n);
    std::uint32_t i = 0;
    for (std::size_t k = 0; k < g.group_end.size(); ++k) {
        const Palette& p = lists[g.group_list[k]];
        // THE ORDERING RULE, part 4: a group is one batch, split every 65,535 vertices.
        for (; i < g.group_end[k];) {
            const std::uint32_t j = i + std::min(g.group_end[k] - i, max_batch_vertices);
            Batch b;
            b.header = BatchHeader::make(p.bones, static_cast<std::uint16_t>(j - i), p.count);
            b.first_vertex = i;
            b.vertex_count = j - i;
            s.batches.push_back(b);
            for (; i < j; ++i) {
                const std::uint32_t src = g.order[i];
                write_vertex(s.vertices.emplace_back(), mesh.vertices[src], lists[list_of[src]]);
            }
        }
    }
    endian::store_be32(s.envelope.data(), static_cast<std::uint32_t>(s.stream_size()));

    std::vector<std::uint32_t> new_index(n);
    for (std::uint32_t k = 0; k < n; ++k) new_index[g.order[k]] = k;
    out.order = std::move(g.order);
    out.triangles.resize(mesh.triangles.size());
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
        for (std::size_t c = 0; c < 3; ++c) {
            std::uint32_t v = mesh.triangles[t][c];
            if (v >= n)
                throw Error(ErrorKind::format, "vertex index " + std::to_string(v) + " is out of range (" +
                                                   std::to_string(n) + " vertices)",
                            {}, no_offset, "mesh.triangle[" + std::to_string(t) + "]");
            out.triangles[t][c] = new_index[v];
        }
    return out;
}

SkinnedMesh mesh_from_stream(const Stream& s) {
    SkinnedMesh m;
    m.vertices.resize(s.vertices.size());
    for (const auto& b : s.batches) {
        auto bones = b.header.bones();
        for (std::uint32_t i = b.first_vertex; i < b.first_vertex + b.vertex_count; ++i) {
            const auto& rec = s.vertices[i];
            auto& vx = m.vertices[i];
            vx.position = rec.position();
            vx.normal = rec.normal();
            vx.tangent = rec.tangent();
            vx.tangent_sign = rec.tangent_sign();
            vx.uv0 = rec.uv(0);
            vx.uv1 = rec.uv(1);
            vx.extra = rec.extra();
            std::memcpy(vx.trailing.data(), rec.raw.data() + vertex_field::trailing, 8);
            auto w = rec.weights();
            std::uint8_t n = 0;
            for (std::size_t k = 0; k < 4; ++k)
                if (bones[k] != unused_bone) vx.influences[n++] = {bones[k], float(w[k]) / 255.0f};
            vx.influence_count = n;
        }
    }
    return m;
}

ConformanceResult check_conformance(const Stream& stream) {
    ConformanceResult r;
    Bytes stored = encode_stream(stream);
    SkinnedMesh mesh = mesh_from_stream(stream);
    for (std::size_t k = 0; k < all_ordering_rules.size(); ++k) {
        PreprocessOptions opt;
        opt.rule = all_ordering_rules[k];
        opt.envelope = stream.envelope;
        opt.terminal = stream.terminal;
        Bytes again;
        try {
            again = encode_stream(preprocess(mesh, opt).stream);
        } catch (const Error&) {
            r.reproduces[k] = false;
            r.first_difference[k] = 0;
            continue;
        }
        auto mm = std::mismatch(stored.begin(), stored.end(), again.begin(), again.end());
        r.reproduces[k] = mm.first == stored.end() && mm.second == again.end();
        r.first_difference[k] = static_cast<std::uint64_t>(mm.first - stored.begin());
    }
    return r;
}

}  // namespace mod::shred
