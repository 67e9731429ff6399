#include "libmod/stadium/fragment_image.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace mod::stadium {

namespace {

[[noreturn]] void usage(const std::string& message) {
    throw Error(ErrorKind::usage, message, {}, no_offset, "fragment");
}

[[noreturn]] void conflict(std::uint32_t offset, const std::string& message) {
    throw Error(ErrorKind::conflict, message, {}, offset, "fragment");
}

// A word the game applies as a relocation (types 2, 4, 5, 6). Any other type is skipped by
// Memmap_RelocateFragment: such entries stay verbatim (never moved, never dropped, their word
// never read), since the game gives them no effect wherever they point.
bool applied(Reloc e) noexcept {
    const auto t = e.type();
    return t == RelocType::mips_32 || t == RelocType::mips_26 || t == RelocType::mips_hi16 || t == RelocType::mips_lo16;
}

// Pairing by register in table order, as the game pairs: lo index -> hi index. A LO16 with no
// HI16 before it has no pair (the game's result is undefined): its word is never rewritten.
std::map<std::size_t, std::size_t> pairs_of(const Bytes& body, const std::vector<Reloc>& relocs) {
    std::map<std::size_t, std::size_t> lo_to_hi;
    std::array<std::size_t, 32> last_hi;
    last_hi.fill(SIZE_MAX);
    for (std::size_t i = 0; i < relocs.size(); ++i) {
        if (relocs[i].type() != RelocType::mips_hi16 && relocs[i].type() != RelocType::mips_lo16) continue;
        const std::uint32_t insn = endian::load_be32(&body[relocs[i].offset()]);
        if (relocs[i].type() == RelocType::mips_hi16) last_hi[mips::rt(insn)] = i;
        else if (relocs[i].type() == RelocType::mips_lo16 && last_hi[mips::rs(insn)] != SIZE_MAX)
            lo_to_hi[i] = last_hi[mips::rs(insn)];
    }
    return lo_to_hi;
}

bool is_ori(std::uint32_t insn) { return mips::opcode(insn) == mips::op_ori; }

std::uint32_t lo_pair_address(std::uint32_t lui, std::uint32_t lo) {
    return is_ori(lo) ? (mips::imm(lui) << 16) | mips::imm(lo) : mips::pair_address(lui, lo);
}

}  // namespace

FragmentImage::FragmentImage(Fragment fragment)
    : original_(std::move(fragment)), base_(original_.link_base()), body_(original_.body),
      relocs_(original_.relocs) {}

std::uint32_t FragmentImage::word(std::uint32_t offset) const {
    if (offset % 4 != 0 || std::uint64_t(offset) + 4 > body_.size())
        usage("word offset " + hex(offset) + " is not a 4-aligned word of the " + hex(body_.size()) + "-byte body");
    return endian::load_be32(&body_[offset]);
}

std::optional<std::uint32_t> FragmentImage::offset_of(std::uint32_t address) const noexcept {
    if (address < base_ || address - base_ >= fragment_max_size) return std::nullopt;
    return address - base_;
}

std::vector<FragmentImage::Target> FragmentImage::targets() const {
    std::vector<Target> out;
    auto pairs = pairs_of(body_, relocs_);
    for (std::size_t i = 0; i < relocs_.size(); ++i) {
        const Reloc e = relocs_[i];
        if (!applied(e)) continue;
        const std::uint32_t w = endian::load_be32(&body_[e.offset()]);
        std::optional<std::uint32_t> t;
        switch (e.type()) {
        case RelocType::mips_32: t = offset_of(w); break;
        case RelocType::mips_26: t = offset_of(mips::jump_target(w)); break;
        case RelocType::mips_lo16: {
            auto p = pairs.find(i);
            if (p == pairs.end()) break;
            t = offset_of(lo_pair_address(endian::load_be32(&body_[relocs_[p->second].offset()]), w));
            break;
        }
        case RelocType::mips_hi16: break;
        }
        if (t) out.push_back({e.offset(), *t, e.type()});
    }
    return out;
}

