#pragma once
// Reading fields of a result or report object that may be missing or of another type: what the
// report page and the shadowed-edit check (shadows.cpp) read back. Never throws. Internal to the
// manifest layer.
#include "libmod/core/rapidjson.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace mod::manifest::detail {

// The member `key` of object `o`, or nullptr (also when `o` is not an object).
const rapidjson::Value* member(const rapidjson::Value& o, const char* key);
// The member as a string, else `fallback`.
std::string text_of(const rapidjson::Value& o, const char* key, const std::string& fallback = {});
// The member as an unsigned 64-bit integer, else nullopt.
std::optional<std::uint64_t> u64_of(const rapidjson::Value& o, const char* key);
// The member as a number, else nullopt.
std::optional<double> number_of(const rapidjson::Value& o, const char* key);

}  // namespace mod::manifest::detail
