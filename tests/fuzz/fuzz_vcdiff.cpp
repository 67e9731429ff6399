// Fuzz target: VCDIFF patches (RFC 3284, xdelta3's LZMA secondary and Adler-32). The input is a
// patch; describe() walks it without a source, then it is applied to the zero-filled 64 KiB
// source the seeds were made against (make_seeds.sh). Both must succeed or throw mod::Error,
// never allocate for more than the (lowered) target limit; a result must have the size
// describe() gave and describe's counts must add up to it.
#include "libmod/codec/vcdiff.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    mod::vcdiff::ApplyOptions options;
    options.max_target = 1u << 20;
    mod::vcdiff::Info described;
    try {
        described = mod::vcdiff::describe(mod::ByteReader(input, mod::Endian::big, "fuzz", "vcdiff"), options);
        if (described.add_bytes + described.run_bytes + described.copy_bytes != described.target_size) std::abort();
    } catch (const mod::Error&) {
        return 0;
    }
    static const mod::Bytes source(65536, 0);
    try {
        mod::vcdiff::Info info;
        const mod::Bytes out = mod::vcdiff::apply(input, source, options, &info);
        if (out.size() != described.target_size || info.target_size != described.target_size) std::abort();
    } catch (const mod::Error&) {
    }
    return 0;
}
