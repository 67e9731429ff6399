#pragma once
// The bytes of an encoded stream (stream.hpp) as consecutive pieces, described once: the codec
// appends them (append_stream) and the quartet layout check compares them with bytes already
// in a file (quartet.cpp), so the two cannot drift apart.
#include "libmod/core/endian.hpp"
#include "libmod/shred/stream.hpp"

#include <cstddef>
#include <cstdint>

namespace mod::shred {

// Calls piece(const std::uint8_t* data, std::size_t n) for each run of the encoding, in order:
// the envelope with its first word replaced by stream_size(), each batch header with its
// vertex count (bytes 4..5) replaced by the batch's, the batch's vertex records, the terminal.
template <class Piece>
void stream_pieces(const Stream& s, Piece&& piece) {
    std::uint8_t size[4];
    endian::store_be32(size, static_cast<std::uint32_t>(s.stream_size()));
    piece(size, 4);
    piece(s.envelope.data() + 4, record_bytes - 4);
    for (const auto& b : s.batches) {
        std::uint8_t count[2];
        endian::store_be16(count, static_cast<std::uint16_t>(b.vertex_count));
        piece(b.header.raw.data(), 4);
        piece(count, 2);
        piece(b.header.raw.data() + 6, record_bytes - 6);
        // The vertex records are contiguous 64-byte arrays (static_assert in records.cpp).
        if (b.vertex_count) piece(s.vertices[b.first_vertex].raw.data(), std::size_t(b.vertex_count) * record_bytes);
    }
    piece(s.terminal.raw.data(), record_bytes);
}

}  // namespace mod::shred
