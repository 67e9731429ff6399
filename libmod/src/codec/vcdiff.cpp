// VCDIFF: reading, describing and applying patches (doc/formats/vcdiff.md). The encoder is
// in vcdiff_create.cpp, the code table in vcdiff_table.cpp.
#include "libmod/codec/vcdiff.hpp"

#include "vcdiff_detail.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

namespace mod::vcdiff {

namespace {

using namespace detail;

constexpr std::uint8_t hdr_secondary = 0x01, hdr_code_table = 0x02, hdr_app_header = 0x04;
constexpr std::uint8_t win_source = 0x01, win_target = 0x02, win_adler32 = 0x04;
constexpr std::uint8_t delta_data = 0x01, delta_inst = 0x02, delta_addr = 0x04;

std::string hex_word(std::uint32_t v) { return hex(v, 8); }

struct Header {
    std::uint8_t secondary = 0;
    std::string app_header;
    std::size_t windows_at = 0;
};

Header read_header(ByteReader& in) {
    Header h;
    if (in.size() < 5) in.fail_at(0, "a VCDIFF patch has at least 5 bytes, this one has " + std::to_string(in.size()));
    if (!has_magic(in.data())) in.fail_at(0, "bad magic: expected D6 C3 C4 00 (VCDIFF)");
    in.skip(4);
    const std::uint8_t indicator = in.u8();
    if (indicator & ~std::uint8_t(hdr_secondary | hdr_code_table | hdr_app_header))
        in.fail_at(4, "unknown header indicator bits " + hex(indicator, 2));
    if (indicator & hdr_secondary) {
        h.secondary = in.u8();
        if (h.secondary != lzma_id)
            in.fail_at(5, "secondary compressor " + std::to_string(h.secondary) +
                              (h.secondary == 1 ? " (DJW)" : h.secondary == 16 ? " (FGK)" : "") +
                              " is not supported: modkit reads uncompressed and LZMA (id 2) patches; apply this "
                              "one with xdelta3 -d");
    }
    if (indicator & hdr_code_table)
        in.fail_at(4, "the patch carries its own code table, which modkit does not read: apply it with xdelta3 -d");
    if (indicator & hdr_app_header) {
        const std::uint64_t n = read_varint(in);
        in.require_array(n, 1);
        const ByteView b = in.bytes(static_cast<std::size_t>(n));
        h.app_header.assign(b.begin(), b.end());
    }
    h.windows_at = in.tell();
    return h;
}

// One window's header and sections, as read from the patch (sections decompressed).
struct Window {
    std::size_t at = 0;  // offset of Win_Indicator in the patch
    std::uint8_t indicator = 0;
    std::uint64_t segment_length = 0, segment_position = 0;
    std::uint64_t target_length = 0;
    std::optional<std::uint32_t> adler;
    Bytes data, inst, addr;  // decompressed copies, only when a section was compressed
    ByteReader data_in, inst_in, addr_in;
};

ByteReader section(const ByteReader& in, std::size_t at, std::uint64_t length, bool compressed, const char* name,
                   Bytes& storage, std::uint64_t max_size) {
    ByteReader s = in.sub(at, static_cast<std::size_t>(length), std::string(".") + name);
    if (!compressed) return s;
    const std::uint64_t size = read_varint(s);
    if (size > max_size)
        s.fail_at(0, "the compressed section declares " + std::to_string(size) + " bytes, more than a window of " +
                         "this size can use (" + std::to_string(max_size) + ")");
    storage = lzma_decompress(s.sub(s.tell(), s.remaining()), static_cast<std::size_t>(size));
    return ByteReader(storage, Endian::big, in.file(), join_path(in.path(), name) + "(decompressed)");
}

// Reads the window at in.tell() and moves past it. `written`: target bytes before it.
Window read_window(ByteReader& in, std::uint64_t index, const Header& h, std::uint64_t written,
                   const ApplyOptions& options) {
    Window w;
    w.at = in.tell();
    ByteReader win = in.sub(w.at, in.remaining(), index_path(".window", index));
    w.indicator = win.u8();
    if (w.indicator & ~std::uint8_t(win_source | win_target | win_adler32))
        win.fail_at(0, "unknown window indicator bits " + hex(w.indicator, 2));
    if ((w.indicator & win_source) && (w.indicator & win_target))
        win.fail_at(0, "a window cannot copy from both the source and the target (indicator " + hex(w.indicator, 2) + ")");
    if (w.indicator & (win_source | win_target)) {
        w.segment_length = read_varint(win);
        w.segment_position = read_varint(win);
        if (w.indicator & win_target && (w.segment_position > written || w.segment_length > written - w.segment_position))
            win.fail_at(1, "the target segment " + std::to_string(w.segment_position) + "+" +
                               std::to_string(w.segment_length) + " is not inside the " + std::to_string(written) +
                               " bytes decoded before this window");
    }
    const std::uint64_t delta_length = read_varint(win);
    win.require_array(delta_length, 1);
    ByteReader delta = win.sub(win.tell(), static_cast<std::size_t>(delta_length), ".delta");
    w.target_length = read_varint(delta);
    if (w.target_length > options.max_target || written > options.max_target - w.target_length)
        delta.fail_at(0, "the windows add up to more than the limit of " + std::to_string(options.max_target) +
                             " target bytes (raise it with --max-size)", ErrorKind::limit);
    const std::uint8_t delta_indicator = delta.u8();
    if (delta_indicator & ~std::uint8_t(delta_data | delta_inst | delta_addr))
        delta.fail_at(delta.tell() - 1, "unknown delta indicator bits " + hex(delta_indicator, 2));
    if (delta_indicator && !h.secondary)
        delta.fail_at(delta.tell() - 1, "sections marked compressed but the header names no secondary compressor");
    const std::uint64_t lengths[3] = {read_varint(delta), read_varint(delta), read_varint(delta)};
    if (w.indicator & win_adler32) w.adler = delta.u32();  // big-endian, as the whole patch
    const std::size_t sections_at = delta.tell();
    std::uint64_t total = 0;
    for (auto n : lengths) {
        if (n > delta.size() || total > delta.size() - n) total = UINT64_MAX;
        else total += n;
    }
    if (total != delta.size() - sections_at)
        delta.fail_at(0, "the section lengths (" + std::to_string(lengths[0]) + " data, " + std::to_string(lengths[1]) +
                             " instructions, " + std::to_string(lengths[2]) + " addresses) do not fill the " +
                             std::to_string(delta.size() - sections_at) + " bytes of the delta encoding");
    // Bounds on what a section of this window can need decoded: each instruction writes at
    // least one byte or names its size in at most 10 bytes, and so on (doc/formats/vcdiff.md §4).
    const std::uint64_t max_section = 2 * w.target_length + 4096;
    std::size_t at = sections_at;
    w.data_in = section(delta, at, lengths[0], delta_indicator & delta_data, "data", w.data, max_section);
    at += lengths[0];
    w.inst_in = section(delta, at, lengths[1], delta_indicator & delta_inst, "inst", w.inst, 12 * w.target_length + 4096);
    at += lengths[1];
    w.addr_in = section(delta, at, lengths[2], delta_indicator & delta_addr, "addr", w.addr, 12 * w.target_length + 4096);
    in.skip(win.tell() + delta.size());
    return w;
}

std::uint64_t decode_address(ByteReader& addr, unsigned mode, std::uint64_t here, const AddressCache& cache,
                             const ByteReader& inst, std::size_t inst_at) {
    const std::size_t at = addr.tell();
    std::uint64_t a = 0;
    if (mode == 0) {
        a = read_varint(addr);
    } else if (mode == 1) {
        const std::uint64_t back = read_varint(addr);
        if (back > here) addr.fail_at(at, "HERE address " + std::to_string(back) + " bytes back from " + std::to_string(here));
        a = here - back;
    } else if (mode < 2 + near_slots) {
        const std::uint64_t v = read_varint(addr);
        if (__builtin_add_overflow(cache.near_at(mode - 2), v, &a)) addr.fail_at(at, "NEAR address overflows");
    } else {
        a = cache.same_at((mode - 2 - near_slots) * 256 + addr.u8());
    }
    if (a >= here)
        inst.fail_at(inst_at, "COPY address " + std::to_string(a) + " is not before the current position " +
                                  std::to_string(here) + " (addresses section offset " + std::to_string(at) + ")");
    return a;
}

// Runs one window's instructions. `segment`: the source or earlier target bytes it copies from
// (null for describe(), which checks only the segment's declared length). `out`: where the
// target window goes, null for describe().
void run_window(Window& w, const std::uint8_t* segment, std::uint8_t* out, Info& info) {
    const auto& table = default_code_table();
    AddressCache cache;
    const std::uint64_t seg = w.segment_length;
    std::uint64_t pos = 0;  // in the target window
    ByteReader& inst = w.inst_in;
    while (!inst.at_end()) {
        const std::size_t inst_at = inst.tell();
        const Code& code = table[inst.u8()];
        for (const Instruction* ins : {&code.first, &code.second}) {
            if (ins->type == noop) continue;
            const std::uint64_t size = ins->size ? ins->size : read_varint(inst);
            if (size > w.target_length - pos)
                inst.fail_at(inst_at, "an instruction of " + std::to_string(size) + " bytes at window offset " +
                                          std::to_string(pos) + " runs past the window's " +
                                          std::to_string(w.target_length) + " bytes");
            ++info.instructions;
            if (ins->type == add) {
                const ByteView b = w.data_in.bytes(static_cast<std::size_t>(size));
                if (out) std::memcpy(out + pos, b.data(), b.size());
                info.add_bytes += size;
            } else if (ins->type == run) {
                const std::uint8_t b = w.data_in.u8();
                if (out) std::memset(out + pos, b, static_cast<std::size_t>(size));
                info.run_bytes += size;
            } else {
                const std::uint64_t here = seg + pos;
                const std::uint64_t a = decode_address(w.addr_in, ins->mode, here, cache, inst, inst_at);
                cache.update(a);
                if (a < seg && size > seg - a)
                    inst.fail_at(inst_at, "a COPY of " + std::to_string(size) + " bytes from segment offset " +
                                              std::to_string(a) + " runs past the " + std::to_string(seg) +
                                              "-byte segment");
                if (out) {
                    std::uint64_t k = 0;
                    for (; k < size && a + k < seg; ++k) out[pos + k] = segment[a + k];
                    // From the target window itself, byte by byte: it may overlap what it writes.
                    for (; k < size; ++k) out[pos + k] = out[a + k - seg];
                }
                info.copy_bytes += size;
            }
            pos += size;
        }
    }
    if (pos != w.target_length)
        inst.fail_at(inst.tell(), "the instructions write " + std::to_string(pos) + " bytes, the window declares " +
                                      std::to_string(w.target_length));
    if (!w.data_in.at_end())
        w.data_in.fail_at(w.data_in.tell(), std::to_string(w.data_in.remaining()) + " data bytes no instruction uses");
    if (!w.addr_in.at_end())
        w.addr_in.fail_at(w.addr_in.tell(), std::to_string(w.addr_in.remaining()) + " address bytes no COPY uses");
}

// Walks every window. `source` may be empty when `target` is null (describe()).
Info walk(const ByteReader& patch_in, ByteView source, const ApplyOptions& options, Bytes* target) {
    ByteReader in = patch_in.with_endian(Endian::big);
    const Header h = read_header(in);
    Info info;
    info.secondary = h.secondary;
    info.app_header = h.app_header;
    for (std::uint64_t index = 0; !in.at_end(); ++index) {
        Window w = read_window(in, index, h, info.target_size, options);
        const ByteReader where = in.sub(w.at, 1, index_path(".window", index));
        if (w.indicator & win_source) {
            info.source_end = std::max(info.source_end, w.segment_position + w.segment_length);
            if (target && (w.segment_position > source.size() || w.segment_length > source.size() - w.segment_position))
                throw Error(ErrorKind::conflict,
                            "wrong source: window " + std::to_string(index) + " copies source bytes " +
                                std::to_string(w.segment_position) + ".." +
                                std::to_string(w.segment_position + w.segment_length) + ", this file has " +
                                std::to_string(source.size()) + " bytes",
                            where.file(), where.absolute(0), where.path());
        }
        const std::uint8_t* segment = nullptr;
        std::uint8_t* out = nullptr;
        if (target) {
            const std::size_t start = target->size();
            target->resize(start + static_cast<std::size_t>(w.target_length));
            out = target->data() + start;
            if (w.indicator & win_source) segment = source.data() + w.segment_position;
            if (w.indicator & win_target) segment = target->data() + w.segment_position;
        }
        run_window(w, segment, out, info);
        if (w.adler) {
            ++info.checksummed_windows;
            if (out) {
                const std::uint32_t got = adler32({out, static_cast<std::size_t>(w.target_length)});
                // describe() has checked the structure: what differs is the source.
                if (got != *w.adler)
                    throw Error(ErrorKind::conflict,
                                "wrong source: window " + std::to_string(index) + " decodes to Adler-32 " + hex_word(got) +
                                    ", the patch expects " + hex_word(*w.adler) +
                                    " (the source is not the file the patch was made for)",
                                where.file(), where.absolute(0), where.path());
            }
        }
        info.target_size += w.target_length;
        ++info.windows;
    }
    return info;
}

}  // namespace

bool has_magic(ByteView data) noexcept { return data.size() >= 4 && std::memcmp(data.data(), magic, 4) == 0; }

std::uint32_t adler32(ByteView data, std::uint32_t previous) noexcept {
    constexpr std::uint32_t mod = 65521;
    constexpr std::size_t nmax = 5552;  // the most bytes before the sums can overflow 32 bits
    std::uint32_t a = previous & 0xFFFF, b = previous >> 16;
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    while (n) {
        const std::size_t k = std::min(n, nmax);
        for (std::size_t i = 0; i < k; ++i) {
            a += p[i];
            b += a;
        }
        a %= mod;
        b %= mod;
        p += k;
        n -= k;
    }
    return (b << 16) | a;
}

void write_varint(ByteWriter& out, std::uint64_t value) {
    std::uint8_t buf[10];
    std::size_t n = 0;
    do {
        buf[n++] = static_cast<std::uint8_t>(value & 0x7F);
        value >>= 7;
    } while (value);
    while (n > 1) out.u8(static_cast<std::uint8_t>(buf[--n] | 0x80));
    out.u8(buf[0]);
}

std::uint64_t read_varint(ByteReader& in) {
    const std::size_t start = in.tell();
    std::uint64_t value = 0;
    for (;;) {
        const std::uint8_t byte = in.u8();
        if (value >> 56) in.fail_at(start, "varint larger than 2^63-1");
        value = (value << 7) | (byte & 0x7F);
        if (!(byte & 0x80)) return value;
    }
}

Info describe(const ByteReader& patch, const ApplyOptions& options) { return walk(patch, {}, options, nullptr); }

Bytes apply(const ByteReader& patch, ByteView source, const ApplyOptions& options, Info* info_out) {
    // describe() first: a patch that would fail its checks allocates nothing.
    const Info dry = walk(patch, {}, options, nullptr);
    Bytes target;
    target.reserve(static_cast<std::size_t>(dry.target_size));
    const Info info = walk(patch, source, options, &target);
    if (info_out) *info_out = info;
    return target;
}

Bytes apply(ByteView patch, ByteView source, const ApplyOptions& options, Info* info) {
    return apply(ByteReader(patch, Endian::big, {}, "vcdiff"), source, options, info);
}

}  // namespace mod::vcdiff
