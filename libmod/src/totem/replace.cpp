// mesh.replace for TotemTech: SKIN rebuild and the whole-archive replacement.
#include "libmod/totem/replace.hpp"

#include "libmod/totem/mesh_compare.hpp"
#include "replace_textures.hpp"

#include "libmod/scene/scale_check.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/node.hpp"
#include "libmod/totem/texture_scene.hpp"
#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace mod::totem {


namespace {

using Bits3 = std::array<std::uint32_t, 3>;
Bits3 bits_of(const Vec3& v) { return {v[0].bits, v[1].bits, v[2].bits}; }

// The old weights of `group` on the MESH (subsections at `targets`) moved to the new ids whose
// value has the same bits as the old id's; returns the new list (by new id) and counts the old
// entries that found no such id in `lost`.
std::vector<SkinWeight> carry_by_bits(const Skin& skin, std::int32_t group, const std::vector<std::uint16_t>& targets,
                                      const std::vector<Vec3>& old_values, const std::vector<Vec3>& new_values,
                                      bool normals, std::size_t& carried, std::size_t& lost) {
    std::multimap<Bits3, std::uint32_t> at;
    for (std::size_t i = 0; i < new_values.size(); ++i) at.emplace(bits_of(new_values[i]), static_cast<std::uint32_t>(i));
    std::map<std::uint32_t, F32> out;
    for (const auto& sec : skin.sections) {
        if (sec.group_id != group) continue;
        for (const auto& sub : sec.subsections) {
            if (std::find(targets.begin(), targets.end(), sub.mesh_index) == targets.end()) continue;
            for (const auto& e : normals ? sub.normals : sub.vertices) {
                if (e.id >= old_values.size()) {
                    ++lost;
                    continue;
                }
                const auto [from, to] = at.equal_range(bits_of(old_values[e.id]));
                if (from == to) ++lost;
                else ++carried;
                for (auto it = from; it != to; ++it) out.emplace(it->second, e.weight);
            }
        }
    }
    std::vector<SkinWeight> list;
    for (const auto& [id, w] : out) list.push_back({id, w});
    return list;
}

}  // namespace

