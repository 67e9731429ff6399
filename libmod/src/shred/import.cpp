// SHRED <-> scene glue (contract: libmod/shred/import.hpp).
#include "libmod/shred/import.hpp"

#include "libmod/core/error.hpp"
#include "libmod/scene/scale_check.hpp"
#include "libmod/scene/validate.hpp"
#include "libmod/scene/weld.hpp"
#include "libmod/shred/preprocess.hpp"
#include "libmod/shred/scan.hpp"
#include "libmod/shred/stream.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <ranges>

namespace mod::shred {
namespace {

std::string hex8(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", v);
    return buf;
}

std::uint32_t be32_at(const Bytes& b, std::size_t at) {
    if (at + 4 > b.size()) return 0;
    return (std::uint32_t(b[at]) << 24) | (std::uint32_t(b[at + 1]) << 16) | (std::uint32_t(b[at + 2]) << 8) | b[at + 3];
}

// Appends `m` to `into` (same attribute layout), offsetting its triangle indices.
void append_mesh(scene::Mesh& into, const scene::Mesh& m) {
    auto base = static_cast<std::uint32_t>(into.vertex_count());
    auto cat = [](auto& a, const auto& b) { a.insert(a.end(), b.begin(), b.end()); };
    cat(into.positions, m.positions);
    cat(into.normals, m.normals);
    cat(into.tangents, m.tangents);
    cat(into.uv0, m.uv0);
    cat(into.uv1, m.uv1);
    into.influences.append(m.influences);
    cat(into.skin, m.skin);
    for (auto t : m.triangles) into.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
}

void stream_histograms(const Stream& s, std::array<std::uint32_t, 5>& batches, std::array<std::uint64_t, 5>& vertices) {
    batches = s.batches_by_influence();
    vertices = {};
    for (const auto& b : s.batches) {
        std::uint16_t n = b.header.influence_count();
        if (n <= 4) vertices[n] += b.vertex_count;
    }
}

bool finite3(const std::array<float, 3>& v) {
    return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

// Assimp derives a vertex's bitangent from its normal (glTF: cross(normal, tangent) * w), so a
// vertex whose normal is not finite (14 stock vertices carry NaN normals) cannot bring its
// tangent sign back through any file. Such a vertex takes the sign of the vertex of the
// replaced stream with the same position and normal bits; there is none for new geometry,
// which keeps the importer's +1.
std::size_t restore_signs_of_non_finite_normals(scene::Mesh& mesh, const Stream& original) {
    std::map<std::pair<std::array<std::uint32_t, 3>, std::array<std::uint32_t, 3>>, float> signs;
    auto bits = [](const std::array<float, 3>& v) {
        return std::array<std::uint32_t, 3>{std::bit_cast<std::uint32_t>(v[0]), std::bit_cast<std::uint32_t>(v[1]),
                                            std::bit_cast<std::uint32_t>(v[2])};
    };
    for (const auto& r : original.vertices)
        if (!finite3(r.normal())) signs.emplace(std::pair{bits(r.position()), bits(r.normal())}, r.tangent_sign());
    std::size_t restored = 0;
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
        if (finite3(mesh.normals[v])) continue;
        auto it = signs.find(std::pair{bits(mesh.positions[v]), bits(mesh.normals[v])});
        if (it == signs.end()) continue;
        mesh.tangents[v][3] = it->second;
        ++restored;
    }
    return restored;
}

// A source without tangents (Blender's glTF exporter writes none by default) gets generated
// ones, whose signs differ from the game's on about half the vertices: an unedited round trip
// through Blender would change them. When the source has the target's vertex count and every
// source vertex has a target vertex with the same position and first UV bits (each target
// vertex used once, in order), the source takes the target's tangents and signs. Returns
// whether it did.
bool keep_target_tangents(scene::Mesh& mesh, const Stream& original) {
    if (mesh.vertex_count() != original.vertices.size() || mesh.tangents.size() != mesh.vertex_count()) return false;
    using Key = std::array<std::uint32_t, 5>;
    auto key = [](const std::array<float, 3>& p, const std::array<float, 2>& uv) {
        return Key{std::bit_cast<std::uint32_t>(p[0]), std::bit_cast<std::uint32_t>(p[1]),
                   std::bit_cast<std::uint32_t>(p[2]), std::bit_cast<std::uint32_t>(uv[0]),
                   std::bit_cast<std::uint32_t>(uv[1])};
    };
    std::map<Key, std::vector<std::size_t>> targets;  // target vertices by key, in order
    for (std::size_t i = original.vertices.size(); i-- > 0;)
        targets[key(original.vertices[i].position(), original.vertices[i].uv(0))].push_back(i);
    std::vector<std::size_t> match(mesh.vertex_count());
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
        auto it = targets.find(key(mesh.positions[v], mesh.uv0[v]));
        if (it == targets.end() || it->second.empty()) return false;
        match[v] = it->second.back();
        it->second.pop_back();
    }
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
        const auto& r = original.vertices[match[v]];
        const auto t = r.tangent();
        mesh.tangents[v] = {t[0], t[1], t[2], r.tangent_sign()};
    }
    mesh.tangents_generated = false;
    return true;
}

