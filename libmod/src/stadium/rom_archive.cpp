#include "libmod/stadium/rom_archive.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/core/parallel.hpp"
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/model_walk.hpp"

#include "libmod/core/rapidjson.hpp"

#include <algorithm>
#include <cstdio>

namespace mod::stadium {

namespace fs = std::filesystem;

StadiumRom load_rom_bytes(Bytes image, std::string file) {
    StadiumRom rom;
    rom.file = std::move(file);
    rom.order = n64::detect_order(ByteReader(image, Endian::big, rom.file, "rom"));
    // A z64 image needs no transform: kept as is, so the no-change path stays pure copying.
    if (rom.order == n64::ByteOrder::z64) rom.z64 = std::move(image);
    else rom.z64 = n64::to_z64(image, rom.order);
    return rom;
}

StadiumRom load_rom(const fs::path& path) { return load_rom_bytes(read_file(path), path.string()); }

void apply_archive(StadiumRom& rom, const RepackResult& repacked, std::uint32_t rom_start) {
    if (std::uint64_t(rom_start) + repacked.region.size() > rom.z64.size())
        throw Error(ErrorKind::usage, "repacked region does not fit the image", rom.file);
    std::copy(repacked.region.begin(), repacked.region.end(), rom.z64.begin() + rom_start);
}

Bytes take_image(StadiumRom&& rom) {
    if (rom.order == n64::ByteOrder::z64) return std::move(rom.z64);
    return image_of(rom);
}

Bytes image_of(const StadiumRom& rom) {
    return rom.order == n64::ByteOrder::z64 ? rom.z64 : n64::from_z64(rom.z64, rom.order);
}

namespace {

// The archive's place in a z64 image, as a sub-reader of the whole image so errors give file
// offsets (z64 order).
ByteReader archive_reader(ByteView z64, const std::string& file, std::uint32_t rom_start, std::uint32_t region_end) {
    if (z64.size() < std::uint64_t(rom_start) + archive_header_size)
        throw Error(ErrorKind::format, "the image (" + hex(z64.size()) + " bytes) ends before the archive at " +
                                           hex(rom_start), file, rom_start, "archive");
    const std::size_t end = std::min<std::size_t>(z64.size(), region_end);
    return ByteReader(z64, Endian::big, file).sub(rom_start, end - rom_start, "archive");
}

}  // namespace

Archive read_archive(ByteView z64, const std::string& file, std::uint32_t rom_start, std::uint32_t region_end) {
    return parse_archive(archive_reader(z64, file, rom_start, region_end));
}

Archive view_archive(ByteView z64, std::shared_ptr<const void> owner, const std::string& file,
                     std::uint32_t rom_start, std::uint32_t region_end) {
    return parse_archive(archive_reader(z64, file, rom_start, region_end), std::move(owner));
}

Archive read_archive(const StadiumRom& rom, std::uint32_t rom_start, std::uint32_t region_end) {
    return read_archive(rom.z64, rom.file, rom_start, region_end);
}

Archive read_rom_archive(const fs::path& path, n64::ByteOrder* order, std::uint32_t rom_start, std::uint32_t region_end) {
    const auto whole = [&] {
        const StadiumRom rom = load_rom(path);
        if (order) *order = rom.order;
        return read_archive(rom, rom_start, region_end);
    };
    const std::string file = path.string();
    std::uint64_t size = 0;
    const Bytes boot = read_file_part(path, 0, n64::boot_area_size, size);
    bool z64 = false;
    if (size % 4 == 0 && boot.size() == n64::boot_area_size && size >= std::uint64_t(rom_start) + archive_header_size &&
        region_end > rom_start) {
        try {
            z64 = n64::detect_order(ByteReader(boot, Endian::big, file, "rom")) == n64::ByteOrder::z64;
        } catch (const Error&) {
            // not an N64 image: load_rom below gives the message
        }
    }
    if (!z64) return whole();
    // Only the header, the table and the entries (up to the last entry's end) are read; the
    // rest of the region (free space a repack may grow into) is not what these commands show.
    // Anything unexpected (a table or an entry past the region) goes through whole(), whose
    // errors name the region as read_archive does.
    const std::uint64_t region_size = region_end - rom_start;
    std::uint64_t again = 0;
    const Bytes header = read_file_part(path, rom_start, archive_header_size, again);
    if (again != size || header.size() != archive_header_size) return whole();
    const std::uint64_t count = ByteReader(header, Endian::big, file).u32_at(0xC);
    const std::uint64_t table_end = archive_header_size + count * descriptor_size;
    if (table_end > region_size) return whole();
    const Bytes table = read_file_part(path, rom_start, table_end, again);
    if (again != size || table.size() != table_end) return whole();
    std::uint64_t used = table_end;
    const ByteReader t(table, Endian::big, file);
    for (std::uint64_t i = 0; i < count; ++i)
        used = std::max(used, std::uint64_t(t.u32_at(archive_header_size + i * descriptor_size)) +
                                  t.u32_at(archive_header_size + i * descriptor_size + 4));
    if (used > region_size) return whole();
    Bytes region = read_file_part(path, rom_start, used, again);
    if (again != size || region.size() != used) return whole();  // changed meanwhile
    try {
        Archive a = parse_archive(std::move(region), file, rom_start);
        if (order) *order = n64::ByteOrder::z64;
        return a;
    } catch (const Error&) {
        return whole();  // the error with its file offset
    }
}

Bytes write_archive(const StadiumRom& rom, const RepackResult& repacked, std::uint32_t rom_start) {
    const std::uint64_t region_end = std::uint64_t(rom_start) + repacked.region.size();
    if (region_end > rom.z64.size())
        throw Error(ErrorKind::usage, "repacked region does not fit the image", rom.file);
    // Assembled in one pass (prefix, region, suffix) so the image is copied once.
    Bytes z64;
    z64.reserve(rom.z64.size());
    z64.insert(z64.end(), rom.z64.begin(), rom.z64.begin() + rom_start);
    z64.insert(z64.end(), repacked.region.begin(), repacked.region.end());
    z64.insert(z64.end(), rom.z64.begin() + static_cast<std::ptrdiff_t>(region_end), rom.z64.end());
    if (rom.order == n64::ByteOrder::z64) return z64;
    return n64::from_z64(z64, rom.order);
}

// ---- extraction ----------------------------------------------------------------------------

namespace {

using JsonWriter = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

std::string sha1_hex(ByteView data) { return to_hex(sha1(data)); }

std::string entry_file_name(std::size_t i, const DecodedEntry& e) {
    char name[32];
    std::snprintf(name, sizeof name, "entries/%03zu.%s", i, e.is_fragment ? "fragment" : to_string(e.kind));
    return name;
}

void put(JsonWriter& w, const char* key, std::uint64_t v) { w.Key(key); w.Uint64(v); }
void put(JsonWriter& w, const char* key, const std::string& v) { w.Key(key); w.String(v.c_str()); }

[[noreturn]] void bad_index(const fs::path& file, const std::string& message) {
    throw Error(ErrorKind::format, message, file.string(), no_offset, "index");
}

std::uint64_t get_u64(const rapidjson::Value& v, const char* key, const fs::path& file, const std::string& where) {
    if (!v.IsObject() || !v.HasMember(key) || !v[key].IsUint64()) bad_index(file, where + "." + key + ": missing or not an unsigned number");
    return v[key].GetUint64();
}

std::string get_str(const rapidjson::Value& v, const char* key, const fs::path& file, const std::string& where) {
    if (!v.IsObject() || !v.HasMember(key) || !v[key].IsString()) bad_index(file, where + "." + key + ": missing or not a string");
    return v[key].GetString();
}

// A changed entry must read back as the reader reads the original: an entry that decodes to a
// FRAGMENT must still be one (parse_fragment, what list, export and the model commands run on
// it), or the ROM written would be refused by modkit itself. Checked before anything is written.
void check_replacement(const Archive& a, std::size_t i, const Bytes& content, const fs::path& file) {
    if (!decode_entry(a, i).is_fragment) return;
    try {
        parse_fragment(ByteReader(content, Endian::big, file.string(), index_path("archive", i) + ".fragment"));
    } catch (const Error& e) {
        throw Error(e.kind(), "entry " + std::to_string(i) + " was a FRAGMENT and its file is not one, so nothing was written: " +
                                  e.message(), file.string(), e.offset(), e.path());
    }
}

}  // namespace

ExtractSummary extract_archive(const StadiumRom& rom, const Archive& a, const fs::path& dir, unsigned threads) {
    // Everything is decoded and the whole plan checked (folder.hpp) before the first write.
    auto decoded = parallel_map(a.entries.size(), [&](std::size_t i) {
        try {
            return decode_entry(a, i);
        } catch (Error& e) {
            e.set_file_if_empty(rom.file);
            throw;
        }
    }, threads);
    ExtractSummary s;
    std::vector<FolderFile> plan;
    rapidjson::StringBuffer buffer;
    JsonWriter w(buffer);
    w.StartObject();
    put(w, "format", std::string("modkit-stadium-extract"));
    put(w, "version", 1);
    w.Key("rom");
    w.StartObject();
    put(w, "order", std::string(n64::to_string(rom.order)));
    put(w, "md5", to_hex(md5(rom.z64)));
    w.EndObject();
    w.Key("archive");
    w.StartObject();
    put(w, "flags", a.header.flags);
    put(w, "fragment_id", a.header.fragment_id);
    put(w, "word4", a.header.word4);
    put(w, "total_size", a.header.total_size);
    put(w, "count", a.header.count);
    w.EndObject();
    w.Key("entries");
    w.StartArray();
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        const auto& d = a.entries[i];
        const auto& e = decoded[i];
        const std::string name = entry_file_name(i, e);
        plan.push_back({name, index_path("archive", i)});
        w.StartObject();
        put(w, "index", i);
        put(w, "model_id", i + 1);
        put(w, "offset", d.offset);
        put(w, "size", d.size);
        put(w, "cache", d.cache);
        put(w, "unknown", d.unknown);
        put(w, "kind", std::string(to_string(e.kind)));
        w.Key("is_fragment");
        w.Bool(e.is_fragment);
        put(w, "blob_sha1", sha1_hex(a.blob(i)));
        put(w, "file", name);
        put(w, "content_bytes", e.content.size());
        put(w, "content_sha1", sha1_hex(e.content));
        if (e.szp) {
            w.Key("szp");
            w.StartObject();
            put(w, "header_size", e.szp->header_size);
            put(w, "size1", e.szp->size1);
            put(w, "size2", e.szp->size2);
            w.Key("fixups");
            w.StartArray();
            for (const auto& f : e.szp->fixups) {
                w.StartObject();
                put(w, "offset", f.offset);
                put(w, "value", f.value);
                w.EndObject();
            }
            w.EndArray();
            w.EndObject();
        }
        w.EndObject();
        ++s.entries;
        s.fragments += e.is_fragment;
        s.bytes += e.content.size();
    }
    w.EndArray();
    w.EndObject();
    std::string text = std::string(buffer.GetString()) + "\n";
    plan.push_back({"index.json", "index"});
    write_folder(dir, plan, [&](std::size_t i) {
        return i < decoded.size() ? ByteView(decoded[i].content)
                                  : ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    }, {}, rom.file);
    create_folder(dir / "entries");  // also for an archive without entries
    return s;
}

