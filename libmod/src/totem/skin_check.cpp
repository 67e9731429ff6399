// The consistency checks of a decoded SKIN (facts from the seed and Chum World; see
// doc/formats/totem-skin.md for which is which).
#include "libmod/totem/skin.hpp"

#include "libmod/totem/names.hpp"

#include <cmath>

namespace mod::totem {

namespace {

struct Checker {
    std::vector<Finding> out;
    void mismatch(std::string path, std::string message) {
        out.push_back({Finding::Level::mismatch, std::move(path), std::move(message)});
    }
    void note(std::string path, std::string message) {
        out.push_back({Finding::Level::note, std::move(path), std::move(message)});
    }
};

void check_list(Checker& c, const std::string& path, const std::vector<SkinWeight>& list,
                std::optional<std::uint32_t> limit, const char* array_name) {
    for (std::size_t k = 0; k < list.size(); ++k) {
        const auto& e = list[k];
        if (!std::isfinite(e.weight.value()))
            c.mismatch(index_path(path, k), "weight is not finite (bits " + hex(e.weight.bits, 8) + ")");
        if (limit && e.id >= *limit)
            c.mismatch(index_path(path, k), "id " + std::to_string(e.id) + " is outside the target MESH's " +
                                                std::to_string(*limit) + " " + array_name);
    }
}

}  // namespace

std::vector<Finding> check_skin(const Skin& s, const MeshLookup& lookup, const TargetTypeLookup& target_type) {
    Checker c;
    if (s.header.item_type != item_skin)
        c.mismatch("skin.header.item_type", "item type " + std::to_string(s.header.item_type) + ", expected 3 (SKIN)");
    if (s.header.item_subtype != 0 && s.header.item_subtype != 2)
        c.mismatch("skin.header.item_subtype", "subtype " + std::to_string(s.header.item_subtype) +
                                                   "; the seed says it is always 0 or 2");
    if (s.zero != 0) c.mismatch("skin.zero", "word after the mesh ids is " + hex(s.zero) + "; the seed says always 0");
    if (s.has_anims > 1)
        c.mismatch("skin.has_anims", "has_anims is " + std::to_string(s.has_anims) + " (0 or 1 expected)");
    if (s.reading == Zero2Reading::seed && s.zero2 != 0)
        c.mismatch("skin.zero2", "zero2 is " + hex(s.zero2) + "; the seed says always 0");

    std::vector<std::optional<MeshExtent>> extents(s.mesh_ids.size());
    for (std::size_t m = 0; m < s.mesh_ids.size(); ++m) {
        if (lookup) extents[m] = lookup(s.mesh_ids[m]);
        if (!lookup || extents[m]) continue;
        const std::optional<std::int32_t> type = target_type ? target_type(s.mesh_ids[m]) : std::nullopt;
        static const std::int32_t mesh_type = name_id("MESH"), surface_type = name_id("SURFACE");
        const std::string type_text = !type ? "" : *type == surface_type ? "SURFACE" : *type == mesh_type ? "MESH" : hash_text(*type);
        if (s.header.item_subtype == 0 && type && *type != mesh_type)
            c.mismatch(index_path("skin.mesh_ids", m),
                       "target " + hash_text(s.mesh_ids[m]) + " is a " + type_text +
                           ", not a MESH; the seed says a subtype-0 SKIN always names MESH ids (only subtype 2 may name a SURFACE)");
        else
            c.note(index_path("skin.mesh_ids", m),
                   "target " + hash_text(s.mesh_ids[m]) +
                       (!target_type ? std::string(" is not a MESH available here")
                        : type       ? " is a " + type_text + (*type == mesh_type ? " that does not decode" : "")
                                     : std::string(" is not in this archive")) +
                       "; its ids are not range-checked");
    }
    for (std::size_t i = 0; i < s.sections.size(); ++i) {
        const auto& sec = s.sections[i];
        const std::string spath = index_path("skin.sections", i);
        for (std::size_t j = 0; j < sec.subsections.size(); ++j) {
            const auto& sub = sec.subsections[j];
            const std::string path = index_path(spath + ".subsections", j);
            std::optional<MeshExtent> ext;
            if (sub.mesh_index >= s.mesh_ids.size())
                c.mismatch(path + ".mesh_index", "mesh index " + std::to_string(sub.mesh_index) + " is outside the " +
                                                     std::to_string(s.mesh_ids.size()) + " mesh ids");
            else
                ext = extents[sub.mesh_index];
            check_list(c, path + ".vertices", sub.vertices,
                       ext ? std::optional<std::uint32_t>(ext->positions) : std::nullopt, "positions");
            check_list(c, path + ".normals", sub.normals,
                       ext ? std::optional<std::uint32_t>(ext->normals) : std::nullopt, "normals");
        }
    }

    // The seed: unknown_count == section_count; entry i has one value per subsection of
    // section i, each <= that subsection's list length.
    if (s.unknown.size() != s.sections.size())
        c.mismatch("skin.unknown", std::to_string(s.unknown.size()) + " unknown entries for " +
                                       std::to_string(s.sections.size()) + " sections; the seed says they are equal");
    const std::size_t n = std::min(s.unknown.size(), s.sections.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto& u = s.unknown[i];
        const auto& subs = s.sections[i].subsections;
        const std::string path = index_path("skin.unknown", i);
        if (u.vertices.size() != subs.size())
            c.mismatch(path + ".vertices", std::to_string(u.vertices.size()) + " values for " +
                                               std::to_string(subs.size()) + " subsections of section " + std::to_string(i));
        if (u.normals.size() != subs.size())
            c.mismatch(path + ".normals", std::to_string(u.normals.size()) + " values for " +
                                              std::to_string(subs.size()) + " subsections of section " + std::to_string(i));
        if (u.normals.size() != u.vertices.size())
            c.mismatch(path, "normal count differs from vertex count: the seed sizes normals[] by num_vertices, "
                             "Chum World by num_normals (this file follows Chum World)");
        for (std::size_t j = 0; j < std::min(u.vertices.size(), subs.size()); ++j)
            if (u.vertices[j] > subs[j].vertices.size())
                c.mismatch(index_path(path + ".vertices", j),
                           "value " + std::to_string(u.vertices[j]) + " exceeds the subsection's " +
                               std::to_string(subs[j].vertices.size()) + " vertices");
        for (std::size_t j = 0; j < std::min(u.normals.size(), subs.size()); ++j)
            if (u.normals[j] > subs[j].normals.size())
                c.mismatch(index_path(path + ".normals", j),
                           "value " + std::to_string(u.normals[j]) + " exceeds the subsection's " +
                               std::to_string(subs[j].normals.size()) + " normals");
    }
    return c.out;
}

}  // namespace mod::totem