// Degenerate triangles (two corners on one vertex or on the same position bits) and duplicates
// (an earlier triangle's three vertices, any order): counted, a warning, dropped on request.
// Returns the warning (empty when there is none).
std::string count_degenerate_triangles(scene::Mesh& mesh, bool drop, SceneReplaceReport& rep) {
    auto same_position = [&](std::uint32_t a, std::uint32_t b) {
        return a == b || (a < mesh.positions.size() && b < mesh.positions.size() &&
                          std::memcmp(mesh.positions[a].data(), mesh.positions[b].data(), 12) == 0);
    };
    std::set<std::array<std::uint32_t, 3>> seen;
    std::vector<std::array<std::uint32_t, 3>> kept;
    kept.reserve(mesh.triangles.size());
    rep.degenerate_triangles = rep.duplicate_triangles = 0;
    for (const auto& t : mesh.triangles) {
        if (same_position(t[0], t[1]) || same_position(t[1], t[2]) || same_position(t[0], t[2])) {
            ++rep.degenerate_triangles;
            continue;
        }
        std::array<std::uint32_t, 3> sorted = t;
        std::sort(sorted.begin(), sorted.end());
        if (!seen.insert(sorted).second) {
            ++rep.duplicate_triangles;
            continue;
        }
        kept.push_back(t);
    }
    if (rep.degenerate_triangles == 0 && rep.duplicate_triangles == 0) return {};
    rep.dropped_degenerate = drop;
    if (drop) mesh.triangles = std::move(kept);
    return (std::to_string(rep.degenerate_triangles) + " degenerate triangles (two corners at one point) and " +
                           std::to_string(rep.duplicate_triangles) + " duplicate triangles (the same three vertices as an "
                           "earlier one) in the source" +
                           (drop ? ": dropped" : ": kept (drop them with --drop-degenerate or \"drop_degenerate\": true)"));
}

// The target skeleton as retarget needs it: names (and parents) only. Retargeting matches
// names and replaces the source skeleton with this one, which nothing reads afterwards, so the
// bind matrices to_scene_skeleton would derive are not needed here.
scene::Skeleton bone_names(const Skeleton& scp) {
    scene::Skeleton out;
    out.bones.resize(scp.bones.size());
    for (std::size_t i = 0; i < scp.bones.size(); ++i) {
        out.bones[i].name = scp.bones[i].name;
        out.bones[i].parent = scp.bones[i].parent == no_parent ? -1 : static_cast<std::int32_t>(scp.bones[i].parent);
    }
    return out;
}

// Box of the finite positions (min xyz, max xyz); zeros when there is none.
std::array<float, 6> box_of(std::span<const scene::Vec3> positions) {
    const scene::BoundingBox b = scene::bounding_box(positions);
    return {b.min[0], b.min[1], b.min[2], b.max[0], b.max[1], b.max[2]};
}

std::string box_text(const std::array<float, 6>& b) {
    char buf[192];
    std::snprintf(buf, sizeof buf, "(%g, %g, %g) to (%g, %g, %g), extent %g x %g x %g", b[0], b[1], b[2], b[3], b[4],
                  b[5], b[3] - b[0], b[4] - b[1], b[5] - b[2]);
    return buf;
}