std::vector<Replacement> read_extracted(const Archive& a, const fs::path& dir) {
    const fs::path index_file = dir / "index.json";
    Bytes text = read_file_in_folder(dir, "index.json", 64u << 20);
    rapidjson::Document doc;
    doc.Parse(reinterpret_cast<const char*>(text.data()), text.size());
    if (doc.HasParseError() || !doc.IsObject()) bad_index(index_file, "not a JSON object");
    if (get_str(doc, "format", index_file, "index") != "modkit-stadium-extract" ||
        get_u64(doc, "version", index_file, "index") != 1)
        bad_index(index_file, "not a modkit stadium extraction index (version 1)");
    if (!doc.HasMember("entries") || !doc["entries"].IsArray()) bad_index(index_file, "entries: missing array");
    const auto& entries = doc["entries"];
    if (entries.Size() != a.entries.size())
        throw Error(ErrorKind::conflict, "the index lists " + std::to_string(entries.Size()) + " entries, the ROM's archive has " +
                                             std::to_string(a.entries.size()) + ": the folder was extracted from another ROM",
                    index_file.string());
    std::vector<Replacement> out;
    for (rapidjson::SizeType i = 0; i < entries.Size(); ++i) {
        const auto& e = entries[i];
        const std::string where = "entries[" + std::to_string(i) + "]";
        const auto& d = a.entries[i];
        if (get_u64(e, "index", index_file, where) != i || get_u64(e, "offset", index_file, where) != d.offset ||
            get_u64(e, "size", index_file, where) != d.size || get_u64(e, "cache", index_file, where) != d.cache ||
            get_u64(e, "unknown", index_file, where) != d.unknown ||
            get_str(e, "blob_sha1", index_file, where) != sha1_hex(a.blob(i)))
            throw Error(ErrorKind::conflict, "descriptor or original blob differs from the ROM's: the folder was extracted from another ROM",
                        index_file.string(), no_offset, where);
        const std::string name = get_str(e, "file", index_file, where);
        if (name.find("..") != std::string::npos || name.empty() || name.front() == '/')
            bad_index(index_file, where + ".file: must be a relative path inside the folder");
        Bytes content = read_file_in_folder(dir, name, 64u << 20);
        if (sha1_hex(content) != get_str(e, "content_sha1", index_file, where)) {
            check_replacement(a, i, content, dir / name);
            out.push_back({i, std::move(content)});
        }
    }
    return out;
}

