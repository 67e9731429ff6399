#pragma once
// The SHRED skinning stream (spec and evidence: doc/formats/shred-stream.md). Big-endian.
//
//   envelope      64 bytes: u32 stream_size, 15 x u32 0xAABBCCDD
//   batch         64-byte header {u8 bones[4] (255 = unused), u16 vertex_count,
//                 u16 influence_count, 14 x u32 0xDDCCBBAA}, then vertex_count 64-byte vertices
//   ...           batches until the primary descriptor's vertex count is covered
//   terminal      a batch header with vertex_count 0 and influence_count 0
//   stream_size = 64 x (vertices + batches + 2)
//
// The model keeps every 64-byte record RAW (envelope, headers, vertices, terminal), so
// encode(decode(x)) == x by construction: floats, halves, NaN payloads and the unknown words
// (vertex extra/trailing bytes, terminal header contents, envelope words) are never
// re-computed. Fields are read and written through the accessors, which convert bits only.
// The stream has no magic: nothing here looks at text (a first batch with bones 83,84,82,255
// reads "STR\xFF" and is an ordinary batch).

#include "libmod/core/bytes.hpp"
#include "libmod/core/endian.hpp"
#include "libmod/shred/half.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mod::shred {

inline constexpr std::size_t record_bytes = 64;
inline constexpr std::uint32_t envelope_word = 0xAABBCCDD;
inline constexpr std::uint32_t batch_word = 0xDDCCBBAA;
inline constexpr std::uint8_t unused_bone = 255;
inline constexpr std::uint32_t max_batch_vertices = 0xFFFF;
inline constexpr std::uint32_t max_influences = 4;

using Record = std::array<std::uint8_t, record_bytes>;

// Offsets inside a 64-byte source vertex (proven / inferred / unknown as the doc says).
namespace vertex_field {
inline constexpr std::size_t position = 0x00;      // f32[3]
inline constexpr std::size_t weights = 0x0C;       // u8[4], one per palette slot
inline constexpr std::size_t normal = 0x10;        // f32[3]
inline constexpr std::size_t extra = 0x1C;         // u32, unknown (0 in stock data)
inline constexpr std::size_t tangent = 0x20;       // f32[3]
inline constexpr std::size_t tangent_sign = 0x2C;  // f32
inline constexpr std::size_t uv0 = 0x30;           // f16[2]
inline constexpr std::size_t uv1 = 0x34;           // f16[2]
inline constexpr std::size_t trailing = 0x38;      // u8[8], unknown
}  // namespace vertex_field

// Raw 64-byte source vertex with bit-exact accessors (inline: the preprocessor and the codec
// touch every field of millions of records).
struct VertexRecord {
    Record raw{};

    // A copy of the 64 bytes at `p`: a vector of records is then built by appending, instead of
    // being zero-filled and overwritten (only this local record is zeroed, and overwritten at once).
    static VertexRecord from_bytes(const std::uint8_t* p) noexcept {
        VertexRecord r;
        std::memcpy(r.raw.data(), p, record_bytes);
        return r;
    }

    std::uint32_t word(std::size_t offset) const noexcept { return endian::load_be32(raw.data() + offset); }
    void set_word(std::size_t offset, std::uint32_t v) noexcept { endian::store_be32(raw.data() + offset, v); }
    float f32(std::size_t offset) const noexcept { return std::bit_cast<float>(word(offset)); }
    void set_f32(std::size_t offset, float v) noexcept { set_word(offset, std::bit_cast<std::uint32_t>(v)); }
    std::array<float, 3> vec3(std::size_t offset) const noexcept {
        return {f32(offset), f32(offset + 4), f32(offset + 8)};
    }
    void set_vec3(std::size_t offset, const std::array<float, 3>& v) noexcept {
        for (std::size_t k = 0; k < 3; ++k) set_f32(offset + 4 * k, v[k]);
    }
    std::array<std::uint16_t, 2> halves(std::size_t offset) const noexcept {
        return {endian::load_be16(raw.data() + offset), endian::load_be16(raw.data() + offset + 2)};
    }
    void set_halves(std::size_t offset, const std::array<std::uint16_t, 2>& v) noexcept {
        endian::store_be16(raw.data() + offset, v[0]);
        endian::store_be16(raw.data() + offset + 2, v[1]);
    }

