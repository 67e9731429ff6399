// Fuzz target: SHRED skinning streams, the mesh scan, PAK reading and quartet reading on
// arbitrary bytes must either succeed or throw mod::Error (scan never throws). A decoded
// stream must re-encode to exactly the bytes it came from.
#include "libmod/shred/pak.hpp"
#include "libmod/shred/quartet.hpp"
#include "libmod/shred/scan.hpp"
#include "libmod/shred/stream.hpp"

#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    mod::ByteView view(data, size);
    try {
        mod::ByteReader r(view, mod::Endian::big, "fuzz", "stream");
        auto s = mod::shred::decode_stream(r);
        auto back = mod::shred::encode_stream(s);
        if (back.size() > size || std::memcmp(back.data(), data, back.size()) != 0) std::abort();
    } catch (const mod::Error&) {
    }
    // Streams inside the input (a PAK, a metadata file, a concatenation).
    for (const auto& m : mod::shred::scan(view, "fuzz")) {
        if (!m.error.empty()) continue;
        mod::ByteReader r(view, mod::Endian::big, "fuzz");
        auto s = mod::shred::decode_stream(r.sub(m.stream_offset, size - m.stream_offset));
        auto back = mod::shred::encode_stream(s);
        if (std::memcmp(back.data(), data + m.stream_offset, back.size()) != 0) std::abort();
    }
    try {
        auto pak = mod::shred::read_pak(mod::Bytes(data, data + size), "fuzz");
        for (const auto& q : mod::shred::find_quartets(pak)) {
            try {
                auto files = mod::shred::quartet_files(pak, q);
                auto model = mod::shred::read_quartet(files, q.base);
                auto again = mod::shred::write_quartet(model);
                if (again.meta != files.meta || again.mmp != files.mmp) std::abort();
            } catch (const mod::Error&) {
            }
        }
    } catch (const mod::Error&) {
    }
    return 0;
}
