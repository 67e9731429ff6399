#include "libmod/sample/payload.hpp"

namespace mod::sample {

namespace {
std::uint64_t next(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
}  // namespace

Bytes synthetic_payload(std::size_t size, std::uint64_t seed) {
    ByteWriter w(Endian::big);
    w.reserve(size + 64);
    std::uint64_t rng = seed;
    while (w.size() < size) {
        switch (next(rng) % 4) {
        case 0:  // zero padding
            w.fill(16 + next(rng) % 200, 0);
            break;
        case 1: {  // RGBA5551 gradient rows
            auto base = static_cast<std::uint16_t>(next(rng));
            for (unsigned i = 0, n = 32 + static_cast<unsigned>(next(rng) % 96); i < n; ++i)
                w.u16(static_cast<std::uint16_t>(base + (i / 4) * 0x42) | 1);
            break;
        }
        case 2: {  // 16-byte vertices: s16 x,y,z, flag, s16 s,t, rgba
            for (unsigned i = 0, n = 4 + static_cast<unsigned>(next(rng) % 24); i < n; ++i) {
                w.u16(static_cast<std::uint16_t>(next(rng) % 512));
                w.u16(static_cast<std::uint16_t>(next(rng) % 512));
                w.u16(static_cast<std::uint16_t>(next(rng) % 64));
                w.u16(0);
                w.u16(static_cast<std::uint16_t>((i % 8) << 10));
                w.u16(static_cast<std::uint16_t>((i / 8) << 10));
                w.u32(0xFFFFFFFFu);
            }
            break;
        }
        default: {  // display-list-like command pairs
            for (unsigned i = 0, n = 4 + next(rng) % 16; i < n; ++i) {
                static const std::uint32_t ops[] = {0x01000000, 0x06000000, 0x05000000, 0xDE000000, 0xE7000000};
                w.u32(ops[next(rng) % 5] | static_cast<std::uint32_t>(next(rng) % 0x40) << 1);
                w.u32(0x8FF00000u | static_cast<std::uint32_t>(next(rng) % 0x20000) * 8);
            }
        }
        }
    }
    Bytes out = w.take();
    out.resize(size);
    return out;
}

}  // namespace mod::sample
