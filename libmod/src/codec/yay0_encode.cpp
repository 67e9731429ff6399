// Yay0 encoding: the Nintendo parse (byte-identical to the matching public encoders) and an
// optimal parse (smallest stream).
#include "codec/yay0_match.hpp"
#include "codec/yay0_window_matches.hpp"
#include "libmod/codec/yay0.hpp"

#include <limits>

namespace mod::yay0 {

namespace {

// Collects the three streams and lays them out as the Nintendo encoder does: header, mask
// words (last one zero-padded), link halfwords, chunk bytes, no trailing padding.
class TokenWriter {
public:
    explicit TokenWriter(std::size_t input_size) {
        masks_.reserve(input_size / 256 + 1);
        links_.reserve(input_size / 8 + 1);
        chunks_.reserve(input_size / 2 + 1);
    }

    void literal(std::uint8_t byte) {
        next_bit(true);
        chunks_.push_back(byte);
    }

    void match(std::uint32_t length, std::uint32_t distance) {
        next_bit(false);
        auto d = static_cast<std::uint16_t>(distance - 1);
        if (length >= 0x12) {
            links_.push_back(d);
            chunks_.push_back(static_cast<std::uint8_t>(length - 0x12));
        } else {
            links_.push_back(static_cast<std::uint16_t>(d | ((length - 2) << 12)));
        }
    }

    Bytes finish(std::size_t input_size) const {
        const std::size_t link_offset = header_size + 4 * masks_.size();
        const std::size_t chunk_offset = link_offset + 2 * links_.size();
        ByteWriter w(Endian::big);
        w.reserve(chunk_offset + chunks_.size());
        w.string("Yay0");
        w.u32(static_cast<std::uint32_t>(input_size));
        w.u32(static_cast<std::uint32_t>(link_offset));
        w.u32(static_cast<std::uint32_t>(chunk_offset));
        for (auto m : masks_) w.u32(m);
        for (auto l : links_) w.u16(l);
        w.bytes(chunks_);
        return w.take();
    }

private:
    void next_bit(bool literal) {
        if (bit_ == 0) {
            masks_.push_back(0);
            bit_ = 0x80000000u;
        }
        if (literal) masks_.back() |= bit_;
        bit_ >>= 1;
    }

    std::vector<std::uint32_t> masks_;
    std::vector<std::uint16_t> links_;
    std::vector<std::uint8_t> chunks_;
    std::uint32_t bit_ = 0;
};

Bytes encode_nintendo(ByteView data) {
    detail::MatchFinder finder(data.data(), data.size());
    TokenWriter out(data.size());
    std::size_t pos = 0;
    while (pos < data.size()) {
        detail::Match m = finder.longest_oldest(pos);
        if (m.length <= 2) {
            out.literal(data[pos]);
            ++pos;
            continue;
        }
        // One-byte look-ahead: a match at the next position that is at least 2 bytes longer
        // wins, and the current byte goes out as a literal. Only matches longer than
        // m.length + 1 matter, which prunes the search (and skips it when none can exist).
        detail::Match next = finder.longest_oldest(pos + 1, m.length + 1);
        if (next.length >= m.length + 2) {
            out.literal(data[pos]);
            ++pos;
            m = next;
        }
        out.match(m.length, m.distance);
        pos += m.length;
    }
    return out.finish(data.size());
}

// Token costs in bits: a mask bit plus the stream bytes each token spends.
constexpr std::uint32_t literal_bits = 9;
constexpr std::uint32_t short_match_bits = 17;  // length 3..0x11: one link halfword
constexpr std::uint32_t long_match_bits = 25;   // length 0x12..0x111: link halfword + chunk byte

Bytes encode_best(ByteView data, Progress* progress) {
    const std::size_t n = data.size();
    const std::vector<detail::Match> longest = detail::longest_matches_everywhere(data);
    if (progress) progress->advance(n);
    // cost[i]: fewest bits to encode data[i..n). choice[i]: 0 = literal, else match length
    // (any prefix of the longest match at i is a match at the same distance).
    //
    // Long matches all cost the same, so their best length is the one minimising
    // cost[i + len] over len in [0x12, L(i)]. As i falls, that window [i + 0x12, i + L(i)]
    // only moves down (L(i + 1) >= L(i) - 1: a match's tail is a match), so a monotonic deque
    // gives the minimum in O(1) amortised: positions enter at the low end, expire at the high
    // end, and a position is dropped once a lower one costs no more.
    std::vector<std::uint64_t> cost(n + 1, 0);
    std::vector<std::uint16_t> choice(n, 0);
    std::vector<std::size_t> window(n + 1);  // deque storage: [head, tail) of positions
    std::size_t head = 0, tail = 0;
    std::size_t next_entry = n + 1;  // positions >= next_entry are already in the deque
    for (std::size_t i = n; i-- > 0;) {
        std::uint64_t best = cost[i + 1] + literal_bits;
        std::uint16_t pick = 0;
        const std::uint32_t max_len = longest[i].length;
        const std::uint32_t short_end = std::min<std::uint32_t>(max_len, 0x11);
        for (std::uint32_t len = 3; len <= short_end; ++len) {
            std::uint64_t c = cost[i + len] + short_match_bits;
            if (c < best) { best = c; pick = static_cast<std::uint16_t>(len); }
        }
        if (max_len >= 0x12) {
            const std::size_t lo = i + 0x12, hi = i + max_len;
            while (next_entry > lo) {
                const std::size_t j = --next_entry;
                // The deque holds positions in descending order from head to tail; a new,
                // lower position evicts the higher ones that cost no less.
                while (tail > head && cost[window[tail - 1]] >= cost[j]) --tail;
                window[tail++] = j;
            }
            while (window[head] > hi) ++head;
            std::uint64_t c = cost[window[head]] + long_match_bits;
            if (c < best) { best = c; pick = static_cast<std::uint16_t>(window[head] - i); }
        }
        cost[i] = best;
        choice[i] = pick;
        if (progress && (i & 0xFFFF) == 0) progress->advance(std::min<std::size_t>(0x10000, n - i));
    }
    TokenWriter out(n);
    for (std::size_t i = 0; i < n;) {
        if (choice[i] == 0) {
            out.literal(data[i]);
            ++i;
        } else {
            out.match(choice[i], longest[i].distance);
            i += choice[i];
        }
    }
    return out.finish(n);
}

}  // namespace

Bytes encode(ByteView data, Mode mode, Progress* progress) {
    if (data.size() > std::numeric_limits<std::uint32_t>::max())
        throw Error(ErrorKind::limit, "Yay0 input of " + std::to_string(data.size()) +
                                          " bytes exceeds the 32-bit size field");
    if (mode == Mode::best) return encode_best(data, progress);
    Bytes out = encode_nintendo(data);
    if (progress) progress->advance(2 * data.size());
    return out;
}

}  // namespace mod::yay0
