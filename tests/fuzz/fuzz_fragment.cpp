// Fuzz target: FRAGMENT parsing, the model structure walk, the relocation cross-check and a
// pointer-aware edit must either succeed or throw mod::Error. Invariants: encode(parse(x)) == x,
// and an edited fragment parses again with the same number of relocations.
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model_walk.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mod::stadium;
    const mod::ByteView input(data, size);
    Fragment f;
    try {
        f = parse_fragment(mod::ByteReader(input, mod::Endian::big, "fuzz", "fragment"));
    } catch (const mod::Error&) {
        return 0;
    }
    const mod::Bytes again = encode_fragment(f);
    if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
    try {
        cross_check(f, walk_model(f));
    } catch (const mod::Error&) {
    }
    try {
        FragmentImage img(f);
        const std::uint32_t at = (0x20 + (size % 64) * 4) < img.body_size() ? 0x20 + std::uint32_t(size % 64) * 4 : img.body_size() & ~3u;
        img.insert(at, mod::Bytes(8, 0));
        const std::size_t relocs = img.relocs().size();
        mod::Bytes edited = encode_fragment(img.build());
        Fragment g = parse_fragment(mod::ByteReader(edited, mod::Endian::big, "fuzz", "fragment"));
        if (g.relocs.size() != relocs) std::abort();
    } catch (const mod::Error&) {
    }
    return 0;
}
