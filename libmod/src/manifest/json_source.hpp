#pragma once
// A JSON document that remembers where each value and key is in its text, so that every
// problem found later (schema, planning, an edit's own checks) can name file:line:column.
// Internal to the manifest layer.

#include "libmod/manifest/diagnostic.hpp"

#include "libmod/core/rapidjson.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mod::manifest::detail {

struct SourcePos {
    std::size_t line = 0, column = 0;  // 1-based
};

inline constexpr std::size_t max_manifest_bytes = 16u << 20;
inline constexpr std::size_t max_json_depth = 64;

class JsonSource {
public:
    // Parses `text` (UTF-8, no comments, no NaN, no duplicate keys, depth <= 64). Throws
    // ManifestError(format) with the syntax error's line:column.
    JsonSource(std::string text, std::string file);

    const rapidjson::Document& doc() const noexcept { return doc_; }
    const std::string& file() const noexcept { return file_; }

    // Position of the value at a JSON pointer ("/edits/1/mode"); the nearest enclosing value
    // when the pointer names nothing (e.g. a missing field).
    SourcePos value_pos(std::string_view pointer) const;
    // Position of the key of the member at `pointer` (its value's position when it has none).
    SourcePos key_pos(std::string_view pointer) const;

    // A diagnostic located at the pointer's value (or key).
    Diagnostic at(std::string_view pointer, std::string message, bool key = false) const;

private:
    std::string text_;
    std::string file_;
    rapidjson::Document doc_;
    std::map<std::string, SourcePos, std::less<>> values_, keys_;
};

// A JSON string value holding a copy of `s`.
inline rapidjson::Value json_str(rapidjson::Document::AllocatorType& a, const std::string& s) {
    return rapidjson::Value(s.c_str(), rapidjson::SizeType(s.size()), a);
}

// The unescaped tokens of a JSON pointer: "/edits/1/a~1b" -> {"edits", "1", "a/b"}.
std::vector<std::string> pointer_tokens(std::string_view pointer);

// "/edits/1/mode" -> "edits[1].mode" (array indices in brackets, keys joined by dots).
std::string display_path(std::string_view pointer);
// Appends a key or index to a JSON pointer (escaping ~ and /).
std::string pointer_join(std::string_view pointer, std::string_view key);
std::string pointer_join(std::string_view pointer, std::size_t index);

}  // namespace mod::manifest::detail
