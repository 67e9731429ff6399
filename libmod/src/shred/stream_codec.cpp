// Skinning stream decode / validate / encode. Structure first (one walk over the headers, no
// vertex copied), then one pass over the vertex records that copies and checks them. Records
// stay raw, which is what makes the round trip exact and the codec fast.
#include "libmod/shred/stream.hpp"
#include "shred/stream_pieces.hpp"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mod::shred {

const char* to_string(Invariant invariant) noexcept {
    switch (invariant) {
    case Invariant::stream_size: return "stream-size";
    case Invariant::envelope_padding: return "envelope-padding";
    case Invariant::batch_padding: return "batch-padding";
    case Invariant::empty_batch: return "empty-batch";
    case Invariant::influence_range: return "influence-range";
    case Invariant::coverage: return "coverage";
    case Invariant::terminal_header: return "terminal-header";
    case Invariant::bone_range: return "bone-range";
    case Invariant::weight_sum: return "weight-sum";
    case Invariant::inactive_weight: return "inactive-weight";
    case Invariant::position_finite: return "position-finite";
    case Invariant::uv_finite: return "uv-finite";
    case Invariant::tangent_finite: return "tangent-finite";
    }
    return "?";
}

bool is_violation(const Error& error, Invariant invariant) noexcept {
    std::string_view code = to_string(invariant);
    const auto& m = error.message();
    return m.size() > code.size() && m.compare(0, code.size(), code) == 0 && m[code.size()] == ':';
}

namespace {

// Where errors point: the file, the absolute offset of stream byte 0, the stream's path.
struct Where {
    const std::string& file;
    std::uint64_t base;
    const std::string& path;

