// Fuzz target: TotemTech LOD and NODE payloads in either byte order must decode or throw
// mod::Error; a LOD that decodes must re-encode to exactly the input.
#include "libmod/totem/node.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    for (mod::Endian e : {mod::Endian::big, mod::Endian::little}) {
        try {
            const auto lod = mod::totem::decode_lod(mod::ByteReader(input, e, "fuzz", "lod"));
            if (mod::totem::encode_lod(lod, e) != mod::Bytes(input.begin(), input.end())) std::abort();
        } catch (const mod::Error&) {
        }
        try {
            (void)mod::totem::decode_node_links(mod::ByteReader(input, e, "fuzz", "node"));
        } catch (const mod::Error&) {
        }
    }
    return 0;
}
