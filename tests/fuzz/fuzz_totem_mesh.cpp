// Fuzz target: TotemTech MESH payloads in either byte order must decode or throw mod::Error;
// whatever decodes must re-encode to exactly the input, and check_mesh / build_triangles must
// run on it without throwing anything but mod::Error.
#include "libmod/totem/mesh.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    for (mod::Endian e : {mod::Endian::big, mod::Endian::little}) {
        try {
            const auto mesh = mod::totem::decode_mesh(mod::ByteReader(input, e, "fuzz", "mesh"));
            if (mod::totem::encode_mesh(mesh, e) != mod::Bytes(input.begin(), input.end())) std::abort();
            (void)mod::totem::check_mesh(mesh);
            (void)mod::totem::build_triangles(mesh);
        } catch (const mod::Error&) {
        }
    }
    return 0;
}
