// Mesh replacement, step 3: vertex-cache display lists (mesh_replace.hpp). A bone's own
// triangles of one material: meshoptimizer's vertex-cache order, then meshlets of at most 32
// vertices, each one G_VTX of a run of the Vtx array into slots 0.. and its triangles. Seams
// (triangles on a child and its parent): greedy chunks, in vertex-cache order, whose parent and
// child vertices together fit the 32 slots; the parent's vertices are loaded into slots
// [0, na) by a list drawn with the parent's matrix, the child's into [na, na + nc) by the
// child's list, which then draws the chunk's triangles (the cache carries over between lists).
#include "mesh_replace_detail.hpp"

#include "libmod/core/error.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <map>
#include <unordered_map>

namespace mod::stadium::mesh_detail {

namespace {

constexpr std::uint32_t cache_slots = 32;

struct Writer {
    const Model& model;
    const scene::Scene& source;
    const MeshPartition& part;
    const std::vector<MaterialOut>& materials;
    ModelBuilder& b;
    MeshPlan& plan;
    std::vector<scene::Mat4> inverse_binds;

    // Appends a run of vertices (each in its bone's space) and returns the first array index.
    std::uint32_t run(const std::vector<std::pair<std::uint32_t, std::int32_t>>& vs, const MaterialOut& mat) {
        std::vector<Vertex> out;
        out.reserve(vs.size());
        for (const auto& [v, bone] : vs) out.push_back(make_vertex(model, source, part, inverse_binds, mat, v, bone, plan));
        if (b.vertex_count() + out.size() > max_model_vertices)
            throw Error(ErrorKind::limit, "the replacement needs more than " + std::to_string(max_model_vertices) +
                                              " Vtx entries (command 0x17 stores the count as s16); the source has " +
                                              std::to_string(part.vertices.size()) + " vertices, simplify it", source.source);
        plan.vtx_entries += out.size();
        return b.add_vertices(out);
    }

    void load(DisplayList& dl, std::uint32_t first, std::uint32_t count, std::uint32_t slot) {
        dl.vtx(first, count, slot);
        ++plan.vtx_loads;
        plan.vertices_loaded += count;
    }

    static void triangles(DisplayList& dl, const std::vector<std::array<std::uint8_t, 3>>& tris) {
        std::size_t i = 0;
        for (; i + 1 < tris.size(); i += 2)
            dl.tri2(tris[i][0], tris[i][1], tris[i][2], tris[i + 1][0], tris[i + 1][1], tris[i + 1][2]);
        if (i < tris.size()) dl.tri1(tris[i][0], tris[i][1], tris[i][2]);
    }

    DisplayList start(const MaterialOut& mat) {
        DisplayList dl;
        dl.raw(0xD9000000u, mat.lit ? lit_geometry_mode : unlit_geometry_mode);
        return dl;
    }

    // A bone's own triangles of one material.
    DlId own(std::int32_t bone, const std::vector<const PartTriangle*>& ts, const MaterialOut& mat) {
        std::unordered_map<std::uint32_t, std::uint32_t> local;
        std::vector<std::uint32_t> verts, indices;
        for (const PartTriangle* t : ts)
            for (auto v : t->v) {
                auto [it, added] = local.emplace(v, static_cast<std::uint32_t>(verts.size()));
                if (added) verts.push_back(v);
                indices.push_back(it->second);
            }
        std::vector<std::uint32_t> ordered(indices.size());
        meshopt_optimizeVertexCache(ordered.data(), indices.data(), indices.size(), verts.size());
        std::vector<float> pos(verts.size() * 3);
        for (std::size_t i = 0; i < verts.size(); ++i) {
            const SourceRef r = part.vertices[verts[i]];
            const auto& p = source.meshes[r.mesh].positions[r.index];
            pos[3 * i] = p[0], pos[3 * i + 1] = p[1], pos[3 * i + 2] = p[2];
        }
        constexpr std::size_t max_tris = 64;
        const std::size_t bound = meshopt_buildMeshletsBound(ordered.size(), cache_slots, max_tris);
        std::vector<meshopt_Meshlet> meshlets(bound);
        std::vector<unsigned> mv(bound * cache_slots);
        std::vector<unsigned char> mt(bound * max_tris * 3);
        const std::size_t n = meshopt_buildMeshlets(meshlets.data(), mv.data(), mt.data(), ordered.data(), ordered.size(),
                                                    pos.data(), verts.size(), sizeof(float) * 3, cache_slots, max_tris, 0.0f);
        DisplayList dl = start(mat);
        for (std::size_t k = 0; k < n; ++k) {
            const meshopt_Meshlet& m = meshlets[k];
            std::vector<std::pair<std::uint32_t, std::int32_t>> vs;
            for (unsigned i = 0; i < m.vertex_count; ++i) vs.push_back({verts[mv[m.vertex_offset + i]], bone});
            const std::uint32_t first = run(vs, mat);
            load(dl, first, m.vertex_count, 0);
            std::vector<std::array<std::uint8_t, 3>> tris;
            for (unsigned i = 0; i < m.triangle_count; ++i)
                tris.push_back({mt[m.triangle_offset + 3 * i], mt[m.triangle_offset + 3 * i + 1], mt[m.triangle_offset + 3 * i + 2]});
            triangles(dl, tris);
            plan.triangles += m.triangle_count;
        }
        dl.end();
        return b.add_display_list(std::move(dl));
    }