void FragmentImage::check_site(std::uint32_t site, const char* what) const {
    if (site % 4 != 0 || std::uint64_t(site) + 4 > body_.size())
        usage(std::string(what) + ": offset " + hex(site) + " is not a 4-aligned word inside the " +
              hex(body_.size()) + "-byte body");
}

void FragmentImage::shift(std::uint32_t at, std::int64_t delta, const std::function<void()>& edit) {
    const std::uint32_t removed = delta < 0 ? static_cast<std::uint32_t>(-delta) : 0;
    auto moved = [&](std::uint32_t t, std::uint32_t site) -> std::uint32_t {
        if (t < at) return t;
        if (t < at + removed)
            conflict(site, "the pointer at " + hex(site) + " targets " + hex(t) +
                               ", inside the removed range [" + hex(at) + ", " + hex(at + removed) + ")");
        return static_cast<std::uint32_t>(std::int64_t(t) + delta);
    };
    auto site_gone = [&](Reloc e) { return applied(e) && removed && e.offset() >= at && e.offset() < at + removed; };
    auto new_site = [&](std::uint32_t s) {
        return s >= at ? static_cast<std::uint32_t>(std::int64_t(s) + delta) : s;
    };

    // 1. Old targets, before the bytes move.
    auto pairs = pairs_of(body_, relocs_);
    std::vector<std::optional<std::uint32_t>> new_target(relocs_.size());
    std::vector<std::uint32_t> old_word(relocs_.size());
    for (std::size_t i = 0; i < relocs_.size(); ++i) {
        const Reloc e = relocs_[i];
        if (!applied(e)) continue;
        old_word[i] = endian::load_be32(&body_[e.offset()]);
        if (site_gone(e)) continue;
        std::optional<std::uint32_t> t;
        if (e.type() == RelocType::mips_32) t = offset_of(old_word[i]);
        else if (e.type() == RelocType::mips_26) t = offset_of(mips::jump_target(old_word[i]));
        else if (e.type() == RelocType::mips_lo16) {
            auto p = pairs.find(i);
            if (p != pairs.end()) {
                if (site_gone(relocs_[p->second]))
                    conflict(e.offset(), "removing " + hex(relocs_[p->second].offset()) +
                                             " deletes the HI16 the LO16 at " + hex(e.offset()) + " pairs with");
                t = offset_of(lo_pair_address(endian::load_be32(&body_[relocs_[p->second].offset()]), old_word[i]));
            }
        }
        if (t) new_target[i] = moved(*t, e.offset());
    }
    // The upper halves each HI16 must take, decided (and a split HI16 refused) before any byte
    // moves, so a refused edit leaves the image as it was: old HI16 index -> immediate.
    std::map<std::size_t, std::uint32_t> hi_value;
    for (std::size_t i = 0; i < relocs_.size(); ++i) {
        if (!new_target[i] || relocs_[i].type() != RelocType::mips_lo16) continue;
        const std::size_t hi = pairs.at(i);
        const std::uint32_t address = base_ + *new_target[i];
        const std::uint32_t want = is_ori(old_word[i]) ? address >> 16 : mips::hi16(address);
        auto [slot, fresh] = hi_value.emplace(hi, want);
        if (!fresh && slot->second != want)
            conflict(relocs_[i].offset(), "the HI16 at " + hex(relocs_[hi].offset()) +
                                              " is shared by LO16s that now need different upper halves");
    }

    // 2. Move the bytes and the sites.
    edit();
    std::vector<Reloc> kept;
    std::vector<std::size_t> old_index;
    kept.reserve(relocs_.size());
    for (std::size_t i = 0; i < relocs_.size(); ++i) {
        if (site_gone(relocs_[i])) continue;
        kept.push_back(applied(relocs_[i]) ? relocs_[i].with_offset(new_site(relocs_[i].offset())) : relocs_[i]);
        old_index.push_back(i);
    }

    // 3. Rewrite the pointer values at their new places.
    std::map<std::size_t, std::size_t> new_of_old;
    for (std::size_t k = 0; k < kept.size(); ++k) new_of_old[old_index[k]] = k;
    for (std::size_t k = 0; k < kept.size(); ++k) {
        const std::size_t i = old_index[k];
        if (!new_target[i]) continue;
        const std::uint32_t address = base_ + *new_target[i];
        std::uint8_t* p = &body_[kept[k].offset()];
        const std::uint32_t w = endian::load_be32(p);
        switch (kept[k].type()) {
        case RelocType::mips_32: endian::store_be32(p, address); break;
        case RelocType::mips_26: endian::store_be32(p, mips::with_jump_target(w, address)); break;
        case RelocType::mips_lo16: endian::store_be32(p, (w & 0xFFFF0000u) | mips::lo16(address)); break;
        case RelocType::mips_hi16: break;
        }
    }
    for (const auto& [hi, value] : hi_value) {
        std::uint8_t* p = &body_[kept[new_of_old.at(hi)].offset()];
        endian::store_be32(p, (endian::load_be32(p) & 0xFFFF0000u) | value);
    }
    relocs_ = std::move(kept);
    modified_ = true;
}