// The scale warning (empty when every extent is within 4x of the old one). Axes where both
// extents are negligible (below 1e-6 of the larger box) are not compared.
std::string scale_mismatch(const std::array<float, 6>& old_box, const std::array<float, 6>& new_box) {
    double largest = 0;
    for (int i = 0; i < 3; ++i)
        largest = std::max({largest, double(old_box[3 + i]) - old_box[i], double(new_box[3 + i]) - new_box[i]});
    if (!(largest > 0)) return {};
    double worst = 1;
    int worst_axis = -1;
    for (int i = 0; i < 3; ++i) {
        const double o = double(old_box[3 + i]) - old_box[i], n = double(new_box[3 + i]) - new_box[i];
        if (o < 1e-6 * largest && n < 1e-6 * largest) continue;
        const double ratio = o <= 0 || n <= 0 ? INFINITY : std::max(n / o, o / n);
        if (ratio > 4 && ratio > worst) {
            worst = ratio;
            worst_axis = i;
        }
    }
    if (worst_axis < 0) return {};
    const double o = double(old_box[3 + worst_axis]) - old_box[worst_axis];
    const double n = double(new_box[3 + worst_axis]) - new_box[worst_axis];
    char factor[64];
    if (std::isfinite(worst)) std::snprintf(factor, sizeof factor, "%.3g times %s", worst, n > o ? "larger" : "smaller");
    else std::snprintf(factor, sizeof factor, "flat where the other is not");
    std::string hint;
    // A factor near 100 is the centimetre/metre mix-up of Blender's default FBX export.
    if (n > o && worst > 30 && worst < 300)
        hint = "; a factor near 100 is a file in centimetres read without its unit: drop --units file (or --scale 0.01)";
    return std::string("the new mesh is ") + factor + " than the mesh it replaces along " + "xyz"[worst_axis] +
           " (new box " + box_text(new_box) + "; replaced box " + box_text(old_box) + ")" + hint +
           "; if the source is in another unit or lies on its side use --scale S or --axis "
           "zup-to-yup (in a manifest: \"units\", \"scale\", \"axis\", or \"allow_scale_change\": true to keep it)";
}

}  // namespace

scene::Mat4 scp_bind_matrix(const ScpBone& bone) {
    std::array<float, 16> m = bone.matrix();
    if (affine_layout(m) != AffineLayout::translation_in_row3) return m;
    scene::Mat4 t;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) t[r * 4 + c] = m[c * 4 + r];
    return t;
}

scene::Skeleton to_scene_skeleton(const Skeleton& scp, std::vector<std::string>* warnings) {
    scene::Skeleton out;
    out.bones.resize(scp.bones.size());
    for (std::size_t i = 0; i < scp.bones.size(); ++i) {
        auto& b = out.bones[i];
        b.name = scp.bones[i].name;
        b.parent = scp.bones[i].parent == no_parent ? -1 : static_cast<std::int32_t>(scp.bones[i].parent);
        b.bind = scp_bind_matrix(scp.bones[i]);
        try {
            b.inverse_bind = scene::inverse(b.bind);
        } catch (const Error&) {
            if (warnings) warnings->push_back("SCP bone '" + b.name + "' has a singular matrix; exported as identity");
            b.bind = b.inverse_bind = scene::identity_matrix;
        }
    }
    // Parents are validated by decode_skeleton (in range, not self); cycles leave the bone a root.
    for (std::size_t i = 0; i < out.bones.size(); ++i) {
        std::size_t steps = 0;
        for (std::int32_t q = out.bones[i].parent; q >= 0; q = out.bones[q].parent)
            if (++steps > out.bones.size()) {
                if (warnings) warnings->push_back("SCP bone '" + out.bones[i].name + "' is in a parent cycle; exported as a root");
                out.bones[i].parent = -1;
                break;
            }
    }
    scene::derive_bone_matrices(out);
    return out;
}