    // Seam triangles of `child` with its parent, one material: chunks.
    void seams(std::int32_t child, const std::vector<const PartTriangle*>& ts, std::uint32_t material, BoneLists& out) {
        const MaterialOut& mat = materials[material];
        const std::int32_t parent = model.bones[std::size_t(child)].parent;
        // Vertex-cache order over the (vertex, bone) keys.
        std::map<std::pair<std::uint32_t, std::int32_t>, std::uint32_t> local;
        std::vector<std::uint32_t> indices;
        for (const PartTriangle* t : ts)
            for (int k = 0; k < 3; ++k) {
                auto [it, added] = local.emplace(std::pair{t->v[k], t->bone[k]}, static_cast<std::uint32_t>(local.size()));
                indices.push_back(it->second);
            }
        std::vector<std::uint32_t> ordered(indices.size());
        meshopt_optimizeVertexCache(ordered.data(), indices.data(), indices.size(), local.size());
        // The triangle each ordered triple came from (the optimiser keeps triangles whole).
        std::map<std::array<std::uint32_t, 3>, std::vector<std::size_t>> by_key;
        for (std::size_t i = 0; i < ts.size(); ++i)
            by_key[{indices[3 * i], indices[3 * i + 1], indices[3 * i + 2]}].push_back(i);
        std::vector<const PartTriangle*> order;
        for (std::size_t i = 0; i < ordered.size(); i += 3) {
            auto& v = by_key[{ordered[i], ordered[i + 1], ordered[i + 2]}];
            if (v.empty()) throw Error(ErrorKind::conflict, "vertex-cache ordering lost a seam triangle (our defect)");
            order.push_back(ts[v.back()]);
            v.pop_back();
        }
        std::size_t i = 0;
        while (i < order.size()) {
            std::vector<std::pair<std::uint32_t, std::int32_t>> pa, pc;
            std::vector<const PartTriangle*> chunk;
            for (; i < order.size(); ++i) {
                auto na = pa, nc = pc;
                for (int k = 0; k < 3; ++k) {
                    const std::pair key{order[i]->v[k], order[i]->bone[k]};
                    auto& list = key.second == parent ? na : nc;
                    if (std::find(list.begin(), list.end(), key) == list.end()) list.push_back(key);
                }
                if (na.size() + nc.size() > cache_slots) break;
                pa = std::move(na);
                pc = std::move(nc);
                chunk.push_back(order[i]);
            }
            DisplayList ld = start(mat);
            load(ld, run(pa, mat), static_cast<std::uint32_t>(pa.size()), 0);
            ld.end();
            DisplayList cd = start(mat);
            load(cd, run(pc, mat), static_cast<std::uint32_t>(pc.size()), static_cast<std::uint32_t>(pa.size()));
            std::vector<std::array<std::uint8_t, 3>> tris;
            for (const PartTriangle* t : chunk) {
                std::array<std::uint8_t, 3> s{};
                for (int k = 0; k < 3; ++k) {
                    const std::pair key{t->v[k], t->bone[k]};
                    if (key.second == parent)
                        s[k] = static_cast<std::uint8_t>(std::find(pa.begin(), pa.end(), key) - pa.begin());
                    else
                        s[k] = static_cast<std::uint8_t>(pa.size() + (std::find(pc.begin(), pc.end(), key) - pc.begin()));
                }
                tris.push_back(s);
            }
            triangles(cd, tris);
            cd.end();
            plan.triangles += chunk.size();
            out.seams.push_back({material, b.add_display_list(std::move(ld)), b.add_display_list(std::move(cd))});
        }
    }
};

}  // namespace

std::vector<BoneLists> build_lists(const Model& model, const scene::Scene& source, const MeshPartition& part,
                                   const std::vector<MaterialOut>& materials, ModelBuilder& b, MeshPlan& plan) {
    Writer w{model, source, part, materials, b, plan, {}};
    for (const auto& bone : target_skeleton(model).bones) w.inverse_binds.push_back(bone.inverse_bind);
    std::vector<BoneLists> out(model.bones.size());
    for (std::size_t bone = 0; bone < model.bones.size(); ++bone) {
        // Materials in first-use order, so the output follows the source.
        std::vector<std::uint32_t> mats;
        std::map<std::uint32_t, std::vector<const PartTriangle*>> own, seam;
        for (const auto& t : part.own[bone]) {
            if (!own.count(t.material)) mats.push_back(t.material);
            own[t.material].push_back(&t);
        }
        for (std::uint32_t m : mats) out[bone].own.push_back({m, w.own(std::int32_t(bone), own[m], materials[m])});
        std::vector<std::uint32_t> smats;
        for (const auto& t : part.seam[bone]) {
            if (!seam.count(t.material)) smats.push_back(t.material);
            seam[t.material].push_back(&t);
        }
        for (std::uint32_t m : smats) w.seams(std::int32_t(bone), seam[m], m, out[bone]);
    }
    return out;
}

}  // namespace mod::stadium::mesh_detail