Skin rebuild_skin(const Skin& skin, std::int32_t mesh_id, const BuiltMesh& built, const NameTable& names,
                  SkinRebuildReport* report_out, const SkinRebuildContext& context) {
    SkinRebuildReport report;
    std::vector<std::uint16_t> targets;
    for (std::size_t i = 0; i < skin.mesh_ids.size() && i <= 0xFFFF; ++i)
        if (skin.mesh_ids[i] == mesh_id) targets.push_back(static_cast<std::uint16_t>(i));
    if (targets.empty())
        throw Error(ErrorKind::usage, "the SKIN does not list MESH " + names.display(mesh_id) +
                                          " at an index a subsection can name (0-65535)");
    auto is_target = [&](std::uint16_t i) { return std::find(targets.begin(), targets.end(), i) != targets.end(); };

    // New lists by group.
    std::map<std::int32_t, std::vector<SkinWeight>> verts, norms;
    for (std::size_t p = 0; p < built.position_weights.size(); ++p)
        for (const auto& [g, w] : built.position_weights[p]) verts[g].push_back({static_cast<std::uint32_t>(p), F32::of(w)});
    for (std::size_t n = 0; n < built.normal_weights.size(); ++n)
        for (const auto& [g, w] : built.normal_weights[n]) norms[g].push_back({static_cast<std::uint32_t>(n), F32::of(w)});
    std::map<std::int32_t, std::size_t> storing;
    for (std::size_t i = 0; i < skin.sections.size(); ++i) storing.emplace(skin.sections[i].group_id, i);
    std::string unknown;
    for (auto it = verts.begin(); it != verts.end();) {
        const std::int32_t g = it->first;
        if (storing.count(g)) {
            ++it;
            continue;
        }
        const auto& other = context.groups_elsewhere;
        if (std::find(other.begin(), other.end(), g) == other.end()) {
            unknown += (unknown.empty() ? "" : ", ") + names.display(g);
            ++it;
            continue;
        }
        report.notes.push_back("group " + names.display(g) + " is stored by another SKIN listing the MESH: its weights "
                               "are left to it");
        norms.erase(g);
        it = verts.erase(it);
    }
    // Groups of this SKIN the source carries no weight for: their old weights where the new MESH
    // has the same position (normal) bits.
    if (context.old_mesh && unknown.empty())
        for (std::size_t si = 0; si < skin.sections.size(); ++si) {
            const SkinSection& sec = skin.sections[si];
            if (verts.count(sec.group_id) || norms.count(sec.group_id) || storing.at(sec.group_id) != si) continue;
            std::size_t carried = 0, lost = 0, ncarried = 0, nlost = 0;
            auto v = carry_by_bits(skin, sec.group_id, targets, context.old_mesh->positions, built.mesh.positions, false,
                                   carried, lost);
            auto n = carry_by_bits(skin, sec.group_id, targets, context.old_mesh->normals, built.mesh.normals, true,
                                   ncarried, nlost);
            if (!carried && !lost && !ncarried && !nlost) continue;
            if (!v.empty()) verts[sec.group_id] = std::move(v);
            if (!n.empty()) norms[sec.group_id] = std::move(n);
            report.notes.push_back("group " + names.display(sec.group_id) + " has no weight in the source: " +
                                   std::to_string(carried) + " old vertex weight(s) kept on positions at the same place" +
                                   (lost ? ", " + std::to_string(lost) + " lost (no new position there)" : std::string()));
        }
    if (!unknown.empty())
        throw Error(ErrorKind::format, "weights name vertex group(s) the SKIN has no section for: " + unknown +
                                           " (a SKIN's sections cannot be added: their count is tied to the unknown entries)");

    Skin out = skin;
    const bool unknown_ok = out.unknown.size() == out.sections.size();
    for (std::size_t si = 0; si < out.sections.size(); ++si) {
        SkinSection& sec = out.sections[si];
        const bool stores = storing.at(sec.group_id) == si;
        const auto& nv = stores && verts.count(sec.group_id) ? verts[sec.group_id] : std::vector<SkinWeight>{};
        const auto& nn = stores && norms.count(sec.group_id) ? norms[sec.group_id] : std::vector<SkinWeight>{};
        SkinUnknownEntry* u = unknown_ok && out.unknown[si].vertices.size() == sec.subsections.size() &&
                                      out.unknown[si].normals.size() == sec.subsections.size()
                                  ? &out.unknown[si]
                                  : nullptr;
        bool first = true;
        for (std::size_t j = 0; j < sec.subsections.size(); ++j) {
            SkinSubsection& sub = sec.subsections[j];
            if (!is_target(sub.mesh_index)) continue;
            if (first) {
                sub.vertices = nv;
                sub.normals = nn;
                ++report.subsections_rewritten;
                if (nv.empty() && nn.empty()) ++report.subsections_emptied;
            } else {
                sub.vertices.clear();
                sub.normals.clear();
                ++report.subsections_emptied;
            }
            first = false;
            if (u) {
                const auto clamp = [&](std::uint32_t& v, std::size_t n) {
                    if (v > n) {
                        v = static_cast<std::uint32_t>(n);
                        ++report.unknown_values_clamped;
                    }
                };
                clamp(u->vertices[j], sub.vertices.size());
                clamp(u->normals[j], sub.normals.size());
            }
        }
        if (first && (!nv.empty() || !nn.empty())) {
            sec.subsections.push_back({targets.front(), nv, nn});
            ++report.subsections_added;
            if (u) {
                u->vertices.push_back(0);
                u->normals.push_back(0);
            }
            report.notes.push_back("group " + names.display(sec.group_id) +
                                   " gained a subsection on the MESH (its unknown-entry values are 0, hypothesis "
                                   "totem-unknown-entries/1)");
        }
    }
    if (report.unknown_values_clamped)
        report.notes.push_back(std::to_string(report.unknown_values_clamped) +
                               " unknown-entry value(s) were larger than their shortened list: clamped to its length "
                               "(hypothesis totem-unknown-entries/1)");
    for (const auto& sec : out.sections) {
        bool any = false;
        for (const auto& sub : sec.subsections) any = any || !sub.vertices.empty();
        bool had = false;
        for (const auto& s : skin.sections)
            if (s.group_id == sec.group_id)
                for (const auto& sub : s.subsections) had = had || !sub.vertices.empty();
        if (had && !any) report.notes.push_back("group " + names.display(sec.group_id) + " now moves no vertex");
    }

    const MeshExtent extent{static_cast<std::uint32_t>(built.mesh.positions.size()),
                            static_cast<std::uint32_t>(built.mesh.normals.size())};
    const auto lookup = [&](std::int32_t id) -> std::optional<MeshExtent> {
        if (id != mesh_id) return std::nullopt;
        return extent;
    };
    std::set<std::string> before;
    for (const auto& f : check_skin(skin))
        if (f.level == Finding::Level::mismatch) before.insert(f.path + ": " + f.message);
    for (const auto& f : check_skin(out, lookup))
        if (f.level == Finding::Level::mismatch && !before.count(f.path + ": " + f.message))
            throw Error(ErrorKind::format, "the rebuilt SKIN would break an invariant `totem verify` checks: " + f.message,
                        {}, no_offset, f.path);
    if (report_out) *report_out = std::move(report);
    return out;
}