    [[noreturn]] void fail(Invariant inv, std::uint64_t pos, const std::string& child, const std::string& detail) const {
        throw Error(ErrorKind::format, std::string(to_string(inv)) + ": " + detail, file, base + pos,
                    join_path(path, child));
    }
};

std::string batch_path(std::size_t b) { return "batch[" + std::to_string(b) + "]"; }
std::string vertex_path(std::size_t b, std::size_t v) {
    return batch_path(b) + ".vertex[" + std::to_string(v) + "]";
}

struct BatchSpan {
    std::uint64_t header_pos;  // byte offset of the header in the stream
    std::uint32_t vertex_count;
};

struct Structure {
    std::vector<BatchSpan> batches;
    std::uint64_t vertices = 0;
    std::uint64_t terminal_pos = 0;
    std::uint64_t stream_size = 0;
};

void check_header_common(const std::uint8_t* h, std::size_t index, std::uint64_t pos, const Where& where,
                         const StreamContext& ctx) {
    for (std::size_t w = 0; w < 14; ++w) {
        if (endian::load_be32(h + 8 + 4 * w) != batch_word)
            where.fail(Invariant::batch_padding, pos + 8 + 4 * w, batch_path(index) + ".padding[" + std::to_string(w) + "]",
                       "header word is " + hex(endian::load_be32(h + 8 + 4 * w), 8) + ", expected 0xDDCCBBAA");
    }
    std::uint16_t ic = endian::load_be16(h + 6);
    if (ic < 1 || ic > max_influences)
        where.fail(Invariant::influence_range, pos + 6, batch_path(index) + ".influence_count",
                   "influence count " + std::to_string(ic) + " is not in 1..4");
    if (ctx.bone_count) {
        for (std::size_t k = 0; k < 4; ++k)
            if (h[k] != unused_bone && h[k] >= *ctx.bone_count)
                where.fail(Invariant::bone_range, pos + k, batch_path(index) + ".bones[" + std::to_string(k) + "]",
                           "bone " + std::to_string(h[k]) + " is outside the skeleton (" +
                               std::to_string(*ctx.bone_count) + " bones)");
    }
}

// Walks the envelope and the headers of the stream at r[0..).
Structure walk(const ByteReader& r, const StreamContext& ctx) {
    Where where{r.file(), r.absolute(0), r.path()};
    r.require_at(0, record_bytes);
    const std::uint8_t* p = r.data().data();
    Structure s;
    s.stream_size = endian::load_be32(p);
    if (s.stream_size % record_bytes != 0 || s.stream_size < 2 * record_bytes)
        where.fail(Invariant::stream_size, 0, "stream_size",
                   "stream_size " + std::to_string(s.stream_size) + " is not 64 x (vertices + batches + 2)");
    for (std::size_t w = 1; w < 16; ++w)
        if (endian::load_be32(p + 4 * w) != envelope_word)
            where.fail(Invariant::envelope_padding, 4 * w, "envelope[" + std::to_string(w) + "]",
                       "envelope word is " + hex(endian::load_be32(p + 4 * w), 8) + ", expected 0xAABBCCDD");
    std::uint64_t pos = record_bytes;
    for (;;) {
        r.require_at(pos, record_bytes);
        const std::uint8_t* h = p + pos;
        std::uint16_t vc = endian::load_be16(h + 4), ic = endian::load_be16(h + 6);
        bool terminal = vc == 0 && ic == 0;
        std::size_t index = s.batches.size();
        if (ctx.vertex_count && s.vertices == *ctx.vertex_count) {
            if (!terminal)
                where.fail(Invariant::terminal_header, pos, batch_path(index),
                           "the batches cover the descriptor's " + std::to_string(*ctx.vertex_count) +
                               " vertices but the next header has vertex count " + std::to_string(vc) +
                               " and influence count " + std::to_string(ic) + " (expected 0 and 0)");
            break;
        }
        if (terminal) {
            if (ctx.vertex_count)
                where.fail(Invariant::coverage, pos, batch_path(index),
                           "terminal header after " + std::to_string(s.vertices) + " vertices; the descriptor declares " +
                               std::to_string(*ctx.vertex_count));
            break;
        }
        if (vc == 0)
            where.fail(Invariant::empty_batch, pos + 4, batch_path(index) + ".vertex_count",
                       "a batch with 0 vertices and influence count " + std::to_string(ic));
        check_header_common(h, index, pos, where, ctx);
        if (ctx.vertex_count && s.vertices + vc > *ctx.vertex_count)
            where.fail(Invariant::coverage, pos + 4, batch_path(index) + ".vertex_count",
                       "batch of " + std::to_string(vc) + " vertices runs past the descriptor's " +
                           std::to_string(*ctx.vertex_count) + " (" + std::to_string(s.vertices) + " covered)");
        // The vertices must be present before we step over them.
        r.require_at(pos + record_bytes, std::size_t(vc) * record_bytes);
        s.batches.push_back({pos, vc});
        s.vertices += vc;
        pos += record_bytes * (std::uint64_t(vc) + 1);
    }
    s.terminal_pos = pos;
    std::uint64_t expected = record_bytes * (s.vertices + s.batches.size() + 2);
    if (s.stream_size != expected)
        where.fail(Invariant::stream_size, 0, "stream_size",
                   "stream_size " + std::to_string(s.stream_size) + " but " + std::to_string(s.vertices) + " vertices and " +
                       std::to_string(s.batches.size()) + " batches need 64 x (" + std::to_string(s.vertices) + " + " +
                       std::to_string(s.batches.size()) + " + 2) = " + std::to_string(expected));
    return s;
}

inline bool finite32(std::uint32_t bits) noexcept { return (bits & 0x7F800000u) != 0x7F800000u; }
inline bool finite16(std::uint16_t bits) noexcept { return (bits & 0x7C00u) != 0x7C00u; }

void add_warning(StreamReport* report, StreamWarning::Kind kind, std::uint32_t vertex, std::uint64_t offset,
                 std::uint32_t batch = 0) {
    if (!report) return;
    if (kind == StreamWarning::Kind::non_finite_normal) ++report->non_finite_normals;
    else if (kind == StreamWarning::Kind::tangent_sign) ++report->odd_tangent_signs;
    else ++report->influence_palette_mismatches;
    if (report->warnings.size() < StreamReport::max_listed_warnings)
        report->warnings.push_back({kind, vertex, offset, batch});
}

// HYPOTHESIS influence-palette/1 (shred-stream.md): influence_count == slots whose bone is not
// 255. Reported, never refused.
void check_palette_count(const std::uint8_t* h, std::size_t batch, std::uint32_t first_vertex, std::uint64_t pos,
                         const Where& where, StreamReport* report) {
    std::uint32_t active = std::uint32_t(h[0] != unused_bone) + (h[1] != unused_bone) + (h[2] != unused_bone) +
                           (h[3] != unused_bone);
    if (active != endian::load_be16(h + 6))
        add_warning(report, StreamWarning::Kind::influence_palette, first_vertex, where.base + pos + 6,
                    static_cast<std::uint32_t>(batch));
}

// The slow path: which invariant does this vertex break (or which warnings does it raise)?
void diagnose_vertex(const std::uint8_t* v, const std::uint8_t* palette, std::size_t batch, std::uint32_t index,
                     std::uint64_t pos, const Where& where, StreamReport* report) {
    const std::uint8_t* w = v + vertex_field::weights;
    for (std::size_t k = 0; k < 4; ++k)
        if (palette[k] == unused_bone && w[k] != 0)
            where.fail(Invariant::inactive_weight, pos + vertex_field::weights + k,
                       vertex_path(batch, index) + ".weights[" + std::to_string(k) + "]",
                       "unused palette slot " + std::to_string(k) + " has weight " + std::to_string(w[k]));
    unsigned sum = unsigned(w[0]) + w[1] + w[2] + w[3];
    if (sum != 255)
        where.fail(Invariant::weight_sum, pos + vertex_field::weights, vertex_path(batch, index) + ".weights",
                   "weights sum to " + std::to_string(sum) + ", not 255");
    for (std::size_t k = 0; k < 3; ++k)
        if (!finite32(endian::load_be32(v + vertex_field::position + 4 * k)))
            where.fail(Invariant::position_finite, pos + vertex_field::position + 4 * k,
                       vertex_path(batch, index) + ".position[" + std::to_string(k) + "]", "position is not finite");
    for (std::size_t k = 0; k < 3; ++k)
        if (!finite32(endian::load_be32(v + vertex_field::tangent + 4 * k)))
            where.fail(Invariant::tangent_finite, pos + vertex_field::tangent + 4 * k,
                       vertex_path(batch, index) + ".tangent[" + std::to_string(k) + "]", "tangent is not finite");
    for (std::size_t k = 0; k < 4; ++k)
        if (!finite16(endian::load_be16(v + vertex_field::uv0 + 2 * k)))
            where.fail(Invariant::uv_finite, pos + vertex_field::uv0 + 2 * k,
                       vertex_path(batch, index) + (k < 2 ? ".uv0[" : ".uv1[") + std::to_string(k % 2) + "]",
                       "UV is not finite");
    for (std::size_t k = 0; k < 3; ++k)
        if (!finite32(endian::load_be32(v + vertex_field::normal + 4 * k))) {
            add_warning(report, StreamWarning::Kind::non_finite_normal, index, where.base + pos + vertex_field::normal);
            break;
        }
    std::uint32_t sign = endian::load_be32(v + vertex_field::tangent_sign);
    if (sign != 0x3F800000u && sign != 0xBF800000u)
        add_warning(report, StreamWarning::Kind::tangent_sign, index, where.base + pos + vertex_field::tangent_sign);
}

// The fast test of check_vertices on one record: weights sum to 255 with none in an unused
// slot (`inactive_mask`: the unused slots' bytes of the big-endian weights word), position,
// normal, tangent and UVs finite, tangent sign +-1. False sends the vertex to diagnose_vertex.
#if defined(__SSE2__)
// Four lanes at a time. The record is big-endian: instead of swapping its bytes, the exponent
// masks are swapped (0x7F800000 reads 0x0000807F, a half's 0x7C00 reads 0x007C).
inline bool vertex_ok(const std::uint8_t* v, std::uint32_t inactive_mask) noexcept {
    const __m128i f32_exponent = _mm_set1_epi32(0x807F);
    const __m128i f16_exponent = _mm_set1_epi16(0x7C);
    auto load = [v](std::size_t at) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(v + at)); };
    auto all_ones = [](__m128i x, __m128i mask) { return _mm_cmpeq_epi32(_mm_and_si128(x, mask), mask); };
    // Lanes 0..2 of each: position, normal, tangent (lane 3 holds weights, extra, sign).
    const __m128i floats = _mm_or_si128(all_ones(load(vertex_field::position), f32_exponent),
                                        _mm_or_si128(all_ones(load(vertex_field::normal), f32_exponent),
                                                     all_ones(load(vertex_field::tangent), f32_exponent)));
    // Halves 0..3: uv0, uv1 (then the trailing bytes).
    const __m128i uv = load(vertex_field::uv0);
    const __m128i halves = _mm_cmpeq_epi16(_mm_and_si128(uv, f16_exponent), f16_exponent);
    const bool finite = (_mm_movemask_ps(_mm_castsi128_ps(floats)) & 0x7) == 0 && (_mm_movemask_epi8(halves) & 0xFF) == 0;
    const std::uint32_t w = endian::load_be32(v + vertex_field::weights);
    const unsigned sum = (w >> 24) + ((w >> 16) & 0xFF) + ((w >> 8) & 0xFF) + (w & 0xFF);
    const std::uint32_t sign = endian::load_be32(v + vertex_field::tangent_sign);
    return finite & (sum == 255) & !(w & inactive_mask) & ((sign & 0x7FFFFFFFu) == 0x3F800000u);
}
#else
inline bool vertex_ok(const std::uint8_t* v, std::uint32_t inactive_mask) noexcept {
    std::uint32_t w = endian::load_be32(v + vertex_field::weights);
    unsigned sum = (w >> 24) + ((w >> 16) & 0xFF) + ((w >> 8) & 0xFF) + (w & 0xFF);
    std::uint32_t e = 0x7F800000u;
    std::uint32_t pos_ok = (endian::load_be32(v) & e) != e;
    pos_ok &= (endian::load_be32(v + 4) & e) != e;
    pos_ok &= (endian::load_be32(v + 8) & e) != e;
    std::uint32_t tan_ok = (endian::load_be32(v + 0x20) & e) != e;
    tan_ok &= (endian::load_be32(v + 0x24) & e) != e;
    tan_ok &= (endian::load_be32(v + 0x28) & e) != e;
    std::uint32_t nrm_ok = (endian::load_be32(v + 0x10) & e) != e;
    nrm_ok &= (endian::load_be32(v + 0x14) & e) != e;
    nrm_ok &= (endian::load_be32(v + 0x18) & e) != e;
    std::uint64_t uv = endian::load_be64(v + vertex_field::uv0);
    constexpr std::uint64_t hm = 0x7C007C007C007C00ull;
    // A half is non-finite when its exponent bits are all set: test each lane.
    std::uint64_t lanes = uv & hm;
    bool uv_ok = ((lanes >> 48) & 0xFFFF) != 0x7C00 && ((lanes >> 32) & 0xFFFF) != 0x7C00 &&
                 ((lanes >> 16) & 0xFFFF) != 0x7C00 && (lanes & 0xFFFF) != 0x7C00;
    std::uint32_t sign = endian::load_be32(v + vertex_field::tangent_sign);
    bool sign_ok = sign == 0x3F800000u || sign == 0xBF800000u;
    return sum == 255 && !(w & inactive_mask) && pos_ok && tan_ok && nrm_ok && uv_ok && sign_ok;
}
#endif

