#include "libmod/totem/scene_bridge.hpp"

#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace mod::totem {

namespace {

scene::Vec3 vec(const Vec3& v) { return {v[0].value(), v[1].value(), v[2].value()}; }

// Bone names must be unique in a scene; a group listed twice gets "~2", "~3".
std::vector<std::string> bone_names(const Skin& skin, const NameTable& names) {
    std::vector<std::string> out;
    std::set<std::string> used;
    for (const auto& sec : skin.sections) {
        std::string base = names.display(sec.group_id), name = base;
        for (int k = 2; !used.insert(name).second; ++k) name = base + "~" + std::to_string(k);
        out.push_back(name);
    }
    return out;
}

// `text` with every "0x" + 8 hex digits the table has a name for replaced by that name.
std::string with_names(const std::string& text, const NameTable& names) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text.compare(i, 2, "0x") == 0 && i + 10 <= text.size() &&
            std::all_of(text.begin() + std::ptrdiff_t(i) + 2, text.begin() + std::ptrdiff_t(i) + 10,
                        [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }) &&
            (i + 10 == text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 10])))) {
            if (auto id = parse_id(std::string_view(text).substr(i, 10))) {
                out += names.display(*id);
                i += 10;
                continue;
            }
        }
        out += text[i++];
    }
    return out;
}

}  // namespace

