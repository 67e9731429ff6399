// report_page(): the page's frame (style, warnings, manifests, files) and one section per edit;
// the pictures come from report_page_palette.cpp, report_page_texture.cpp, report_page_model.cpp.
#include "libmod/manifest/report_page.hpp"

#include "operation.hpp"
#include "report_page_detail.hpp"
#include "report_page_viewer.hpp"

#include "libmod/core/error.hpp"

#include <set>

namespace mod::manifest {

using namespace detail::page;

namespace {

// Fixed sizes everywhere (swatches 24 × 24 px, pictures at their pixel size), so a picture or
// a swatch is where a screenshot test looks for it whatever fonts the browser has.
constexpr const char* style = R"css(
body { font: 14px/1.4 sans-serif; margin: 16px; color: #1d1d1f; background: #fafafa; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 18px; margin: 24px 0 8px; border-bottom: 1px solid #ccc; }
h3 { font-size: 15px; margin: 14px 0 6px; }
code, .mono { font-family: monospace; font-size: 13px; }
table { border-collapse: collapse; margin: 4px 0 8px; }
td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; font-family: monospace; white-space: nowrap; }
.warnings { background: #fff3cd; border: 2px solid #e0a800; padding: 8px 12px; margin: 8px 0 16px; }
.warnings li { margin: 2px 0; }
.ok { background: #e6f4ea; border: 1px solid #8bc34a; padding: 6px 12px; margin: 8px 0 16px; }
.edit { background: #fff; border: 1px solid #ccc; padding: 8px 12px; margin: 12px 0; }
.edit h2 { margin-top: 4px; }
.edit-warn { color: #8a5a00; font-weight: bold; }
.edit-shadowed { background: #fde2e1; border-left: 6px solid #c0392b; padding: 6px 10px; }
.badge-shadowed { background: #c0392b; color: #fff; font-size: 0.6em; padding: 2px 6px; border-radius: 4px; vertical-align: middle; }
.note { color: #666; font-style: italic; }
.pic { image-rendering: pixelated; border: 1px solid #999; display: block; }
figure { display: inline-block; margin: 0 12px 8px 0; vertical-align: top; }
figcaption { font-size: 12px; color: #444; }
.pal { display: flex; flex-wrap: wrap; gap: 2px; margin: 4px 0; }
.slot { width: 28px; text-align: center; font-size: 10px; font-family: monospace; }
.sw { display: block; width: 24px; height: 24px; margin: 1px 2px; box-sizing: border-box; }
.slot.changed .after { outline: 2px solid #d00; outline-offset: 0; }
.slot.locked .sw { border: 3px double #333; }
.sw.before-row, .sw.after-row { display: inline-block; vertical-align: middle; margin-right: 6px; }
.mark { height: 12px; line-height: 12px; }
.legend { display: inline-block; width: 12px; height: 12px; vertical-align: middle; }
.viewer-buttons button.on { font-weight: bold; }
.viewer-state { font-size: 11px; color: #666; white-space: pre-wrap; word-break: break-all; }
.size-bar { display: inline-block; height: 6px; vertical-align: middle; background: #222; border-left: 2px solid #222; border-right: 2px solid #222; box-sizing: border-box; }
/* Narrow windows (issue 30 item 5): nothing makes the page scroll sideways; wide tables scroll in
   place, pictures shrink to the width (height kept in proportion), long hashes and paths wrap. */
img { max-width: 100%; height: auto; }
figure { max-width: 100%; }
table { display: block; max-width: 100%; overflow-x: auto; }
td, th, code, .mono, li, p { overflow-wrap: anywhere; }
@media (max-width: 600px) { body { margin: 8px; } .edit { padding: 6px 8px; } }
)css";

std::string edit_anchor(std::size_t i) { return "edit-" + std::to_string(i); }

void warnings_box(std::string& html, const Json& report) {
    const Json* w = member(report, "warnings");
    if (!w || !w->IsArray() || w->Empty()) {
        html += "<div class=\"ok\">No warnings.</div>\n";
        return;
    }
    html += "<div class=\"warnings\" id=\"warnings\"><strong>" + std::to_string(w->Size()) + " warning" +
            (w->Size() == 1 ? "" : "s") + "</strong><ul>\n";
    for (const auto& x : w->GetArray())
        if (x.IsString()) html += "<li>" + esc(x.GetString()) + "</li>\n";
    html += "</ul></div>\n";
}

void file_tables(std::string& html, const Json& report) {
    if (const Json* m = member(report, "manifests"); m && m->IsArray()) {
        html += "<h2>Manifests</h2>\n<table><tr><th>file</th><th>name</th><th>game</th></tr>\n";
        for (const auto& x : m->GetArray())
            html += "<tr><td class=\"mono\">" + esc(text_of(x, "file")) + "</td><td>" + esc(text_of(x, "name")) +
                    "</td><td>" + esc(text_of(x, "game")) + "</td></tr>\n";
        html += "</table>\n";
    }
    if (const Json* in = member(report, "inputs"); in && in->IsArray()) {
        html += "<h2>Base files</h2>\n<table><tr><th>path</th><th>kind</th><th>size</th><th>SHA-1</th><th>CRC-32</th>"
                "<th>notes</th></tr>\n";
        for (const auto& x : in->GetArray()) {
            std::string notes;
            if (const Json* n = member(x, "notes"); n && n->IsArray())
                for (const auto& t : n->GetArray())
                    if (t.IsString()) notes += esc(t.GetString()) + "<br>";
            html += "<tr><td class=\"mono\">" + esc(text_of(x, "path")) + "</td><td>" + esc(text_of(x, "kind")) +
                    "</td><td class=\"num\">" + bytes_text(u64_of(x, "size").value_or(0)) + "</td><td class=\"mono\">" +
                    esc(text_of(x, "sha1")) + "</td><td class=\"mono\">" + esc(text_of(x, "crc32")) + "</td><td>" + notes +
                    "</td></tr>\n";
        }
        html += "</table>\n";
    }
    if (const Json* out = member(report, "outputs"); out && out->IsArray()) {
        html += "<h2>Written files</h2>\n<table><tr><th>path</th><th>role</th><th>from</th><th>size</th><th>SHA-1</th>"
                "<th>CRC-32</th></tr>\n";
        for (const auto& x : out->GetArray()) {
            std::string role = esc(text_of(x, "role"));
            if (const auto f = text_of(x, "format"); !f.empty()) role += " (" + esc(f) + ")";
            if (const Json* v = member(x, "verified"); v && v->IsTrue()) role += ", verified";
            html += "<tr><td class=\"mono\">" + esc(text_of(x, "path")) + "</td><td>" + role + "</td><td class=\"mono\">" +
                    esc(text_of(x, "input")) + "</td><td class=\"num\">" + bytes_text(u64_of(x, "size").value_or(0)) +
                    "</td><td class=\"mono\">" + esc(text_of(x, "sha1")) + "</td><td class=\"mono\">" +
                    esc(text_of(x, "crc32")) + "</td></tr>\n";
        }
        html += "</table>\n";
    }
}

// A JSON value as compact text (strings unquoted at the top level), for the result tables.
std::string value_text(const Json& v, bool top = true) {
    if (v.IsString()) return top ? std::string(v.GetString(), v.GetStringLength()) : "\"" + std::string(v.GetString()) + "\"";
    if (v.IsBool()) return v.GetBool() ? "true" : "false";
    if (v.IsNull()) return "null";
    if (v.IsUint64()) return std::to_string(v.GetUint64());
    if (v.IsInt64()) return std::to_string(v.GetInt64());
    if (v.IsNumber()) return fixed(v.GetDouble(), 3);
    std::string out;
    if (v.IsArray()) {
        out = "[";
        std::size_t n = 0;
        for (const auto& x : v.GetArray()) {
            if (n++) out += ", ";
            if (n > 64) {
                out += "… (" + std::to_string(v.Size()) + " in all)";
                break;
            }
            out += value_text(x, false);
        }
        return out + "]";
    }
    out = "{";
    std::size_t n = 0;
    for (const auto& m : v.GetObject()) out += (n++ ? ", " : "") + std::string(m.name.GetString()) + ": " + value_text(m.value, false);
    return out + "}";
}

// Every field of a result, one row each (what the pictures do not show, and everything for the
// operations without pictures).
void result_table(std::string& html, const Json& result, bool open) {
    if (!result.IsObject() || result.MemberCount() == 0) return;
    html += std::string("<details") + (open ? " open" : "") + "><summary>result fields</summary><table>\n";
    for (const auto& m : result.GetObject())
        html += "<tr><th class=\"mono\">" + esc(m.name.GetString()) + "</th><td class=\"mono\">" + esc(value_text(m.value)) +
                "</td></tr>\n";
    html += "</table></details>\n";
}

void edit_section(Section& s, const Json& edit, std::size_t index) {
    s.anchor = edit_anchor(index);
    const std::string op = text_of(edit, "op"), id = text_of(edit, "id");
    const Json* shadowed = member(edit, "shadowed_by");
    const bool overridden = shadowed && shadowed->IsArray() && !shadowed->Empty();
    s.html += "<div class=\"edit\" id=\"" + edit_anchor(index) + "\">\n<h2>" + esc(id) + " <span class=\"mono\">[" + esc(op) +
              "]</span>" + (overridden ? " <span class=\"badge-shadowed\">overridden</span>" : "") + "</h2>\n<p>" + esc(text_of(edit, "summary")) + "<br><span class=\"note\">" +
              esc(text_of(edit, "manifest")) + ":" + std::to_string(u64_of(edit, "line").value_or(0)) + ":" +
              std::to_string(u64_of(edit, "column").value_or(0)) + ", input " + esc(text_of(edit, "input")) + " (" +
              esc(Files::input_of(edit)) + ")</span></p>\n";
    if (overridden)
        for (const auto& x : shadowed->GetArray())
            s.html += "<p class=\"edit-shadowed\"><strong>overridden by edit " + esc(text_of(x, "edit")) + ":</strong> " +
                      esc(text_of(x, "what")) + "</p>\n";
    if (const Json* w = member(edit, "warnings"); w && w->IsArray())
        for (const auto& x : w->GetArray())
            if (x.IsString()) s.html += "<p class=\"edit-warn\">warning: " + esc(x.GetString()) + "</p>\n";
    const Json* result = member(edit, "result");
    static const Json empty(rapidjson::kObjectType);
    const Json& r = result ? *result : empty;
    bool pictures = false;
    try {
        if (op == "palette.set" || op == "palette.hsv") {
            palette_sections(s, edit);
            pictures = true;
        } else if (op == "texture.replace") {
            texture_sections(s, edit);
            pictures = true;
        }
        if (op == "palette.set" || op == "palette.hsv" || op == "texture.replace" || op == "entry.replace" ||
            op == "fragment.bytes" || op == "mesh.replace" || op == "skin.reweight") {
            model_section(s, edit);
            pictures = true;
        }
    } catch (const std::exception& e) {
        note(s, std::string("pictures of this edit could not be made: ") + e.what());
    }
    result_table(s.html, r, !pictures);
    s.html += "</div>\n";
}

}  // namespace

namespace detail {
namespace {
const bool registered_page_builder = register_report_page_builder(report_page);
}  // namespace
}  // namespace detail

std::string report_page(const std::string& report_json, const ReportPageOptions& options) {
    rapidjson::Document doc;
    doc.Parse(report_json.data(), report_json.size());
    if (doc.HasParseError() || !doc.IsObject() || !member(doc, "modkit_report"))
        throw Error(ErrorKind::format, "not a modkit report (report.json): the text is not a JSON object with \"modkit_report\"");
    Files files(options, doc);
    std::string html;
    html.reserve(1 << 20);
    std::string title = "modkit report";
    if (const Json* m = member(doc, "manifests"); m && m->IsArray() && m->Size() > 0) {
        std::string names;
        for (const auto& x : m->GetArray()) names += (names.empty() ? "" : " + ") + text_of(x, "name");
        title += ": " + names;
    }
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + esc(title) +
            "</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<style>" + style + "</style>\n</head>\n<body>\n<h1>" + esc(title) + "</h1>\n";
    warnings_box(html, doc);

    const Json* edits = member(doc, "edits");
    if (edits && edits->IsArray() && !edits->Empty()) {
        html += "<p>Edits: ";
        std::size_t i = 0;
        for (const auto& e : edits->GetArray()) {
            html += (i ? " · " : "") + std::string("<a href=\"#") + edit_anchor(i) + "\">" + esc(text_of(e, "id")) + "</a>";
            ++i;
        }
        html += "</p>\n";
    }
    Section s{files, options, html, {}, {}};
    if (edits && edits->IsArray()) {
        std::size_t i = 0;
        for (const auto& e : edits->GetArray()) edit_section(s, e, i++);
    }
    file_tables(html, doc);
    html += "<p class=\"note\">Made by modkit from report.json. Self-contained: every picture is inside this file.</p>\n";
    if (s.viewers) html += viewer_page_scripts();
    html += "</body>\n</html>\n";
    return html;
}

std::vector<std::filesystem::path> report_page_inputs(const std::string& report_json, const std::filesystem::path& base_dir) {
    rapidjson::Document doc;
    doc.Parse(report_json.data(), report_json.size());
    std::vector<std::filesystem::path> out;
    if (doc.HasParseError() || !doc.IsObject()) return out;
    for (const char* list : {"inputs", "outputs"})
        if (const Json* a = member(doc, list); a && a->IsArray())
            for (const auto& f : a->GetArray())
                if (const std::string p = text_of(f, "path"); !p.empty())
                    out.push_back(std::filesystem::path(p).is_relative() && !base_dir.empty() ? base_dir / p
                                                                                             : std::filesystem::path(p));
    return out;
}

ReportBase guess_report_base(const std::string& report_json, const std::filesystem::path& report_file) {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates = {fs::path()};
    std::error_code ec;
    fs::path at = fs::absolute(report_file, ec).parent_path();
    for (int up = 0; up <= 4 && !at.empty(); ++up) {
        candidates.push_back(at);
        if (at == at.parent_path()) break;
        at = at.parent_path();
    }
    const std::vector<fs::path> named = report_page_inputs(report_json);  // as the report writes them
    ReportBase best;
    bool first = true;
    for (const auto& dir : candidates) {
        ReportBase here{dir, 0, 0};
        // Found means readable by the page: there, and inside the folder (confine_to_base).
        const fs::path root = fs::weakly_canonical(dir.empty() ? fs::current_path(ec) : dir, ec);
        for (const auto& name : named) {
            const fs::path f = name.is_relative() && !dir.empty() ? dir / name : name;
            ++here.named;
            const fs::path real = fs::weakly_canonical(f, ec);
            const fs::path rel = real.lexically_relative(root);
            if (fs::is_regular_file(f, ec) && !rel.empty() && *rel.begin() != "..") ++here.found;
        }
        if (here.found == here.named) return here;
        if (first || here.found > best.found) best = here;
        first = false;
    }
    return best;
}

}  // namespace mod::manifest
