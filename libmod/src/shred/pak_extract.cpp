#include "libmod/shred/pak_extract.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/folder.hpp"

#include "libmod/core/rapidjson.hpp"

#include <algorithm>
#include <optional>
#include <set>

namespace mod::shred {

namespace {

constexpr const char* index_format = "modkit-shred-pak-extract";

// The name's segments: '\\' is a separator, empty and '.' segments go. Nullopt for a name
// that is not a safe relative path (empty, absolute, a ".." segment): its file is the name
// itself, which check_folder_plan refuses naming the entry.
std::optional<std::vector<std::string>> segments(const std::string& name) {
    std::vector<std::string> parts;
    std::string part;
    bool escapes = false;
    const auto flush = [&] {
        escapes = escapes || part == "..";
        if (!part.empty() && part != ".") parts.push_back(part);
        part.clear();
    };
    for (char c : name) {
        if (c == '/' || c == '\\') flush();
        else part += c;
    }
    flush();
    if (escapes || name.empty() || name.front() == '/' || name.front() == '\\' || parts.empty()) return std::nullopt;
    return parts;
}

std::string joined(const std::vector<std::string>& parts, char sep) {
    std::string s;
    for (const auto& p : parts) {
        if (!s.empty()) s += sep;
        s += p;
    }
    return s;
}

[[noreturn]] void bad_index(const std::string& file, const std::string& path, const std::string& message) {
    throw Error(ErrorKind::format, message, file, no_offset, path);
}

}  // namespace

std::vector<std::string> pak_extract_files(const Pak& pak) {
    std::set<std::string> files{pak_index_file_name};  // the index is a file of the folder
    std::set<std::string> folders;                      // every folder some file lies in
    std::vector<std::string> out;
    out.reserve(pak.entries.size());
    std::vector<FolderFile> plan;
    for (std::size_t i = 0; i < pak.entries.size(); ++i) {
        const auto safe = segments(pak.entries[i].name);
        if (!safe) {
            std::string verbatim = pak.entries[i].name;
            std::replace(verbatim.begin(), verbatim.end(), '\\', '/');
            if (verbatim.empty()) verbatim = pak.entries[i].name;
            plan.push_back({verbatim, index_path("pak.entries", i)});
            out.push_back(verbatim);
            continue;
        }
        auto parts = *safe;
        // A folder on the way that is already a file: the whole name becomes one file name.
        std::string prefix;
        for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
            prefix += (k ? "/" : "") + parts[k];
            if (files.count(prefix)) {
                parts = {joined(parts, '_')};
                break;
            }
        }
        const std::string base = joined(parts, '/');
        std::string path = base;
        for (unsigned n = 1; files.count(path) || folders.count(path); ++n) path = base + "~" + std::to_string(n);
        files.insert(path);
        for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1))
            folders.insert(path.substr(0, slash));
        plan.push_back({path, index_path("pak.entries", i)});
        out.push_back(path);
    }
    check_folder_plan(plan, pak.file);
    return out;
}

std::string pak_extract_index_json(const Pak& pak, const std::vector<std::string>& files) {
    rapidjson::StringBuffer buffer;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
    w.StartObject();
    w.Key("format");
    w.String(index_format);
    w.Key("version");
    w.Uint(1);
    w.Key("entries");
    w.StartArray();
    for (std::size_t i = 0; i < pak.entries.size(); ++i) {
        w.StartObject();
        w.Key("index");
        w.Uint64(i);
        w.Key("name");
        w.String(pak.entries[i].name.c_str(), static_cast<rapidjson::SizeType>(pak.entries[i].name.size()));
        w.Key("file");
        w.String(files.at(i).c_str(), static_cast<rapidjson::SizeType>(files[i].size()));
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::vector<std::string> read_pak_extract_index(std::string_view json, const Pak& pak, const std::string& file) {
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsObject()) bad_index(file, "index", "not a JSON object");
    if (!doc.HasMember("format") || !doc["format"].IsString() || std::string(doc["format"].GetString()) != index_format ||
        !doc.HasMember("version") || !doc["version"].IsUint() || doc["version"].GetUint() != 1)
        bad_index(file, "index", std::string("not a modkit PAK extraction index (") + index_format + " version 1)");
    if (!doc.HasMember("entries") || !doc["entries"].IsArray()) bad_index(file, "index.entries", "missing array");
    const auto& entries = doc["entries"];
    if (entries.Size() != pak.entries.size())
        throw Error(ErrorKind::conflict,
                    "the index lists " + std::to_string(entries.Size()) + " entries, the PAK has " +
                        std::to_string(pak.entries.size()) + ": the folder was extracted from another PAK",
                    file, no_offset, "index.entries");
    std::vector<std::string> files;
    for (rapidjson::SizeType i = 0; i < entries.Size(); ++i) {
        const auto& e = entries[i];
        const std::string where = index_path("index.entries", i);
        if (!e.IsObject() || !e.HasMember("index") || !e["index"].IsUint64() || e["index"].GetUint64() != i)
            bad_index(file, where + ".index", "missing or not " + std::to_string(i));
        if (!e.HasMember("name") || !e["name"].IsString()) bad_index(file, where + ".name", "missing or not a string");
        if (!e.HasMember("file") || !e["file"].IsString()) bad_index(file, where + ".file", "missing or not a string");
        const std::string name(e["name"].GetString(), e["name"].GetStringLength());
        if (name != pak.entries[i].name)
            throw Error(ErrorKind::conflict,
                        "the index names entry " + std::to_string(i) + " '" + name + "', the PAK '" + pak.entries[i].name +
                            "': the folder was extracted from another PAK",
                        file, no_offset, where + ".name");
        std::string f(e["file"].GetString(), e["file"].GetStringLength());
        bool safe = !f.empty() && f.front() != '/' && f.find('\\') == std::string::npos &&
                    f.find('\0') == std::string::npos;
        for (std::size_t start = 0; safe && start <= f.size();) {
            const std::size_t end = std::min(f.find('/', start), f.size());
            const std::string_view part(f.data() + start, end - start);
            safe = !part.empty() && part != "." && part != "..";
            start = end + 1;
        }
        if (!safe) bad_index(file, where + ".file", "'" + f + "' is not a relative path inside the folder");
        files.push_back(std::move(f));
    }
    return files;
}

}  // namespace mod::shred