scene::Scene skin_to_scene(const Skin& skin, const std::vector<std::pair<std::int32_t, Mesh>>& meshes,
                           const NameTable& names, SkinExportReport* report_out) {
    SkinExportReport report;
    scene::Scene sc;
    sc.source = "SKIN";
    sc.format = "totem";
    const auto bones = bone_names(skin, names);
    std::map<std::int32_t, const Mesh*> by_id;
    for (const auto& [id, m] : meshes) by_id.emplace(id, &m);

    // Weighted centres (our bind-pose choice, see synthetic_bind_pose_note).
    std::vector<std::array<double, 4>> centre(skin.sections.size(), {0, 0, 0, 0});
    for (std::size_t b = 0; b < skin.sections.size(); ++b)
        for (const auto& sub : skin.sections[b].subsections) {
            if (sub.mesh_index >= skin.mesh_ids.size()) continue;
            auto it = by_id.find(skin.mesh_ids[sub.mesh_index]);
            if (it == by_id.end()) continue;
            for (const auto& e : sub.vertices) {
                if (e.id >= it->second->positions.size()) continue;
                const double w = e.weight.value();
                for (int c = 0; c < 3; ++c) centre[b][c] += w * it->second->positions[e.id][c].value();
                centre[b][3] += w;
            }
        }
    for (std::size_t b = 0; b < skin.sections.size(); ++b) {
        scene::Bone bone;
        bone.name = bones[b];
        if (centre[b][3] != 0)
            for (int c = 0; c < 3; ++c) bone.bind[c * 4 + 3] = static_cast<float>(centre[b][c] / centre[b][3]);
        sc.skeleton.bones.push_back(bone);
    }
    scene::derive_bone_matrices(sc.skeleton);
    report.joints = sc.skeleton.bones.size();

    std::map<std::int32_t, std::uint32_t> material_slot;
    std::set<std::int32_t> done;
    for (std::size_t mi = 0; mi < skin.mesh_ids.size(); ++mi) {
        const std::int32_t id = skin.mesh_ids[mi];
        auto found = by_id.find(id);
        if (found == by_id.end()) {
            report.skipped_targets.push_back(names.display(id));
            continue;
        }
        if (!done.insert(id).second) continue;
        const Mesh& m = *found->second;
        // Raw influences per MESH position, from every section's subsections on this mesh.
        std::vector<std::vector<scene::Influence>> per_position(m.positions.size());
        for (std::size_t b = 0; b < skin.sections.size(); ++b)
            for (const auto& sub : skin.sections[b].subsections)
                if (sub.mesh_index < skin.mesh_ids.size() && skin.mesh_ids[sub.mesh_index] == id)
                    for (const auto& e : sub.vertices)
                        if (e.id < per_position.size())
                            per_position[e.id].push_back({static_cast<std::uint32_t>(b), e.weight.value()});
        // glTF requires every skinned vertex's weights to sum to 1: a position the SKIN gives no
        // positive weight (a SURFACE-targeting or partial SKIN) is bound to the first group, and said.
        std::size_t unweighted = 0;
        for (auto& inf : per_position) {
            if (skin.sections.empty()) break;  // no group to bind to (an unskinned export)
            double sum = 0;
            for (const auto& i : inf) sum += i.weight;
            if (sum > 0) continue;
            inf.assign(1, scene::Influence{0, 1.0f});
            ++unweighted;
        }
        if (unweighted)
            sc.warnings.push_back(std::to_string(unweighted) + " position(s) of MESH " + names.display(id) +
                                  " have no weight in the SKIN: exported bound to its first group with weight 1");

        // Strips name their material as Chum World resolves it (index % list length); an index
        // past the list is said once per MESH (hypothesis totem-strip-material-index/1).
        std::map<std::uint32_t, scene::Mesh> by_material;
        std::map<std::uint32_t, std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t>> keys;
        const StripIndexCensus census = strip_index_census(m);
        if (census.strips_past_list)
            sc.warnings.push_back(std::to_string(census.strips_past_list) + " strip(s) of MESH " + names.display(id) +
                                  " name a material index past its " + std::to_string(m.materials.size()) +
                                  " materials: read as index % " + std::to_string(m.materials.size()) + " (Chum World)" +
                                  (census.strips_rules_differ ? "; noclip's rule (minus the smallest index) would pick "
                                                                "other materials for " + std::to_string(census.strips_rules_differ)
                                                              : std::string()));
        else if (census.strips_rules_differ)
            sc.warnings.push_back("MESH " + names.display(id) + ": noclip's rule (subtype 4, minus the smallest index) would pick "
                                  "other materials than Chum World's for " + std::to_string(census.strips_rules_differ) +
                                  " strip(s); exported with Chum World's");
        for (const auto& t : build_triangles(m)) {
            const std::uint32_t resolved = m.materials.empty() ? t.material_index : strip_material(m, t.material_index);
            scene::Mesh& out = by_material[resolved];
            auto& key_map = keys[resolved];
            std::array<std::uint32_t, 3> idx{};
            for (int c = 0; c < 3; ++c) {
                const MeshCorner& k = t.corners[c];
                auto [it, fresh] = key_map.try_emplace({k.position, k.texcoord, k.normal},
                                                       static_cast<std::uint32_t>(out.positions.size()));
                if (fresh) {
                    out.positions.push_back(vec(m.positions[k.position]));
                    out.normals.push_back(k.normal == no_index ? scene::Vec3{0, 0, 1} : vec(m.normals[k.normal]));
                    scene::Vec2 uv{0, 0};
                    if (k.texcoord != no_index) uv = {m.texcoords[k.texcoord][0].value(), m.texcoords[k.texcoord][1].value()};
                    out.uv0.push_back(uv);
                    out.uv1.push_back(uv);
                    out.tangents.push_back({1, 0, 0, 1});
                    out.influences.push_back(per_position[k.position]);
                }
                idx[c] = it->second;
            }
            out.triangles.push_back({idx[0], idx[2], idx[1]});
        }
        for (auto& [material_index, out] : by_material) {
            const std::int32_t material_id =
                material_index < m.materials.size() ? m.materials[material_index] : static_cast<std::int32_t>(material_index);
            auto [slot, fresh] = material_slot.try_emplace(material_id, static_cast<std::uint32_t>(sc.materials.size()));
            if (fresh)
                sc.materials.push_back(material_index < m.materials.size() ? names.display(material_id)
                                                                             : "material " + std::to_string(material_index));
            out.material = slot->second;
            out.name = names.display(id) + (by_material.size() > 1 ? "/" + sc.materials[slot->second] : "");
            report.vertices += out.positions.size();
            report.triangles += out.triangles.size();
            sc.meshes.push_back(std::move(out));
        }
    }
    sc.warnings.push_back(synthetic_bind_pose_note);
    if (report_out) *report_out = std::move(report);
    return sc;
}

