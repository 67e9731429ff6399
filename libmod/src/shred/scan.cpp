// Container-independent mesh scan: stream candidates by the envelope pattern, then metadata
// starts by be32(S + 0x9C) == stream_start - S, then full validation of each stream.
#include "libmod/shred/scan.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace mod::shred {

std::vector<std::uint64_t> find_stream_candidates(ByteView data) {
    std::vector<std::uint64_t> out;
    if (data.size() < record_bytes) return out;
    static const std::array<std::uint8_t, 60> pattern = [] {
        std::array<std::uint8_t, 60> p{};
        for (std::size_t k = 0; k < 60; k += 4) endian::store_be32(p.data() + k, envelope_word);
        return p;
    }();
    // Find 0xAABBCCDD words, then check the other 14 and take the word before as stream_size.
    const std::uint8_t* base = data.data();
    std::size_t limit = data.size() - record_bytes;  // last possible stream start
    std::size_t at = 4;
    while (at <= limit + 4) {
        const void* hit = std::memchr(base + at, 0xAA, limit + 4 - at + 1);
        if (!hit) break;
        std::size_t pos = static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - base);
        if (pos >= 4 && pos - 4 <= limit && std::memcmp(base + pos, pattern.data(), pattern.size()) == 0) {
            out.push_back(pos - 4);
            at = pos + pattern.size();  // a stream's envelope cannot overlap another's
        } else {
            at = pos + 1;
        }
    }
    return out;
}

namespace {

void find_words(ByteView data, std::uint64_t from, std::uint64_t to, std::uint32_t value,
                std::vector<std::uint32_t>& out) {
    for (std::uint64_t q = from; q + 4 <= to; ++q)
        if (endian::load_be32(data.data() + q) == value) out.push_back(static_cast<std::uint32_t>(q - from));
}

}  // namespace

FlagReadings processed_readings(const std::uint8_t* b) noexcept {
    FlagReadings r;
    r.u8 = (b[0] & 1) != 0;
    r.u16 = (b[1] & 1) != 0;
    r.u32 = (b[3] & 1) != 0;
    return r;
}

BoxCheck check_box(const std::uint8_t* record, const Stream& stream) {
    BoxCheck c;
    for (std::size_t k = 0; k < 3; ++k) {
        c.min[k] = std::bit_cast<float>(endian::load_be32(record + 0x10 + 4 * k));
        c.max[k] = std::bit_cast<float>(endian::load_be32(record + 0x1C + 4 * k));
    }
    std::array<float, 3> lo{}, hi{};
    bool first = true;
    for (const auto& v : stream.vertices) {
        auto p = v.position();
        bool out = false;
        for (std::size_t k = 0; k < 3; ++k) {
            // Written so that a NaN bound counts as outside.
            if (!(p[k] >= c.min[k] && p[k] <= c.max[k])) out = true;
            if (first || p[k] < lo[k]) lo[k] = p[k];
            if (first || p[k] > hi[k]) hi[k] = p[k];
        }
        first = false;
        c.outside += out;
    }
    c.tight = !first && lo == c.min && hi == c.max;
    return c;
}

std::vector<FoundMesh> scan(ByteView data, const std::string& file, const ScanOptions& options) {
    std::vector<std::uint64_t> starts = find_stream_candidates(data);
    std::vector<FoundMesh> found;
    if (starts.empty()) return found;
    // One pass over the file: every position q whose word v satisfies q - 0x9C + v == a start.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;  // (stream start, S)
    const std::size_t n = data.size();
    for (std::size_t q = metadata_field::stream_offset; q + 4 <= n; ++q) {
        std::uint32_t v = endian::load_be32(data.data() + q);
        if (v < metadata_field::min_stream_offset || v > options.max_metadata_bytes) continue;
        std::uint64_t s = q - metadata_field::stream_offset;
        std::uint64_t start = s + v;
        if (std::binary_search(starts.begin(), starts.end(), start)) pairs.emplace_back(start, s);
    }
    // The nearest S wins for each stream (the smallest ep).
    std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    ByteReader whole(data, Endian::big, file);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (k > 0 && pairs[k].first == pairs[k - 1].first) continue;
        FoundMesh m;
        m.metadata_offset = pairs[k].second;
        m.stream_offset = pairs[k].first;
        m.stream_size = endian::load_be32(data.data() + m.stream_offset);
        m.flags = endian::load_be32(data.data() + m.metadata_offset + metadata_field::flags);
        m.processed = (m.flags & metadata_field::processed_bit) != 0;
        m.processed_as = processed_readings(data.data() + m.metadata_offset + metadata_field::flags);
        m.footer_present = m.stream_offset + std::uint64_t(m.stream_size) + metadata_field::footer_bytes <= n;
        find_words(data, m.metadata_offset, m.stream_offset, metadata_field::descriptor_format_mask, m.format_mask_at);
        try {
            auto r = whole.sub(m.stream_offset, n - m.stream_offset, "mesh@" + hex(m.metadata_offset) + ".stream");
            StreamContext ctx;
            ctx.bone_count = options.bone_count;
            Stream s = decode_stream(r, ctx, &m.report);
            m.vertex_count = static_cast<std::uint32_t>(s.vertices.size());
            m.batch_count = static_cast<std::uint32_t>(s.batches.size());
            m.batches_by_influence = s.batches_by_influence();
            m.box = check_box(data.data() + m.metadata_offset, s);
            find_words(data, m.metadata_offset, m.stream_offset, m.vertex_count, m.vertex_count_at);
        } catch (const Error& e) {
            m.error = e.what();
        }
        found.push_back(std::move(m));
    }
    std::sort(found.begin(), found.end(),
              [](const FoundMesh& a, const FoundMesh& b) { return a.metadata_offset < b.metadata_offset; });
    return found;
}

}  // namespace mod::shred
