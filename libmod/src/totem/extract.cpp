#include "libmod/totem/extract.hpp"

#include "libmod/totem/object.hpp"

#include "libmod/core/rapidjson.hpp"

#include <algorithm>
#include <set>

namespace mod::totem {

namespace {

std::string sanitize(std::string_view segment) {
    std::string out;
    for (char c : segment) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '_' || c == '-';
        out += ok ? c : '_';
    }
    if (out.empty() || out.find_first_not_of('.') == std::string::npos) out = "_" + out;
    return out;
}

std::string type_text(const Record& r, const NameTable& names) {
    if (auto t = names.find(r.type_id)) return sanitize(*t);
    return hash_text(r.type_id);
}

}  // namespace

std::vector<ExtractEntry> plan_extract(const Archive& archive, const NameTable& names) {
    std::vector<ExtractEntry> out;
    // Paths taken by files and by the folders above them: a file may not take a folder's
    // path, nor sit below another file ("DB:>A" of type T is the file A.T, so "DB:>A.T>B"
    // cannot be the file A.T/B.T).
    std::set<std::string> files, folders;
    auto parents_free = [&](const std::string& file) {
        for (std::size_t slash = file.find('/'); slash != std::string::npos; slash = file.find('/', slash + 1))
            if (files.count(file.substr(0, slash))) return false;
        return true;
    };
    auto take = [&](const std::string& file) {
        if (files.count(file) || folders.count(file) || !parents_free(file)) return false;
        files.insert(file);
        for (std::size_t slash = file.find('/'); slash != std::string::npos; slash = file.find('/', slash + 1))
            folders.insert(file.substr(0, slash));
        return true;
    };
    for (std::size_t ci = 0; ci < archive.chunks.size(); ++ci) {
        for (auto ri : archive.chunks[ci].records) {
            const Record& r = archive.records[ri];
            std::string base;
            if (auto n = names.find(r.name_id)) {
                std::string_view name = *n;
                if (name.starts_with("DB:>")) name.remove_prefix(4);
                std::size_t start = 0;
                while (true) {
                    const std::size_t gt = name.find('>', start);
                    if (!base.empty()) base += '/';
                    base += sanitize(name.substr(start, gt == std::string_view::npos ? name.size() - start : gt - start));
                    if (gt == std::string_view::npos) break;
                    start = gt + 1;
                }
            } else {
                base = "_unnamed/" + hash_text(r.name_id);
            }
            const std::string type = type_text(r, names);
            // Below a file: the name goes flat ('/' → '_'), where only a name clash remains.
            if (!parents_free(base + "." + type)) std::replace(base.begin(), base.end(), '/', '_');
            std::string file = base + "." + type;
            for (int k = 2; !take(file); ++k) file = base + "~" + std::to_string(k) + "." + type;
            out.push_back({ri, ci, file});
        }
    }
    std::sort(out.begin(), out.end(), [](const ExtractEntry& a, const ExtractEntry& b) { return a.index < b.index; });
    return out;
}

std::string extract_index_json(const Archive& archive, const NameTable& names,
                               const std::vector<ExtractEntry>& entries, Platform platform) {
    rapidjson::StringBuffer buf;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
    auto str = [&](std::string_view s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); };
    w.StartObject();
    w.Key("format"); str("modkit-totem-extract");
    w.Key("version"); w.Int(1);
    w.Key("platform"); str(to_string(platform));
    w.Key("byte_order"); str(to_string(archive.endian));
    w.Key("chunk_size"); w.Uint(archive.chunk_size);
    w.Key("legal_notice"); str(archive.legal_text());
    w.Key("records");
    w.StartArray();
    for (const auto& e : entries) {
        const Record& r = archive.records.at(e.index);
        w.StartObject();
        w.Key("index"); w.Uint64(e.index);
        w.Key("chunk"); w.Uint64(e.chunk);
        w.Key("file"); str(e.file);
        auto id_field = [&](const char* key, const char* id_key, std::int32_t id) {
            w.Key(key);
            if (auto n = names.find(id)) str(*n);
            else w.Null();
            w.Key(id_key);
            w.Int(id);
        };
        id_field("type", "type_id", r.type_id);
        id_field("name", "name_id", r.name_id);
        id_field("subtype", "subtype_id", r.subtype_id);
        w.Key("bytes"); w.Uint64(r.payload.size());
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

std::vector<IndexItem> read_extract_index(std::string_view json, const std::string& file) {
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError())
        throw Error(ErrorKind::format, "index is not valid JSON", file, doc.GetErrorOffset(), "index");
    if (!doc.IsObject() || !doc.HasMember("records") || !doc["records"].IsArray())
        throw Error(ErrorKind::format, "index has no \"records\" array", file, no_offset, "index");
    std::vector<IndexItem> items;
    const auto& recs = doc["records"];
    for (rapidjson::SizeType i = 0; i < recs.Size(); ++i) {
        const std::string path = index_path("index.records", i);
        auto fail = [&](const std::string& msg) { throw Error(ErrorKind::format, msg, file, no_offset, path); };
        const auto& r = recs[i];
        if (!r.IsObject()) fail("record entry is not an object");
        IndexItem item;
        if (r.HasMember("index")) {
            if (!r["index"].IsUint64()) fail("\"index\" is not a non-negative integer");
            item.origin = static_cast<std::size_t>(r["index"].GetUint64());
        }
        if (!r.HasMember("file") || !r["file"].IsString()) fail("\"file\" missing or not a string");
        item.file = r["file"].GetString();
        if (item.file.empty() || item.file[0] == '/' || item.file.find('\\') != std::string::npos)
            fail("file \"" + item.file + "\" must be a relative '/'-separated path");
        for (std::size_t start = 0;;) {
            const std::size_t slash = item.file.find('/', start);
            const std::string seg = item.file.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
            if (seg.empty() || seg == "." || seg == "..") fail("file \"" + item.file + "\" leaves the extract folder");
            if (slash == std::string::npos) break;
            start = slash + 1;
        }
        auto resolve = [&](const char* key, const char* id_key, std::int32_t& out) {
            if (r.HasMember(id_key)) {
                if (!r[id_key].IsInt()) fail(std::string("\"") + id_key + "\" is not a signed 32-bit integer");
                out = r[id_key].GetInt();
            } else if (r.HasMember(key) && r[key].IsString()) {
                std::string text(r[key].GetString(), r[key].GetStringLength());
                out = name_id(text);
                item.new_names.push_back(std::move(text));
            } else {
                fail(std::string("neither \"") + id_key + "\" nor a \"" + key + "\" text");
            }
        };
        resolve("type", "type_id", item.type_id);
        resolve("name", "name_id", item.name_id);
        resolve("subtype", "subtype_id", item.subtype_id);
        items.push_back(std::move(item));
    }
    return items;
}

}  // namespace mod::totem
