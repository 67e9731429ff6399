#pragma once
// Internal to the model builder (builder.cpp, builder_layout.cpp): big-endian appenders for the
// layout script and the usage error every builder refusal raises.
#include "libmod/stadium/builder.hpp"

#include <initializer_list>
#include <string>

namespace mod::stadium::builder_bytes {

[[noreturn]] inline void usage(const std::string& message) {
    throw Error(ErrorKind::usage, message, {}, no_offset, "model_builder");
}
inline void put_cmd(Bytes& b, std::initializer_list<std::uint8_t> bytes) { b.insert(b.end(), bytes); }
inline void put_u16(Bytes& b, std::uint16_t v) {
    b.resize(b.size() + 2);
    endian::store_be16(&b[b.size() - 2], v);
}
inline void put_u32(Bytes& b, std::uint32_t v) {
    put_u16(b, std::uint16_t(v >> 16));
    put_u16(b, std::uint16_t(v));
}
inline void put_vec(Bytes& b, Vec3s v) {
    put_u16(b, std::uint16_t(v.x));
    put_u16(b, std::uint16_t(v.y));
    put_u16(b, std::uint16_t(v.z));
}

}  // namespace mod::stadium::builder_bytes
