// Fuzz target: F3DEX2 display-list decoding and walking of arbitrary bytes. Decoding either
// succeeds or throws mod::Error; a decoded list must re-encode to the bytes it came from; the
// walker (identity vertex mapping, lists resolved among the decoded ones) must fail cleanly.
#include "libmod/n64/gbi.hpp"
#include "libmod/n64/gbi_walk.hpp"

#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mod::n64::gbi;
    std::vector<DisplayList> lists;
    mod::ByteReader reader(mod::ByteView(data, size), mod::Endian::big, "fuzz", "dl");
    try {
        while (!reader.at_end() && lists.size() < 64) {
            std::size_t start = reader.tell();
            DecodeListOptions o;
            o.max_commands = 4096;
            lists.push_back(decode_list(reader, o));
            mod::Bytes again = encode_list(lists.back());
            if (again.size() != reader.tell() - start || std::memcmp(again.data(), data + start, again.size()) != 0)
                std::abort();  // round trip broken
        }
    } catch (const mod::Error&) {
    }
    try {
        WalkOptions w;
        w.vertex_index = [](std::uint32_t a) -> std::optional<std::uint32_t> {
            if (a & 15) return std::nullopt;
            return (a & 0xFFFF) / 16;
        };
        w.vertex_count = 4096;
        w.max_steps = 1u << 16;
        w.resolve_call = [&](std::uint32_t a) -> const DisplayList* {
            return lists.empty() ? nullptr : &lists[a % lists.size()];
        };
        walk_lists(lists, w);
    } catch (const mod::Error&) {
    }
    return 0;
}
