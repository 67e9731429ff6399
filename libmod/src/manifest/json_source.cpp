#include "json_source.hpp"

#include "libmod/core/rapidjson.hpp"

#include <set>
#include <vector>

namespace mod::manifest::detail {

namespace {

// Line/column of a byte offset (columns count bytes, 1-based).
SourcePos pos_of(std::string_view text, std::size_t offset) {
    SourcePos p{1, 1};
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') ++p.line, p.column = 1;
        else ++p.column;
    }
    return p;
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) out += char(cp);
    else if (cp < 0x800) out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
    else if (cp < 0x10000)
        out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)), out += char(0x80 | (cp & 0x3F));
    else
        out += char(0xF0 | (cp >> 18)), out += char(0x80 | ((cp >> 12) & 0x3F)), out += char(0x80 | ((cp >> 6) & 0x3F)),
            out += char(0x80 | (cp & 0x3F));
}

// Walks text that RapidJSON already accepted, recording where each value and key starts.
class Indexer {
public:
    Indexer(std::string_view text, std::string file, std::map<std::string, SourcePos, std::less<>>& values,
            std::map<std::string, SourcePos, std::less<>>& keys)
        : t_(text), file_(std::move(file)), values_(values), keys_(keys) {}

    void run() {
        skip_ws();
        value("", 0);
    }

private:
    void skip_ws() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) advance();
    }
    void advance() {
        if (t_[i_] == '\n') ++line_, col_ = 1;
        else ++col_;
        ++i_;
    }
    SourcePos here() const { return {line_, col_}; }

    std::uint32_t hex4() {
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = t_[i_];
            v = v * 16 + std::uint32_t(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
            advance();
        }
        return v;
    }

    std::string string_token() {
        std::string out;
        advance();  // "
        while (t_[i_] != '"') {
            if (t_[i_] != '\\') {
                out += t_[i_];
                advance();
                continue;
            }
            advance();
            const char e = t_[i_];
            advance();
            switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u': {
                std::uint32_t cp = hex4();
                if (cp >= 0xD800 && cp < 0xDC00 && t_[i_] == '\\') {
                    advance(), advance();
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4() - 0xDC00);
                }
                append_utf8(out, cp);
                break;
            }
            default: out += e; break;
            }
        }
        advance();  // "
        return out;
    }

    void value(const std::string& pointer, std::size_t depth) {
        if (depth > max_json_depth)
            throw ManifestError(ErrorKind::limit, {Diagnostic{file_, line_, col_, display_path(pointer),
                                                              "nested deeper than " + std::to_string(max_json_depth) +
                                                                  " levels"}});
        values_[pointer] = here();
        const char c = t_[i_];
        if (c == '{') {
            advance();
            skip_ws();
            std::set<std::string> seen;
            while (t_[i_] != '}') {
                const SourcePos kp = here();
                std::string key = string_token();
                const std::string child = pointer_join(pointer, key);
                if (!seen.insert(key).second)
                    throw ManifestError(ErrorKind::format, {Diagnostic{file_, kp.line, kp.column, display_path(child),
                                                                       "the field \"" + key + "\" is given twice"}});
                keys_[child] = kp;
                skip_ws();
                advance();  // :
                skip_ws();
                value(child, depth + 1);
                skip_ws();
                if (t_[i_] == ',') advance(), skip_ws();
            }
            advance();
        } else if (c == '[') {
            advance();
            skip_ws();
            std::size_t n = 0;
            while (t_[i_] != ']') {
                value(pointer_join(pointer, n++), depth + 1);
                skip_ws();
                if (t_[i_] == ',') advance(), skip_ws();
            }
            advance();
        } else if (c == '"') {
            string_token();
        } else {
            while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && t_[i_] != ' ' && t_[i_] != '\n' &&
                   t_[i_] != '\r' && t_[i_] != '\t')
                advance();
        }
    }

    std::string_view t_;
    std::string file_;
    std::map<std::string, SourcePos, std::less<>>& values_;
    std::map<std::string, SourcePos, std::less<>>& keys_;
    std::size_t i_ = 0, line_ = 1, col_ = 1;
};

std::string_view parent_of(std::string_view pointer) {
    const auto slash = pointer.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : pointer.substr(0, slash);
}

}  // namespace

JsonSource::JsonSource(std::string text, std::string file) : text_(std::move(text)), file_(std::move(file)) {
    if (text_.size() > max_manifest_bytes)
        throw ManifestError(ErrorKind::limit, {Diagnostic{file_, 0, 0, "", "a manifest is at most 16 MiB"}});
    std::size_t skip = 0;
    if (text_.size() >= 3 && text_.compare(0, 3, "\xEF\xBB\xBF") == 0) skip = 3;  // a UTF-8 byte order mark
    doc_.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(text_.data() + skip,
                                                                                      text_.size() - skip);
    if (doc_.HasParseError()) {
        const std::size_t at = skip + doc_.GetErrorOffset();
        const SourcePos p = pos_of(text_, at);
        std::string msg = rapidjson::GetParseError_En(doc_.GetParseError());
        if (!msg.empty() && msg.back() == '.') msg.pop_back();
        if (at < text_.size() && (text_[at] == '/' || text_[at] == '#')) msg += " (comments are not allowed in a manifest)";
        throw ManifestError(ErrorKind::format, {Diagnostic{file_, p.line, p.column, "", "not valid JSON: " + msg}});
    }
    Indexer idx(std::string_view(text_).substr(skip), file_, values_, keys_);
    idx.run();
    if (skip)  // positions were counted after the mark: it sits on line 1 and is 3 bytes wide
        for (auto* m : {&values_, &keys_})
            for (auto& [k, p] : *m)
                if (p.line == 1) p.column += 3;
}

SourcePos JsonSource::value_pos(std::string_view pointer) const {
    for (std::string_view p = pointer;; p = parent_of(p)) {
        if (auto it = values_.find(p); it != values_.end()) return it->second;
        if (p.empty()) return {};
    }
}

SourcePos JsonSource::key_pos(std::string_view pointer) const {
    if (auto it = keys_.find(pointer); it != keys_.end()) return it->second;
    return value_pos(pointer);
}

Diagnostic JsonSource::at(std::string_view pointer, std::string message, bool key) const {
    const SourcePos p = key ? key_pos(pointer) : value_pos(pointer);
    return Diagnostic{file_, p.line, p.column, display_path(pointer), std::move(message)};
}

std::vector<std::string> pointer_tokens(std::string_view pointer) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < pointer.size()) {
        ++i;  // '/'
        std::string token;
        while (i < pointer.size() && pointer[i] != '/') {
            if (pointer[i] == '~' && i + 1 < pointer.size()) {
                token += pointer[i + 1] == '1' ? '/' : '~';
                i += 2;
            } else {
                token += pointer[i++];
            }
        }
        out.push_back(std::move(token));
    }
    return out;
}

std::string display_path(std::string_view pointer) {
    std::string out;
    for (const auto& token : pointer_tokens(pointer)) {
        const bool numeric = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
        if (numeric) out += "[" + token + "]";
        else out += (out.empty() ? "" : ".") + token;
    }
    return out;
}

std::string pointer_join(std::string_view pointer, std::string_view key) {
    std::string out(pointer);
    out += '/';
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

std::string pointer_join(std::string_view pointer, std::size_t index) {
    return std::string(pointer) + "/" + std::to_string(index);
}

}  // namespace mod::manifest::detail