namespace {

bool named_after(const std::string& mesh, const std::string& target) {
    return mesh == target || (mesh.size() > target.size() && mesh.starts_with(target) && mesh[target.size()] == '/');
}

std::int32_t type_of(const char* t) { return name_id(t); }

// The positions of every MESH record a SKIN lists (for its header sphere check).
std::vector<Vec3> skin_positions(const Skin& s, const std::map<std::int32_t, const Mesh*>& meshes) {
    std::vector<Vec3> out;
    std::set<std::int32_t> done;
    for (auto id : s.mesh_ids) {
        auto it = meshes.find(id);
        if (it == meshes.end() || !done.insert(id).second) continue;
        out.insert(out.end(), it->second->positions.begin(), it->second->positions.end());
    }
    return out;
}

// The name of the material a source mesh uses ("" when it names none).
std::string material_name(const scene::Scene& source, const scene::Mesh& mesh) {
    return mesh.material < source.materials.size() ? source.materials[mesh.material] : std::string();
}

bool material_record(const Archive& a, std::int32_t id) {
    const auto rec = find_record(a, id);
    return rec && (a.records[*rec].type_id == type_of("MATERIAL") || a.records[*rec].type_id == type_of("MATERIALANIM"));
}

// The material each source material name of `sources` takes in MESH `old` (label): the
// material map, then the same name (one of the MESH's materials or any material record), then
// by order of first use onto the MESH's own list. Adds a pairing line per decision.
std::map<std::string, std::int32_t> pair_materials(const Archive& a, const NameTable& names, const Mesh& old,
                                                   const std::string& label, const scene::Scene& source,
                                                   const std::vector<std::size_t>& sources, const ReplaceOptions& options,
                                                   ReplaceReport& report) {
    std::map<std::string, std::int32_t> out;
    std::vector<std::string> unmatched;
    const auto listed = [&](std::int32_t id) { return std::find(old.materials.begin(), old.materials.end(), id) != old.materials.end(); };
    const auto pair = [&](const std::string& from, std::int32_t id, const char* how) {
        out.emplace(from, id);
        report.pairings.push_back("source material '" + from + "' -> " + names.display(id) + " (" + how + ", MESH " + label + ")");
    };
    for (auto s : sources) {
        const std::string material = material_name(source, source.meshes[s]);
        if (out.count(material) || std::find(unmatched.begin(), unmatched.end(), material) != unmatched.end()) continue;
        if (const std::string* to = options.material_map.target_for(material)) {
            const std::int32_t id = id_from_text(names, *to);
            if (!listed(id) && !material_record(a, id))
                throw Error(ErrorKind::usage, "the material map sends '" + material + "' to '" + *to +
                                                  "', which is neither one of MESH " + label +
                                                  "'s materials nor a MATERIAL/MATERIALANIM record of the archive");
            pair(material, id, "material map");
            continue;
        }
        const std::int32_t id = id_from_text(names, material);
        if (listed(id) || material_record(a, id)) pair(material, id, "name");
        else unmatched.push_back(material);
    }
    // By order of first use onto the MESH's own materials not already taken.
    std::vector<std::int32_t> free;
    for (auto id : old.materials) {
        bool taken = false;
        for (const auto& [_, used] : out) taken = taken || used == id;
        if (!taken && std::find(free.begin(), free.end(), id) == free.end()) free.push_back(id);
    }
    if (unmatched.size() > free.size()) {
        std::string choices, list;
        for (auto id : old.materials) choices += (choices.empty() ? "" : ", ") + names.display(id);
        for (const auto& u : unmatched) list += (list.empty() ? "'" : ", '") + u + "'";
        throw Error(ErrorKind::format, std::to_string(unmatched.size()) + " source material(s) (" + list +
                                           ") match no MATERIAL record and MESH " + label + " has " +
                                           std::to_string(free.size()) + " material(s) left to take them by order (" +
                                           (choices.empty() ? "none" : choices) +
                                           "): map them with a material map ('source = MATERIAL' lines: --material-map, "
                                           "\"materials\") or name them after the game's",
                    source.source);
    }
    for (std::size_t k = 0; k < unmatched.size(); ++k) pair(unmatched[k], free[k], "order");
    if (!unmatched.empty())
        report.warnings.push_back(std::to_string(unmatched.size()) + " source material(s) of MESH " + label +
                                  " match no MATERIAL record: taken by order of first use onto the MESH's materials "
                                  "(check the pairings; a material map decides them: --material-map, \"materials\")");
    return out;
}

// Every replaced MESH draws what it drew and every SKIN listing one weights it as before
// (mesh_compare.hpp): the source is the archive's own character, unedited.
bool draws_as_before(const std::map<std::int32_t, Mesh>& old_by_id, const std::map<std::int32_t, BuiltMesh>& built_by_id,
                     const std::vector<std::pair<std::size_t, Skin>>& skins, const std::map<std::size_t, Skin>& rebuilt) {
    if (built_by_id.empty()) return false;
    for (const auto& [id, b] : built_by_id) {
        const auto old = old_by_id.find(id);
        if (old == old_by_id.end() || !same_drawn_triangles(old->second, b.mesh)) return false;
    }
    for (const auto& [index, skin] : skins) {
        const auto now = rebuilt.find(index);
        if (now == rebuilt.end()) return false;
        for (const auto& [id, b] : built_by_id)
            if (std::find(skin.mesh_ids.begin(), skin.mesh_ids.end(), id) != skin.mesh_ids.end() &&
                !same_weights(skin, old_by_id.at(id), now->second, b.mesh, id))
                return false;
    }
    return true;
}

}  // namespace