// Checks `count` vertices stored back to back at `v` (stream offset `pos`): the fast path
// tests everything at once and falls back to diagnose_vertex on the rare vertex that needs it.
void check_vertices(const std::uint8_t* v, std::uint32_t count, const std::uint8_t* palette, std::size_t batch,
                    std::uint32_t first_index, std::uint64_t pos, const Where& where, StreamReport* report) {
    std::uint32_t inactive_mask = 0;
    for (std::size_t k = 0; k < 4; ++k)
        if (palette[k] == unused_bone) inactive_mask |= 0xFFu << (24 - 8 * k);
    for (std::uint32_t i = 0; i < count; ++i, v += record_bytes, pos += record_bytes)
        if (!vertex_ok(v, inactive_mask)) diagnose_vertex(v, palette, batch, first_index + i, pos, where, report);
}

}  // namespace

std::uint64_t measure_stream(const ByteReader& r, const StreamContext& context) {
    return walk(r, context).stream_size;
}

Stream decode_stream(const ByteReader& r, const StreamContext& context, StreamReport* report) {
    Structure st = walk(r, context);
    Where where{r.file(), r.absolute(0), r.path()};
    const std::uint8_t* p = r.data().data();
    Stream s;
    std::memcpy(s.envelope.data(), p, record_bytes);
    std::memcpy(s.terminal.raw.data(), p + st.terminal_pos, record_bytes);
    s.batches.resize(st.batches.size());
    // Reserved and appended record by record: a resize would zero-fill them first.
    s.vertices.reserve(st.vertices);
    std::uint32_t first = 0;
    for (std::size_t b = 0; b < st.batches.size(); ++b) {
        const auto& span = st.batches[b];
        auto& batch = s.batches[b];
        std::memcpy(batch.header.raw.data(), p + span.header_pos, record_bytes);
        batch.first_vertex = first;
        batch.vertex_count = span.vertex_count;
        const std::uint8_t* v = p + span.header_pos + record_bytes;
        check_palette_count(batch.header.raw.data(), b, first, span.header_pos, where, report);
        check_vertices(v, span.vertex_count, batch.header.raw.data(), b, first, span.header_pos + record_bytes, where,
                       report);
        for (std::uint32_t i = 0; i < span.vertex_count; ++i)
            s.vertices.push_back(VertexRecord::from_bytes(v + std::size_t(i) * record_bytes));
        first += span.vertex_count;
    }
    return s;
}

