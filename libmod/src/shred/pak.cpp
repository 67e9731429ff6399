// PAK under the RIDE layout hypothesis: read with explicit "what differed" messages, repack
// preserving every unknown word, the entry order and the gaps, and our own writer.
#include "libmod/shred/pak.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace mod::shred {

namespace {

constexpr const char* misfit = "not a RIDE-layout PAK: ";

[[noreturn]] void fail(const std::string& file, std::uint64_t at, const std::string& path, const std::string& what) {
    throw Error(ErrorKind::format, misfit + what, file, at, path);
}

}  // namespace

ByteView Pak::data(std::size_t entry) const {
    const auto& e = entries.at(entry);
    return ByteView(raw).subspan(e.data_offset, e.size);
}

std::optional<std::size_t> Pak::find(std::string_view name) const {
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (entries[i].name == name) return i;
    return std::nullopt;
}

Pak read_pak(Bytes data, std::string file) {
    Pak pak;
    pak.file = std::move(file);
    const auto& f = pak.file;
    if (data.size() < pak_header_bytes)
        fail(f, 0, "pak.header", "the file has " + std::to_string(data.size()) + " bytes, fewer than the 16-byte header");
    if (std::memcmp(data.data(), "PAK\0", 4) != 0)
        fail(f, 0, "pak.magic", "magic is " + hex(endian::load_be32(data.data()), 8) + ", expected \"PAK\\0\" (0x50414B00)");
    pak.unknown_a = endian::load_be16(data.data() + 4);
    pak.unknown_b = endian::load_be16(data.data() + 6);
    std::uint32_t count = endian::load_be32(data.data() + 8);
    pak.name_table_size = endian::load_be32(data.data() + 12);
    std::uint64_t table_end = pak_header_bytes + std::uint64_t(count) * pak_entry_bytes;
    if (table_end > data.size())
        fail(f, 8, "pak.count", std::to_string(count) + " entries of 24 bytes run past the end of the file (" +
                                    std::to_string(data.size()) + " bytes)");
    std::uint64_t names_end = table_end + pak.name_table_size;
    if (names_end > data.size())
        fail(f, 12, "pak.name_table_size", "the name table (" + std::to_string(pak.name_table_size) + " bytes at " +
                                               hex(table_end) + ") runs past the end of the file");
    pak.entries.resize(count);
    const std::uint8_t* names = data.data() + table_end;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint8_t* p = data.data() + pak_header_bytes + std::size_t(i) * pak_entry_bytes;
        std::uint64_t at = pak_header_bytes + std::uint64_t(i) * pak_entry_bytes;
        std::string path = "pak.entry[" + std::to_string(i) + "]";
        auto& e = pak.entries[i];
        e.hash = endian::load_be32(p);
        e.name_offset = endian::load_be32(p + 4);
        e.unknown1 = endian::load_be32(p + 8);
        e.unknown2 = endian::load_be32(p + 12);
        e.data_offset = endian::load_be32(p + 16);
        e.size = endian::load_be32(p + 20);
        if (e.name_offset >= pak.name_table_size)
            fail(f, at + 4, path + ".name_offset", "name offset " + hex(e.name_offset) + " is outside the name table (" +
                                                       std::to_string(pak.name_table_size) + " bytes)");
        const void* nul = std::memchr(names + e.name_offset, 0, pak.name_table_size - e.name_offset);
        if (!nul) fail(f, table_end + e.name_offset, path + ".name", "the name is not NUL-terminated inside the name table");
        e.name.assign(reinterpret_cast<const char*>(names + e.name_offset),
                      static_cast<const char*>(nul) - reinterpret_cast<const char*>(names + e.name_offset));
        if (std::uint64_t(e.data_offset) + e.size > data.size())
            fail(f, at + 16, path + ".data_offset", "data " + hex(e.data_offset) + " + " + std::to_string(e.size) +
                                                        " bytes runs past the end of the file (" +
                                                        std::to_string(data.size()) + " bytes)");
        if (e.size > 0 && e.data_offset < names_end)
            fail(f, at + 16, path + ".data_offset", "data at " + hex(e.data_offset) +
                                                        " starts inside the header, entry table or name table (which end at " +
                                                        hex(names_end) + ")");
    }
    pak.raw = std::move(data);
    return pak;
}

