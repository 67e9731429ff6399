// Fuzz target: SHRED PAKs (RIDE layout). Reading arbitrary bytes must succeed or throw
// mod::Error; a PAK that reads must give back its own bytes from an unchanged repack, every
// entry's data found through the table alone must be the reader's, the extraction plan must be
// a set of distinct safe relative paths (or a mod::Error naming the entry), and find_quartets
// must only name entries that exist.
#include "libmod/core/folder.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/pak_extract.hpp"
#include "libmod/shred/quartet.hpp"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    mod::shred::Pak pak;
    try {
        pak = mod::shred::read_pak(mod::Bytes(input.begin(), input.end()), "fuzz");
    } catch (const mod::Error&) {
        return 0;
    }
    for (std::size_t i = 0; i < pak.entries.size(); ++i) {
        const mod::ByteView d = pak.data(i);
        const mod::ByteView again = mod::shred::pak_entry_data(input, i, "fuzz");
        if (d.size() != again.size() || (d.size() && std::memcmp(d.data(), again.data(), d.size()) != 0)) std::abort();
    }
    try {
        const std::vector<std::optional<mod::Bytes>> none(pak.entries.size());
        if (mod::shred::repack_pak(pak, none) != pak.raw) std::abort();
    } catch (const mod::Error&) {
    }
    for (const auto& q : mod::shred::find_quartets(pak)) {
        const std::size_t n = pak.entries.size();
        if (q.meta >= n || q.mmp >= n || q.mgp >= n || q.scp >= n) std::abort();
    }
    try {
        const auto files = mod::shred::pak_extract_files(pak);
        if (files.size() != pak.entries.size()) std::abort();
        std::vector<mod::FolderFile> plan;
        for (std::size_t i = 0; i < files.size(); ++i) plan.push_back({files[i], "entry"});
        mod::check_folder_plan(plan);  // names only: the planner's paths are always valid
        const std::set<std::string> distinct(files.begin(), files.end());
        if (distinct.size() != files.size() || distinct.count(mod::shred::pak_index_file_name)) std::abort();
    } catch (const mod::Error&) {
    }
    return 0;
}
