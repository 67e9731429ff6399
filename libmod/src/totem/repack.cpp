#include "libmod/totem/repack.hpp"

#include "libmod/totem/names.hpp"

#include <algorithm>
#include <numeric>

namespace mod::totem {

namespace {

bool same_record(const Record& a, const Record& b) {
    return a.type_id == b.type_id && a.name_id == b.name_id && a.subtype_id == b.subtype_id &&
           a.payload == b.payload;
}

// Smallest multiple of the granularity holding a chunk header and the record.
std::uint32_t chunk_size_for(std::uint64_t record_size) {
    const std::uint64_t need = align_up(chunk_header_size + record_size, chunk_granularity);
    if (need > max_chunk_size)
        throw Error(ErrorKind::limit, "a record of " + std::to_string(record_size) + " bytes needs a chunk of " +
                                          std::to_string(need) + " bytes, more than the limit of " + hex(max_chunk_size) +
                                          " (16 MiB; doc/formats/totem-archive.md, Limits)");
    return static_cast<std::uint32_t>(need);
}

struct Slot {
    std::vector<std::size_t> items;  // indices into the item list
    std::uint64_t used = chunk_header_size;
    std::optional<std::size_t> original;  // original chunk index
    bool touched = false;
};

}  // namespace

std::vector<RepackItem> items_of(const Archive& archive) {
    std::vector<RepackItem> items;
    items.reserve(archive.records.size());
    for (std::size_t i = 0; i < archive.records.size(); ++i) items.push_back({archive.records[i], i});
    return items;
}

Archive repack(const Archive& original, std::vector<RepackItem> items, RepackReport* report_out) {
    RepackReport report;
    report.old_chunk_size = original.chunk_size;
    std::vector<std::optional<std::size_t>> item_of(original.records.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (!items[i].origin) continue;
        const std::size_t o = *items[i].origin;
        if (o >= original.records.size())
            throw Error(ErrorKind::usage, "repack item " + std::to_string(i) + " refers to record " +
                                              std::to_string(o) + " of a " +
                                              std::to_string(original.records.size()) + "-record archive");
        if (item_of[o])
            throw Error(ErrorKind::conflict, "repack items " + std::to_string(*item_of[o]) + " and " +
                                                 std::to_string(i) + " both replace record " + std::to_string(o));
        item_of[o] = i;
    }

    std::uint32_t chunk_size = original.chunk_size;
    for (const auto& it : items) {
        if (chunk_header_size + it.record.total_size() > chunk_size) {
            const std::uint32_t need = chunk_size_for(it.record.total_size());
            report.notes.push_back("record " + hash_text(it.record.name_id) + " (" +
                                   std::to_string(it.record.total_size()) + " bytes) does not fit a " +
                                   hex(chunk_size) + "-byte chunk: chunk size grows to " + hex(need));
            chunk_size = need;
        }
    }
    report.new_chunk_size = chunk_size;

    auto unchanged = [&](std::size_t item) {
        return items[item].origin && same_record(items[item].record, original.records[*items[item].origin]);
    };
    auto size_of = [&](std::size_t item) { return items[item].record.total_size(); };

    std::vector<Slot> slots;
    std::vector<std::size_t> homeless;
    for (std::size_t ci = 0; ci < original.chunks.size(); ++ci) {
        Slot s;
        s.original = ci;
        for (auto o : original.chunks[ci].records) {
            if (!item_of[o]) {
                ++report.removed;
                s.touched = true;
                continue;
            }
            s.items.push_back(*item_of[o]);
            s.used += size_of(*item_of[o]);
            if (!unchanged(*item_of[o])) s.touched = true;
        }
        // Evict changed records, largest first, until the chunk fits again.
        while (s.used > chunk_size) {
            auto victim = std::max_element(s.items.begin(), s.items.end(), [&](std::size_t a, std::size_t b) {
                const bool ca = !unchanged(a), cb = !unchanged(b);
                if (ca != cb) return !ca;  // changed records are the candidates
                return size_of(a) < size_of(b);
            });
            homeless.push_back(*victim);
            s.used -= size_of(*victim);
            s.items.erase(victim);
            ++report.moved;
        }
        for (auto i : s.items) unchanged(i) ? ++report.unchanged : ++report.changed_in_place;
        slots.push_back(std::move(s));
    }
    for (std::size_t i = 0; i < items.size(); ++i)
        if (!items[i].origin) {
            homeless.push_back(i);
            ++report.added;
        }
    std::stable_sort(homeless.begin(), homeless.end(),
                     [&](std::size_t a, std::size_t b) { return size_of(a) > size_of(b); });
    for (auto i : homeless) {
        auto fit = std::find_if(slots.begin(), slots.end(),
                                [&](const Slot& s) { return s.used + size_of(i) <= chunk_size; });
        if (fit == slots.end()) {
            slots.emplace_back();
            fit = slots.end() - 1;
        }
        fit->items.push_back(i);
        fit->used += size_of(i);
        fit->touched = true;
        if (items[i].origin)
            report.notes.push_back("record " + hash_text(items[i].record.name_id) + " moved to chunk " +
                                   std::to_string(fit - slots.begin()) + " (it no longer fits its chunk)");
    }

    Archive out;
    out.endian = original.endian;
    out.legal_notice = original.legal_notice;
    out.header_padding = original.header_padding;
    out.chunk_size = chunk_size;
    // A chunk that was already empty in the original and lost nothing is kept (verbatim, like
    // any untouched chunk); only chunks that an edit emptied are dropped.
    auto kept = [](const Slot& s) { return !s.items.empty() || (s.original && !s.touched); };
    std::size_t last_slot = slots.size();
    for (std::size_t si = 0; si < slots.size(); ++si)
        if (kept(slots[si])) last_slot = si;
    for (std::size_t si = 0; si < slots.size(); ++si) {
        Slot& s = slots[si];
        if (!kept(s)) {
            if (s.original) report.notes.push_back("original chunk " + std::to_string(*s.original) + " is now empty and is dropped");
            continue;
        }
        Chunk c;
        for (auto i : s.items) {
            c.records.push_back(out.records.size());
            out.records.push_back(items[i].record);
        }
        const std::size_t fill = chunk_size - s.used;
        if (s.original && !s.touched) {
            // Untouched: the original padding, extended with zeros if the chunk size grew.
            // A short last chunk stays short while it is still last and the size is unchanged.
            c.padding = original.chunks[*s.original].padding;
            const bool keep_short = si == last_slot && chunk_size == original.chunk_size && c.padding.size() < fill;
            if (!keep_short) c.padding.resize(fill, 0);
        } else {
            ++report.chunks_rewritten;
            if (s.original) {
                const Bytes& old = original.chunks[*s.original].padding;
                if (std::any_of(old.begin(), old.end(), [](std::uint8_t b) { return b != 0; }))
                    report.notes.push_back("chunk " + std::to_string(*s.original) +
                                           " had non-zero padding; its contents changed, so it is rewritten with zeros");
            }
            c.padding.assign(fill, 0);
        }
        out.chunks.push_back(std::move(c));
    }
    if (report_out) *report_out = std::move(report);
    return out;
}

}  // namespace mod::totem