ByteView pak_entry_data(ByteView pak, std::size_t entry, const std::string& file) {
    if (pak.size() < pak_header_bytes || std::memcmp(pak.data(), "PAK\0", 4) != 0)
        fail(file, 0, "pak.header", "no 16-byte header with the magic \"PAK\\0\"");
    std::uint32_t count = endian::load_be32(pak.data() + 8);
    if (entry >= count)
        throw Error(ErrorKind::usage, "entry " + std::to_string(entry) + " does not exist (the PAK has " +
                                          std::to_string(count) + ")",
                    file);
    std::uint64_t at = pak_header_bytes + std::uint64_t(entry) * pak_entry_bytes;
    std::string path = "pak.entry[" + std::to_string(entry) + "]";
    if (at + pak_entry_bytes > pak.size()) fail(file, at, path, "the entry runs past the end of the file");
    std::uint32_t offset = endian::load_be32(pak.data() + at + 16);
    std::uint32_t size = endian::load_be32(pak.data() + at + 20);
    if (std::uint64_t(offset) + size > pak.size())
        fail(file, at + 16, path + ".data_offset", "data " + hex(offset) + " + " + std::to_string(size) +
                                                       " bytes runs past the end of the file (" +
                                                       std::to_string(pak.size()) + " bytes)");
    return pak.subspan(offset, size);
}

std::uint32_t pak_data_alignment(const Pak& pak) noexcept {
    std::uint32_t a = 2048;
    for (const auto& e : pak.entries)
        while (a > 1 && e.data_offset % a != 0) a >>= 1;
    return a;
}

