#include "json_fields.hpp"

namespace mod::manifest::detail {

const rapidjson::Value* member(const rapidjson::Value& o, const char* key) {
    if (!o.IsObject()) return nullptr;
    const auto it = o.FindMember(key);
    return it == o.MemberEnd() ? nullptr : &it->value;
}

std::string text_of(const rapidjson::Value& o, const char* key, const std::string& fallback) {
    const rapidjson::Value* v = member(o, key);
    return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : fallback;
}

std::optional<std::uint64_t> u64_of(const rapidjson::Value& o, const char* key) {
    const rapidjson::Value* v = member(o, key);
    if (v && v->IsUint64()) return v->GetUint64();
    return std::nullopt;
}

std::optional<double> number_of(const rapidjson::Value& o, const char* key) {
    const rapidjson::Value* v = member(o, key);
    if (v && v->IsNumber()) return v->GetDouble();
    return std::nullopt;
}

}  // namespace mod::manifest::detail
