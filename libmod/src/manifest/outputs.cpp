// The output step of apply_manifests: finish each edited file (N64 checksums, byte order),
// make and verify the patches, build report.json, and write everything all or none.
#include "apply_detail.hpp"
#include "schema.hpp"
#include "staging.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/codec/vcdiff.hpp"
#include "libmod/codec/zstd_patch.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/manifest/report_page.hpp"
#include "libmod/n64/rom.hpp"

#include "libmod/core/rapidjson.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

namespace mod::manifest::detail {

namespace fs = std::filesystem;
using rapidjson::Value;

namespace {

struct Product {
    fs::path path;
    std::string role;   // output, patch, report
    std::string input;  // display name of the file it belongs to
    std::string format; // patches: bps / zpatch / vcdiff
    Bytes bytes;
};

const auto& str = json_str;

// The file's final bytes; its workspace copy moves into them (nothing reads it afterwards).
Bytes finish(FileState& f) {
    Bytes bytes = std::move(f.current);
    if (f.kind != "rom") return bytes;
    if (f.fix_checksums) n64::fix_checksums(bytes);
    const auto order = n64::parse_byte_order(f.rom_order);
    if (order == n64::ByteOrder::z64) return bytes;  // moved (a conditional expression would copy it)
    return n64::from_z64(bytes, order);
}

Bytes create_patch(const std::string& format, const FileState& f, const Bytes& target, const std::string& mod_name) {
    if (format == "bps") {
        bps::CreateOptions o;
        o.metadata = "{\"modkit\":1,\"mod\":\"" + mod_name + "\"}";
        return bps::create(f.original, target, o);
    }
    if (format == "vcdiff") return vcdiff::create(f.original, target);
    return zpatch::create(f.original, target);
}

// The patch applied to the input must give the output (our encoders' self-check, before
// anything is written). A BPS patch is compared action by action, without a third image.
void verify_patch(const std::string& format, const FileState& f, const Bytes& target, const Bytes& patch) {
    bool same = false;
    if (format == "bps") same = !bps::first_difference(ByteReader(patch, Endian::little, {}, "bps"), f.original, target);
    else if (format == "vcdiff") same = vcdiff::apply(patch, f.original) == target;
    else same = zpatch::apply(patch, f.original) == target;
    if (!same)
        throw Error(ErrorKind::format, "the " + format + " patch does not reproduce the output when applied to the input",
                    f.display);
}

std::string json_escape_name(std::string s) {
    std::string out;
    for (char c : s)
        if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) out += c;
    return out;
}

Value touches_json(Allocator& a, const PlannedEdit& p) {
    Value arr(rapidjson::kArrayType);
    for (const auto& t : p.touches) {
        Value o(rapidjson::kObjectType);
        o.AddMember("file", str(a, t.file), a).AddMember("region", str(a, t.region), a).AddMember("begin", t.begin, a);
        if (t.end == UINT64_MAX) o.AddMember("end", Value(), a);
        else o.AddMember("end", t.end, a);
        o.AddMember("exclusive", t.exclusive, a).AddMember("what", str(a, t.what), a);
        arr.PushBack(o, a);
    }
    return arr;
}

// report.html beside each report.json (libmod/manifest/report_page.hpp), built from the report
// and the bytes about to be written (the outputs are not on disk yet).
void add_report_pages(std::vector<Product>& products, ApplyResult& result, const Build& b) {
    if (std::none_of(products.begin(), products.end(), [](const Product& p) { return p.role == "report"; })) return;
    std::map<std::string, const Bytes*> memory;  // by the path as the report writes it
    for (const auto& [k, f] : b.files) memory[f.path.lexically_normal().string()] = &f.original;
    for (const auto& p : products) memory[p.path.lexically_normal().string()] = &p.bytes;
    ReportPageOptions options;
    options.confine_to_base = false;  // the report apply has just made, naming only its own files
    options.read = [&memory](const std::string& path) -> std::shared_ptr<const Bytes> {
        const auto it = memory.find(path);
        // Not owned (aliasing an empty owner): the bytes outlive report_page.
        return it == memory.end() ? nullptr : std::shared_ptr<const Bytes>(std::shared_ptr<const void>(), it->second);
    };
    const ReportPageBuilder build_page = report_page_builder();
    // apply checks first (missing_capability) that a program without the page builder makes none.
    if (!build_page) throw std::logic_error("this program has no report page builder (modkit-scene has)");
    const std::string page = build_page(result.report_json, options);
    std::vector<fs::path> pages;
    for (const auto& p : products)
        if (p.role == "report") pages.push_back(p.path.parent_path() / "report.html");
    for (const auto& path : pages) {
        products.push_back({path, "report", "", "", Bytes(page.begin(), page.end())});
        result.written.push_back({path, "report", page.size(), ""});
    }
}

// Validation checks each manifest's outputs; this checks the build's (several manifests, and
// --out-dir): two files on one path (ASCII case folded: one file on Windows and macOS) or one
// file where another needs a folder is a conflict, before anything is written.
void check_product_paths(const std::vector<Product>& products) {
    auto key = [](const fs::path& p) {
        std::string s = p.lexically_normal().generic_string();
        for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    std::map<std::string, const Product*> by_key;
    for (const auto& p : products) {
        auto [it, fresh] = by_key.emplace(key(p.path), &p);
        if (!fresh)
            throw Error(ErrorKind::conflict, "the " + p.role + " " + p.path.string() + " and the " + it->second->role + " " +
                                                 it->second->path.string() + " are one file (names compared ignoring case)");
    }
    for (const auto& p : products)
        for (fs::path up = p.path.lexically_normal().parent_path(); !up.empty() && up != up.parent_path(); up = up.parent_path())
            if (const auto it = by_key.find(key(up)); it != by_key.end())
                throw Error(ErrorKind::conflict, "the " + p.role + " " + p.path.string() + " needs a folder where the " +
                                                     it->second->role + " " + it->second->path.string() + " is a file");
}

// The report (report.json in every report folder, the report pages, ApplyResult::report_json),
// the warnings and the written files with their digests.
void add_report(Build& b, const std::vector<Manifest>& manifests, const ApplyOptions& options, std::vector<Product>& products,
                ApplyResult& result) {
    // The report.
    rapidjson::Document& doc = b.report_doc;
    Allocator& a = doc.GetAllocator();
    doc.SetObject();
    doc.AddMember("modkit_report", 1, a);
    Value ms(rapidjson::kArrayType);
    for (const auto& m : manifests) {
        Value o(rapidjson::kObjectType);
        o.AddMember("file", str(a, m.file.string()), a).AddMember("name", str(a, m.name), a)
            .AddMember("game", str(a, to_string(m.game)), a);
        ms.PushBack(o, a);
    }
    doc.AddMember("manifests", ms, a);
    Value inputs(rapidjson::kArrayType);
    for (const auto& pf : b.plan.files) {
        Value o(rapidjson::kObjectType), notes(rapidjson::kArrayType);
        o.AddMember("path", str(a, pf.input.lexically_normal().string()), a).AddMember("kind", str(a, pf.kind), a)
            .AddMember("size", pf.size, a).AddMember("sha1", str(a, pf.sha1), a).AddMember("crc32", str(a, pf.crc32), a);
        for (const auto& n : pf.notes) notes.PushBack(str(a, n), a);
        o.AddMember("notes", notes, a);
        inputs.PushBack(o, a);
    }
    doc.AddMember("inputs", inputs, a);
    Value edits(rapidjson::kArrayType), warnings(rapidjson::kArrayType);
    for (std::size_t i = 0; i < b.plan.edits.size(); ++i) {
        const auto& p = b.plan.edits[i];
        auto& r = b.results[i];
        Value o(rapidjson::kObjectType), limits(rapidjson::kArrayType), w(rapidjson::kArrayType);
        o.AddMember("manifest", str(a, p.manifest), a).AddMember("id", str(a, p.id), a).AddMember("op", str(a, p.op), a)
            .AddMember("line", std::uint64_t(p.line), a).AddMember("column", std::uint64_t(p.column), a)
            .AddMember("input", str(a, p.input), a).AddMember("summary", str(a, p.summary), a);
        o.AddMember("touches", touches_json(a, p), a);
        for (const auto& l : p.limits) limits.PushBack(str(a, l), a);
        o.AddMember("limits", limits, a);
        o.AddMember("result", r.report, a);
        for (const auto& x : r.warnings) {
            w.PushBack(str(a, x), a);
            warnings.PushBack(str(a, p.id + ": " + x), a);
            result.warnings.push_back(p.id + ": " + x);
        }
        o.AddMember("warnings", w, a);
        if (!r.shadowed_by.empty()) {
            Value sh(rapidjson::kArrayType);
            for (const auto& [by, what] : r.shadowed_by) {
                Value x(rapidjson::kObjectType);
                x.AddMember("edit", str(a, b.plan.edits[by].id), a).AddMember("what", str(a, what), a);
                sh.PushBack(x, a);
            }
            o.AddMember("shadowed_by", sh, a);
        }
        result.timings.emplace_back("edit " + p.id, r.ms);
        edits.PushBack(o, a);
    }
    doc.AddMember("edits", edits, a);
    Value outs(rapidjson::kArrayType);
    for (const auto& p : products) {
        Value o(rapidjson::kObjectType);
        o.AddMember("path", str(a, p.path.lexically_normal().string()), a).AddMember("role", str(a, p.role), a)
            .AddMember("input", str(a, p.input), a);
        if (!p.format.empty()) o.AddMember("format", str(a, p.format), a);
        const std::string digest = sha1_hex(p.bytes);  // once per product
        o.AddMember("size", std::uint64_t(p.bytes.size()), a).AddMember("sha1", str(a, digest), a)
            .AddMember("crc32", str(a, crc32_hex(p.bytes)), a);
        if (p.role == "patch") o.AddMember("verified", true, a);
        outs.PushBack(o, a);
        result.written.push_back({p.path, p.role, p.bytes.size(), digest});
    }
    doc.AddMember("outputs", outs, a);
    doc.AddMember("warnings", warnings, a);
    // No timings in the report: same inputs give the same bytes (they go to ApplyResult::timings).
    result.timings.insert(result.timings.begin(), b.timings.begin(), b.timings.end());

    rapidjson::StringBuffer sb;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(sb);
    writer.SetIndent(' ', 2);
    doc.Accept(writer);
    result.report_json = std::string(sb.GetString(), sb.GetSize()) + "\n";
    for (const auto& m : manifests)
        if (m.report) {
            fs::path dir = *m.report;
            if (options.out_dir) dir = *options.out_dir / dir.lexically_relative(m.dir);
            const fs::path p = dir / "report.json";
            // Several manifests may name one report folder (one report); an output there is a collision.
            if (std::none_of(products.begin(), products.end(), [&](const Product& x) { return x.path == p && x.role == "report"; })) {
                products.push_back({p, "report", "", "", Bytes(result.report_json.begin(), result.report_json.end())});
                result.written.push_back({p, "report", result.report_json.size(), ""});
            }
        }

    add_report_pages(products, result, b);
}

}  // namespace

ApplyResult write_outputs(Build& b, const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    ApplyResult result;
    std::vector<Product> products;
    std::vector<Diagnostic> problems;

    // Outputs, in the order the manifests name them (deterministic, unlike file identities).
    std::vector<std::pair<std::size_t, std::string>> order;  // (manifest, input name)
    std::set<std::string> seen;
    for (std::size_t mi = 0; mi < manifests.size(); ++mi)
        for (const auto& in : manifests[mi].inputs) {
            const std::string& key = b.input_keys.at({mi, in.name});
            if (seen.insert(key).second) order.push_back({mi, in.name});
        }
    std::map<std::string, std::size_t> finished;  // file key -> its product
    for (const auto& [mi, name] : order) {
        FileState& f = b.files.at(b.input_keys.at({mi, name}));
        if (f.edited && !f.output) {
            problems.push_back(manifests[mi].at("/outputs", "the edits changed \"" + name + "\" (" + f.display +
                                                                ") but \"outputs\" names no file for it"));
            continue;
        }
        if (!f.output) continue;
        finished[f.key] = products.size();
        products.push_back({*f.output, "output", f.display, "", finish(f)});
    }
    if (!problems.empty()) throw ManifestError(ErrorKind::usage, std::move(problems));

    // Patches: each manifest asks for its own outputs' patches; verified before writing (after
    // the report, whose page holds decoded models meanwhile: issue 31, peak memory).
    std::set<std::string> patch_paths;
    std::vector<std::pair<std::size_t, const FileState*>> to_verify;  // patch product, its file
    for (std::size_t mi = 0; mi < manifests.size(); ++mi)
        for (const auto& fmt : manifests[mi].patches)
            for (const auto& in : manifests[mi].inputs) {
                const FileState& f = b.files.at(b.input_keys.at({mi, in.name}));
                if (!f.output || !finished.count(f.key)) continue;
                const fs::path p = f.output->string() + "." + fmt;
                if (!patch_paths.insert(p.lexically_normal().string()).second) continue;
                to_verify.emplace_back(products.size(), &f);
                products.push_back({p, "patch", f.display, fmt, create_patch(fmt, f, products[finished[f.key]].bytes,
                                                                          json_escape_name(manifests[mi].name))});
            }

    if (builds_report(manifests, options)) {
        add_report(b, manifests, options, products, result);
    } else {
        // No report asked for and none shown (`apply -q`): the warnings and the written files
        // without the digests only the report would carry (issue 31: two SHA-1 passes fewer).
        for (std::size_t i = 0; i < b.plan.edits.size(); ++i)
            for (const auto& x : b.results[i].warnings) result.warnings.push_back(b.plan.edits[i].id + ": " + x);
        for (const auto& p : products) result.written.push_back({p.path, p.role, p.bytes.size(), ""});
        result.timings = b.timings;
    }
    for (const auto& [index, f] : to_verify)
        verify_patch(products[index].format, *f, products[finished.at(f->key)].bytes, products[index].bytes);

    // Everything read counts as an input: the base files and every file an edit names.
    std::vector<fs::path> read;
    for (const auto& [k, f] : b.files) read.push_back(f.path);
    for (const auto& m : manifests) {
        read.push_back(m.file);
        for (const auto& p : path_values(*m.source)) {
            if (p.rfind("/outputs", 0) == 0) continue;
            const auto* v = rapidjson::Pointer(p.c_str()).Get(m.source->doc());
            if (v && v->IsString()) read.push_back(m.dir / v->GetString());
        }
    }
    check_product_paths(products);
    Stage stage(std::move(read));
    for (const auto& p : products) stage.add(p.path, p.bytes);
    stage.commit();
    result.plan = std::move(b.plan);
    return result;
}

}  // namespace mod::manifest::detail
