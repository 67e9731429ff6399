// Fuzz target: TotemTech name tables (.NGC/.NPS/.NPC text). Parsing arbitrary bytes must
// succeed or throw mod::Error; a table that parses must encode to exactly its bytes, find()
// every entry's first ID, and still encode its original lines first after add().
#include "libmod/totem/names.hpp"

#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    try {
        auto table = mod::totem::NameTable::parse(mod::ByteReader(input, mod::Endian::big, "fuzz", "names"));
        if (table.encode() != mod::Bytes(input.begin(), input.end())) std::abort();
        for (const auto& e : table.entries()) {
            if (!table.find(e.id) || !table.contains(e.id) || e.offset >= size + 1) std::abort();
        }
        try {
            if (table.add("DB:>FUZZ>ADDED.TMESH")) {
                const auto grown = table.encode();
                if (grown.size() <= size) std::abort();
                if (!table.find(mod::totem::name_id("DB:>FUZZ>ADDED.TMESH"))) std::abort();
            }
        } catch (const mod::Error&) {  // a CRC collision with a listed name: conflict
        }
    } catch (const mod::Error&) {
    }
    return 0;
}
