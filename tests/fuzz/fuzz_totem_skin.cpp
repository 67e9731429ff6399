// Fuzz target: a TotemTech SKIN payload in either byte order must decode or throw mod::Error;
// whatever decodes must re-encode to the same bytes and pass check_skin without throwing.
#include "libmod/totem/skin.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    for (mod::Endian e : {mod::Endian::big, mod::Endian::little}) {
        try {
            mod::totem::Skin skin = mod::totem::decode_skin(mod::ByteReader(input, e));
            if (mod::totem::encode_skin(skin, e) != mod::Bytes(input.begin(), input.end())) std::abort();
            (void)mod::totem::check_skin(skin, [](std::int32_t) { return std::optional<mod::totem::MeshExtent>(); });
        } catch (const mod::Error&) {
        }
    }
    return 0;
}
