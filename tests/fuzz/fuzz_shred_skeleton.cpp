// Fuzz target: SHRED SCP skeletons. Arbitrary bytes must decode or throw mod::Error; a
// skeleton that decodes must encode back to exactly its bytes, and its bones must satisfy the
// documented checks (parents in range and not themselves, names found by find()).
#include "libmod/shred/skeleton.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    try {
        const auto s = mod::shred::decode_skeleton(mod::ByteReader(input, mod::Endian::big, "fuzz", "scp"));
        if (mod::shred::encode_skeleton(s) != mod::Bytes(input.begin(), input.end())) std::abort();
        if (s.bones.size() > mod::shred::max_bones) std::abort();
        for (std::size_t i = 0; i < s.bones.size(); ++i) {
            const auto& b = s.bones[i];
            if (b.parent != mod::shred::no_parent && (b.parent >= s.bones.size() || b.parent == i)) std::abort();
            const auto found = s.find(b.name);
            if (!found || s.bones[*found].name != b.name) std::abort();
            (void)mod::shred::affine_layout(b.matrix());
        }
    } catch (const mod::Error&) {
    }
    return 0;
}