void FragmentImage::check_growth(std::uint64_t growth, const char* what) const {
    // Pointers resolve through their low 20 bits (the fragment's 1 MiB window): every target,
    // up to one past the bss, must stay below fragment_max_size, or offset_of() stops seeing
    // it and later edits would leave it behind.
    const std::uint64_t bss = original_.header.size_in_ram - original_.header.reloc_offset;
    const std::uint64_t extent = body_.size() + growth + bss;
    if (extent >= fragment_max_size)
        throw Error(ErrorKind::limit,
                    std::string(what) + " of " + hex(growth) + " bytes: the body (" + hex(body_.size()) + " bytes) plus bss (" +
                        hex(bss) + ") would reach " + hex(extent) + ", not below " + hex(fragment_max_size) +
                        " (pointers are resolved by their low 20 bits)",
                    {}, no_offset, "fragment");
}

void FragmentImage::insert(std::uint32_t at, ByteView data) {
    if (at < fragment_header_size || at > body_.size() || at % 4 != 0)
        usage("insert at " + hex(at) + ": must be a 4-aligned offset in [0x20, " + hex(body_.size()) + "]");
    if (data.size() % 8 != 0) usage("insert of " + std::to_string(data.size()) + " bytes: not a multiple of 8");
    if (data.empty()) return;
    check_growth(data.size(), "insert");
    shift(at, static_cast<std::int64_t>(data.size()),
          [&] { body_.insert(body_.begin() + at, data.begin(), data.end()); });
}

void FragmentImage::remove(std::uint32_t at, std::uint32_t size) {
    if (at < fragment_header_size || at % 4 != 0 || at > body_.size() || size > body_.size() - at)
        usage("remove [" + hex(at) + ", +" + hex(size) + "): must be a 4-aligned range inside [0x20, " +
              hex(body_.size()) + ")");
    if (size % 8 != 0) usage("remove of " + std::to_string(size) + " bytes: not a multiple of 8");
    if (size == 0) return;
    shift(at, -static_cast<std::int64_t>(size),
          [&] { body_.erase(body_.begin() + at, body_.begin() + at + size); });
}

void FragmentImage::resize(std::uint32_t at, std::uint32_t old_size, std::uint32_t new_size, std::uint8_t fill) {
    if (std::uint64_t(at) + old_size > body_.size())
        usage("resize: [" + hex(at) + ", +" + hex(old_size) + ") is outside the body");
    if (new_size > old_size) insert(at + old_size, Bytes(new_size - old_size, fill));
    else if (new_size < old_size) remove(at + new_size, old_size - new_size);
}

void FragmentImage::write(std::uint32_t at, ByteView data) {
    if (std::uint64_t(at) + data.size() > body_.size() || (at < fragment_header_size && !data.empty()))
        usage("write [" + hex(at) + ", +" + hex(data.size()) + "): outside [0x20, body end)");
    std::copy(data.begin(), data.end(), body_.begin() + at);
    modified_ = true;
}