std::vector<RepackItem> replace_meshes(const ByteReader& dgc, const Archive& a, const NameTable& names, std::size_t target,
                                       scene::Scene source, const ReplaceOptions& options, ReplaceReport* report_out) {
    ReplaceReport report;
    const std::string target_name = names.display(a.records.at(target).name_id);
    const std::vector<std::size_t> meshes = character_meshes(dgc, a, target);
    if (meshes.empty())
        throw Error(ErrorKind::usage, "record " + target_name + " leads to no MESH (NODE → LOD → SKIN → MESH)");

    // 1. Which source meshes go where (map, only MESH, name, order).
    std::map<std::size_t, std::vector<std::size_t>> assigned;  // MESH record -> source mesh indices
    std::vector<std::string> unassigned;
    std::vector<std::string> how(source.meshes.size());
    std::vector<std::optional<std::size_t>> into(source.meshes.size());
    const auto mesh_list = [&] {
        std::string targets;
        for (auto m : meshes) targets += (targets.empty() ? "" : ", ") + names.display(a.records[m].name_id);
        return targets;
    };
    for (const auto& [from, to] : options.mesh_map.pairs) {
        const auto rec = find_record_by_text(a, names, to);
        if (!rec || std::find(meshes.begin(), meshes.end(), *rec) == meshes.end())
            throw Error(ErrorKind::usage, "the mesh map sends '" + from + "' to '" + to + "', which is not one of the " +
                                              std::to_string(meshes.size()) + " MESHes of " + target_name + ": " + mesh_list());
        bool exists = false;
        for (const auto& sm : source.meshes) exists = exists || sm.name == from;
        if (!exists) report.warnings.push_back("the mesh map names source mesh '" + from + "', which the source does not have");
    }
    for (std::size_t s = 0; s < source.meshes.size(); ++s) {
        if (const std::string* to = options.mesh_map.target_for(source.meshes[s].name)) {
            into[s] = *find_record_by_text(a, names, *to);
            how[s] = "mesh map";
        } else if (meshes.size() == 1) {
            into[s] = meshes[0];
            how[s] = "only MESH";
        } else {
            for (auto m : meshes)
                if (named_after(source.meshes[s].name, names.display(a.records[m].name_id))) {
                    into[s] = m;
                    how[s] = "name";
                    break;
                }
        }
    }
    // By order only when neither a map nor a name decided anything (one MESH always decides).
    const bool none_decided = std::none_of(into.begin(), into.end(), [](const auto& x) { return x.has_value(); });
    if (none_decided && source.meshes.size() == meshes.size()) {
        for (std::size_t s = 0; s < source.meshes.size(); ++s) {
            into[s] = meshes[s];
            how[s] = "order";
        }
        report.warnings.push_back("no source mesh is named after a MESH: the " + std::to_string(meshes.size()) +
                                  " source meshes went into the MESHes by order (check the pairings; a mesh map "
                                  "decides them: --mesh-map, \"meshes\")");
    }
    for (std::size_t s = 0; s < source.meshes.size(); ++s) {
        if (!into[s]) {
            unassigned.push_back(source.meshes[s].name);
            continue;
        }
        assigned[*into[s]].push_back(s);
        report.pairings.push_back("source mesh '" + source.meshes[s].name + "' -> MESH " +
                                  names.display(a.records[*into[s]].name_id) + " (" + how[s] + ")");
    }
    if (!unassigned.empty()) {
        std::string list;
        for (const auto& u : unassigned) list += (list.empty() ? "'" : ", '") + u + "'";
        throw Error(ErrorKind::format, std::to_string(unassigned.size()) + " source mesh(es) named after none of the " +
                                           std::to_string(meshes.size()) + " MESHes of " + target_name + ": " + list +
                                           "; map them with a mesh map ('source = MESH' lines: --mesh-map, \"meshes\"), "
                                           "or name each source mesh like its MESH (or 'MESH/anything'), as `totem "
                                           "export` does: " + mesh_list(),
                    source.source);
    }
    for (auto m : meshes)
        if (!assigned.count(m)) report.kept_meshes.push_back(names.display(a.records[m].name_id));
    if (assigned.empty()) throw Error(ErrorKind::format, "the source has no mesh", source.source);

    // 2. The SKINs that move a replaced MESH.
    std::set<std::int32_t> replaced_ids;
    for (const auto& [m, _] : assigned) replaced_ids.insert(a.records[m].name_id);
    std::vector<std::pair<std::size_t, Skin>> skins;
    for (std::size_t i = 0; i < a.records.size(); ++i) {
        if (record_kind(a.records[i]) != RecordKind::skin) continue;
        Skin s = decode_skin(payload_reader(dgc, a, i));
        if (std::any_of(s.mesh_ids.begin(), s.mesh_ids.end(), [&](std::int32_t id) { return replaced_ids.count(id) != 0; }))
            skins.emplace_back(i, std::move(s));
    }
    report.skinned = !skins.empty();

    // 3. Bones onto vertex groups (only when some SKIN needs weights).
    std::vector<std::int32_t> bone_group;
    if (report.skinned) {
        scene::Skeleton groups;
        std::set<std::int32_t> have;
        for (const auto& [_, s] : skins)
            for (const auto& sec : s.sections)
                if (have.insert(sec.group_id).second) {
                    scene::Bone b;
                    b.name = names.display(sec.group_id);
                    groups.bones.push_back(b);
                    bone_group.push_back(sec.group_id);
                }
        report.bones = scene::retarget(source, groups, options.bone_map);
        for (const auto& w : source.warnings) report.warnings.push_back(w);
    }

    // 4. Each replaced MESH.
    std::vector<RepackItem> items = items_of(a);
    replace_detail::TextureImporter textures(dgc, a, names, source, options, report);
    std::map<std::int32_t, BuiltMesh> built_by_id;
    std::map<std::int32_t, Mesh> old_by_id;
    for (const auto& [m, sources] : assigned) {
        const std::int32_t mesh_id = a.records[m].name_id;
        const std::string label = names.display(mesh_id);
        const Mesh old = decode_mesh(payload_reader(dgc, a, m));
        ReplacedMesh rm;
        rm.record = m;
        rm.name = label;
        std::vector<MeshSourcePart> parts;
        const std::map<std::string, std::int32_t> material_of = pair_materials(a, names, old, label, source, sources, options,
                                                                               report);
        for (auto s : sources) {
            const scene::Mesh& sm = source.meshes[s];
            rm.source_meshes.push_back(sm.name);
            MeshSourcePart p;
            p.name = sm.name;
            p.material = material_of.at(material_name(source, sm));
            p.positions = sm.positions;
            p.normals = sm.normals;
            p.uvs = sm.uv0;
            if (p.normals.size() != p.positions.size()) p.normals.assign(p.positions.size(), {0, 0, 1});
            if (p.uvs.size() != p.positions.size()) p.uvs.assign(p.positions.size(), {0, 0});
            // A MATERIAL with a UV transform: totem export applied it to TEXCOORD_0 and kept the
            // stored UVs in TEXCOORD_1 (texture_scene.hpp); undo it.
            if (const auto t = material_uv_transform(dgc, a, p.material, names)) {
                StoredUvs back = stored_uvs(*t, p.uvs, sm.uv1, "source mesh '" + sm.name + "'");
                p.uvs = std::move(back.uvs);
                report.warnings.push_back("source mesh '" + sm.name + "': material " + names.display(p.material) +
                                          " has a UV transform: " + std::to_string(back.kept) +
                                          " UV(s) taken from TEXCOORD_1 (unchanged since export), " +
                                          std::to_string(back.inverted) + " mapped back from TEXCOORD_0 through its inverse");
            }
            // The source's own texture or colour: a new MATERIAL (after the UV transform above,
            // which the new MATERIAL copies).
            p.material = textures.material_for(sm.material, p.material, label);
            // glTF/Assimp UVs have V up; MESH UVs are stored as totem export writes them (unchanged).
            p.triangles = sm.triangles;
            if (report.skinned) {
                std::vector<bool> used(sm.positions.size(), false);
                for (const auto& t : sm.triangles)
                    for (auto v : t)
                        if (v < used.size()) used[v] = true;
                std::size_t unweighted = 0, first_unweighted = 0;
                for (std::size_t v = 0; v < sm.positions.size(); ++v) {
                    std::map<std::int32_t, double> w;
                    if (v < sm.influences.size() && !sm.influences[v].empty()) {
                        for (const auto& inf : sm.influences[v]) {
                            if (!std::isfinite(inf.weight) || inf.weight < 0)
                                throw Error(ErrorKind::format, "source mesh '" + sm.name + "' vertex " + std::to_string(v) +
                                                                   " has a negative or non-finite weight", source.source);
                            if (inf.weight > 0 && inf.bone < bone_group.size()) w[bone_group[inf.bone]] += inf.weight;
                        }
                    } else if (v < sm.skin.size()) {
                        for (std::uint8_t k = 0; k < sm.skin[v].count; ++k)
                            if (sm.skin[v].bones[k] < bone_group.size() && sm.skin[v].weights[k] > 0)
                                w[bone_group[sm.skin[v].bones[k]]] += sm.skin[v].weights[k] / 255.0;
                    }
                    double sum = 0;
                    for (const auto& [_, x] : w) sum += x;
                    GroupWeights gw;
                    if (sum > 0) {
                        const bool rescale = std::abs(sum - 1.0) > 1e-5;
                        rm.normalised += rescale;
                        for (const auto& [g, x] : w) gw.emplace_back(g, static_cast<float>(rescale ? x / sum : x));
                    } else if (used[v]) {
                        if (unweighted++ == 0) first_unweighted = v;
                    }
                    p.weights.push_back(std::move(gw));
                }
                if (unweighted)
                    throw Error(ErrorKind::format, "source mesh '" + sm.name + "': " + std::to_string(unweighted) +
                                                       " vertex(es) (first: " + std::to_string(first_unweighted) +
                                                       ") carry no bone weight, but MESH " + label +
                                                       " is skinned: weight every vertex (e.g. to the nearest bone)",
                                source.source);
            }
            parts.push_back(std::move(p));
        }
        BuiltMesh built = build_mesh(old, parts, label, &rm.build);
        rm.positions = built.mesh.positions.size();
        rm.texcoords = built.mesh.texcoords.size();
        rm.normals = built.mesh.normals.size();
        rm.triangles = build_triangles(built.mesh).size();
        items[m].record.payload = encode_mesh(built.mesh, a.endian);
        if (rm.normalised)
            report.warnings.push_back("MESH " + label + ": " + std::to_string(rm.normalised) +
                                      " vertices' weights did not sum to 1: rescaled");
        report.meshes.push_back(std::move(rm));
        old_by_id.emplace(mesh_id, old);
        built_by_id.emplace(mesh_id, std::move(built));
    }

    // The size rule every game shares (scene/scale_check.hpp): all replaced MESHes together.
    {
        std::vector<scene::Vec3> before, after;
        const auto add = [](std::vector<scene::Vec3>& to, const std::vector<Vec3>& from) {
            for (const auto& p : from) to.push_back({p[0].value(), p[1].value(), p[2].value()});
        };
        for (const auto& [id, m] : old_by_id) add(before, m.positions);
        for (const auto& [id, b] : built_by_id) add(after, b.mesh.positions);
        const std::string change = scene::check_scale_change(scene::compare_scale(before, after), scene::scale_source(source),
                                                             options.allow_scale_change, source.source);
        if (!change.empty()) report.warnings.push_back(change);
    }

    // 5. The SKINs.
    std::map<std::size_t, Skin> rebuilt;
    std::map<std::int32_t, const Mesh*> old_meshes, new_meshes;
    for (const auto& [id, m] : old_by_id) old_meshes[id] = &m;
    for (const auto& [id, b] : built_by_id) new_meshes[id] = &b.mesh;
    for (auto& [index, skin] : skins) {
        ReplacedSkin rs;
        rs.record = index;
        rs.name = names.display(a.records[index].name_id);
        Skin out = skin;
        std::set<std::int32_t> done;
        for (auto id : skin.mesh_ids) {
            auto b = built_by_id.find(id);
            if (b == built_by_id.end() || !done.insert(id).second) continue;
            SkinRebuildReport r;
            try {
                SkinRebuildContext context;
                context.old_mesh = &old_by_id.at(id);
                for (const auto& [other_index, other] : skins) {
                    if (other_index == index) continue;
                    if (std::find(other.mesh_ids.begin(), other.mesh_ids.end(), id) == other.mesh_ids.end()) continue;
                    for (const auto& sec : other.sections) context.groups_elsewhere.push_back(sec.group_id);
                }
                out = rebuild_skin(out, id, b->second, names, &r, context);
            } catch (Error& e) {
                e.prefix_path("skin[" + rs.name + "]");
                throw;
            }
            rs.rebuild.subsections_rewritten += r.subsections_rewritten;
            rs.rebuild.subsections_added += r.subsections_added;
            rs.rebuild.subsections_emptied += r.subsections_emptied;
            rs.rebuild.unknown_values_clamped += r.unknown_values_clamped;
            for (auto& n : r.notes) rs.rebuild.notes.push_back("MESH " + names.display(id) + ": " + n);
        }
        // Header floats 0..3: a bounding sphere of the SKIN's replaced MESHes' old geometry? Then
        // recompute (the same hypothesis as for MESH), else keep.
        const auto old_points = skin_positions(skin, old_meshes);
        const std::array<float, 3> c{skin.header.unknown[0].value(), skin.header.unknown[1].value(),
                                     skin.header.unknown[2].value()};
        if (!old_points.empty() && skin.header.unknown[3].value() > 0 &&
            sphere_holds(old_points, c, skin.header.unknown[3].value()) &&
            skin.header.unknown[3].value() <= 2 * bounding_sphere(old_points).radius + 1e-6f) {
            std::map<std::int32_t, const Mesh*> now = old_meshes;
            for (const auto& [id, m] : new_meshes) now[id] = m;
            const BoundingSphere s = bounding_sphere(skin_positions(skin, now));
            out.header.unknown = {F32::of(s.centre[0]), F32::of(s.centre[1]), F32::of(s.centre[2]), F32::of(s.radius)};
            rs.rebuild.notes.push_back("header floats 0..3 were a bounding sphere of the meshes: recomputed");
        }
        items[index].record.payload = encode_skin(out, a.endian);
        report.skins.push_back(std::move(rs));
        rebuilt.emplace(index, std::move(out));
    }

    // 6. An unedited round trip (issue 30 item 4): when every new MESH draws what the old one
    // drew and every rebuilt SKIN weights its positions as the old one did, at the precision an
    // export stores, nothing changes: the records are kept as they were.
    const bool new_materials = textures.made_any();
    for (auto& r : textures.take_records()) items.push_back(std::move(r));
    if (!new_materials && draws_as_before(old_by_id, built_by_id, skins, rebuilt)) {
        report.unchanged = true;
        if (options.keep_unchanged) items = items_of(a);
    }
    if (report_out) *report_out = std::move(report);
    return items;
}

