// Accessors of the raw 64-byte records and the small Stream helpers.
#include "libmod/shred/stream.hpp"

#include <algorithm>

namespace mod::shred {

static_assert(sizeof(VertexRecord) == record_bytes, "records are stored back to back");
static_assert(sizeof(BatchHeader) == record_bytes, "headers are raw records");

std::uint16_t BatchHeader::vertex_count() const noexcept { return endian::load_be16(raw.data() + 4); }
std::uint16_t BatchHeader::influence_count() const noexcept { return endian::load_be16(raw.data() + 6); }
std::uint32_t BatchHeader::active_slots() const noexcept {
    return std::uint32_t(raw[0] != unused_bone) + (raw[1] != unused_bone) + (raw[2] != unused_bone) +
           (raw[3] != unused_bone);
}

BatchHeader BatchHeader::make(const std::array<std::uint8_t, 4>& bones, std::uint16_t vertex_count,
                              std::uint16_t influence_count) noexcept {
    BatchHeader h;
    std::copy(bones.begin(), bones.end(), h.raw.begin());
    endian::store_be16(h.raw.data() + 4, vertex_count);
    endian::store_be16(h.raw.data() + 6, influence_count);
    for (std::size_t at = 8; at < record_bytes; at += 4) endian::store_be32(h.raw.data() + at, batch_word);
    return h;
}

Record default_envelope() noexcept {
    Record r{};
    for (std::size_t at = 4; at < record_bytes; at += 4) endian::store_be32(r.data() + at, envelope_word);
    return r;
}

BatchHeader default_terminal() noexcept {
    return BatchHeader::make({unused_bone, unused_bone, unused_bone, unused_bone}, 0, 0);
}

std::uint64_t Stream::stream_size() const noexcept {
    return record_bytes * (std::uint64_t(vertices.size()) + batches.size() + 2);
}

std::size_t Stream::batch_of(std::uint32_t v) const {
    auto it = std::upper_bound(batches.begin(), batches.end(), v,
                               [](std::uint32_t x, const Batch& b) { return x < b.first_vertex; });
    if (it == batches.begin() || v >= vertices.size())
        throw Error(ErrorKind::usage, "vertex " + std::to_string(v) + " is not in the stream");
    return static_cast<std::size_t>(it - batches.begin() - 1);
}

std::array<std::uint32_t, 5> Stream::batches_by_influence() const noexcept {
    std::array<std::uint32_t, 5> h{};
    for (const auto& b : batches) {
        auto c = b.header.influence_count();
        if (c <= 4) ++h[c];
    }
    return h;
}

const char* to_string(StreamWarning::Kind kind) noexcept {
    switch (kind) {
    case StreamWarning::Kind::non_finite_normal: return "non-finite-normal";
    case StreamWarning::Kind::tangent_sign: return "tangent-sign";
    case StreamWarning::Kind::influence_palette: return "influence-palette";
    }
    return "?";
}

}  // namespace mod::shred
