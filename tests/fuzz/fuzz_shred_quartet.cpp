// Fuzz target: the SHRED quartet metadata file (shred-quartet/1). The input replaces the
// metadata file of the sample's first character quartet (skater01: its MMP, MGP and SCP come
// from the sample forge, built once); read_quartet must succeed or throw mod::Error, and a
// model that reads must write back the same four files.
#include "libmod/sample/shred.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/quartet.hpp"

#include <cstdlib>

namespace {
const mod::shred::QuartetFiles& sample_files() {
    static const mod::shred::QuartetFiles files = [] {
        const auto pak = mod::shred::read_pak(mod::sample::shred_character_pak(), "sample");
        const auto q = mod::shred::find_quartet(pak, "skater01");
        if (!q) std::abort();
        return mod::shred::quartet_files(pak, *q);
    }();
    return files;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    mod::shred::QuartetFiles files = sample_files();
    files.meta.assign(data, data + size);
    try {
        const auto model = mod::shred::read_quartet(files, "fuzz");
        const auto back = mod::shred::write_quartet(model);
        if (back.meta != files.meta || back.mmp != files.mmp || back.mgp != files.mgp || back.scp != files.scp)
            std::abort();
    } catch (const mod::Error&) {
    }
    return 0;
}
