#include "libmod/stadium/fragment.hpp"

#include <array>
#include <cstring>

namespace mod::stadium {

const char* to_string(RelocType type) noexcept {
    switch (type) {
    case RelocType::mips_32: return "R_MIPS_32";
    case RelocType::mips_26: return "R_MIPS_26";
    case RelocType::mips_hi16: return "R_MIPS_HI16";
    case RelocType::mips_lo16: return "R_MIPS_LO16";
    }
    return "unknown";
}

std::uint32_t Fragment::link_base() const noexcept {
    return (((header.entry_jump & 0x03FFFFFFu) << 2) | 0x80000000u) & 0xFFF00000u;
}

std::uint32_t Fragment::fragment_id() const noexcept {
    return ((link_base() >> 20) & 0xFF) - 0x10;
}

std::uint32_t Fragment::word(std::uint32_t offset) const noexcept {
    return endian::load_be32(&body[offset]);
}

bool has_fragment_magic(ByteView data) noexcept {
    return data.size() >= 0x10 && std::memcmp(data.data() + 8, fragment_magic, 8) == 0;
}

namespace {

bool known_type(RelocType t) noexcept {
    return t == RelocType::mips_32 || t == RelocType::mips_26 || t == RelocType::mips_hi16 ||
           t == RelocType::mips_lo16;
}

FragmentHeader read_fragment_header(const ByteReader& r) {
    r.require_at(0, fragment_header_size);
    if (!has_fragment_magic(r.data())) r.fail_at(8, "bad magic: expected \"FRAGMENT\"");
    FragmentHeader h;
    h.entry_jump = r.u32_at(0x00);
    h.word4 = r.u32_at(0x04);
    h.code_offset = r.u32_at(0x10);
    h.reloc_offset = r.u32_at(0x14);
    h.size_in_rom = r.u32_at(0x18);
    h.size_in_ram = r.u32_at(0x1C);
    if (mips::opcode(h.entry_jump) != mips::op_j)
        r.fail_at(0, "word 0 " + hex(h.entry_jump, 8) + " is not a J instruction (the entry jump)");
    if (h.code_offset < fragment_header_size || h.code_offset > h.reloc_offset)
        r.fail_at(0x10, "code offset " + hex(h.code_offset) + " outside [0x20, relocOffset " +
                            hex(h.reloc_offset) + "]");
    if (h.reloc_offset % 4 != 0)
        r.fail_at(0x14, "relocOffset " + hex(h.reloc_offset) + " is not 4-byte aligned");
    if (h.reloc_offset > h.size_in_rom || h.size_in_rom > r.size())
        r.fail_at(0x18, "sizeInRom " + hex(h.size_in_rom) + " outside [relocOffset " +
                            hex(h.reloc_offset) + ", buffer size " + hex(r.size()) + "]");
    if (h.size_in_ram < h.reloc_offset)
        r.fail_at(0x1C, "sizeInRam " + hex(h.size_in_ram) + " is below relocOffset " +
                            hex(h.reloc_offset) + " (the game would clear a negative range)");
    return h;
}

}  // namespace

Fragment parse_fragment(const ByteReader& in) {
    ByteReader r = in.with_endian(Endian::big);
    Fragment f;
    f.header = read_fragment_header(r);
    const auto& h = f.header;
    auto body = r.bytes_at(0, h.reloc_offset);
    f.body.assign(body.begin(), body.end());
    ByteReader table = r.sub(h.reloc_offset, h.size_in_rom - h.reloc_offset, ".reloc");
    const std::uint32_t count = table.u32();
    table.require_array(count, 4);
    f.relocs.resize(count);
    // HI16 remembered per register, as Memmap_RelocateFragment does.
    std::array<bool, 32> hi_seen{};
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::size_t at = table.tell();
        Reloc e{table.u32()};
        const std::string where = index_path("", i);
        if (!known_type(e.type())) {
            // Memmap_RelocateFragment's switch has no case for it: the game skips the word
            // (never reads its target). Kept verbatim; relocs_the_game_skips reports it.
            f.relocs[i] = e;
            continue;
        }
        if (e.offset() % 4 != 0 || std::uint64_t(e.offset()) + 4 > h.reloc_offset)
            table.fail_at_path(at, where, "relocation offset " + hex(e.offset()) +
                                              " is not a 4-aligned word inside the body (" +
                                              hex(h.reloc_offset) + " bytes)");
        const std::uint32_t insn = endian::load_be32(&f.body[e.offset()]);
        if (e.type() == RelocType::mips_hi16) {
            hi_seen[mips::rt(insn)] = true;
        }
        // A LO16 with no HI16 for its register before it is kept (the game resolves it with
        // whatever its uninitialised luiRefs/luiVals hold); relocs_the_game_skips reports it.
        f.relocs[i] = e;
    }
    auto pad = table.bytes(table.remaining());
    f.table_padding.assign(pad.begin(), pad.end());
    auto tail = r.bytes_at(h.size_in_rom, r.size() - h.size_in_rom);
    f.trailing.assign(tail.begin(), tail.end());
    return f;
}

