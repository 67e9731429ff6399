#include "libmod/manifest/manifest.hpp"
#include "libmod/manifest/pack.hpp"

#include "json_source.hpp"
#include "operation.hpp"
#include "schema.hpp"

#include "libmod/core/file.hpp"

#include "libmod/core/rapidjson.hpp"

#include <cstring>
#include <fstream>
#include <algorithm>
#include <cstdlib>
#include <cctype>
#include <set>
#include <system_error>
#include <tuple>

namespace mod::manifest {

using detail::JsonSource;
using detail::pointer_join;
namespace fs = std::filesystem;

const char* to_string(Game game) noexcept {
    switch (game) {
    case Game::pokemon_stadium: return "pokemon-stadium";
    case Game::thps_shred: return "thps-shred";
    case Game::totemtech: return "totemtech";
    }
    return "?";
}

const InputDecl* Manifest::input(const std::string& n) const {
    for (const auto& i : inputs)
        if (i.name == n) return &i;
    return nullptr;
}

Diagnostic Manifest::at(const std::string& pointer, std::string message, bool key) const {
    return source->at(pointer, std::move(message), key);
}

namespace {

Game parse_game(const std::string& s) {
    if (s == "thps-shred") return Game::thps_shred;
    if (s == "totemtech") return Game::totemtech;
    return Game::pokemon_stadium;
}

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// "/inputs/NAME/path".
bool is_input_path(const std::string& pointer) {
    return pointer.starts_with("/inputs/") && pointer.ends_with("/path") &&
           pointer.find('/', 8) == pointer.size() - 5;
}

// An input's path as written: "~/…" is the home folder's; relative to `dir` otherwise.
fs::path input_path(const std::string& text, const fs::path& dir) {
    if (text.starts_with("~/"))
        if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / text.substr(2);
    return dir / fs::path(text);
}

// A path may not be absolute, climb with "..", or (through a symlink) lead outside `dir`.
std::string path_problem(const std::string& text, const fs::path& dir) {
    // JSON allows "\u0000"; a C path would end there (out/x\u0000.DGC would write out/x).
    if (text.find('\0') != std::string::npos) return "holds a NUL byte (\\u0000), which no file name can";
    const fs::path p(text);
    if (p.is_absolute() || (!text.empty() && text[0] == '/')) return "is absolute; paths are relative to the manifest's folder";
    for (const auto& part : p)
        if (part == "..") return "leaves the manifest's folder (\"..\")";
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(dir.empty() ? fs::path(".") : dir, ec);
    if (ec) return {};
    const fs::path full = fs::weakly_canonical(base / p, ec);
    if (ec) return {};
    auto rel = full.lexically_relative(base);
    if (rel.empty() || *rel.begin() == "..") return "leads outside the manifest's folder through a symbolic link";
    return {};
}

// A path as one comparable key: lexically normal, '/'-separated, ASCII case folded (two names
// that differ only in case are one file on Windows and macOS).
std::string fold_case(const fs::path& p) { return lower(p.lexically_normal().generic_string()); }

// Every file this manifest writes (outputs, their patches, the report's report.json and
// report.html), each with the field that names it: two on one path (case folded), or one
// where another needs a folder, is reported against both fields before anything is done.
void output_collisions(const Manifest& m, std::vector<Diagnostic>& out) {
    struct Written {
        std::string pointer, what;
        fs::path path;
    };
    std::vector<Written> files;
    for (const auto& [name, outp] : m.outputs) {
        files.push_back({pointer_join("/outputs", name), "the output", outp});
        for (std::size_t i = 0; i < m.patches.size(); ++i)
            files.push_back({pointer_join("/outputs/patches", i), "the " + m.patches[i] + " patch of outputs." + name,
                             fs::path(outp.string() + "." + m.patches[i])});
    }
    if (m.report)
        for (const char* page : {"report.json", "report.html"})
            files.push_back({"/outputs/report", std::string("the report's ") + page, *m.report / page});
    auto shown = [&](const fs::path& p) { return p.lexically_relative(m.dir).generic_string(); };
    std::map<std::string, std::size_t> by_key;
    std::set<std::string> said;
    auto report = [&](const Written& a, const Written& b, const std::string& why) {
        if (!said.insert(a.pointer + "\n" + b.pointer + "\n" + why).second) return;
        out.push_back(m.at(a.pointer, a.what + " (" + shown(a.path) + ") " + why + " " + b.what + " (" + shown(b.path) +
                                          ", " + detail::display_path(b.pointer) + "): every output needs a path of its own"));
    };
    for (std::size_t i = 0; i < files.size(); ++i) {
        auto [it, fresh] = by_key.emplace(fold_case(files[i].path), i);
        if (fresh) continue;
        const Written& first = files[it->second];
        report(files[i], first, first.path.lexically_normal() == files[i].path.lexically_normal()
                                    ? "is the same file as"
                                    : "differs only in case from (one file on Windows and macOS)");
    }
    for (const auto& f : files)
        for (fs::path up = f.path.lexically_normal().parent_path(); !up.empty() && up != up.parent_path();
             up = up.parent_path()) {
            const auto it = by_key.find(fold_case(up));
            if (it != by_key.end()) report(f, files[it->second], "needs a folder where there is");
        }
}

void semantic_checks(Manifest& m, std::vector<Diagnostic>& out) {
    const auto& doc = m.source->doc();
    std::vector<std::string> names;
    for (const auto& i : m.inputs) names.push_back(i.name);
    auto did_you_mean = [&](const std::string& word) {
        const std::string c = closest_match(word, names);
        return c.empty() ? std::string() : " (did you mean \"" + c + "\"?)";
    };
    auto names_list = [&] {
        std::string s;
        for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
        return s;
    };

    // Name tables referenced by totemtech archives.
    std::set<std::string> name_tables;
    for (const auto& i : m.inputs) {
        if (!i.names) continue;
        const std::string p = pointer_join(pointer_join("/inputs", i.name), "names");
        if (m.game != Game::totemtech) out.push_back(m.at(p, "\"names\" is for totemtech archives", true));
        else if (!m.input(*i.names)) out.push_back(m.at(p, "no input named \"" + *i.names + "\"" + did_you_mean(*i.names)));
        else if (*i.names == i.name) out.push_back(m.at(p, "an archive cannot be its own name table"));
        else name_tables.insert(*i.names);
    }
    for (const auto& i : m.inputs)
        if (i.platform && m.game != Game::totemtech)
            out.push_back(m.at(pointer_join(pointer_join("/inputs", i.name), "platform"), "\"platform\" is for totemtech archives", true));

    for (const auto& m2 : doc["outputs"].GetObject()) {
        const std::string k = m2.name.GetString();
        if (k == "patches" || k == "report") continue;
        if (!m.input(k))
            out.push_back(m.at(pointer_join("/outputs", k), "no input named \"" + k + "\"" + did_you_mean(k) +
                                                                 "; an output is named after the input it replaces (" +
                                                                 names_list() + ")",
                               true));
    }

    std::vector<std::string> targets;  // inputs edits may target by default
    for (const auto& i : m.inputs)
        if (!name_tables.count(i.name)) targets.push_back(i.name);

    std::map<std::string, std::size_t> ids;
    std::set<std::string> edited;
    for (auto& e : m.edits) {
        const auto& v = doc["edits"][rapidjson::SizeType(e.index)];
        if (const auto games = detail::games_of_operation(e.op); !games.empty() && !detail::find_operation(e.op, m.game)) {
            std::string list;
            for (const auto& g : games) list += (list.empty() ? "" : " and ") + g;
            out.push_back(m.at(pointer_join(e.pointer, "op"), "\"" + e.op + "\" is a " + list +
                                                                  " operation; this manifest's game is " + to_string(m.game)));
        } else if (const auto* op = detail::find_operation(e.op, m.game); op && v.IsObject()) {
            // Two games' operations of one name differ by a marker field (palette.set: "bitmap").
            if (op->marker && !v.HasMember(op->marker))
                out.push_back(m.at(e.pointer, std::string("a ") + to_string(m.game) + " \"" + e.op + "\" names its record with \"" +
                                                  op->marker + "\""));
            auto [lo, hi] = detail::operations().equal_range(e.op);
            for (auto it = lo; it != hi; ++it)
                if (&it->second != op && it->second.marker && !op->marker && v.HasMember(it->second.marker))
                    out.push_back(m.at(pointer_join(e.pointer, it->second.marker),
                                       "\"" + std::string(it->second.marker) + "\" belongs to the " +
                                           to_string(*it->second.game) + " \"" + e.op + "\"; this manifest's game is " +
                                           to_string(m.game)));
        }
        if (v.HasMember("id")) {
            auto [it, fresh] = ids.emplace(e.id, e.index);
            if (!fresh)
                out.push_back(m.at(pointer_join(e.pointer, "id"), "the id \"" + e.id + "\" is used by edits[" +
                                                                      std::to_string(it->second) + "] already"));
        }
        if (v.HasMember("input")) {
            e.input = v["input"].GetString();
            if (!m.input(e.input))
                out.push_back(m.at(pointer_join(e.pointer, "input"), "no input named \"" + e.input + "\"" + did_you_mean(e.input)));
            else if (name_tables.count(e.input) && e.op != "bytes.patch")
                out.push_back(m.at(pointer_join(e.pointer, "input"), "\"" + e.input + "\" is a name table; edit the archive it belongs to"));
        } else if (targets.size() == 1) {
            e.input = targets.front();
        } else {
            out.push_back(m.at(e.pointer, "the manifest has several inputs (" + names_list() +
                                              "): say which this edit changes with \"input\""));
        }
        if (!e.input.empty()) edited.insert(e.input);
    }
    for (const auto& name : edited)
        if (m.input(name) && !m.outputs.count(name))
            out.push_back(m.at("/outputs", "edits change the input \"" + name + "\" but \"outputs\" names no file for it (add \"" +
                                               name + "\": \"out/...\")"));

    for (const auto& p : detail::path_values(*m.source)) {
        const auto* v = rapidjson::Pointer(p.c_str()).Get(doc);
        if (!v || !v->IsString()) continue;
        const std::string text(v->GetString(), v->GetStringLength());
        // A base file is only read (and checked by its hashes): it may be anywhere (issue 30:
        // a shared mod folder holds no game file), absolute, "~/…", through a symbolic link.
        if (is_input_path(p)) {
            if (text.find('\0') != std::string::npos)
                out.push_back(m.at(p, "\"" + escape_controls(text) + "\" holds a NUL byte (\\u0000), which no file name can"));
            continue;
        }
        const std::string problem = path_problem(text, m.dir);
        if (!problem.empty()) out.push_back(m.at(p, "\"" + escape_controls(text) + "\" " + problem));
    }
    for (const auto& [name, outp] : m.outputs)
        for (const auto& i : m.inputs)
            if (fold_case(outp) == fold_case(i.path))
                out.push_back(m.at(pointer_join("/outputs", name), "the output is the input \"" + i.name +
                                                                       "\": inputs are never overwritten"));
    output_collisions(m, out);
}

Manifest build(std::shared_ptr<JsonSource> src, const fs::path& file, const fs::path& dir) {
    Manifest m;
    m.file = file;
    m.dir = dir;
    m.source = src;
    const auto& d = src->doc();
    m.name = d["name"].GetString();
    m.game = parse_game(d["game"].GetString());
    if (d.HasMember("id")) m.id = d["id"].GetString();
    if (d.HasMember("version")) m.version = d["version"].GetString();
    if (d.HasMember("description")) m.description = d["description"].GetString();
    if (d.HasMember("authors"))
        for (const auto& a : d["authors"].GetArray()) m.authors.emplace_back(a.GetString());
    if (d.HasMember("author")) m.authors.emplace_back(d["author"].GetString());
    if (d.HasMember("preview")) m.preview = dir / fs::path(d["preview"].GetString());
    for (const auto& in : d["inputs"].GetObject()) {
        InputDecl i;
        i.name = in.name.GetString();
        i.path_text = in.value["path"].GetString();
        i.path = input_path(i.path_text, dir);
        if (in.value.HasMember("sha1")) i.sha1 = lower(in.value["sha1"].GetString());
        if (in.value.HasMember("crc32")) i.crc32 = lower(in.value["crc32"].GetString());
        if (in.value.HasMember("md5")) i.md5 = lower(in.value["md5"].GetString());
        if (in.value.HasMember("names")) i.names = in.value["names"].GetString();
        if (in.value.HasMember("platform")) i.platform = in.value["platform"].GetString();
        m.inputs.push_back(std::move(i));
    }
    for (const auto& o : d["outputs"].GetObject()) {
        const std::string k = o.name.GetString();
        if (k == "patches") {
            for (const auto& p : o.value.GetArray()) m.patches.emplace_back(p.GetString());
        } else if (k == "report") {
            m.report = dir / fs::path(o.value.GetString());
        } else {
            m.outputs[k] = dir / fs::path(o.value.GetString());
        }
    }
    const auto& edits = d["edits"];
    for (rapidjson::SizeType i = 0; i < edits.Size(); ++i) {
        EditDecl e;
        e.index = i;
        e.pointer = pointer_join("/edits", std::size_t(i));
        e.op = edits[i]["op"].GetString();
        e.id = edits[i].HasMember("id") ? edits[i]["id"].GetString() : "edits[" + std::to_string(i) + "]";
        m.edits.push_back(std::move(e));
    }
    return m;
}

// The checks of semantic_checks that need nothing the schema guarantees: output names that
// name no input, and paths leaving the folder. Every access is type-checked.
void lenient_checks(const JsonSource& src, const fs::path& dir, std::vector<Diagnostic>& out) {
    const auto& d = src.doc();
    if (!d.IsObject()) return;
    auto ins = d.FindMember("inputs"), outs = d.FindMember("outputs");
    if (ins != d.MemberEnd() && ins->value.IsObject() && outs != d.MemberEnd() && outs->value.IsObject()) {
        std::vector<std::string> names;
        for (const auto& m : ins->value.GetObject()) names.emplace_back(m.name.GetString());
        for (const auto& m : outs->value.GetObject()) {
            const std::string k = m.name.GetString();
            if (k == "patches" || k == "report" || std::find(names.begin(), names.end(), k) != names.end()) continue;
            const std::string c = closest_match(k, names);
            out.push_back(src.at(pointer_join("/outputs", k),
                                 "no input named \"" + k + "\"" + (c.empty() ? "" : " (did you mean \"" + c + "\"?)"), true));
        }
    }
    // An operation two games share, missing the field that marks this game's (palette.set of a
    // totemtech manifest without "bitmap"): the schema checked the other game's shape; say why.
    auto game = d.FindMember("game"), edits = d.FindMember("edits");
    if (game != d.MemberEnd() && game->value.IsString() && edits != d.MemberEnd() && edits->value.IsArray())
        for (rapidjson::SizeType i = 0; i < edits->value.Size(); ++i) {
            const auto& e = edits->value[i];
            if (!e.IsObject() || !e.HasMember("op") || !e["op"].IsString()) continue;
            auto [lo, hi] = detail::operations().equal_range(e["op"].GetString());
            for (auto it = lo; it != hi; ++it)
                if (it->second.marker && it->second.game && std::string(to_string(*it->second.game)) == game->value.GetString() &&
                    !e.HasMember(it->second.marker))
                    out.push_back(src.at("/edits/" + std::to_string(i), "a " + std::string(game->value.GetString()) + " \"" +
                                                                        it->first + "\" names its record with \"" +
                                                                        it->second.marker + "\""));
        }
    for (const auto& p : detail::path_values(src)) {
        const auto* v = rapidjson::Pointer(p.c_str()).Get(d);
        if (!v || !v->IsString()) continue;
        const std::string text(v->GetString(), v->GetStringLength());
        const std::string problem = path_problem(text, dir);
        if (!problem.empty()) out.push_back(src.at(p, "\"" + escape_controls(text) + "\" " + problem));
    }
}

Manifest parse_collect(std::string text, const fs::path& file, const fs::path& dir, std::vector<Diagnostic>& out) {
    auto src = std::make_shared<JsonSource>(std::move(text), file.string());
    auto problems = detail::validate_manifest_schema(*src);
    if (!problems.empty()) {
        // Still report what can be checked safely on a document the schema refused.
        lenient_checks(*src, dir, problems);
        std::stable_sort(problems.begin(), problems.end(), [](const Diagnostic& a, const Diagnostic& b) {
            return std::tie(a.line, a.column) < std::tie(b.line, b.column);
        });
        out.insert(out.end(), problems.begin(), problems.end());
        return {};
    }
    Manifest m = build(src, file, dir);
    semantic_checks(m, out);
    return m;
}

}  // namespace

Manifest parse_manifest(std::string text, const fs::path& file, const fs::path& dir) {
    std::vector<Diagnostic> out;
    Manifest m = parse_collect(std::move(text), file, dir, out);
    if (!out.empty()) throw ManifestError(ErrorKind::format, std::move(out));
    return m;
}

std::vector<Manifest> load_manifests(std::span<const fs::path> files) {
    std::vector<Manifest> result;
    std::vector<Diagnostic> out;
    ErrorKind kind = ErrorKind::format;
    for (const auto& f : files) {
        try {
            const Bytes bytes = read_file(f, detail::max_manifest_bytes);
            const fs::path dir = f.has_parent_path() ? f.parent_path() : fs::path(".");
            result.push_back(parse_collect(std::string(bytes.begin(), bytes.end()), f, dir, out));
        } catch (const ManifestError& e) {
            out.insert(out.end(), e.diagnostics().begin(), e.diagnostics().end());
            if (e.kind() != ErrorKind::format) kind = e.kind();
        } catch (const Error& e) {
            out.push_back(Diagnostic{f.string(), 0, 0, "", e.message()});
            kind = e.kind();
        }
    }
    if (!out.empty()) throw ManifestError(kind, std::move(out));
    return result;
}

Manifest load_manifest(const fs::path& file) { return std::move(load_manifests(std::span<const fs::path>(&file, 1)).front()); }

std::vector<std::pair<std::string, std::string>> operation_names() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, info] : detail::operations()) out.emplace_back(name, info.game ? to_string(*info.game) : "");
    return out;
}

std::string manifest_schema() { return std::string(detail::manifest_schema_text()); }
std::string report_schema() { return std::string(detail::report_schema_text()); }

std::vector<std::string> check_report(const std::string& report_json) {
    rapidjson::Document d;
    d.Parse(report_json.data(), report_json.size());
    if (d.HasParseError()) return {"the report is not valid JSON"};
    return detail::validate_report_schema(d);
}

// libmod/manifest/pack.hpp; here, in the core, for the lean front's apply to tell a pack.
bool looks_like_pack(const std::filesystem::path& file) {
    std::ifstream f(file, std::ios::binary);
    char magic[4] = {};
    if (!f.read(magic, 4)) return false;
    return std::memcmp(magic, "PK\x03\x04", 4) == 0 || std::memcmp(magic, "PK\x05\x06", 4) == 0;
}

}  // namespace mod::manifest
