// Fuzz target: the scene wire format (scene_wire.hpp), which the contained import decodes from
// its child process. Any bytes must decode to a scene or end in a mod::Error, never a crash or
// an allocation beyond the input's size; a scene that decodes must encode back to the same bytes
// (the format has exactly one encoding per scene).
#include "libmod/core/error.hpp"
#include "libmod/scene/scene_wire.hpp"

#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    mod::scene::Scene s;
    try {
        s = mod::scene::decode_wire(mod::ByteView(data, size), "fuzz");
    } catch (const mod::Error&) {
        return 0;
    }
    const mod::Bytes again = mod::scene::encode_wire(s);
    if (again.size() != size || std::memcmp(again.data(), data, size) != 0) std::abort();
    return 0;
}
