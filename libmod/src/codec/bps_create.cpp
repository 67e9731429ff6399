// BPS patch creation: a deterministic greedy parse with one step of lookahead over matches
// found through a suffix array of the source and a hash index of the target
// (doc/formats/bps.md §4).
#include "libmod/codec/bps.hpp"

#include "bps_parse.hpp"
#include "bps_suffix.hpp"
#include "bps_window.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/hash.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace mod::bps {

namespace {

using detail::match_length;

// Hash table of recent target positions: `ways` slots per bucket, newest first, so memory is
// bounded whatever the input size (doc/formats/bps.md §4 gives the sizes).
class PositionIndex {
public:
    static constexpr std::size_t ways = 4;

    PositionIndex(std::size_t positions, std::size_t key_length) : key_length_(key_length) {
        const std::size_t wanted = std::max<std::size_t>(positions / 2, 1u << 10);
        bucket_bits_ = static_cast<int>(std::min<std::size_t>(std::bit_width(wanted - 1), 22));
        // calloc: large tables come as untouched zero pages, so only the buckets written cost
        // memory (a patch of a few edits indexes a few thousand positions).
        slots_.reset(static_cast<std::uint32_t*>(std::calloc((std::size_t(1) << bucket_bits_) * ways, sizeof(std::uint32_t))));
        if (!slots_) throw Error(ErrorKind::limit, "not enough memory for the BPS target index");
    }

    std::size_t bucket(ByteView data, std::size_t pos) const noexcept {
        std::uint64_t key = 0;
        std::memcpy(&key, data.data() + pos, std::min<std::size_t>(8, data.size() - pos));
        key &= key_length_ >= 8 ? ~0ull : (1ull << (8 * key_length_)) - 1;
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> (64 - bucket_bits_));
    }
    // Positions are stored +1 so 0 means empty.
    void insert(std::size_t bucket, std::uint32_t pos) noexcept {
        std::uint32_t* b = &slots_[bucket * ways];
        for (std::size_t w = ways - 1; w > 0; --w) b[w] = b[w - 1];
        b[0] = pos + 1;
    }
    const std::uint32_t* candidates(std::size_t bucket) const noexcept { return &slots_[bucket * ways]; }

private:
    std::size_t key_length_;
    int bucket_bits_ = 10;
    struct Free {
        void operator()(std::uint32_t* p) const noexcept { std::free(p); }
    };
    std::unique_ptr<std::uint32_t[], Free> slots_;
};

std::size_t varint_size(std::uint64_t v) noexcept {
    std::size_t n = 1;
    while (v >>= 7) { --v; ++n; }
    return n;
}

std::uint64_t signed_offset(std::uint64_t from, std::uint64_t to) noexcept {
    return to >= from ? (to - from) << 1 : ((from - to) << 1) | 1;
}

struct Choice {
    Action kind = Action::target_read;
    std::size_t length = 0;
    std::size_t from = 0;   // source or target position for copies
    std::ptrdiff_t gain = 0;  // bytes saved against literals
};

class Encoder {
public:
    Encoder(ByteView source, ByteView target, const CreateOptions& options)
        : source_(source), target_(target),
          key_(std::clamp<std::size_t>(options.min_match, 4, 8)),
          window_(detail::search_window(source, target)),
          suffixes_(source.subspan(window_.begin, window_.end - window_.begin)),
          // Windowed, only the changed bytes become literals or short matches: the index is sized
          // for them (a few pages, where a table for the whole target would fault in tens of MiB).
          target_index_(window_.whole ? target.size() : window_.target_changed, key_) {
        if (!window_.whole) blocks_.emplace(source);
    }

