// Fuzz target: Yay0 decoding of arbitrary bytes must either succeed or throw mod::Error.
#include "libmod/codec/yay0.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        mod::yay0::DecodeOptions options;
        options.max_decoded = 1u << 20;
        auto out = mod::yay0::decode(mod::ByteView(data, size), options);
        (void)out;
    } catch (const mod::Error&) {
    }
    return 0;
}
