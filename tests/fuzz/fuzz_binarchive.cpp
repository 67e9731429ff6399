// Fuzz target: a BinArchive region (header, descriptors, entries) must parse, decode and
// repack or throw mod::Error. Invariant: repacking with no change reproduces the region.
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/model_walk.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mod::stadium;
    Archive a;
    try {
        a = parse_archive(mod::ByteReader(mod::ByteView(data, size), mod::Endian::big, "fuzz", "archive"));
    } catch (const mod::Error&) {
        return 0;
    }
    for (std::size_t i = 0; i < a.entries.size() && i < 64; ++i) {
        try {
            DecodedEntry d = decode_entry(a, i);
            if (d.is_fragment) {
                Fragment f = parse_fragment(mod::ByteReader(d.content, mod::Endian::big, "fuzz", "fragment"));
                cross_check(f, walk_model(f));
            }
        } catch (const mod::Error&) {
        }
    }
    try {
        RepackOptions opt;
        opt.threads = 1;
        opt.rom_end_limit = UINT32_MAX;
        if (repack_archive(a, {}, opt).region != a.region) std::abort();
    } catch (const mod::Error&) {
    }
    return 0;
}