    std::array<float, 3> position() const noexcept { return vec3(vertex_field::position); }
    std::array<float, 3> normal() const noexcept { return vec3(vertex_field::normal); }
    std::array<float, 3> tangent() const noexcept { return vec3(vertex_field::tangent); }
    float tangent_sign() const noexcept { return f32(vertex_field::tangent_sign); }
    std::array<std::uint8_t, 4> weights() const noexcept {
        const auto* w = raw.data() + vertex_field::weights;
        return {w[0], w[1], w[2], w[3]};
    }
    void set_weights(const std::array<std::uint8_t, 4>& w) noexcept {
        for (std::size_t k = 0; k < 4; ++k) raw[vertex_field::weights + k] = w[k];
    }
    std::uint32_t extra() const noexcept { return word(vertex_field::extra); }
    // UV set 0 or 1, converted from / to halves.
    std::array<float, 2> uv(int set) const noexcept {
        auto h = halves(set == 0 ? vertex_field::uv0 : vertex_field::uv1);
        return {half_to_float(h[0]), half_to_float(h[1])};
    }
    void set_uv(int set, const std::array<float, 2>& uv) noexcept {
        set_halves(set == 0 ? vertex_field::uv0 : vertex_field::uv1, {float_to_half(uv[0]), float_to_half(uv[1])});
    }

    friend bool operator==(const VertexRecord&, const VertexRecord&) = default;
};

// Raw 64-byte batch (or terminal) header.
struct BatchHeader {
    Record raw{};

    std::array<std::uint8_t, 4> bones() const noexcept { return {raw[0], raw[1], raw[2], raw[3]}; }
    std::uint16_t vertex_count() const noexcept;
    std::uint16_t influence_count() const noexcept;
    // Palette slots whose bone is not 255.
    std::uint32_t active_slots() const noexcept;

    // A header with these fields and 14 x 0xDDCCBBAA.
    static BatchHeader make(const std::array<std::uint8_t, 4>& bones, std::uint16_t vertex_count,
                            std::uint16_t influence_count) noexcept;
    friend bool operator==(const BatchHeader&, const BatchHeader&) = default;
};

struct Batch {
    BatchHeader header;
    std::uint32_t first_vertex = 0;  // index into Stream::vertices
    std::uint32_t vertex_count = 0;  // == header.vertex_count()
};

struct Stream {
    Record envelope{};                  // raw: stream_size + 15 words, kept verbatim
    std::vector<Batch> batches;
    std::vector<VertexRecord> vertices;  // in stored order, batch after batch
    BatchHeader terminal;               // raw: vertex_count 0, influence_count 0, rest kept

    // 64 x (vertices + batches + 2): the size encode() writes.
    std::uint64_t stream_size() const noexcept;
    // The batch holding vertex `v`.
    std::size_t batch_of(std::uint32_t v) const;
    // Histogram of batches by influence count (index 1..4).
    std::array<std::uint32_t, 5> batches_by_influence() const noexcept;
};

// The envelope our writer uses: stream_size 0 (patched by encode) + 15 x 0xAABBCCDD.
Record default_envelope() noexcept;
// The terminal header our writer uses when no stored one is known (HYPOTHESIS: bones
// 255,255,255,255 + 14 x 0xDDCCBBAA; the seed proves only the two zero counts).
BatchHeader default_terminal() noexcept;

