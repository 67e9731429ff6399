#include "libmod/totem/names.hpp"

#include "libmod/core/hash.hpp"

#include <charconv>
#include <cstdio>

namespace mod::totem {

std::int32_t name_id(std::string_view name) noexcept {
    auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(name.data()), name.size());
    return static_cast<std::int32_t>(crc32(bytes));
}

std::string hash_text(std::int32_t id) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(static_cast<std::uint32_t>(id)));
    return buf;
}

std::optional<std::int32_t> parse_id(std::string_view text) noexcept {
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        std::uint32_t v = 0;
        auto [p, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
        if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
        return static_cast<std::int32_t>(v);
    }
    std::int32_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 10);
    if (ec != std::errc() || p != text.data() + text.size() || text.empty()) return std::nullopt;
    return v;
}

std::int32_t id_from_text(const NameTable& names, std::string_view text) {
    const std::int32_t id = name_id(text);
    if (names.find(id)) return id;
    return parse_id(text).value_or(id);
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t'; }

}  // namespace

NameTable NameTable::parse(const ByteReader& text) {
    NameTable t;
    ByteView data = text.data();
    t.original_.assign(data.begin(), data.end());
    std::size_t pos = 0, line_no = 0;
    bool newline_known = false;
    while (pos < data.size()) {
        std::size_t end = pos;
        while (end < data.size() && data[end] != '\n') ++end;
        const bool terminated = end < data.size();
        std::size_t content_end = end;
        const bool crlf = content_end > pos && data[content_end - 1] == '\r';
        if (crlf) --content_end;
        // An empty line or a NUL ends the table (what Chum World reads; the rest is kept).
        if (content_end == pos || data[pos] == 0) break;
        if (!newline_known && terminated) {
            t.newline_ = crlf ? "\r\n" : "\n";
            newline_known = true;
        }
        std::string_view line(reinterpret_cast<const char*>(data.data() + pos), content_end - pos);
        const std::string path = index_path(".line", line_no);
        const std::string where = join_path(text.path().empty() ? "names" : text.path(), path);
        std::size_t sp = 0;
        while (sp < line.size() && !is_space(line[sp])) ++sp;
        if (sp == line.size())
            text.fail_at_path(pos, path, "expected `ID \"name\"`, found no space");
        std::string_view id_text = line.substr(0, sp), quoted = line.substr(sp + 1);
        std::int32_t id = 0;
        auto [p, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id, 10);
        if (ec != std::errc() || p != id_text.data() + id_text.size() || id_text.empty())
            text.fail_at_path(pos, path, "ID \"" + std::string(id_text) +
                                             "\" is not a signed 32-bit decimal number");
        if (quoted.size() < 2 || quoted.front() != '"' || quoted.back() != '"')
            text.fail_at_path(pos + sp + 1, path, "name is not enclosed in double quotes");
        NameEntry e{id, std::string(quoted.substr(1, quoted.size() - 2)), text.absolute(pos)};
        if (name_id(e.name) != id)
            t.findings_.push_back(where + ": ID " + std::to_string(id) + " is not the CRC-32 of \"" +
                                  e.name + "\" (" + std::to_string(name_id(e.name)) + ")");
        // A repeated ID: the later line wins, as Chum World's reader (HashMap insert) has it;
        // both readings are reported.
        if (auto [it, fresh] = t.index_.emplace(id, t.entries_.size()); !fresh) {
            t.findings_.push_back(where + ": ID " + std::to_string(id) + " listed again: \"" + e.name +
                                  "\" (used, the last line wins as in Chum World) replaces \"" +
                                  t.entries_[it->second].name + "\" at byte " +
                                  std::to_string(t.entries_[it->second].offset) + " (the first-line reading)");
            it->second = t.entries_.size();
        }
        t.entries_.push_back(std::move(e));
        pos = terminated ? end + 1 : end;
        t.body_end_ = pos;
        t.last_line_terminated_ = terminated;
        ++line_no;
    }
    return t;
}

Bytes NameTable::encode() const {
    if (added_ == 0) return original_;
    Bytes out(original_.begin(), original_.begin() + static_cast<std::ptrdiff_t>(body_end_));
    auto put = [&](std::string_view s) { out.insert(out.end(), s.begin(), s.end()); };
    if (!last_line_terminated_) put(newline_);
    for (std::size_t i = entries_.size() - added_; i < entries_.size(); ++i) {
        put(std::to_string(entries_[i].id));
        put(" \"");
        put(entries_[i].name);
        put("\"");
        put(newline_);
    }
    out.insert(out.end(), original_.begin() + static_cast<std::ptrdiff_t>(body_end_), original_.end());
    return out;
}

std::optional<std::string_view> NameTable::find(std::int32_t id) const {
    auto it = index_.find(id);
    if (it == index_.end()) return std::nullopt;
    return std::string_view(entries_[it->second].name);
}

std::string NameTable::display(std::int32_t id) const {
    if (auto n = find(id)) return std::string(*n);
    return hash_text(id);
}

bool NameTable::add(std::string_view name) {
    const std::int32_t id = name_id(name);
    if (auto existing = find(id)) {
        if (*existing == name) return false;
        throw Error(ErrorKind::conflict, "name \"" + std::string(name) + "\" has the same CRC-32 (" +
                                             std::to_string(id) + ") as \"" + std::string(*existing) + "\"");
    }
    if (name.find_first_of("\"\n\r") != std::string_view::npos || (!name.empty() && name[0] == '\0'))
        throw Error(ErrorKind::usage, "name \"" + std::string(name) +
                                          "\" cannot be written to a name table (quote, line break or NUL)");
    index_.emplace(id, entries_.size());
    entries_.push_back({id, std::string(name), 0});
    ++added_;
    return true;
}

}  // namespace mod::totem
