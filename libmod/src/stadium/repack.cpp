// BinArchive repacking: unchanged entries are copied, changed ones re-encoded in parallel, the
// layout moves only where it must.
#include "libmod/core/parallel.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/fragment.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <span>

namespace mod::stadium {

namespace {

// Hypothesis U5 (one place): padding written where the layout moved. Gaps between entries are
// zero; space vacated at the end of the data takes the value of the original tail padding
// (the first byte after the original data end), or zero when there was none.
constexpr std::uint8_t fresh_gap_byte = 0x00;
std::uint8_t vacated_tail_byte(const Archive& a) {
    const std::uint32_t end = a.data_end();
    return end < a.region.size() ? a.region[end] : 0x00;
}

struct Encoded {
    Bytes blob;
};

std::optional<std::uint32_t> fragment_extent(ByteView content) {
    if (!has_fragment_magic(content) || content.size() < fragment_header_size) return std::nullopt;
    const std::uint32_t ram = endian::load_be32(content.data() + 0x1C);
    return std::max<std::uint32_t>(static_cast<std::uint32_t>(content.size()), ram);
}

// Writes `fill` over every byte of [from, to) that an original entry covered; bytes that were
// padding in the original stay as they were.
void clear_stale(std::span<std::uint8_t> out, const Archive& a, std::uint64_t from, std::uint64_t to, std::uint8_t fill) {
    if (from >= to) return;
    for (const auto& d : a.entries) {
        const std::uint64_t s = std::max<std::uint64_t>(from, d.offset);
        const std::uint64_t e = std::min<std::uint64_t>(to, std::uint64_t(d.offset) + d.size);
        if (s < e) std::fill(out.begin() + s, out.begin() + e, fill);
    }
}

// Decides and encodes in parallel; an entry whose new content equals the original is kept
// (nullopt). Reads the archive's bytes only.
std::vector<std::optional<Encoded>> encode_changes(const Archive& a, const std::vector<Replacement>& replacements,
                                                   const RepackOptions& options) {
    const std::size_t n = a.entries.size();
    std::map<std::size_t, const Bytes*> replaced;
    for (const auto& r : replacements) {
        if (r.index >= n)
            throw Error(ErrorKind::usage, "replacement for entry " + std::to_string(r.index) + " but the archive has " +
                                              std::to_string(n) + " entries", a.file, no_offset, "archive");
        if (!replaced.emplace(r.index, &r.content).second)
            throw Error(ErrorKind::usage, "two replacements for the same entry", a.file, no_offset,
                        index_path("archive", r.index));
    }
    return parallel_map(n, [&](std::size_t i) -> std::optional<Encoded> {
        struct Tick {
            Progress* p;
            ~Tick() { if (p) p->advance(); }
        } tick{options.progress};
        auto it = replaced.find(i);
        const PayloadKind kind = classify_payload(a.blob(i));
        const bool forced = options.reencode_all && kind == PayloadKind::pers_szp;
        if (it == replaced.end() && !forced) return std::nullopt;
        DecodedEntry original = decode_entry(a, i);
        const Bytes& content = it == replaced.end() ? original.content : *it->second;
        if (!forced && content == original.content) return std::nullopt;
        if (kind != PayloadKind::pers_szp && szp::has_magic(content))
            throw Error(ErrorKind::usage,
                        "the new content of this " + std::string(to_string(kind)) +
                            " entry starts with \"PERS-SZP\": stored as given, the loader would decompress it "
                            "instead of loading it (give the decoded content)",
                        a.file, no_offset, index_path("archive", i));
        Encoded e;
        e.blob = kind == PayloadKind::pers_szp ? szp::pack(content, options.mode) : content;
        // The entry's own size convention (U5b): a padded stored size stays padded. An empty
        // entry shows no convention, so its new content is stored as given.
        if (a.entries[i].size != 0 && a.entries[i].size % entry_alignment == 0)
            e.blob.resize(align_up(e.blob.size(), entry_alignment), 0);
        if (e.blob.size() > 0xFFFFFFFFu)
            throw Error(ErrorKind::limit, "entry larger than 4 GiB", a.file, no_offset, index_path("archive", i));
        if (options.model_limits) {
            try {
                check_entry_limits(i, static_cast<std::uint32_t>(e.blob.size()),
                                   static_cast<std::uint32_t>(content.size()), fragment_extent(content),
                                   options.limits);
            } catch (Error& err) {
                err.set_file_if_empty(a.file);
                throw;
            }
        }
        return e;
    }, options.threads);
}

std::uint64_t table_end_of(std::size_t count) noexcept {
    return archive_header_size + std::uint64_t(descriptor_size) * count;
}

// The layout (rules in archive.hpp): every entry's new descriptor, checked against the region
// and the ROM limit before anything is written, and where the data now ends.
struct Layout {
    RepackResult result;
    std::uint32_t new_end = 0;
};

Layout lay_out(const Archive& a, const std::vector<std::optional<Encoded>>& encoded, const RepackOptions& options) {
    const std::size_t n = a.entries.size();
    Layout layout;
    RepackResult& result = layout.result;
    result.header = a.header;
    result.entries.resize(n);
    std::uint64_t cursor = table_end_of(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Descriptor& d = a.entries[i];
        EntryOutcome& o = result.entries[i];
        o.descriptor = d;
        const std::uint64_t size = encoded[i] ? encoded[i]->blob.size() : d.size;
        const std::uint64_t offset = cursor <= d.offset ? d.offset : align_up(cursor, entry_alignment);
        const std::uint64_t end = offset + size;
        if (end > a.region.size() || options.rom_start + end > options.rom_end_limit)
            throw Error(ErrorKind::limit,
                        "the archive would end at ROM " + hex(options.rom_start + end) + ", past the limit " +
                            hex(std::min<std::uint64_t>(options.rom_end_limit, options.rom_start + a.region.size())) +
                            " (the next ROM segment starts there)",
                        a.file, no_offset, index_path("archive", i));
        if (encoded[i]) {
            o.descriptor.size = static_cast<std::uint32_t>(size);
            o.reencoded = true;
            ++result.reencoded;
        }
        o.moved = offset != d.offset;
        o.descriptor.offset = static_cast<std::uint32_t>(offset);
        cursor = end;
    }
    layout.new_end = static_cast<std::uint32_t>(std::max<std::uint64_t>(cursor, table_end_of(n)));
    result.header.total_size = total_size_after_repack(a.header.total_size, a.data_end(), layout.new_end);
    return layout;
}

// Writes the layout over `out`, which holds the original region's bytes (a copy, or the very
// bytes a.region views). An entry only ever moves towards the end (its new offset is at least
// its old one) and entries keep their order, so going from the last entry to the first reads
// every moved entry before anything overwrites it: entry i's new place overlaps only the old
// places of entries >= i, which have moved already, and the gap before it lies below its new
// place and above the old places of entries < i.
void write_layout(std::span<std::uint8_t> out, const Archive& a, const std::vector<std::optional<Encoded>>& encoded,
                  const Layout& layout) {
    const RepackResult& result = layout.result;
    const std::size_t n = a.entries.size();
    const std::uint64_t table_end = table_end_of(n);
    const std::uint8_t tail = vacated_tail_byte(a);  // read before anything is written
    for (std::size_t i = n; i-- > 0;) {
        const Descriptor& d = a.entries[i];
        const Descriptor& now = result.entries[i].descriptor;
        if (encoded[i]) std::copy(encoded[i]->blob.begin(), encoded[i]->blob.end(), out.begin() + now.offset);
        else if (now.offset != d.offset)
            std::memmove(out.data() + now.offset, out.data() + d.offset, d.size);
        const std::uint64_t gap_from =
            i == 0 ? table_end : std::uint64_t(result.entries[i - 1].descriptor.offset) + result.entries[i - 1].descriptor.size;
        clear_stale(out, a, gap_from, now.offset, fresh_gap_byte);
    }
    clear_stale(out, a, layout.new_end, a.data_end(), tail);
    endian::store_be32(&out[8], result.header.total_size);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint8_t* p = &out[archive_header_size + descriptor_size * i];
        endian::store_be32(p, result.entries[i].descriptor.offset);
        endian::store_be32(p + 4, result.entries[i].descriptor.size);
        endian::store_be32(p + 8, result.entries[i].descriptor.cache);
        endian::store_be32(p + 12, result.entries[i].descriptor.unknown);
    }
}

}  // namespace

RepackResult repack_archive(const Archive& a, const std::vector<Replacement>& replacements,
                            const RepackOptions& options) {
    const auto encoded = encode_changes(a, replacements, options);
    Layout layout = lay_out(a, encoded, options);
    layout.result.region = a.region.copy();
    write_layout(layout.result.region, a, encoded, layout);
    return std::move(layout.result);
}

RepackResult repack_archive_into(const Archive& a, const std::vector<Replacement>& replacements,
                                 const RepackOptions& options, std::span<std::uint8_t> region) {
    if (region.size() != a.region.size())
        throw Error(ErrorKind::usage, "the region to repack into has " + hex(region.size()) + " bytes, the archive " +
                                          hex(a.region.size()), a.file, no_offset, "archive");
    const auto encoded = encode_changes(a, replacements, options);
    Layout layout = lay_out(a, encoded, options);
    write_layout(region, a, encoded, layout);
    return std::move(layout.result);
}

}  // namespace mod::stadium