// Every invariant the seed proves, each with its own error. The error message of a violation
// starts with "<code>: " (to_string below), so callers and tests can tell them apart.
enum class Invariant {
    stream_size,         // stream_size != 64 x (vertices + batches + 2) (or not a multiple of 64)
    envelope_padding,    // an envelope word is not 0xAABBCCDD
    batch_padding,       // a batch header word is not 0xDDCCBBAA
    empty_batch,         // a non-terminal header with vertex_count 0
    influence_range,     // influence_count not in 1..4
    coverage,            // the batches do not cover exactly the descriptor's vertex count
    terminal_header,     // the header after the covered vertices is not the terminal one
    bone_range,          // a palette bone >= the skeleton's bone count
    weight_sum,          // a vertex's weights do not sum to 255
    inactive_weight,     // an unused palette slot has a non-zero weight
    position_finite,     // a position component is NaN or infinite
    uv_finite,           // a UV half is NaN or infinite
    tangent_finite,      // a tangent component is NaN or infinite
};
const char* to_string(Invariant invariant) noexcept;
// True when `error` reports a violation of `invariant`.
bool is_violation(const Error& error, Invariant invariant) noexcept;

// What the caller knows from outside the stream.
struct StreamContext {
    std::optional<std::uint32_t> vertex_count;  // the primary descriptor's vertex count
    std::optional<std::uint32_t> bone_count;    // the quartet skeleton's bone count
};

// Accepted oddities (never errors): NaN/infinite normals (14 in stock data), tangent signs
// other than +-1 (the sign is an inferred field), and batches that break HYPOTHESIS
// `influence-palette/1` (ours, not the seed's: a header's influence_count equals the number of
// its palette slots whose bone is not 255). The seed says only that 255 marks an unused slot
// and that the count is 1..4; weights are read per slot whatever the count, so a stream that
// breaks the hypothesis is read, kept verbatim and reported (modkit shred scan / show).
struct StreamWarning {
    enum class Kind { non_finite_normal, tangent_sign, influence_palette } kind;
    std::uint32_t vertex = 0;  // index in Stream::vertices (influence_palette: the batch's first vertex)
    std::uint64_t offset = 0;  // absolute offset of the field
    std::uint32_t batch = 0;   // the batch holding it
};
struct StreamReport {
    std::vector<StreamWarning> warnings;  // at most max_listed_warnings listed
    std::uint64_t non_finite_normals = 0;
    std::uint64_t odd_tangent_signs = 0;
    std::uint64_t influence_palette_mismatches = 0;  // batches breaking influence-palette/1
    static constexpr std::size_t max_listed_warnings = 256;
};
const char* to_string(StreamWarning::Kind kind) noexcept;

// Decodes the stream starting at relative offset 0 of `r` (the range may extend past the
// stream: only stream_size bytes are used) and validates every invariant above. Errors name
// r.file(), the absolute offset of the offending field and a path such as
// "<r.path>.batch[3].vertex[120].weights". Warnings are added to `report` when given.
// Never allocates more than the bytes present justify.
Stream decode_stream(const ByteReader& r, const StreamContext& context = {}, StreamReport* report = nullptr);

// Structural checks only (envelope, headers, sizes, coverage, terminal): returns the stream
// extent in bytes without copying vertices. Throws like decode_stream.
std::uint64_t measure_stream(const ByteReader& r, const StreamContext& context = {});

// Where validate_stream errors point: offsets are base + position in the encoded stream.
struct StreamLocation {
    std::string file;
    std::uint64_t base = 0;
    std::string path = "stream";
};
// Re-checks every invariant on a (possibly edited) model. Throws like decode_stream.
void validate_stream(const Stream& stream, const StreamContext& context = {}, StreamReport* report = nullptr,
                     const StreamLocation& where = {});

// Writes the stream: the envelope's first word is set to stream_size() and each batch
// header's vertex_count to its batch's vertex_count; every other byte is the model's raw
// bytes. encode_stream(decode_stream(x)) == x[0, stream_size) for every valid x.
Bytes encode_stream(const Stream& stream);
// Same, appended to `out`.
void append_stream(const Stream& stream, Bytes& out);

}  // namespace mod::shred
