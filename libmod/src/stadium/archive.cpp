#include "libmod/stadium/archive.hpp"

#include "libmod/stadium/fragment.hpp"

#include <algorithm>
#include <cstring>

namespace mod::stadium {

const char* to_string(PayloadKind kind) noexcept {
    switch (kind) {
    case PayloadKind::pers_szp: return "pers-szp";
    case PayloadKind::presjpeg: return "presjpeg";
    case PayloadKind::fragment: return "fragment";
    case PayloadKind::raw: return "raw";
    }
    return "raw";
}

PayloadKind parse_payload_kind(std::string_view name) {
    for (auto k : {PayloadKind::pers_szp, PayloadKind::presjpeg, PayloadKind::fragment, PayloadKind::raw})
        if (name == to_string(k)) return k;
    throw Error(ErrorKind::format, "unknown payload kind '" + std::string(name) + "'");
}

PayloadKind classify_payload(ByteView blob) noexcept {
    if (szp::has_magic(blob)) return PayloadKind::pers_szp;
    if (blob.size() >= 8 && std::memcmp(blob.data(), "PRESJPEG", 8) == 0) return PayloadKind::presjpeg;
    if (has_fragment_magic(blob)) return PayloadKind::fragment;
    return PayloadKind::raw;
}

ByteView Archive::blob(std::size_t i) const {
    const Descriptor& d = entries.at(i);
    return ByteView(region).subspan(d.offset, d.size);
}

std::uint32_t Archive::data_end() const noexcept {
    std::uint32_t end = archive_header_size + descriptor_size * static_cast<std::uint32_t>(entries.size());
    for (const auto& d : entries) end = std::max(end, d.offset + d.size);
    return end;
}

std::uint32_t total_size_u6(std::uint32_t data_end) noexcept {
    return (data_end + entry_alignment - 1) & ~(entry_alignment - 1);
}

std::uint32_t total_size_after_repack(std::uint32_t original_total, std::uint32_t original_end,
                                      std::uint32_t new_end) noexcept {
    if (new_end == original_end) return original_total;
    const std::uint32_t u6_before = total_size_u6(original_end);
    const std::uint32_t excess = original_total > u6_before ? original_total - u6_before : 0;
    return total_size_u6(new_end) + excess;
}

namespace {

// Everything but the region's bytes.
Archive parse_archive_table(const ByteReader& in) {
    ByteReader r = in.with_endian(Endian::big).with_path(in.path().empty() ? "archive" : in.path());
    Archive a;
    a.file = r.file();
    a.base = r.absolute(0);
    r.require_at(0, archive_header_size);
    a.header.flags = r.u16_at(0);
    a.header.fragment_id = r.u16_at(2);
    a.header.word4 = r.u32_at(4);
    a.header.total_size = r.u32_at(8);
    a.header.count = r.u32_at(0xC);
    ByteReader table = r.sub(archive_header_size, r.size() - archive_header_size, ".table");
    table.require_array(a.header.count, descriptor_size);
    const std::uint64_t table_end = archive_header_size + std::uint64_t(descriptor_size) * a.header.count;
    a.entries.resize(a.header.count);
    std::uint64_t previous_end = table_end;
    for (std::uint32_t i = 0; i < a.header.count; ++i) {
        Descriptor& d = a.entries[i];
        const std::size_t at = archive_header_size + descriptor_size * std::size_t(i);
        d.offset = r.u32_at(at);
        d.size = r.u32_at(at + 4);
        d.cache = r.u32_at(at + 8);
        d.unknown = r.u32_at(at + 12);
        // The path is built only for a message: the workspace parses the table for every edit.
        if (std::uint64_t(d.offset) + d.size > r.size())
            r.fail_at_path(at, index_path("", i), "entry [" + hex(d.offset) + ", +" + hex(d.size) +
                                          ") runs past the " + hex(r.size()) + "-byte archive region");
        if (d.offset < previous_end)
            r.fail_at_path(at, index_path("", i), "entry at " + hex(d.offset) + " overlaps the previous entry or the table (ends at " +
                                          hex(previous_end) + "); entries must follow each other in order");
        previous_end = std::uint64_t(d.offset) + d.size;
    }
    return a;
}

}  // namespace

RegionBytes::RegionBytes(Bytes owned) {
    auto held = std::make_shared<const Bytes>(std::move(owned));
    bytes_ = *held;
    owner_ = std::move(held);
}

bool RegionBytes::same(ByteView a, ByteView b) noexcept {
    return a.size() == b.size() && (a.data() == b.data() || std::equal(a.begin(), a.end(), b.begin()));
}

Archive parse_archive(const ByteReader& in) {
    Archive a = parse_archive_table(in);
    const auto bytes = in.data();
    a.region = RegionBytes(Bytes(bytes.begin(), bytes.end()));
    return a;
}

Archive parse_archive(const ByteReader& in, std::shared_ptr<const void> owner) {
    Archive a = parse_archive_table(in);
    a.region = RegionBytes(std::move(owner), in.data());
    return a;
}

Archive parse_archive(Bytes&& region, std::string file, std::uint64_t base) {
    Archive a;
    {
        const ByteReader r(region, Endian::big, file);
        a = parse_archive_table(r);
    }
    a.base = base;
    a.region = RegionBytes(std::move(region));
    return a;
}

std::vector<std::string> audit_archive(const Archive& a) {
    std::vector<std::string> notes;
    if (a.header.flags != 0) notes.push_back("U4: header flags are " + hex(a.header.flags) + ", expected 0 in ROM");
    if (a.header.word4 != 0) notes.push_back("U4: header word +4 is " + hex(a.header.word4, 8) + ", expected 0 in ROM");
    if (a.header.fragment_id != model_fragment_id)
        notes.push_back("U2: fragment id is " + hex(a.header.fragment_id) + ", the model archive is expected to say 0xEF");
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        const auto& d = a.entries[i];
        if (d.offset % entry_alignment)
            notes.push_back("U5: archive[" + std::to_string(i) + "] offset " + hex(d.offset) + " is not 16-aligned");
        if (d.cache) notes.push_back("U4: archive[" + std::to_string(i) + "] cache word is " + hex(d.cache, 8) + ", expected 0");
    }
    const std::uint32_t end = a.data_end();
    if (a.header.total_size != total_size_u6(end))
        notes.push_back("U6: total_size " + hex(a.header.total_size) + " differs from ALIGN16(data end " + hex(end) +
                        ") = " + hex(total_size_u6(end)));
    return notes;
}