    void run(const detail::OpSink& out) {
        std::size_t pos = 0, literal_start = 0;
        while (pos < target_.size()) {
            Choice c = best_at(pos);
            // A match that interrupts a literal run makes the run after it pay a new header.
            if (c.gain < (pos > literal_start ? 2 : 1)) {
                index_target(pos, 1, 1);
                ++pos;
                continue;
            }
            // One step of lookahead: a literal here is worth it when the next position's match
            // saves more than the literal costs.
            if (c.length < lazy_below && pos + 1 < target_.size()) {
                index_target(pos, 1, 1);
                const Choice next = best_at(pos + 1);
                if (next.gain > c.gain + 1) {
                    ++pos;
                    continue;
                }
            }
            const std::size_t back = extend_backwards(c, pos, literal_start);
            pos -= back;
            c.from -= back;
            c.length += back;
            flush_literals(out, literal_start, pos);
            emit(out, c);
            // Bytes of short matches (new data mixed with old) are indexed sparsely; long runs
            // of old data are not: the suffix search finds them (as TargetCopy too).
            if (c.length < lazy_below) index_target(pos, c.length, matched_index_step);
            pos += c.length;
            literal_start = pos;
        }
        flush_literals(out, literal_start, pos);
    }

private:
    static constexpr std::size_t matched_index_step = 8;
    // Source runs at least this long (same position or the cursor) are taken without a search.
    static constexpr std::size_t search_below = 256;
    static constexpr std::size_t lazy_below = 64;
    static constexpr std::size_t max_neighbours = 16;

    // How many literals just before `pos` the chosen match also covers.
    std::size_t extend_backwards(const Choice& c, std::size_t pos, std::size_t literal_start) const {
        const std::uint8_t* from_base = c.kind == Action::target_copy ? target_.data() : source_.data();
        std::size_t back = 0;
        while (pos - back > literal_start && c.from > back && from_base[c.from - back - 1] == target_[pos - back - 1])
            ++back;
        return back;
    }

    void consider(Choice& best, Action kind, std::size_t length, std::size_t from, std::size_t offset_cost) const {
        const std::size_t cost = varint_size((std::uint64_t(length - 1) << 2) | 3) + offset_cost;
        const auto gain = static_cast<std::ptrdiff_t>(length) - static_cast<std::ptrdiff_t>(cost);
        // Strictly better only: candidates are tried in a fixed order, so ties are deterministic.
        if (length > 0 && gain > best.gain) best = {kind, length, from, gain};
    }

    // A SourceCopy of source[from, from + length), and when `from` lies before `pos` where the
    // target holds the same bytes, a TargetCopy from there (its cursor may be nearer).
    void consider_source(Choice& best, std::size_t pos, std::size_t from, std::size_t length) const {
        consider(best, Action::source_copy, length, from, varint_size(signed_offset(source_cursor_, from)));
        if (from < pos) {
            const std::size_t len = match_length(target_.data() + from, target_.data() + pos, target_.size() - pos);
            if (len >= key_) consider(best, Action::target_copy, len, from, varint_size(signed_offset(target_cursor_, from)));
        }
    }

    Choice best_at(std::size_t pos) const {
        Choice best;
        const std::size_t room = target_.size() - pos;
        const std::uint8_t* here = target_.data() + pos;
        std::size_t run = 0;
        if (pos < source_.size()) {
            run = match_length(source_.data() + pos, here, std::min(room, source_.size() - pos));
            consider(best, Action::source_read, run, pos, 0);
        }
        if (source_cursor_ < source_.size() && source_cursor_ != pos) {
            const std::size_t len =
                match_length(source_.data() + source_cursor_, here, std::min(room, source_.size() - source_cursor_));
            consider(best, Action::source_copy, len, source_cursor_, 1);
            run = std::max(run, len);
        }
        if (room < key_) return best;
        if (target_cursor_ < pos) {
            const std::size_t len = match_length(target_.data() + target_cursor_, here, room);
            if (len >= key_) consider(best, Action::target_copy, len, target_cursor_, 1);
        }
        if (run < search_below) {
            // Source positions sharing the longest prefixes: each is a SourceCopy, and when it
            // lies before `pos` where the target already holds the same bytes, a TargetCopy
            // (its cursor may be nearer).
            detail::SourceMatch found[max_neighbours];
            const std::size_t count = suffixes_.neighbours(here, room, key_, found, max_neighbours);
            for (std::size_t i = 0; i < count; ++i) {
                const std::size_t from = found[i].from + window_.begin;
                // A match the window's end cut short goes on in the source.
                std::size_t length = found[i].length;
                if (from + length == window_.end)
                    length += match_length(source_.data() + from + length, here + length,
                                           std::min(room, source_.size() - from) - length);
                consider_source(best, pos, from, length);
            }
            // Outside the window: a copy from elsewhere in the source, through its sparse index.
            if (blocks_ && room >= detail::SourceBlocks::block) {
                const std::size_t from = blocks_->candidate(here);
                if (from != detail::SourceBlocks::npos && (from < window_.begin || from >= window_.end)) {
                    const std::size_t length = match_length(source_.data() + from, here, std::min(room, source_.size() - from));
                    if (length >= detail::SourceBlocks::block) consider_source(best, pos, from, length);
                }
            }
        }
        const std::uint32_t* t = target_index_.candidates(target_index_.bucket(target_, pos));
        for (std::size_t w = 0; w < PositionIndex::ways && t[w]; ++w) {
            const std::size_t from = t[w] - 1;
            if (from >= pos) continue;
            const std::size_t len = match_length(target_.data() + from, here, room);  // may overlap: a run
            if (len >= key_) consider(best, Action::target_copy, len, from, varint_size(signed_offset(target_cursor_, from)));
        }
        return best;
    }