Bytes repack_checked(const ByteReader& dgc, const Archive& archive, std::vector<RepackItem> items, RepackReport* report,
                     Archive* packed_out) {
    Archive packed = repack(archive, std::move(items), report);
    Bytes encoded = encode_archive(packed);
    auto count = [](const std::vector<RecordVerdict>& verdicts) {
        std::size_t n = 0;
        for (const auto& v : verdicts)
            for (const auto& f : v.findings) n += f.level == Finding::Level::mismatch;
        return n;
    };
    const ByteReader check(encoded, packed.endian, dgc.file(), "dgc");
    const auto after = verify_archive(check, decode_archive(check));
    for (const auto& v : after)
        if (!v.decoded || !v.round_trip)
            throw Error(ErrorKind::format, "internal check: the new archive's record " + std::to_string(v.index) +
                                               " does not decode or re-encode" + (v.error.empty() ? "" : " (" + v.error + ")") +
                                               "; nothing written");
    const std::size_t before_n = count(verify_archive(dgc, archive)), after_n = count(after);
    if (after_n > before_n)
        throw Error(ErrorKind::format, "internal check: `totem verify` would report " + std::to_string(after_n - before_n) +
                                           " new mismatch(es) on the result; nothing written");
    if (packed_out) *packed_out = std::move(packed);
    return encoded;
}

}  // namespace mod::totem
