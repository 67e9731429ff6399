#include "operation.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/palette_text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace mod::manifest::detail {

void EditEnv::fail(const char* field, std::string message, ErrorKind kind) const {
    const std::string p = field ? pointer(field) : edit.pointer;
    throw ManifestError(kind, {manifest.at(p, std::move(message))});
}

std::uint64_t EditEnv::u64(const char* field) const {
    const auto& v = params[field];
    if (!v.IsUint64()) fail(field, "expected a non-negative integer");
    return v.GetUint64();
}

std::optional<std::uint64_t> EditEnv::opt_u64(const char* field) const {
    if (!has(field)) return std::nullopt;
    return u64(field);
}

double EditEnv::number(const char* field, double fallback) const {
    if (!has(field)) return fallback;
    const double d = params[field].GetDouble();
    if (!std::isfinite(d)) fail(field, "must be a finite number");
    return d;
}

bool EditEnv::flag(const char* field, bool fallback) const { return has(field) ? params[field].GetBool() : fallback; }

std::string EditEnv::text(const char* field, const std::string& fallback) const {
    return has(field) ? std::string(params[field].GetString(), params[field].GetStringLength()) : fallback;
}

std::vector<std::uint64_t> EditEnv::u64_list(const char* field) const {
    std::vector<std::uint64_t> out;
    if (!has(field)) return out;
    const auto& v = params[field];
    if (v.IsArray())
        for (const auto& e : v.GetArray()) out.push_back(e.GetUint64());
    else
        out.push_back(v.GetUint64());
    return out;
}

std::vector<std::string> EditEnv::text_list(const char* field) const {
    std::vector<std::string> out;
    if (!has(field)) return out;
    const auto& v = params[field];
    if (v.IsArray())
        for (const auto& e : v.GetArray()) out.emplace_back(e.GetString(), e.GetStringLength());
    else
        out.emplace_back(v.GetString(), v.GetStringLength());
    return out;
}

std::uint64_t EditEnv::offset(const char* field) const {
    const auto& v = params[field];
    if (v.IsUint64()) return v.GetUint64();
    const std::string s = v.GetString();
    return std::stoull(s.substr(2), nullptr, 16);  // schema: 0x + 1..16 hex digits
}

Bytes EditEnv::hex_bytes(const char* field) const {
    Bytes out;
    const std::string s = params[field].GetString();
    int high = -1;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) continue;
        const int d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        if (high < 0) high = d;
        else out.push_back(static_cast<std::uint8_t>(high * 16 + d)), high = -1;
    }
    if (high >= 0) fail(field, "an odd number of hex digits");
    return out;
}

image::HsvShift EditEnv::hsv_shift() const {
    image::HsvShift s;
    s.hue_degrees = number("hue", 0);
    s.saturation = number("saturation", 1);
    s.value = number("value", 1);
    return s;
}