namespace {

// The entries in data order (zero-size entries ride along at their offset), and the first
// place where two entries' data share bytes (the layout then cannot be re-laid out).
struct DataOrder {
    std::vector<std::size_t> order;
    std::optional<std::size_t> overlap;  // k: order[k - 1] and order[k] overlap
};

DataOrder data_order(const Pak& pak) {
    DataOrder d;
    d.order.resize(pak.entries.size());
    std::iota(d.order.begin(), d.order.end(), std::size_t(0));
    std::stable_sort(d.order.begin(), d.order.end(), [&](std::size_t a, std::size_t b) {
        return pak.entries[a].data_offset < pak.entries[b].data_offset;
    });
    for (std::size_t k = 1; k < d.order.size() && !d.overlap; ++k) {
        const auto& a = pak.entries[d.order[k - 1]];
        const auto& b = pak.entries[d.order[k]];
        if (a.size && b.size && std::uint64_t(a.data_offset) + a.size > b.data_offset) d.overlap = k;
    }
    return d;
}

[[noreturn]] void refuse_overlap(const Pak& pak, const DataOrder& d) {
    std::size_t k = *d.overlap;
    const auto& a = pak.entries[d.order[k - 1]];
    const auto& b = pak.entries[d.order[k]];
    throw Error(ErrorKind::conflict,
                "entries '" + a.name + "' and '" + b.name +
                    "' share bytes; the RIDE layout hypothesis cannot re-lay out overlapping data",
                pak.file, b.data_offset, "pak.entry[" + std::to_string(d.order[k]) + "]");
}

[[noreturn]] void wrong_size(const Pak& pak, std::size_t entry, std::size_t written, std::size_t announced) {
    throw Error(ErrorKind::usage, "entry " + std::to_string(entry) + ": the writer gave " + std::to_string(written) +
                                      " bytes, " + std::to_string(announced) + " were announced",
                pak.file);
}

// A writer that shrank the output below where its entry starts: it removed bytes that are not
// its own (the count is taken before the subtraction could wrap around).
[[noreturn]] void shrank(const Pak& pak, std::size_t entry, std::size_t removed, std::size_t announced) {
    throw Error(ErrorKind::usage, "entry " + std::to_string(entry) + ": the writer removed " + std::to_string(removed) +
                                      " bytes written before its data (it may only append; " +
                                      std::to_string(announced) + " bytes were announced)",
                pak.file);
}

// The one repack layout (repack_pak's contract), for entries of new size `new_size[i]`
// (nullopt: the original data), planned before anything is written so that the output is
// allocated once at its final size.
struct RepackPlan {
    struct Step {
        std::size_t entry;
        bool replaced;                 // new data from the writer (else the original data)
        std::uint64_t offset, size;    // new data range
        std::uint64_t gap_begin, gap_end;  // original bytes copied after it (when it kept its place)
        std::uint64_t padding;         // else zero bytes after it
    };
    std::size_t head_bytes = 0;  // original bytes before the first data
    std::vector<Step> steps;     // in data order
    std::uint64_t total = 0;
};

RepackPlan plan_repack(const Pak& pak, const std::vector<std::size_t>& order,
                       std::span<const std::optional<std::size_t>> new_size) {
    const std::uint32_t align = pak_data_alignment(pak);
    const std::size_t names_end = pak.name_table_offset() + pak.name_table_size;
    RepackPlan plan;
    plan.head_bytes = std::max<std::size_t>(order.empty() ? pak.raw.size() : pak.entries[order.front()].data_offset,
                                            names_end);
    std::uint64_t at = plan.head_bytes;
    std::uint64_t covered = plan.head_bytes;  // original bytes laid out so far
    plan.steps.reserve(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t i = order[k];
        const auto& e = pak.entries[i];
        if (at > 0xFFFFFFFFull) throw Error(ErrorKind::limit, "the repacked PAK exceeds 4 GiB", pak.file);
        const bool replaced = i < new_size.size() && new_size[i];
        RepackPlan::Step step{i, replaced, at, replaced ? *new_size[i] : e.size, 0, 0, 0};
        if (step.size > 0xFFFFFFFFull) throw Error(ErrorKind::limit, "entry " + std::to_string(i) + " exceeds 4 GiB", pak.file);
        at += step.size;
        // Where this entry stands in the original bytes after the ones already laid out: an
        // empty entry may point before the end of the names (or of earlier data), whose bytes
        // are not copied a second time.
        const std::uint64_t begin = std::max<std::uint64_t>(e.data_offset, covered);
        const std::uint64_t end = begin + e.size;
        // The gap after this entry in the original file (to the next data or the end).
        std::uint64_t next = k + 1 < order.size() ? std::max<std::uint64_t>(pak.entries[order[k + 1]].data_offset, end)
                                                  : std::max<std::uint64_t>(pak.raw.size(), end);
        covered = end;
        if (step.size == e.size && step.offset % align == begin % align) {
            step.gap_begin = end;
            step.gap_end = next;
            covered = next;
            at += next - end;
        } else {
            // Moved or resized: the gap's bytes no longer line up, so pad to the alignment.
            step.padding = align_up(at, align) - at;
            at += step.padding;
        }
        plan.steps.push_back(step);
    }
    plan.total = at;
    return plan;
}

// Writes the planned PAK: `put(i, out)` appends the new data of a replaced entry; every other
// byte comes from the original file.
template <class Put>
Bytes lay_out_pak(const Pak& pak, const RepackPlan& plan, Put&& put) {
    Bytes out;
    out.reserve(static_cast<std::size_t>(plan.total));
    out.assign(pak.raw.begin(), pak.raw.begin() + static_cast<std::ptrdiff_t>(plan.head_bytes));
    auto raw = [&](std::uint64_t from, std::uint64_t to) {
        out.insert(out.end(), pak.raw.begin() + static_cast<std::ptrdiff_t>(from),
                   pak.raw.begin() + static_cast<std::ptrdiff_t>(to));
    };
    for (const auto& step : plan.steps) {
        const auto& e = pak.entries[step.entry];
        if (step.replaced) {
            std::size_t before = out.size();
            put(step.entry, out);
            if (out.size() < before) shrank(pak, step.entry, before - out.size(), static_cast<std::size_t>(step.size));
            if (out.size() - before != step.size) wrong_size(pak, step.entry, out.size() - before, step.size);
        } else {
            raw(e.data_offset, std::uint64_t(e.data_offset) + e.size);
        }
        raw(step.gap_begin, step.gap_end);
        out.resize(out.size() + static_cast<std::size_t>(step.padding), 0);
    }
    for (const auto& step : plan.steps) {
        std::uint8_t* at = out.data() + pak_header_bytes + step.entry * pak_entry_bytes;
        endian::store_be32(at + 16, static_cast<std::uint32_t>(step.offset));
        endian::store_be32(at + 20, static_cast<std::uint32_t>(step.size));
    }
    return out;
}

}  // namespace