// ---- self-test -------------------------------------------------------------------------------

VerifyReport verify_archive(const Archive& a, unsigned threads) {
    VerifyReport r;
    r.entries = a.entries.size();
    r.audit = audit_archive(a);
    struct PerEntry {
        DecodedEntry decoded;
        bool nintendo_match = false;
        std::string crosscheck;  // empty = ok or not a fragment
        std::vector<std::string> notes;  // relocation words the game skips, missing terminators
    };
    auto per = parallel_map(a.entries.size(), [&](std::size_t i) {
        PerEntry p;
        p.decoded = decode_entry(a, i);
        if (p.decoded.kind == PayloadKind::pers_szp) {
            ByteView blob = a.blob(i);
            ByteView stream = blob.subspan(p.decoded.szp->header_size, p.decoded.yay0_stream_bytes);
            Bytes plain = yay0::decode(stream);
            Bytes again = yay0::encode(plain, yay0::Mode::nintendo);
            p.nintendo_match = again.size() == stream.size() && std::equal(again.begin(), again.end(), stream.begin());
        }
        if (p.decoded.is_fragment) {
            try {
                Fragment f = parse_fragment(ByteReader(p.decoded.content, Endian::big, a.file,
                                                       index_path("archive", i) + ".fragment"));
                const ModelMap walked = walk_model(f, index_path("archive", i) + ".fragment");
                CrossCheck c = cross_check(f, walked);
                for (const auto& k : relocs_the_game_skips(f))
                    p.notes.push_back(index_path("archive", i) + ".fragment.reloc[" + std::to_string(k.index) + "]: " + k.reason);
                for (const auto& n : walked.notes) p.notes.push_back(index_path("archive", i) + ".fragment." + n);
                // TLUT display lists that load another address or count than their table entry
                // (the list wins, seed 004 §17.4): reported here too.
                try {
                    const Model model = read_model(f, index_path("archive", i) + ".fragment");
                    for (const auto& w : model.warnings)
                        if (w.find(": the TLUT DL ") != std::string::npos) p.notes.push_back(w);
                    // Where the game would not draw what the layout says (root rule, render
                    // layers, the vertex cache in the game's order): model.hpp `findings`.
                    for (const auto& w : model.findings) p.notes.push_back(index_path("archive", i) + ": " + w);
                } catch (const Error&) {
                    // A model the typed reader refuses is `stadium show`'s to report.
                }
                if (!c.ok())
                    p.crosscheck = index_path("archive", i) + ": " + std::to_string(c.missing.size()) + " pointer(s) without relocation, " +
                                   std::to_string(c.unexplained.size()) + " relocation(s) on words the walk did not reach, " +
                                   std::to_string(c.getter_problems.size()) + " getter problem(s)";
            } catch (Error& e) {
                locate_entry_error(e, a, i, p.decoded);
                p.crosscheck = e.what();
            }
        }
        return p;
    }, threads);
    std::vector<Replacement> same;
    for (std::size_t i = 0; i < per.size(); ++i) {
        const auto& d = per[i].decoded;
        switch (d.kind) {
        case PayloadKind::pers_szp: ++r.pers_szp; break;
        case PayloadKind::presjpeg: ++r.presjpeg; break;
        case PayloadKind::fragment: ++r.raw_fragments; break;
        case PayloadKind::raw: ++r.raw; break;
        }
        r.fidelity_notes.insert(r.fidelity_notes.end(), per[i].notes.begin(), per[i].notes.end());
        if (d.is_fragment) {
            ++r.fragments;
            if (per[i].crosscheck.empty()) ++r.crosscheck_ok;
            else r.crosscheck_problems.push_back(per[i].crosscheck);
        }
        if (d.kind == PayloadKind::pers_szp) {
            if (per[i].nintendo_match) ++r.nintendo_matches;
            else r.nintendo_mismatches.push_back(i);
        }
        same.push_back({i, d.content});
    }
    RepackOptions opt;
    opt.threads = threads;
    opt.rom_end_limit = UINT32_MAX;
    opt.model_limits = false;
    r.identity_unchanged = repack_archive(a, {}, opt).region == a.region;
    auto again = repack_archive(a, same, opt);
    r.identity_same_content = again.region == a.region && again.reencoded == 0;
    return r;
}

}  // namespace mod::stadium
