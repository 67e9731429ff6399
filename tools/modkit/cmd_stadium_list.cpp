// modkit stadium list: the model archive's entries. Its own file because it runs in the lean
// `modkit` front (CMakeLists.txt, doc/architecture.md "Two executables"); the other stadium
// subcommands (cmd_stadium.cpp) run in modkit-scene. The group's registrations are merged.
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/model_walk.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/stadium/species.hpp"

#include <cstdio>
#include <optional>

namespace modkit {
namespace {

namespace fs = std::filesystem;
using namespace mod::stadium;
namespace n64 = mod::n64;

struct EntrySummary {
    DecodedEntry decoded;
    std::optional<Fragment> fragment;
    std::optional<ModelMap> model;
    std::string problem;  // why the fragment or model could not be read
};

EntrySummary summarise(const Archive& a, std::size_t i) {
    EntrySummary s;
    s.decoded = decode_entry(a, i);
    if (!s.decoded.is_fragment) return s;
    const std::string path = mod::index_path("archive", i) + ".fragment";
    try {
        s.fragment = parse_fragment(mod::ByteReader(s.decoded.content, mod::Endian::big, a.file, path));
        s.model = walk_model(*s.fragment, path);
    } catch (mod::Error& e) {
        locate_entry_error(e, a, i, s.decoded);
        s.problem = e.what();
    }
    return s;
}

std::uint32_t total_textures(const ModelMap& m) {
    std::uint32_t n = 0;
    for (const auto& t : m.tables) n += static_cast<std::uint32_t>(t.textures.size());
    return n;
}
std::uint32_t total_palettes(const ModelMap& m) {
    std::uint32_t n = 0;
    for (const auto& t : m.tables) n += static_cast<std::uint32_t>(t.palettes.size());
    return n;
}
std::uint32_t total_vertices(const ModelMap& m) {
    std::uint32_t n = 0;
    for (const auto& t : m.tables) n += t.vertex_count;
    return n;
}

int stadium_list(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "rom");
    n64::ByteOrder order{};
    auto archive = read_rom_archive(in, &order);  // the archive region only (issue 31)
    std::vector<EntrySummary> rows;
    for (std::size_t i = 0; i < archive.entries.size(); ++i) rows.push_back(summarise(archive, i));
    for (const auto& note : audit_archive(archive)) warn(note);
    if (g.json) {
        Json j;
        j.begin_object()
            .field("file", in.string())
            .field("byte_order", n64::to_string(order))
            .field("archive_offset", std::uint64_t(model_archive_rom))
            .field("flags", unsigned(archive.header.flags))
            .field("fragment_id", unsigned(archive.header.fragment_id))
            .field("total_size", archive.header.total_size)
            .field("count", archive.header.count)
            .key("entries").begin_array();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& d = archive.entries[i];
            const auto& r = rows[i];
            j.begin_object()
                .field("index", std::uint64_t(i))
                .field("model", std::uint64_t(i))  // the MODEL every command and manifest takes
                .field("model_id", std::uint64_t(i + 1))
                .field("offset", d.offset)
                .field("stored_size", d.size)
                .field("cache", d.cache)
                .field("unknown", d.unknown)
                .field("kind", to_string(r.decoded.kind))
                .field("decompressed_size", std::uint64_t(r.decoded.content.size()))
                .field("is_fragment", r.decoded.is_fragment);
            if (r.model)
                if (const auto sp = mod::stadium::entry_species(i, r.model->root.model_id)) j.field("species", *sp);
            if (r.fragment) {
                j.field("relocations", std::uint64_t(r.fragment->relocs.size()))
                    .field("link_base", r.fragment->link_base());
            }
            if (r.model) {
                j.key("root").begin_object()
                    .field("offset", r.model->root.offset)
                    .field("model_id", unsigned(r.model->root.model_id))
                    .field("layouts", unsigned(r.model->root.layout_count))
                    .field("animations", unsigned(r.model->root.animation_count))
                    .field("aux_animations", unsigned(r.model->root.aux_animation_count))
                    .field("textures", total_textures(*r.model))
                    .field("palettes", total_palettes(*r.model))
                    .field("vertices", total_vertices(*r.model))
                    .field("display_lists", std::uint64_t(r.model->display_lists.size()))
                    .end_object();
            }
            if (!r.problem.empty()) j.field("problem", r.problem);
            j.end_object();
        }
        j.end_array().end_object();
    } else {
        std::printf("%s: %s, archive at 0x%X: %u entries, fragment id 0x%X, total size 0x%X\n", in.c_str(),
                    n64::to_string(order), model_archive_rom, archive.header.count,
                    archive.header.fragment_id, archive.header.total_size);
        // One numbering (issue 30 item 5): the first column is the MODEL that show, export, preview,
        // palette, texture, replace and manifests' "model" take; the root's own stored id follows.
        std::printf("%5s %10s %9s %-9s %9s %6s  %s\n", "model", "offset", "stored", "kind", "size", "relocs", "root");
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& d = archive.entries[i];
            const auto& r = rows[i];
            std::string root = r.problem;
            if (r.model)
                root = [&] {
                    const auto sp = mod::stadium::entry_species(i, r.model->root.model_id);
                    return sp ? *sp + "; " : std::string();
                }() + "stored id " + std::to_string(r.model->root.model_id) + ", " + std::to_string(r.model->root.layout_count) +
                       " layout(s), " + std::to_string(r.model->root.animation_count) + " anim(s), " +
                       std::to_string(total_textures(*r.model)) + " tex, " + std::to_string(total_palettes(*r.model)) +
                       " pal, " + std::to_string(total_vertices(*r.model)) + " vtx";
            std::printf("%5zu %#10x %#9x %-9s %#9zx %6s  %s\n", i, d.offset, d.size,
                        to_string(r.decoded.kind), r.decoded.content.size(),
                        r.fragment ? std::to_string(r.fragment->relocs.size()).c_str() : "-", root.c_str());
        }
    }
    return 0;
}
const Registrar stadium_list_group({"stadium", "Pokémon Stadium model archive, PERS-SZP entries and FRAGMENTs", {
    {"list", "ROM [--json]", "list the model archive's entries (kind, sizes, relocations, root)",
     [](po::options_description& o, po::positional_options_description& p) {
         o.add_options()("rom", po::value<std::string>(), "ROM image (z64, v64 or n64 byte order)");
         p.add("rom", 1);
     },
     stadium_list},
}, false, true});

}  // namespace
}  // namespace modkit