void FragmentImage::write_data(std::uint32_t at, ByteView data, const std::string& what) {
    for (const Reloc& e : relocs_) {
        // Every relocated word is 4 bytes at its offset (words the game skips are not relocated).
        if (applied(e) && std::uint64_t(e.offset()) + 4 > at && e.offset() < std::uint64_t(at) + data.size())
            throw Error(ErrorKind::conflict,
                        what + ": [" + hex(at) + ", +" + hex(data.size()) + ") overlaps the relocated " +
                            to_string(e.type()) + " word at " + hex(e.offset()) + "; refusing to overwrite it",
                        {}, no_offset, "fragment");
    }
    write(at, data);
}

std::uint32_t FragmentImage::append(ByteView data, std::uint32_t alignment) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) usage("append: alignment must be a power of two");
    const std::uint32_t old_size = body_size();
    const std::uint64_t start = align_up(body_.size(), alignment);
    const std::uint64_t growth = start - old_size + data.size();
    check_growth(growth, "append");
    // The new bytes go where the bss (and anything one past the body) was: like an insert at
    // the body's end, every target at or after it moves by the growth.
    shift(old_size, static_cast<std::int64_t>(growth), [&] {
        body_.resize(static_cast<std::size_t>(start), 0);
        body_.insert(body_.end(), data.begin(), data.end());
    });
    return base_ + static_cast<std::uint32_t>(start);
}

bool FragmentImage::has_pointer(std::uint32_t site) const noexcept {
    return std::any_of(relocs_.begin(), relocs_.end(), [&](const Reloc& e) {
        return e.type() == RelocType::mips_32 && e.offset() == site;
    });
}

void FragmentImage::add_pointer(std::uint32_t site) {
    check_site(site, "add_pointer");
    if (has_pointer(site)) return;
    // Keep the R_MIPS_32 entries in offset order (the original tables list them in layout order).
    auto pos = relocs_.end();
    for (auto it = relocs_.begin(); it != relocs_.end(); ++it)
        if (it->type() == RelocType::mips_32 && it->offset() > site) { pos = it; break; }
    relocs_.insert(pos, Reloc::make(RelocType::mips_32, site));
    modified_ = true;
}

void FragmentImage::set_pointer(std::uint32_t site, std::uint32_t target_offset) {
    check_site(site, "set_pointer");
    if (target_offset >= fragment_max_size) usage("set_pointer: target " + hex(target_offset) + " outside the fragment");
    endian::store_be32(&body_[site], base_ + target_offset);
    add_pointer(site);
    modified_ = true;
}

void FragmentImage::remove_pointer(std::uint32_t site) {
    auto it = std::find_if(relocs_.begin(), relocs_.end(), [&](const Reloc& e) {
        return e.type() == RelocType::mips_32 && e.offset() == site;
    });
    if (it == relocs_.end()) return;
    relocs_.erase(it);
    modified_ = true;
}

Fragment FragmentImage::build() const {
    if (!modified_) return original_;
    Fragment f;
    f.body = body_;
    f.relocs = relocs_;
    const std::uint32_t body_size = static_cast<std::uint32_t>(body_.size());
    const std::uint64_t table_end = std::uint64_t(body_size) + 4 + 4 * relocs_.size();
    const std::uint64_t padded = align_up(table_end, 16);
    if (padded > 0xFFFFFFFFu) throw Error(ErrorKind::limit, "fragment larger than 4 GiB", {}, no_offset, "fragment");
    f.table_padding.assign(static_cast<std::size_t>(padded - table_end), 0);
    const std::uint32_t bss = original_.header.size_in_ram - original_.header.reloc_offset;
    f.header = original_.header;
    f.header.entry_jump = endian::load_be32(&body_[0]);
    f.header.reloc_offset = body_size;
    f.header.size_in_rom = static_cast<std::uint32_t>(padded);
    f.header.size_in_ram = body_size + bss;
    endian::store_be32(&f.body[0x14], f.header.reloc_offset);
    endian::store_be32(&f.body[0x18], f.header.size_in_rom);
    endian::store_be32(&f.body[0x1C], f.header.size_in_ram);
    return f;
}

}  // namespace mod::stadium