Bytes encode_fragment(const Fragment& f) {
    ByteWriter w(Endian::big);
    w.reserve(f.body.size() + 4 + 4 * f.relocs.size() + f.table_padding.size() + f.trailing.size());
    w.bytes(f.body);
    w.u32(static_cast<std::uint32_t>(f.relocs.size()));
    for (const auto& e : f.relocs) w.u32(e.raw);
    w.bytes(f.table_padding);
    w.bytes(f.trailing);
    return w.take();
}

std::vector<SkippedReloc> relocs_the_game_skips(const Fragment& f) {
    std::vector<SkippedReloc> out;
    std::array<bool, 32> hi_seen{};
    for (std::size_t i = 0; i < f.relocs.size(); ++i) {
        const Reloc e = f.relocs[i];
        if (!known_type(e.type())) {
            out.push_back({i, e, SkippedReloc::Kind::unknown_type,
                           "type " + std::to_string(unsigned(e.type())) + " (word " + hex(e.raw, 8) +
                               ") is not one of 2, 4, 5, 6: the game skips it; kept verbatim, never applied"});
            continue;
        }
        if (e.offset() + 4 > f.body.size()) continue;
        const std::uint32_t insn = f.word(e.offset());
        if (e.type() == RelocType::mips_hi16) hi_seen[mips::rt(insn)] = true;
        else if (e.type() == RelocType::mips_lo16 && !hi_seen[mips::rs(insn)])
            out.push_back({i, e, SkippedReloc::Kind::lo16_without_hi16,
                           "R_MIPS_LO16 at " + hex(e.offset()) + " uses register " + std::to_string(mips::rs(insn)) +
                               " with no R_MIPS_HI16 for it before: the game resolves it with its uninitialised "
                               "luiRefs/luiVals (undefined); kept verbatim, its word never rebased"});
    }
    return out;
}

std::vector<RelocPair> pair_hi_lo(const Fragment& f) {
    std::vector<RelocPair> pairs;
    std::array<std::size_t, 32> last_hi;
    last_hi.fill(SIZE_MAX);
    for (std::size_t i = 0; i < f.relocs.size(); ++i) {
        const Reloc e = f.relocs[i];
        if (e.offset() + 4 > f.body.size()) continue;
        const std::uint32_t insn = f.word(e.offset());
        if (e.type() == RelocType::mips_hi16) {
            last_hi[mips::rt(insn)] = i;
        } else if (e.type() == RelocType::mips_lo16 && last_hi[mips::rs(insn)] != SIZE_MAX) {
            pairs.push_back({last_hi[mips::rs(insn)], i});
        }
    }
    return pairs;
}

std::optional<RootGetter> find_root_getter(const Fragment& f) {
    const std::uint32_t end = std::min<std::uint32_t>(0x80, f.body_size());
    for (std::uint32_t at = fragment_header_size; at + 4 <= end; at += 4) {
        const std::uint32_t lui = f.word(at);
        if (mips::opcode(lui) != mips::op_lui) continue;
        for (std::uint32_t lo_at = at + 4; lo_at + 4 <= end; lo_at += 4) {
            const std::uint32_t lo = f.word(lo_at);
            const auto op = mips::opcode(lo);
            if ((op == mips::op_addiu || op == mips::op_ori) && mips::rs(lo) == mips::rt(lui)) {
                RootGetter g;
                g.lui_offset = at;
                g.lo_offset = lo_at;
                g.root_address = op == mips::op_ori ? (mips::imm(lui) << 16) | mips::imm(lo)
                                                    : mips::pair_address(lui, lo);
                return g;
            }
        }
    }
    return std::nullopt;
}

ModelRoot read_model_root(const Fragment& f, const std::string& path) {
    ByteReader r(f.body, Endian::big, {}, path);
    auto getter = find_root_getter(f);
    if (!getter) r.fail_at_path(fragment_header_size, ".root", "no LUI/ADDIU root getter in 0x20..0x7C");
    const std::uint32_t base = f.link_base();
    const std::uint32_t off = getter->root_address - base;
    if (getter->root_address < base || off >= f.body.size() || f.body.size() - off < model_root_size)
        r.fail_at_path(getter->lui_offset, ".root",
                       "the getter returns " + hex(getter->root_address, 8) +
                           ", which is not a 0x18-byte struct inside the fragment body");
    ModelRoot m;
    m.offset = off;
    m.model_id = r.u16_at(off);
    m.unknown2 = r.u8_at(off + 2);
    m.layout_count = r.u8_at(off + 3);
    m.animation_count = r.u8_at(off + 4);
    m.aux_animation_count = r.u8_at(off + 5);
    m.unknown6 = r.u16_at(off + 6);
    m.layouts = r.u32_at(off + 8);
    m.animations = r.u32_at(off + 0xC);
    m.aux_animations = r.u32_at(off + 0x10);
    m.runtime14 = r.u32_at(off + 0x14);
    return m;
}

}  // namespace mod::stadium
