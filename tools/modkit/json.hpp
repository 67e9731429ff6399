#pragma once
// Minimal JSON emission for --json output: a thin wrapper over RapidJSON's PrettyWriter
// writing to stdout, so every command produces a well-formed document.

#include "libmod/core/rapidjson.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace modkit {

class Json {
public:
    Json() : writer_(buffer_) {}
    ~Json();  // prints the document to stdout with a trailing newline

    Json& begin_object() { writer_.StartObject(); return *this; }
    Json& end_object() { writer_.EndObject(); return *this; }
    Json& begin_array() { writer_.StartArray(); return *this; }
    Json& end_array() { writer_.EndArray(); return *this; }
    Json& key(std::string_view k) { writer_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size())); return *this; }
    Json& value(std::string_view v) { writer_.String(v.data(), static_cast<rapidjson::SizeType>(v.size())); return *this; }
    Json& value(const char* v) { return value(std::string_view(v)); }
    Json& value(const std::string& v) { return value(std::string_view(v)); }
    Json& value(bool v) { writer_.Bool(v); return *this; }
    Json& value(double v) { writer_.Double(v); return *this; }
    Json& value(std::int64_t v) { writer_.Int64(v); return *this; }
    Json& value(std::uint64_t v) { writer_.Uint64(v); return *this; }
    Json& value(int v) { writer_.Int(v); return *this; }
    Json& value(unsigned v) { writer_.Uint(v); return *this; }
    Json& null() { writer_.Null(); return *this; }
    template <class T>
    Json& field(std::string_view k, const T& v) { key(k); return value(v); }

private:
    rapidjson::StringBuffer buffer_;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> writer_;
};

}  // namespace modkit