void validate_stream(const Stream& s, const StreamContext& ctx, StreamReport* report, const StreamLocation& loc) {
    Where where{loc.file, loc.base, loc.path};
    for (std::size_t w = 1; w < 16; ++w)
        if (endian::load_be32(s.envelope.data() + 4 * w) != envelope_word)
            where.fail(Invariant::envelope_padding, 4 * w, "envelope[" + std::to_string(w) + "]",
                       "envelope word is not 0xAABBCCDD");
    std::uint64_t pos = record_bytes;
    std::uint32_t expected_first = 0;
    for (std::size_t b = 0; b < s.batches.size(); ++b) {
        const auto& batch = s.batches[b];
        const std::uint8_t* h = batch.header.raw.data();
        if (batch.vertex_count == 0)
            where.fail(Invariant::empty_batch, pos + 4, batch_path(b) + ".vertex_count", "a batch with 0 vertices");
        if (batch.vertex_count > max_batch_vertices || batch.first_vertex != expected_first ||
            std::uint64_t(batch.first_vertex) + batch.vertex_count > s.vertices.size())
            throw Error(ErrorKind::usage, "stream model: batch " + std::to_string(b) + " does not follow its predecessor",
                        loc.file, loc.base + pos, join_path(loc.path, batch_path(b)));
        check_header_common(h, b, pos, where, ctx);
        check_palette_count(h, b, batch.first_vertex, pos, where, report);
        check_vertices(s.vertices[batch.first_vertex].raw.data(), batch.vertex_count, h, b, batch.first_vertex,
                       pos + record_bytes, where, report);
        expected_first += batch.vertex_count;
        pos += record_bytes * (std::uint64_t(batch.vertex_count) + 1);
    }
    if (expected_first != s.vertices.size())
        throw Error(ErrorKind::usage, "stream model: the batches hold " + std::to_string(expected_first) + " of " +
                                          std::to_string(s.vertices.size()) + " vertices",
                    loc.file, loc.base + pos, loc.path);
    if (ctx.vertex_count && expected_first != *ctx.vertex_count)
        where.fail(Invariant::coverage, pos, batch_path(s.batches.size()),
                   "the batches cover " + std::to_string(expected_first) + " vertices; the descriptor declares " +
                       std::to_string(*ctx.vertex_count));
    if (s.terminal.vertex_count() != 0 || s.terminal.influence_count() != 0)
        where.fail(Invariant::terminal_header, pos, batch_path(s.batches.size()),
                   "the terminal header must have vertex count 0 and influence count 0");
    if (s.stream_size() > 0xFFFFFFFFull)
        where.fail(Invariant::stream_size, 0, "stream_size", "the stream does not fit a 32-bit stream_size");
}

void append_stream(const Stream& s, Bytes& out) {
    // Appends by ranges (no zero-fill of the output first): the codec is memory-bound.
    out.reserve(out.size() + s.stream_size());
    stream_pieces(s, [&out](const std::uint8_t* p, std::size_t n) { out.insert(out.end(), p, p + n); });
}

Bytes encode_stream(const Stream& s) {
    Bytes out;
    append_stream(s, out);
    return out;
}

}  // namespace mod::shred
