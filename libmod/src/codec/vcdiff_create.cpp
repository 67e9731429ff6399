// VCDIFF creation: bps::create's parse written as RFC 3284 windows with the default code table,
// the address cache modes and xdelta3's LZMA secondary compression (doc/formats/vcdiff.md §5).
#include "libmod/codec/vcdiff.hpp"

#include "bps_parse.hpp"
#include "vcdiff_detail.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <vector>

namespace mod::vcdiff {

namespace {

using namespace detail;
using bps::Action;
using bps::detail::DeltaOp;

std::size_t varint_size(std::uint64_t v) noexcept {
    std::size_t n = 1;
    while (v >>= 7) ++n;
    return n;
}

// A step of the parse clipped to one window, in that window's terms.
struct Piece {
    bool literal = true;
    bool from_source = false;
    std::size_t length = 0;
    std::size_t from = 0;  // literal: target position; copies: source or target position
};

struct Planned {
    Type type = add;
    std::size_t size = 0;
    unsigned mode = 0;
};

// Chooses the cheapest address mode for `address` at `here` (ties: the first in the order
// same, here, near, self) and appends its encoding to `addr`.
unsigned encode_address(std::uint64_t address, std::uint64_t here, AddressCache& cache, ByteWriter& addr) {
    const std::size_t same_index = address % (same_slots * 256);
    unsigned mode = 0;
    std::uint64_t value = address;
    std::size_t best = varint_size(address);
    if (cache.same_at(same_index) == address) {
        mode = 2 + near_slots + unsigned(same_index / 256);
        best = 1;
    } else {
        auto offer = [&](unsigned m, std::uint64_t v) {
            if (varint_size(v) < best) { best = varint_size(v); mode = m; value = v; }
        };
        // Strictly smaller only, in a fixed order: deterministic.
        if (varint_size(here - address) <= best) {
            best = varint_size(here - address);
            mode = 1;
            value = here - address;
        }
        for (unsigned i = 0; i < near_slots; ++i)
            if (address >= cache.near_at(i)) offer(2 + i, address - cache.near_at(i));
    }
    if (mode >= 2 + near_slots) addr.u8(static_cast<std::uint8_t>(same_index % 256));
    else write_varint(addr, value);
    cache.update(address);
    return mode;
}

// The instruction section for the planned instructions, pairing neighbours where the default
// table has a combined entry.
void encode_instructions(const std::vector<Planned>& plan, ByteWriter& inst) {
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const Planned& a = plan[i];
        if (i + 1 < plan.size()) {
            const Planned& b = plan[i + 1];
            std::uint8_t pair = 0;
            if (a.type == add && b.type == copy) pair = add_copy_opcode(a.size, b.size, b.mode);
            else if (a.type == copy && b.type == add) pair = copy_add_opcode(a.size, a.mode, b.size);
            if (pair) {
                inst.u8(pair);
                ++i;
                continue;
            }
        }
        const std::uint8_t op = a.type == add ? add_opcode(a.size) : copy_opcode(a.size, a.mode);
        inst.u8(op);
        if (default_code_table()[op].first.size == 0) write_varint(inst, a.size);
    }
}

class WindowWriter {
public:
    WindowWriter(ByteView source, ByteView target, const CreateOptions& options)
        : source_(source), target_(target), options_(options) {}

    bool compressed_any() const noexcept { return compressed_any_; }

