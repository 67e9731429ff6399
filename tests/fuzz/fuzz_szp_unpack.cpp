// Fuzz target: PERS-SZP unpacking of arbitrary bytes must either succeed or throw mod::Error.
#include "libmod/codec/szp.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        mod::yay0::DecodeOptions options;
        options.max_decoded = 1u << 20;
        auto out = mod::szp::unpack(mod::ByteReader(mod::ByteView(data, size), mod::Endian::big), options);
        (void)out;
    } catch (const mod::Error&) {
    }
    return 0;
}