std::vector<WeightSourceVertex> weight_source_from_scene(const scene::Scene& sc, std::string_view mesh_name) {
    std::vector<WeightSourceVertex> out;
    auto bone_name = [&](std::uint32_t b) -> std::string {
        if (b >= sc.skeleton.bones.size())
            throw Error(ErrorKind::format, "influence names bone " + std::to_string(b) + " outside the skeleton", sc.source);
        return sc.skeleton.bones[b].name;
    };
    for (const auto& m : sc.meshes) {
        if (!mesh_name.empty()) {
            const std::string_view n = m.name;
            if (!(n == mesh_name || (n.size() > mesh_name.size() && n.starts_with(mesh_name) && n[mesh_name.size()] == '/')))
                continue;
        }
        for (std::size_t v = 0; v < m.positions.size(); ++v) {
            WeightSourceVertex s;
            s.position = m.positions[v];
            if (v < m.influences.size() && !m.influences[v].empty()) {
                for (const auto& inf : m.influences[v]) s.weights.push_back({bone_name(inf.bone), inf.weight});
            } else if (v < m.skin.size()) {
                for (std::uint8_t k = 0; k < m.skin[v].count; ++k)
                    s.weights.push_back({bone_name(m.skin[v].bones[k]), float(m.skin[v].weights[k]) / 255.0f});
            }
            out.push_back(std::move(s));
        }
    }
    return out;
}

Bytes reweight_skin_record(const ByteReader& dgc, const Archive& archive, std::size_t skin_index,
                           const NameTable& names, const scene::Scene& source,
                           std::optional<std::int32_t> only_mesh, const ReweightOptions& options,
                           ArchiveReweightReport* report_out) {
    ArchiveReweightReport report;
    if (record_kind(archive.records.at(skin_index)) != RecordKind::skin)
        throw Error(ErrorKind::usage, "record " + std::to_string(skin_index) + " is not a SKIN");
    Skin skin = decode_skin(payload_reader(dgc, archive, skin_index));
    if (only_mesh && std::find(skin.mesh_ids.begin(), skin.mesh_ids.end(), *only_mesh) == skin.mesh_ids.end()) {
        std::string listed;
        for (auto t : skin.mesh_ids) listed += (listed.empty() ? "" : ", ") + names.display(t);
        throw Error(ErrorKind::usage, "the SKIN does not list mesh " + names.display(*only_mesh) + " (targets: " +
                                          (listed.empty() ? "none" : listed) + ")");
    }
    std::set<std::int32_t> done;
    const std::vector<std::int32_t> targets = skin.mesh_ids;  // skin is replaced in the loop
    const auto everything = weight_source_from_scene(source);
    for (auto id : targets) {
        if ((only_mesh && id != *only_mesh) || !done.insert(id).second) continue;
        auto rec = find_record(archive, id);
        if (!rec || record_kind(archive.records[*rec]) != RecordKind::mesh) {
            report.skipped_targets.push_back(names.display(id));
            continue;
        }
        Mesh mesh = decode_mesh(payload_reader(dgc, archive, *rec));
        auto own = weight_source_from_scene(source, names.display(id));
        ReweightReport r;
        try {
            skin = reweight_skin(skin, id, mesh, own.empty() ? everything : own, options, &r);
        } catch (Error& e) {
            // reweight_skin names MESHes and groups by their hashes; the user knows their names.
            Error named(e.kind(), with_names(e.message(), names), e.file(), e.offset(), with_names(e.path(), names));
            named.prefix_path("mesh[" + names.display(id) + "]");
            throw named;
        }
        report.meshes.emplace_back(names.display(id), std::move(r));
    }
    if (report.meshes.empty()) {
        std::string skipped;
        for (const auto& t : report.skipped_targets) skipped += (skipped.empty() ? "" : ", ") + t;
        throw Error(ErrorKind::format, "nothing to reweight: no target of the SKIN is a MESH record in this archive" +
                                           (skipped.empty() ? std::string() : " (targets: " + skipped + ")"));
    }
    if (report_out) *report_out = std::move(report);
    return encode_skin(skin, archive.endian);
}

}  // namespace mod::totem
