// The report page's palettes (palette.set / palette.hsv results): before/after swatches per
// slot with changed and locked slots marked, and a table of what each changed slot became.
#include "report_page_detail.hpp"

#include "libmod/n64/texel.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace mod::manifest::detail::page {

namespace {

std::optional<std::uint16_t> word_of(const Json& v) {
    if (!v.IsString()) return std::nullopt;
    const char* s = v.GetString();
    char* end = nullptr;
    const unsigned long w = std::strtoul(s, &end, 16);  // "0xABCD" or "ABCD"
    if (end == s || *end || w > 0xFFFF) return std::nullopt;
    return static_cast<std::uint16_t>(w);
}

image::Rgba8 colour_of(std::uint16_t word, bool ia16) {
    std::uint8_t c[4];
    if (ia16) n64::ia16_to_rgba8(word, c);
    else n64::rgba5551_to_rgba8(word, c);
    return {c[0], c[1], c[2], c[3]};
}

std::string word_hex(std::uint16_t w) {
    char b[8];
    std::snprintf(b, sizeof b, "%04X", w);
    return b;
}

std::string hex8(image::Rgba8 c) {
    char b[8];
    std::snprintf(b, sizeof b, "#%02X%02X%02X", c.r, c.g, c.b);
    return b;
}

// One swatch: the colour as the RDP draws it (alpha 0 entries get a diagonal stripe).
std::string swatch(std::uint16_t word, bool ia16, const char* which) {
    const image::Rgba8 c = colour_of(word, ia16);
    std::string style = "background:" + css_rgb(c);
    if (c.a < 128) style += ";background-image:linear-gradient(135deg,transparent 45%,#fff 45%,#fff 55%,transparent 55%)";
    return "<span class=\"sw " + std::string(which) + "\" style=\"" + style + "\" title=\"" + which + " " + word_hex(word) +
           " = " + hex8(c) + (c.a < 128 ? ", transparent" : "") + "\"></span>";
}

struct Change {
    unsigned slot = 0;
    std::uint16_t before = 0, after = 0;
    std::string requested;
    bool rounded = false;
    double delta_e = 0;
};

void palette_block(Section& s, const Json& p, const std::string& model) {
    const std::string format = text_of(p, "format", "rgba5551");
    const bool ia16 = format == "ia16";
    std::vector<std::uint16_t> before;
    if (const Json* b = member(p, "before"); b && b->IsArray())
        for (const auto& v : b->GetArray()) before.push_back(word_of(v).value_or(0));
    std::vector<std::uint16_t> after = before;
    std::vector<Change> changes;
    if (const Json* c = member(p, "changes"); c && c->IsArray())
        for (const auto& x : c->GetArray()) {
            Change ch;
            const auto slot = u64_of(x, "slot");
            const Json* bw = member(x, "before");
            const Json* aw = member(x, "after");
            if (!slot || !bw || !aw) continue;
            ch.slot = static_cast<unsigned>(*slot);
            ch.before = word_of(*bw).value_or(0);
            ch.after = word_of(*aw).value_or(0);
            ch.requested = text_of(x, "requested");
            if (const Json* r = member(x, "rounded"); r && r->IsBool()) ch.rounded = r->GetBool();
            ch.delta_e = number_of(x, "rounding_delta_e").value_or(0);
            if (ch.slot < after.size()) after[ch.slot] = ch.after;
            changes.push_back(ch);
        }
    std::set<unsigned> locked, changed;
    if (const Json* l = member(p, "locked"); l && l->IsArray())
        for (const auto& v : l->GetArray())
            if (v.IsUint()) locked.insert(v.GetUint());
    for (const auto& c : changes)
        if (c.before != c.after) changed.insert(c.slot);

    const std::string pal = std::to_string(u64_of(p, "palette").value_or(0));
    s.html += "<h3>Palette " + pal + " of model " + esc(model) + " (" + std::to_string(before.size()) + " " + esc(format) +
              " colours)</h3>\n";
    s.html += "<p>" + std::to_string(changed.size()) + " slot(s) changed, " + std::to_string(locked.size()) +
              " locked. Each column: slot, before, after; <span class=\"legend\" style=\"outline:2px solid #d00\"></span> "
              "changed, <span class=\"legend\" style=\"border:3px double #333;box-sizing:border-box\"></span> locked "
              "(L).</p>\n";
    s.html += "<div class=\"pal\" data-palette=\"" + pal + "\">\n";
    for (unsigned i = 0; i < before.size(); ++i) {
        const bool is_changed = changed.count(i) > 0, is_locked = locked.count(i) > 0;
        std::string cls = "slot";
        if (is_changed) cls += " changed";
        if (is_locked) cls += " locked";
        s.html += "<div class=\"" + cls + "\" data-slot=\"" + std::to_string(i) + "\"><span class=\"mark\">" +
                  std::to_string(i) + "</span>" + swatch(before[i], ia16, "before") + swatch(after[i], ia16, "after") +
                  "<span class=\"mark\">" + (is_locked ? "L" : is_changed ? "&#9679;" : "") + "</span></div>\n";
    }
    s.html += "</div>\n";
    if (changes.empty()) return;
    std::size_t rounded = 0;
    double max_de = 0;
    for (const auto& c : changes) {
        rounded += c.rounded;
        max_de = std::max(max_de, c.delta_e);
    }
    s.html += std::string("<details") + (changes.size() <= 16 ? " open" : "") + "><summary>" +
              std::to_string(changes.size()) + " slot(s) written, " + std::to_string(rounded) +
              " rounded to the RGBA5551 lattice (max rounding &Delta;E " + fixed(max_de) + ")</summary>\n";
    s.html += "<table><tr><th>slot</th><th>before</th><th>asked for</th><th>written (RGBA5551)</th><th>shown as</th>"
              "<th>rounding &Delta;E</th></tr>\n";
    for (const auto& c : changes) {
        const image::Rgba8 out = colour_of(c.after, ia16);
        s.html += "<tr><td class=\"num\">" + std::to_string(c.slot) + "</td><td class=\"mono\">" + swatch(c.before, ia16, "before-row") +
                  "0x" + word_hex(c.before) + "</td><td class=\"mono\">" + esc(c.requested) + "</td><td class=\"mono\">0x" +
                  word_hex(c.after) + "</td><td class=\"mono\">" + swatch(c.after, ia16, "after-row") + css_rgb(out) + " " +
                  hex8(out) + "</td><td class=\"num\">" + fixed(c.delta_e) + (c.rounded ? "" : " (exact)") + "</td></tr>\n";
    }
    s.html += "</table></details>\n";
}

}  // namespace

void palette_sections(Section& s, const Json& edit) {
    const Json* result = member(edit, "result");
    if (!result) return;
    const std::string model = std::to_string(u64_of(*result, "model").value_or(0));
    if (const Json* ps = member(*result, "palettes"); ps && ps->IsArray())
        for (const auto& p : ps->GetArray()) palette_block(s, p, model);
}

}  // namespace mod::manifest::detail::page
