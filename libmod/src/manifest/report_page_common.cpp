// The report page's shared pieces: HTML escaping, inline PNGs, JSON access, and the files the
// report names (read once, checked against the report's SHA-1).
#include "report_page_detail.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/image/png.hpp"
#include "libmod/render/render.hpp"

#include <cstdio>

namespace mod::manifest::detail::page {

namespace fs = std::filesystem;

std::string esc(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
            if ((c < 0x20 && ch != '\n' && ch != '\t') || c == 0x7F) out += "\xEF\xBF\xBD";
            else out += ch;
        }
    }
    return out;
}

std::string base64(ByteView bytes) {
    static constexpr char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t v = std::uint32_t(bytes[i]) << 16 | std::uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
        for (int k = 3; k >= 0; --k) out += table[(v >> (6 * k)) & 63];
    }
    if (const std::size_t rest = bytes.size() - i; rest) {
        std::uint32_t v = std::uint32_t(bytes[i]) << 16;
        if (rest == 2) v |= std::uint32_t(bytes[i + 1]) << 8;
        out += table[(v >> 18) & 63];
        out += table[(v >> 12) & 63];
        out += rest == 2 ? table[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

std::string img(const image::RgbaImage& picture, const std::string& alt, const std::string& cls) {
    return "<img class=\"" + cls + "\" width=\"" + std::to_string(picture.width) + "\" height=\"" +
           std::to_string(picture.height) + "\" alt=\"" + esc(alt) + "\" src=\"data:image/png;base64," +
           base64(image::write_png(picture)) + "\">";
}

image::RgbaImage zoom(const image::RgbaImage& picture, unsigned factor) {
    return factor <= 1 ? picture : render::scale_nearest(picture, factor);
}

std::string css_rgb(image::Rgba8 c) {
    return "rgb(" + std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + ")";
}

std::string fixed(double v, int decimals) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

std::string bytes_text(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out + (n == 1 ? " byte" : " bytes");
}

// ---- files ------------------------------------------------------------------------------------

Files::Files(const ReportPageOptions& options, const Json& report) : options_(options) {
    for (const char* list : {"inputs", "outputs"})
        if (const Json* a = member(report, list); a && a->IsArray())
            for (const auto& f : a->GetArray()) {
                const std::string path = text_of(f, "path");
                if (path.empty()) continue;
                sha1_[path] = text_of(f, "sha1");
                if (std::string(list) == "inputs" && text_of(f, "kind") == "names") names_inputs_.push_back(path);
                if (std::string(list) == "outputs" && text_of(f, "role") == "output")
                    output_of_[text_of(f, "input")] = path;
            }
}

std::optional<std::string> Files::output_of(const std::string& input) const {
    const auto it = output_of_.find(input);
    if (it == output_of_.end()) return std::nullopt;
    return it->second;
}

std::string Files::input_of(const Json& edit) {
    if (const Json* t = member(edit, "touches"); t && t->IsArray())
        for (const auto& touch : t->GetArray())
            if (auto f = text_of(touch, "file"); !f.empty()) return f;
    return {};
}

std::string Files::outside_base(const fs::path& p) const {
    std::error_code ec;
    const fs::path base = fs::weakly_canonical(options_.base_dir.empty() ? fs::path(".") : options_.base_dir, ec);
    if (ec) return "the base folder cannot be resolved: " + ec.message();
    const fs::path full = fs::weakly_canonical(p.is_absolute() ? p : base / p, ec);
    if (ec) return "cannot be resolved: " + ec.message();
    const fs::path rel = full.lexically_relative(base);
    if (rel.empty() || *rel.begin() == "..")
        return "leads outside the base folder " + base.string() + "; the page reads files inside it only";
    return {};
}

std::shared_ptr<const Bytes> Files::load(const std::string& path, const std::string& sha1_hex, std::string* why) {
    const std::string key = path + "\n" + sha1_hex;
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    if (auto it = failures_.find(key); it != failures_.end()) {
        if (why) *why = it->second;
        return nullptr;
    }
    if (options_.read)
        if (auto given = options_.read(path)) return cache_[key] = std::move(given);
    std::optional<Bytes> bytes;
    std::string failure;
    try {
        {
            fs::path p(path);
            if (options_.confine_to_base) {
                if (const std::string why_not = outside_base(p); !why_not.empty()) throw Error(ErrorKind::format, why_not);
            }
            if (p.is_relative() && !options_.base_dir.empty()) p = options_.base_dir / p;
            bytes = read_file(p);
        }
    } catch (const std::exception& e) {
        failure = std::string("cannot read ") + path + ": " + e.what();
    }
    if (bytes && !sha1_hex.empty() && to_hex(sha1(*bytes)) != sha1_hex) {
        failure = path + " is not the file the report describes (its SHA-1 differs: changed since the report was made)";
        bytes.reset();
    }
    if (!bytes) {
        failures_[key] = failure;
        if (why) *why = failure;
        return nullptr;
    }
    auto shared = std::make_shared<const Bytes>(std::move(*bytes));
    cache_[key] = shared;
    return shared;
}

std::shared_ptr<const Bytes> Files::get(const std::string& path, std::string* why) {
    const auto it = sha1_.find(path);
    return load(path, it == sha1_.end() ? std::string() : it->second, why);
}

std::shared_ptr<const Bytes> Files::get_beside(const std::string& manifest, const std::string& path, std::string* why) {
    const fs::path p(path);
    const std::string full = p.is_absolute() ? path : (fs::path(manifest).parent_path() / p).lexically_normal().string();
    return load(full, {}, why);
}

void note(Section& s, const std::string& text) { s.html += "<p class=\"note\">" + esc(text) + "</p>\n"; }

}  // namespace mod::manifest::detail::page