    // Indexes target positions [pos, pos + count) every `step` bytes, each at most once.
    void index_target(std::size_t pos, std::size_t count, std::size_t step) {
        const std::size_t end = std::min(pos + count, target_.size() >= key_ ? target_.size() - key_ + 1 : 0);
        for (std::size_t p = std::max(pos, indexed_to_); p < end; p += step)
            target_index_.insert(target_index_.bucket(target_, p), static_cast<std::uint32_t>(p));
        indexed_to_ = std::max(indexed_to_, end);
    }

    void flush_literals(const detail::OpSink& out, std::size_t from, std::size_t to) const {
        if (to == from) return;
        out({Action::target_read, to - from, from});
    }

    void emit(const detail::OpSink& out, const Choice& c) {
        out({c.kind, c.length, c.from});
        if (c.kind == Action::source_copy) source_cursor_ = c.from + c.length;
        else if (c.kind == Action::target_copy) target_cursor_ = c.from + c.length;
    }

    ByteView source_, target_;
    std::size_t key_;
    detail::SourceWindow window_;
    detail::SourceSuffixes suffixes_;  // of the window
    std::optional<detail::SourceBlocks> blocks_;  // when the window is not the whole source
    PositionIndex target_index_;
    std::size_t indexed_to_ = 0;
    std::size_t source_cursor_ = 0, target_cursor_ = 0;
};

}  // namespace

void detail::parse_delta(ByteView source, ByteView target, std::size_t min_match, const OpSink& sink) {
    // Checked here as well as by the suffix sort: a window of a larger source would pass it.
    if (source.size() > std::size_t(std::numeric_limits<std::int32_t>::max()))
        throw Error(ErrorKind::limit, "BPS creation handles sources below 2 GiB (use a zstd patch for larger ones)");
    CreateOptions options;
    options.min_match = min_match;
    Encoder(source, target, options).run(sink);
}

Bytes create(ByteView source, ByteView target, const CreateOptions& options) {
    if (target.size() >= 0xFFFFFFFFu)
        throw Error(ErrorKind::limit, "BPS creation handles files below 4 GiB (use a zstd patch for larger ones)");
    ByteWriter out(Endian::little);
    out.reserve(64 + options.metadata.size());
    for (char c : magic) out.u8(static_cast<std::uint8_t>(c));
    write_varint(out, source.size());
    write_varint(out, target.size());
    write_varint(out, options.metadata.size());
    out.string(options.metadata);
    // The actions: offsets are relative to cursors that move past each copy (bps.md §2).
    std::uint64_t source_cursor = 0, target_cursor = 0;
    detail::parse_delta(source, target, options.min_match, [&](const detail::DeltaOp& op) {
        write_varint(out, (std::uint64_t(op.length - 1) << 2) | std::uint64_t(op.kind));
        if (op.kind == Action::target_read) {
            out.bytes(target.subspan(op.from, op.length));
        } else if (op.kind == Action::source_copy) {
            write_varint(out, signed_offset(source_cursor, op.from));
            source_cursor = op.from + op.length;
        } else if (op.kind == Action::target_copy) {
            write_varint(out, signed_offset(target_cursor, op.from));
            target_cursor = op.from + op.length;
        }
    });
    out.u32(crc32(source));
    out.u32(crc32(target));
    out.u32(crc32(out.data()));
    return out.take();
}

}  // namespace mod::bps
