// Fuzz target: BPS patches of arbitrary bytes must apply, or throw mod::Error.
// The input is a patch. It is described as is, then re-sealed (patch CRC recomputed) so that
// mutations get past the CRC to the action checks, and applied to a zero-filled source of the
// declared size (the seeds in fuzz_bps_apply.seeds are made against such a zero file); what
// apply makes, first_difference must reproduce exactly (and otherwise answer or throw).
#include "libmod/codec/bps.hpp"
#include "libmod/core/hash.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    mod::bps::ApplyOptions options;
    options.max_target = 1u << 20;
    options.ignore_source_crc = true;
    try {
        (void)mod::bps::describe(mod::ByteReader(input, mod::Endian::little, "fuzz", "bps"), options);
    } catch (const mod::Error&) {
    }
    if (size < mod::bps::footer_size) return 0;
    mod::Bytes sealed(input.begin(), input.end());
    mod::endian::store_le32(sealed.data() + size - 4, mod::crc32(mod::ByteView(sealed).first(size - 4)));
    try {
        const auto info = mod::bps::read_info(mod::ByteReader(sealed, mod::Endian::little));
        if (info.source_size > (1u << 20)) return 0;
        const mod::Bytes source(static_cast<std::size_t>(info.source_size), 0);
        const mod::ByteReader reader(sealed, mod::Endian::little, "fuzz", "bps");
        mod::Bytes result;
        bool applied = false;
        try {
            result = mod::bps::apply(sealed, source, options);
            applied = true;
        } catch (const mod::Error&) {
        }
        // first_difference agrees with apply: the result apply made is reproduced exactly.
        if (applied && mod::bps::first_difference(reader, source, result, options).has_value()) std::abort();
        // And against any other bytes it answers or throws mod::Error (never reads out of bounds).
        if (!applied && info.target_size <= options.max_target)
            (void)mod::bps::first_difference(reader, source, mod::Bytes(static_cast<std::size_t>(info.target_size), 0), options);
    } catch (const mod::Error&) {
    }
    return 0;
}
