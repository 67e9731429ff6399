// VCDIFF creation: bps::create's parse written as RFC 3284 windows with the default code table,
// the address cache modes and xdelta3's LZMA secondary compression (doc/formats/vcdiff.md §5).
#include "libmod/codec/vcdiff.hpp"

#include "bps_parse.hpp"
#include "vcdiff_detail.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <cstring>
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

// Which address modes encode_address may choose. The fewest bytes per address is not always
// the smallest patch: LZMA codes a run of equal HERE distances (a repeating table, lines of
// text) in less than the varying offsets the near cache gives the same copies.
enum class AddressPolicy { fewest_bytes, no_near, self_and_here };

// Chooses the cheapest address mode the policy allows for `address` at `here` (ties: the first
// in the order same, here, near, self) and appends its encoding to `addr`.
unsigned encode_address(std::uint64_t address, std::uint64_t here, AddressCache& cache, ByteWriter& addr,
                        AddressPolicy policy) {
    const std::size_t same_index = address % (same_slots * 256);
    unsigned mode = 0;
    std::uint64_t value = address;
    std::size_t best = varint_size(address);
    if (policy != AddressPolicy::self_and_here && cache.same_at(same_index) == address) {
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
        if (policy == AddressPolicy::fewest_bytes)
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

    // Appends the window of target[start, start + pieces' length) to `out`; returns whether a
    // section of it is LZMA compressed.
    bool write(const std::vector<Piece>& pieces, std::size_t start, std::size_t length, ByteWriter& out) {
        std::size_t lo = SIZE_MAX, hi = 0;
        for (const auto& p : pieces)
            if (!p.literal && p.from_source) {
                lo = std::min(lo, p.from);
                hi = std::max(hi, p.from + p.length);
            }
        const bool has_source = lo != SIZE_MAX;
        const std::uint64_t segment = has_source ? hi - lo : 0;
        ByteWriter data(Endian::big);
        for (const auto& p : pieces)
            if (p.literal) data.bytes(target_.subspan(p.from, p.length));
        Bytes sections[3] = {data.take(), {}, {}};
        std::uint8_t indicator = squeeze(sections[0]) ? 0x01 : 0x00;
        // The instruction and address sections under each address policy (with secondary
        // compression; without it the fewest bytes are the smallest): the smallest pair is kept.
        bool first = true;
        for (const AddressPolicy policy : {AddressPolicy::fewest_bytes, AddressPolicy::no_near, AddressPolicy::self_and_here}) {
            if (!first && !options_.secondary) break;
            ByteWriter inst(Endian::big), addr(Endian::big);
            std::vector<Planned> plan;
            AddressCache cache;
            std::size_t pos = 0;
            for (const auto& p : pieces) {
                if (p.literal) {
                    if (!plan.empty() && plan.back().type == add) plan.back().size += p.length;
                    else plan.push_back({add, p.length, 0});
                } else {
                    std::uint64_t address = p.from_source ? p.from - lo : segment + (p.from - start);
                    if (policy != AddressPolicy::self_and_here)
                        address = cached_alike(address, p.length, segment, segment + pos, lo, start, cache);
                    plan.push_back({copy, p.length, encode_address(address, segment + pos, cache, addr, policy)});
                }
                pos += p.length;
            }
            encode_instructions(plan, inst);
            Bytes pair[2] = {inst.take(), addr.take()};
            std::uint8_t bits = 0;
            for (unsigned i = 0; i < 2; ++i)
                if (squeeze(pair[i])) bits |= std::uint8_t(2u << i);
            if (first || pair[0].size() + pair[1].size() < sections[1].size() + sections[2].size()) {
                sections[1] = std::move(pair[0]);
                sections[2] = std::move(pair[1]);
                indicator = std::uint8_t((indicator & 0x01) | bits);
            }
            first = false;
        }
        const bool compressed = indicator != 0;

        ByteWriter delta(Endian::big);
        write_varint(delta, length);
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
        return compressed;
    }

private:
    // An address in the near cache whose bytes equal those at `address` for `length` (the
    // same copy from a place just used: a one-byte, repeating address), else `address`. Only
    // ranges wholly in the source segment or wholly in the target before `here` are taken.
    std::uint64_t cached_alike(std::uint64_t address, std::size_t length, std::uint64_t segment, std::uint64_t here,
                               std::size_t lo, std::size_t start, const AddressCache& cache) const {
        auto at = [&](std::uint64_t a) {
            return a < segment ? source_.data() + lo + a : target_.data() + start + (a - segment);
        };
        auto inside = [&](std::uint64_t a) {
            return a + length <= segment || (a >= segment && a < here);
        };
        if (!inside(address)) return address;
        for (std::size_t i = 0; i < near_slots; ++i) {
            const std::uint64_t c = cache.near_at(i);
            if (c == address) return address;
            if (inside(c) && std::memcmp(at(c), at(address), length) == 0) return c;
        }
        return address;
    }

    // Replaces `section` by its LZMA form when that is smaller; returns whether it did.
    bool squeeze(Bytes& section) {
        if (!options_.secondary || section.size() < 64) return false;
        Bytes packed = lzma_compress(section);
        if (varint_size(section.size()) + packed.size() >= section.size()) return false;
        ByteWriter w(Endian::big);
        write_varint(w, section.size());
        w.bytes(packed);
        section = w.take();
        return true;
    }

    ByteView source_, target_;
    const CreateOptions& options_;
};

// The window with every target copy and every copy shorter than 16 bytes made a literal: where
// the new bytes repeat themselves (inserted text, tables), LZMA on the data section codes them
// in fewer bytes than the instructions and addresses of many short copies do.
std::vector<Piece> literal_heavy(const std::vector<Piece>& pieces, std::size_t start) {
    std::vector<Piece> out;
    std::size_t at = start;
    for (const auto& p : pieces) {
        Piece q = p;
        if (!q.literal && (!q.from_source || q.length < 16)) {
            q.literal = true;
            q.from = at;
        }
        if (q.literal && !out.empty() && out.back().literal && out.back().from + out.back().length == q.from)
            out.back().length += q.length;
        else
            out.push_back(q);
        at += p.length;
    }
    return out;
}

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

    // Each window written as parsed and, with secondary compression, also literal-heavy; the
    // smaller is kept (the first on a tie).
    ByteWriter body(Endian::big);
    WindowWriter writer(source, target, options);
    bool compressed_any = false;
    for (std::size_t w = 0; w < windows.size(); ++w) {
        const std::size_t start = w * window, length = std::min(window, target.size() - w * window);
        ByteWriter parsed(Endian::big);
        bool compressed = writer.write(windows[w], start, length, parsed);
        if (options.secondary) {
            ByteWriter heavy(Endian::big);
            const bool heavy_compressed = writer.write(literal_heavy(windows[w], start), start, length, heavy);
            if (heavy.size() < parsed.size()) {
                parsed = std::move(heavy);
                compressed = heavy_compressed;
            }
        }
        body.bytes(parsed.data());
        compressed_any = compressed_any || compressed;
    }

    ByteWriter out(Endian::big);
    for (auto b : magic) out.u8(b);
    if (compressed_any) {
        out.u8(0x01);
        out.u8(lzma_id);
    } else {
        out.u8(0x00);
    }
    out.bytes(body.data());
    return out.take();
}

}  // namespace mod::vcdiff