Bytes repack_pak(const Pak& pak, std::span<const std::optional<Bytes>> replacements) {
    if (replacements.size() > pak.entries.size())
        throw Error(ErrorKind::usage, "more replacements than PAK entries", pak.file);
    bool changed = false;
    std::vector<std::optional<std::size_t>> new_size(replacements.size());
    for (std::size_t i = 0; i < replacements.size(); ++i) {
        if (!replacements[i]) continue;
        new_size[i] = replacements[i]->size();
        ByteView old = pak.data(i);
        changed |= replacements[i]->size() != old.size() || !std::equal(old.begin(), old.end(), replacements[i]->begin());
    }
    if (!changed) return pak.raw;
    auto d = data_order(pak);
    if (d.overlap) refuse_overlap(pak, d);
    return lay_out_pak(pak, plan_repack(pak, d.order, new_size), [&](std::size_t i, Bytes& out) {
        out.insert(out.end(), replacements[i]->begin(), replacements[i]->end());
    });
}

Bytes repack_pak_in_place(const Pak& pak, std::span<const std::optional<std::size_t>> sizes,
                          const PakEntryWriter& write) {
    if (sizes.size() > pak.entries.size()) throw Error(ErrorKind::usage, "more replacements than PAK entries", pak.file);
    auto d = data_order(pak);
    if (d.overlap) {
        // Overlapping data: whether that is refused depends on the new bytes (repack_pak gives
        // the original back when nothing changed), so they are made apart first.
        std::vector<std::optional<Bytes>> replacements(sizes.size());
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            if (!sizes[i]) continue;
            Bytes data;
            data.reserve(*sizes[i]);
            write(i, data);
            if (data.size() != *sizes[i]) wrong_size(pak, i, data.size(), *sizes[i]);
            replacements[i] = std::move(data);
        }
        return repack_pak(pak, replacements);
    }
    const RepackPlan plan = plan_repack(pak, d.order, sizes);
    Bytes out = lay_out_pak(pak, plan, write);
    // repack_pak gives the original file back when every new entry equals the old one; only
    // possible when no size changed. The plan says where each new entry went.
    auto unchanged = [&](const RepackPlan::Step& step) {
        if (!step.replaced) return true;
        ByteView old = pak.data(step.entry);
        return step.size == old.size() &&
               (old.empty() || std::memcmp(old.data(), out.data() + step.offset, old.size()) == 0);
    };
    const bool same = std::all_of(plan.steps.begin(), plan.steps.end(), unchanged);
    if (same) return pak.raw;
    return out;
}

Bytes build_pak(std::span<const PakBuildEntry> entries, std::uint16_t unknown_a, std::uint16_t unknown_b,
                std::uint32_t alignment) {
    ByteWriter w(Endian::big);
    w.u32(0x50414B00);  // "PAK\0"
    w.u16(unknown_a);
    w.u16(unknown_b);
    w.u32(static_cast<std::uint32_t>(entries.size()));
    std::size_t name_size_at = w.placeholder_u32();
    std::vector<std::size_t> entry_at;
    for (const auto& e : entries) {
        entry_at.push_back(w.size());
        w.u32(e.hash);
        w.fill(4);
        w.u32(e.unknown1);
        w.u32(e.unknown2);
        w.fill(8);
    }
    std::size_t names = w.size();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        w.patch_u32(entry_at[i] + 4, static_cast<std::uint32_t>(w.size() - names));
        w.string(entries[i].name);
        w.u8(0);
    }
    w.align(4);
    w.patch_u32(name_size_at, static_cast<std::uint32_t>(w.size() - names));
    for (std::size_t i = 0; i < entries.size(); ++i) {
        w.align(alignment);
        w.patch_u32(entry_at[i] + 16, static_cast<std::uint32_t>(w.size()));
        w.patch_u32(entry_at[i] + 20, static_cast<std::uint32_t>(entries[i].data.size()));
        w.bytes(entries[i].data);
    }
    w.align(alignment);
    return w.take();
}

}  // namespace mod::shred