scene::Mesh to_scene_mesh(const QuartetMesh& qm, std::string name, std::uint32_t material) {
    scene::Mesh m;
    m.name = std::move(name);
    m.material = material;
    const Stream& s = qm.stream;
    std::size_t n = s.vertices.size();
    m.positions.resize(n);
    m.normals.resize(n);
    m.tangents.resize(n);
    m.uv0.resize(n);
    m.uv1.resize(n);
    m.skin.resize(n);
    // Raw lists as the slots give them (palette order), gathered by vertex then appended in order.
    std::vector<std::array<scene::Influence, 4>> lists(n);
    std::vector<std::uint32_t> list_sizes(n, 0);
    for (const auto& batch : s.batches) {
        auto palette = batch.header.bones();
        for (std::uint32_t k = 0; k < batch.vertex_count; ++k) {
            std::size_t v = batch.first_vertex + k;
            const VertexRecord& r = s.vertices[v];
            m.positions[v] = r.position();
            m.normals[v] = r.normal();
            auto t = r.tangent();
            m.tangents[v] = {t[0], t[1], t[2], r.tangent_sign()};
            m.uv0[v] = r.uv(0);
            m.uv1[v] = r.uv(1);
            auto w = r.weights();
            // The used slots: the raw list in palette order, and (weight, bone) pairs for
            // SkinWeights (the unused pairs keep weight 0, so they sort after every used one).
            std::array<std::pair<std::uint8_t, std::uint32_t>, 4> slots{};
            std::uint32_t used = 0;
            for (int slot = 0; slot < 4; ++slot)
                if (palette[slot] != unused_bone && w[slot] > 0) {
                    lists[v][used] = {palette[slot], float(w[slot]) / 255.0f};
                    slots[used++] = {w[slot], palette[slot]};
                }
            list_sizes[v] = used;
            // SkinWeights order: weight descending, bone ascending.
            std::sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) {
                return a.first != b.first ? a.first > b.first : a.second < b.second;
            });
            scene::SkinWeights sw;
            sw.count = static_cast<std::uint8_t>(used);
            for (std::size_t i = 0; i < used; ++i) {
                sw.weights[i] = slots[i].first;
                sw.bones[i] = slots[i].second;
            }
            m.skin[v] = sw;
        }
    }
    m.influences.reserve(n, n * 4);
    for (std::size_t v = 0; v < n; ++v) m.influences.push_back(std::span(lists[v].data(), list_sizes[v]));
    m.triangles = qm.triangles;
    return m;
}

scene::Scene quartet_to_scene(const QuartetModel& model, std::optional<std::size_t> mesh_index) {
    scene::Scene out;
    out.source = model.name;
    out.format = "shred";
    out.skeleton = to_scene_skeleton(model.skeleton, &out.warnings);
    if (mesh_index && *mesh_index >= model.meshes.size())
        throw Error(ErrorKind::usage, "mesh " + std::to_string(*mesh_index) + " does not exist (the quartet has " +
                                          std::to_string(model.meshes.size()) + ")", model.name);
    for (std::size_t i = 0; i < model.meshes.size(); ++i) {
        if (mesh_index && i != *mesh_index) continue;
        const auto& qm = model.meshes[i];
        std::uint32_t name_hash = be32_at(qm.head, quartet_v1::name_hash);
        std::uint32_t material_hash = be32_at(qm.head, quartet_v1::material_hash);
        std::string material = "material_" + hex8(material_hash);
        auto it = std::find(out.materials.begin(), out.materials.end(), material);
        auto material_index = static_cast<std::uint32_t>(it - out.materials.begin());
        if (it == out.materials.end()) out.materials.push_back(material);
        out.meshes.push_back(to_scene_mesh(qm, "mesh" + std::to_string(i) + "_" + hex8(name_hash), material_index));
    }
    return out;
}

SkinnedMesh to_skinned_mesh(const scene::Mesh& m) {
    std::size_t n = m.vertex_count();
    if (m.skin.size() != n)
        throw Error(ErrorKind::format, "mesh '" + m.name + "' has no processed skin weights");
    // bytes / 255 come back from the preprocessor's quantiser as exactly these bytes.
    static const std::array<float, 256> weight_of_byte = [] {
        std::array<float, 256> t{};
        for (std::size_t b = 0; b < t.size(); ++b) t[b] = float(b) / 255.0f;
        return t;
    }();
    SkinnedMesh out;
    // Each vertex is made whole and appended (a resize would zero-fill them all first).
    out.vertices.reserve(n);
    for (std::size_t v = 0; v < n; ++v) {
        SkinnedVertex sv;
        sv.position = m.positions[v];
        sv.normal = m.normals[v];
        sv.tangent = {m.tangents[v][0], m.tangents[v][1], m.tangents[v][2]};
        sv.tangent_sign = m.tangents[v][3];
        sv.uv0 = m.uv0[v];
        sv.uv1 = m.uv1[v];
        const auto& s = m.skin[v];
        sv.influence_count = s.count;
        for (std::size_t k = 0; k < s.count; ++k) {
            if (s.bones[k] >= unused_bone)
                throw Error(ErrorKind::format, "mesh '" + m.name + "' vertex " + std::to_string(v) + " names bone " +
                                                   std::to_string(s.bones[k]) + "; SHRED palettes hold bones 0 to 254");
            sv.influences[k] = {s.bones[k], weight_of_byte[s.weights[k]]};
        }
        out.vertices.push_back(sv);
    }
    out.triangles = m.triangles;
    return out;
}