DecodedEntry decode_entry(const Archive& a, std::size_t index) {
    const std::string path = index_path("archive", index);
    const ByteReader region = ByteReader(a.region, Endian::big, a.file, "archive").with_base(a.base);
    const Descriptor& d = a.entries.at(index);
    ByteReader blob = region.sub(d.offset, d.size, index_path("", index));
    DecodedEntry e;
    e.kind = classify_payload(blob.data());
    if (e.kind == PayloadKind::pers_szp) {
        yay0::DecodeOptions opt;
        opt.max_decoded = 16u << 20;
        auto u = szp::unpack(blob.with_path(path + ".szp"), opt);
        e.szp = std::move(u.header);
        e.yay0_stream_bytes = static_cast<std::uint32_t>(u.yay0.stream_end);
        e.content = std::move(u.data);
    } else {
        e.content.assign(blob.data().begin(), blob.data().end());
    }
    e.is_fragment = has_fragment_magic(e.content);
    return e;
}

void locate_entry_error(Error& e, const Archive& a, std::size_t index, const DecodedEntry& entry) {
    e.set_file_if_empty(a.file);
    if (!e.has_offset() || !e.offset_buffer().empty() || index >= a.entries.size()) return;
    const std::uint64_t stored_at = a.base + a.entries[index].offset;
    if (entry.szp)
        e.set_offset_buffer("the data decompressed from " + index_path("archive", index) + " (stored at file offset " +
                            hex(stored_at) + ")");
    else
        e.rebase_offset(stored_at);
}

void check_entry_limits(std::size_t index, std::uint32_t stored_size, std::uint32_t decompressed_size,
                        std::optional<std::uint32_t> fragment_size, const RuntimeLimits& limits) {
    const std::string path = index_path("archive", index);
    auto fail = [&](const std::string& m) { throw Error(ErrorKind::limit, m, {}, no_offset, path); };
    const std::uint64_t stored16 = align_up(stored_size, 16);
    if (stored16 > limits.compressed_buffer)
        fail("stored size " + hex(stored_size) + " (ALIGN16 " + hex(stored16) + ") exceeds the model thread's " +
             hex(limits.compressed_buffer) + "-byte load buffer; the game would not show the model");
    const std::uint64_t block = align_up(decompressed_size, 16) + limits.model_block_header;
    if (block > limits.model_block)
        fail("decompressed size " + hex(decompressed_size) + " needs " + hex(block) + " bytes of the " +
             hex(limits.model_block) + "-byte model block before any graph node is built");
    if (fragment_size && *fragment_size >= limits.fragment_max)
        fail("fragment size " + hex(*fragment_size) + " is not below " + hex(limits.fragment_max) +
             " (pointers are resolved by their low 20 bits)");
}

}  // namespace mod::stadium