    // Appends the window of target[start, start + pieces' length) to `out`.
    void write(const std::vector<Piece>& pieces, std::size_t start, std::size_t length, ByteWriter& out) {
        std::size_t lo = SIZE_MAX, hi = 0;
        for (const auto& p : pieces)
            if (!p.literal && p.from_source) {
                lo = std::min(lo, p.from);
                hi = std::max(hi, p.from + p.length);
            }
        const bool has_source = lo != SIZE_MAX;
        const std::uint64_t segment = has_source ? hi - lo : 0;
        ByteWriter data(Endian::big), inst(Endian::big), addr(Endian::big);
        std::vector<Planned> plan;
        AddressCache cache;
        std::size_t pos = 0;
        for (const auto& p : pieces) {
            if (p.literal) {
                data.bytes(target_.subspan(p.from, p.length));
                if (!plan.empty() && plan.back().type == add) plan.back().size += p.length;
                else plan.push_back({add, p.length, 0});
            } else {
                const std::uint64_t address = p.from_source ? p.from - lo : segment + (p.from - start);
                plan.push_back({copy, p.length, encode_address(address, segment + pos, cache, addr)});
            }
            pos += p.length;
        }
        encode_instructions(plan, inst);

        ByteWriter delta(Endian::big);
        write_varint(delta, length);
        std::uint8_t indicator = 0;
        Bytes sections[3] = {data.take(), inst.take(), addr.take()};
        for (unsigned i = 0; i < 3; ++i)
            if (squeeze(sections[i])) indicator |= std::uint8_t(1u << i);
        delta.u8(indicator);
        for (const auto& s : sections) write_varint(delta, s.size());
        if (options_.checksums) delta.u32(adler32(target_.subspan(start, length)));
        for (const auto& s : sections) delta.bytes(s);

        out.u8(static_cast<std::uint8_t>((has_source ? 0x01 : 0) | (options_.checksums ? 0x04 : 0)));
        if (has_source) {
            write_varint(out, segment);
            write_varint(out, lo);
        }
        write_varint(out, delta.size());
        out.bytes(delta.data());
    }

private:
    // Replaces `section` by its LZMA form when that is smaller; returns whether it did.
    bool squeeze(Bytes& section) {
        if (!options_.secondary || section.size() < 64) return false;
        Bytes packed = lzma_compress(section);
        if (varint_size(section.size()) + packed.size() >= section.size()) return false;
        ByteWriter w(Endian::big);
        write_varint(w, section.size());
        w.bytes(packed);
        section = w.take();
        compressed_any_ = true;
        return true;
    }

    ByteView source_, target_;
    const CreateOptions& options_;
    bool compressed_any_ = false;
};

}  // namespace

Bytes create(ByteView source, ByteView target, const CreateOptions& options) {
    if (options.window < 4096 || options.window > (std::size_t(1) << 24))
        throw Error(ErrorKind::usage, "a VCDIFF window holds 4 KiB to 16 MiB of target (asked: " +
                                          std::to_string(options.window) + " bytes)");
    if (source.size() >= 0x80000000u)
        throw Error(ErrorKind::limit, "VCDIFF creation handles sources below 2 GiB (use a zstd patch for larger ones)");
    if (target.size() >= 0xFFFFFFFFu)
        throw Error(ErrorKind::limit, "VCDIFF creation handles files below 4 GiB (use a zstd patch for larger ones)");

    // The parse, split at window boundaries as it arrives.
    const std::size_t window = options.window;
    std::vector<std::vector<Piece>> windows((target.size() + window - 1) / window);
    std::size_t pos = 0;
    bps::detail::parse_delta(source, target, options.min_match, [&](const DeltaOp& op) {
        std::size_t done = 0;
        while (done < op.length) {
            const std::size_t at = pos + done;
            const std::size_t w = at / window;
            const std::size_t n = std::min(op.length - done, (w + 1) * window - at);
            Piece p;
            p.length = n;
            p.from = op.from + done;
            p.literal = op.kind == Action::target_read;
            p.from_source = op.kind == Action::source_read || op.kind == Action::source_copy;
            // Copies too short to pay for an address, and target copies from an earlier window
            // (a window's target copies stay inside it), become literals.
            if (!p.literal && (n < 4 || (!p.from_source && p.from < w * window))) {
                p.literal = true;
                p.from = at;
            }
            windows[w].push_back(p);
            done += n;
        }
        pos += op.length;
    });

    ByteWriter body(Endian::big);
    WindowWriter writer(source, target, options);
    for (std::size_t w = 0; w < windows.size(); ++w)
        writer.write(windows[w], w * window, std::min(window, target.size() - w * window), body);

    ByteWriter out(Endian::big);
    for (auto b : magic) out.u8(b);
    if (writer.compressed_any()) {
        out.u8(0x01);
        out.u8(lzma_id);
    } else {
        out.u8(0x00);
    }
    out.bytes(body.data());
    return out.take();
}

}  // namespace mod::vcdiff