std::vector<unsigned> EditEnv::slots(const char* field) const {
    std::vector<unsigned> out;
    if (!has(field)) return out;
    const auto& v = params[field];
    if (!v.IsArray()) {
        // The CLI's slot list; the schema also lets spaces stand around numbers, '-' and ','.
        // They go, except between two digits ("1 2" stays an error).
        const std::string s = v.GetString();
        std::string text;
        for (std::size_t i = 0; i < s.size();) {
            if (!std::isspace(static_cast<unsigned char>(s[i]))) {
                text += s[i++];
                continue;
            }
            while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
            if (!text.empty() && i < s.size() && std::isdigit(static_cast<unsigned char>(text.back())) &&
                std::isdigit(static_cast<unsigned char>(s[i])))
                text += ' ';
        }
        try {
            return image::parse_slot_list(text);
        } catch (const Error& e) {
            fail(field, e.message());
        }
    }
    for (const auto& e : v.GetArray()) {
        if (!e.IsUint() || e.GetUint() > 255) fail(field, "slots are numbers 0-255");
        out.push_back(e.GetUint());
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<image::SlotColour> EditEnv::slot_colours(const char* field) const {
    std::vector<image::SlotColour> out;
    for (const auto& m : params[field].GetObject()) {
        const std::string text = std::string(m.name.GetString()) + "=" + m.value.GetString();
        try {
            out.push_back(image::parse_slot_colour(text));
        } catch (const Error& e) {
            fail(field, e.message());
        }
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.slot < b.slot; });
    return out;
}

std::optional<image::Rgba8> EditEnv::colour(const char* field) const {
    if (!has(field)) return std::nullopt;
    try {
        return image::parse_colour_text(params[field].GetString());
    } catch (const Error& e) {
        fail(field, e.message());
    }
}

std::filesystem::path EditEnv::path(const char* field) const { return path_at(field, SIZE_MAX); }

std::filesystem::path EditEnv::path_at(const char* field, std::size_t index) const {
    const auto& v = params[field];
    const rapidjson::Value& s = index == SIZE_MAX ? v : v[rapidjson::SizeType(index)];
    return manifest.dir / std::filesystem::path(std::string(s.GetString(), s.GetStringLength()));
}

Bytes EditEnv::read(const char* field) const { return read_path(field, path(field)); }

Bytes EditEnv::read_path(const char* field, const std::filesystem::path& p) const {
    try {
        return read_file(p);
    } catch (const Error& e) {
        fail(field, e.message() + " (" + p.string() + ")", e.kind());
    }
}

ReportOut& ReportOut::set(const char* key, rapidjson::Value v) {
    obj.AddMember(rapidjson::Value(key, a), v, a);
    return *this;
}
ReportOut& ReportOut::set(const char* key, const std::string& v) { return set(key, str(v)); }
ReportOut& ReportOut::set(const char* key, std::uint64_t v) { return set(key, rapidjson::Value(v)); }
ReportOut& ReportOut::set(const char* key, double v) {
    return set(key, std::isfinite(v) ? rapidjson::Value(v) : rapidjson::Value());
}
ReportOut& ReportOut::set(const char* key, bool v) { return set(key, rapidjson::Value(v)); }

namespace {

std::vector<std::pair<int, OpFamily>>& families() {
    static std::vector<std::pair<int, OpFamily>> all;
    return all;
}

ReportPageBuilder& page_builder() {
    static ReportPageBuilder builder = nullptr;
    return builder;
}

}  // namespace

bool register_family(int rank, OpFamily family) {
    families().emplace_back(rank, family);
    return true;
}

bool register_report_page_builder(ReportPageBuilder builder) {
    page_builder() = builder;
    return true;
}

ReportPageBuilder report_page_builder() { return page_builder(); }

const OpTable& operations() {
    static const OpTable ops = [] {
        OpTable m;
        register_common_ops(m);
        register_stadium_ops(m);
        register_stadium_anim_ops(m);
        auto more = families();
        std::sort(more.begin(), more.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [rank, family] : more) family(m);
        return m;
    }();
    return ops;
}

const OpInfo* find_operation(const std::string& name, Game game) {
    const OpInfo* any = nullptr;
    auto [lo, hi] = operations().equal_range(name);
    for (auto it = lo; it != hi; ++it) {
        if (it->second.game == game) return &it->second;
        if (!it->second.game) any = &it->second;
    }
    return any;
}

std::vector<std::string> games_of_operation(const std::string& name) {
    std::vector<std::string> out;
    auto [lo, hi] = operations().equal_range(name);
    for (auto it = lo; it != hi; ++it) out.push_back(it->second.game ? to_string(*it->second.game) : "");
    return out;
}

Touch touch(const FileState& f, std::string region, std::uint64_t begin, std::uint64_t end, bool exclusive,
            std::string what) {
    return Touch{f.display, std::move(region), begin, end, exclusive, std::move(what)};
}

std::string ranges_text(const std::vector<unsigned>& values) {
    std::string s;
    for (std::size_t i = 0; i < values.size();) {
        std::size_t j = i;
        while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
        s += (s.empty() ? "" : ",") + std::to_string(values[i]);
        if (j > i) s += "-" + std::to_string(values[j]);
        i = j + 1;
    }
    return s;
}

std::string hex_text(ByteView bytes, std::size_t max) {
    static const char* digits = "0123456789ABCDEF";
    std::string s;
    for (std::size_t i = 0; i < bytes.size() && i < max; ++i) {
        if (i) s += ' ';
        s += digits[bytes[i] >> 4];
        s += digits[bytes[i] & 15];
    }
    if (bytes.size() > max) s += " ...";
    return s;
}

}  // namespace mod::manifest::detail