namespace {

QuartetEntries quartet_entries(const Pak& pak, std::string_view quartet_base) {
    auto q = find_quartet(pak, quartet_base);
    if (!q) throw Error(ErrorKind::usage, "no quartet '" + std::string(quartet_base) + "' in the PAK", pak.file);
    // A quartet of static meshes is outside shred-quartet/1: say so instead of failing on the
    // first record's layout (its metadata is not the skinned record table).
    if (is_static_quartet(pak.data(q->meta)))
        throw Error(ErrorKind::usage,
                    "quartet '" + std::string(quartet_base) + "' is not skinned (every mesh has 0xFFFFFFFF at +0x9C): " +
                        "static meshes are outside " + quartet_v1::name + " and are kept verbatim, not exported or replaced",
                    pak.file);
    return std::move(*q);
}

}  // namespace

QuartetModel read_pak_quartet(const Pak& pak, std::string_view quartet_base) {
    return read_pak_entries(pak, quartet_entries(pak, quartet_base));
}

Bytes replace_from_scene(const Pak& pak, std::string_view quartet_base, std::size_t mesh_index, scene::Scene source,
                         const SceneReplaceOptions& options, SceneReplaceReport* report) {
    SceneReplaceReport local;
    SceneReplaceReport& rep = report ? *report : local;
    const QuartetEntries entries = quartet_entries(pak, quartet_base);
    QuartetModel model = read_pak_entries(pak, entries);
    if (mesh_index >= model.meshes.size())
        throw Error(ErrorKind::usage, "mesh " + std::to_string(mesh_index) + " does not exist (the quartet has " +
                                          std::to_string(model.meshes.size()) + ")", model.name);
    stream_histograms(model.meshes[mesh_index].stream, rep.old_batches_by_influence, rep.old_vertices_by_influence);

    if (options.source_mesh && options.source_mesh_name)
        throw Error(ErrorKind::usage, "pick the source mesh by index or by name, not both", source.source);
    auto mesh_list = [&] {
        std::string list;
        for (std::size_t i = 0; i < source.meshes.size(); ++i)
            list += (i ? ", " : "") + std::to_string(i) + " '" + source.meshes[i].name + "' (" +
                    std::to_string(source.meshes[i].vertex_count()) + " vertices)";
        return list;
    };
    std::optional<std::size_t> pick = options.source_mesh;
    if (options.source_mesh_name) {
        const std::string& wanted = *options.source_mesh_name;
        auto lower = [](std::string t) {
            for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return t;
        };
        std::vector<std::size_t> exact, folded;
        for (std::size_t i = 0; i < source.meshes.size(); ++i) {
            if (source.meshes[i].name == wanted) exact.push_back(i);
            if (lower(source.meshes[i].name) == lower(wanted)) folded.push_back(i);
        }
        const auto& found = exact.empty() ? folded : exact;
        if (found.size() != 1)
            throw Error(ErrorKind::usage,
                        std::string(found.empty() ? "no" : "more than one") + " source mesh is called '" + wanted +
                            "'; the source has " + mesh_list() + " (pick one by index if names repeat)",
                        source.source);
        pick = found.front();
    }
    if (pick) {
        if (*pick >= source.meshes.size())
            throw Error(ErrorKind::usage,
                        "the source has " + std::to_string(source.meshes.size()) +
                            (source.meshes.size() == 1 ? " mesh" : " meshes") + " (numbered from 0); there is no mesh " +
                            std::to_string(*pick) + "; the source has " + mesh_list(),
                        source.source);
        scene::Mesh chosen = std::move(source.meshes[*pick]);
        source.meshes.clear();
        source.meshes.push_back(std::move(chosen));
    }
    if (source.skeleton.bones.empty())
        throw Error(ErrorKind::format, "the source has no skeleton: a SHRED character mesh needs bone weights",
                    source.source);
    try {
        rep.retarget = scene::retarget(source, bone_names(model.skeleton), options.bone_map);
    } catch (const Error&) {
        rep.warnings = source.warnings;  // e.g. one line per unmapped bone (the error lists 20)
        throw;
    }
    rep.weights = scene::process_weights(source);

    rep.merged_meshes.clear();
    for (const auto& m : source.meshes) rep.merged_meshes.emplace_back(m.name, m.vertex_count());
    scene::Mesh merged;
    if (source.meshes.size() == 1) {
        merged = std::move(source.meshes.front());
    } else {
        merged.name = source.meshes.empty() ? std::string() : source.meshes.front().name;
        for (const auto& m : source.meshes) append_mesh(merged, m);
    }
    // From here on the processed skin carries the weights; the raw lists are not needed.
    merged.influences.clear();
    bool generated = !source.meshes.empty();
    for (const auto& m : source.meshes) generated = generated && m.tangents_generated;
    if (source.meshes.size() == 1) generated = merged.tangents_generated;
    if (generated) rep.kept_target_tangents = keep_target_tangents(merged, model.meshes[mesh_index].stream);
    rep.source_vertices = merged.vertex_count();
    if (options.weld) merged = scene::weld(std::move(merged), {options.weld_tolerance}).mesh;
    rep.welded_vertices = merged.vertex_count();
    const std::string triangle_warning = count_degenerate_triangles(merged, options.drop_degenerate, rep);

    std::string where = source.source + ": mesh '" + merged.name + "'";
    scene::MeshCheckOptions check;
    check.bone_count = model.skeleton.bones.size();
    check.allow_nan_normals = true;
    try {
        scene::check_mesh(merged, where, check);
        scene::check_uv_f16_range(merged, where);
    } catch (Error& e) {
        e.set_file_if_empty(source.source);
        throw;
    }
    rep.warnings = source.warnings;
    if (!triangle_warning.empty()) rep.warnings.push_back(triangle_warning);
    if (source.meshes.size() > 1) {
        std::string list;
        for (std::size_t i = 0; i < rep.merged_meshes.size(); ++i)
            list += (i ? ", " : "") + std::string("'") + rep.merged_meshes[i].first + "' (" +
                    std::to_string(rep.merged_meshes[i].second) + " vertices)";
        rep.warnings.push_back(std::to_string(source.meshes.size()) + " source meshes were merged into one: " + list +
                               "; pick one with --source-mesh (index or name)");
    }
    // A plain vector, not a views::transform: clang 14 (the fuzz build's compiler, Debian 12)
    // cannot compile libstdc++ 12's ranges.
    std::vector<std::array<float, 3>> old_positions;
    old_positions.reserve(model.meshes[mesh_index].stream.vertices.size());
    for (const auto& r : model.meshes[mesh_index].stream.vertices) old_positions.push_back(r.position());
    rep.old_box = box_of(old_positions);
    rep.new_box = box_of(merged.positions);
    // The size rule every game shares (scene/scale_check.hpp): beyond 10x refused unless
    // allowed; the per-axis comparison at 4x is a warning naming the options that fix it.
    rep.scale_change = scene::check_scale_change(scene::compare_scale(old_positions, merged.positions),
                                                 scene::scale_source(source), options.scale_check == ScaleCheck::warn,
                                                 source.source);
    if (!rep.scale_change.empty()) rep.warnings.push_back(rep.scale_change);
    rep.scale_mismatch = scale_mismatch(rep.old_box, rep.new_box);
    if (!rep.scale_mismatch.empty() && rep.scale_change.empty()) rep.warnings.push_back(rep.scale_mismatch);
    restore_signs_of_non_finite_normals(merged, model.meshes[mesh_index].stream);

    // The model read above is handed over (the input is not read twice); the histograms come
    // from the new stream as the replacement's self-check decoded it from the written files.
    PakReplacement done = replace_mesh_in_pak(pak, entries, std::move(model), mesh_index, to_skinned_mesh(merged),
                                              options.replace, &rep.counts);
    stream_histograms(done.model.meshes[mesh_index].stream, rep.new_batches_by_influence,
                      rep.new_vertices_by_influence);
    return std::move(done.pak);
}

}  // namespace mod::shred
