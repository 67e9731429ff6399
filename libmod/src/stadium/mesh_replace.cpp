// Mesh replacement, step 4: the layout (one root: 17 05 1C 05 1D … 06 06 01), the kept
// non-mesh commands and animations, the build, the read-back checks and the ROM (mesh_replace.hpp).
#include "mesh_replace_detail.hpp"

#include "libmod/core/error.hpp"
#include "libmod/scene/draw_compare.hpp"
#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/palette_edit.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>

namespace mod::stadium {

namespace {

using namespace mesh_detail;

bool is_mesh_op(std::uint8_t op) noexcept {
    return op == 0x17 || op == 0x1C || op == 0x1E || op == 0x20 || op == 0x21 || op == 0x22 || op == 0x23;
}
bool is_flow_op(std::uint8_t op) noexcept { return op <= 0x06; }

// Non-mesh commands kept, per bone (index nb = before the first bone, at the top level).
struct Kept {
    std::vector<std::vector<Bytes>> per_bone;
};

Kept kept_commands(const Model& model, MeshPlan& plan, const std::string& path) {
    Kept k;
    k.per_bone.resize(model.bones.size() + 1);
    std::map<std::uint32_t, std::size_t> bone_at;
    for (std::size_t i = 0; i < model.bones.size(); ++i) bone_at[model.bones[i].command] = i;
    std::size_t scales = 0;
    for (const auto& r : model.commands) scales += r.op == 0x1C;
    if (scales > 1)
        throw Error(ErrorKind::usage, "the layout has " + std::to_string(scales) +
                                          " scale commands (0x1C); replacing the mesh of such a model is not supported", {},
                    no_offset, path);
    std::vector<std::pair<std::uint8_t, std::int32_t>> at_depth;  // last node per depth: op, bone
    for (std::size_t i = 0; i < model.commands.size(); ++i) {
        const LayoutCommandRecord& r = model.commands[i];
        if (is_flow_op(r.op)) continue;
        const std::size_t d = r.depth;
        std::int32_t innermost = -1;
        for (std::size_t j = 0; j < std::min(d, at_depth.size()); ++j)
            if (at_depth[j].second >= 0) innermost = at_depth[j].second;
        auto b = bone_at.find(r.offset);
        const std::int32_t bone = r.op == 0x1D && b != bone_at.end() ? std::int32_t(b->second) : -1;
        if (r.op == 0x1D)
            for (std::size_t j = 0; j < std::min(d, at_depth.size()); ++j)
                if (at_depth[j].first != 0x17 && at_depth[j].first != 0x1C && at_depth[j].first != 0x1D)
                    throw Error(ErrorKind::usage, "bone " + std::to_string(bone) + " sits under layout command 0x" +
                                                      [](std::uint8_t op) { char s[4]; std::snprintf(s, 4, "%02X", op); return std::string(s); }(at_depth[j].first) +
                                                      ", which the replacement does not rebuild; not supported", {},
                                r.offset, path);
        if (at_depth.size() < d + 1) at_depth.resize(d + 1, {0, -1});
        at_depth.resize(d + 1);
        at_depth[d] = {r.op, bone};
        if (r.op == 0x1D || is_mesh_op(r.op)) continue;
        const bool opened = i + 1 < model.commands.size() && model.commands[i + 1].op == 0x05;
        const std::uint32_t end = r.offset + static_cast<std::uint32_t>(r.raw.size());
        const bool pointer = std::any_of(model.map.pointers.begin(), model.map.pointers.end(),
                                         [&](const PointerSite& p) { return p.site >= r.offset && p.site < end; });
        if (opened || pointer) {
            ++plan.dropped_commands;
            char buf[160];
            std::snprintf(buf, sizeof buf, "layout command 0x%02X at 0x%X dropped (%s)", r.op, r.offset,
                          opened ? "it opens a level" : "it holds a pointer into the fragment");
            plan.warnings.push_back(buf);
            continue;
        }
        k.per_bone[innermost >= 0 ? std::size_t(innermost) : model.bones.size()].push_back(r.raw);
        ++plan.kept_commands;
    }
    return k;
}

std::vector<std::int16_t> words_of(const AnimationArray& a, bool prepend) {
    std::vector<std::int16_t> w;
    if (prepend && a.word_before) w.push_back(static_cast<std::int16_t>(*a.word_before));
    for (auto x : a.words) w.push_back(static_cast<std::int16_t>(x));
    return w;
}

void copy_animations(const Model& model, ModelBuilder& b, MeshPlan& plan, const std::string& path) {
    const ModelAnimations anims = read_animations(model, path);
    for (const auto& a : anims.skeletal) {
        SkeletalAnimation s;
        s.flags = a.flags;
        s.unknown2 = a.unknown2;
        s.start_frame = a.start_frame;
        s.loop_frame = a.loop_frame;
        s.frame_count = a.frame_count;
        // A scale array read at element −1 (packed n == 0, offset 0) keeps that word in front.
        const bool before = a.scale.word_before.has_value();
        for (const auto& d : a.descriptors) {
            SkeletalAnimation::Channel c{d.n_scale, d.n_rot, d.n_trans, d.interp, d.scale_off, d.rot_off, d.trans_off};
            if (before) {
                if (c.scale_off == 0xFFFF)
                    throw Error(ErrorKind::usage, "animation " + std::to_string(a.index) +
                                                      ": a scale offset of 65535 with a word before the array; not supported", {}, no_offset, path);
                ++c.scale_off;
            }
            s.channels.push_back(c);
        }
        s.scale = words_of(a.scale, before);
        s.rotation = words_of(a.rotation, false);
        s.translation = words_of(a.translation, false);
        b.add_animation(std::move(s));
    }
    for (const auto& a : anims.aux) {
        AuxAnimation x;
        x.flags = a.flags;
        x.unknown2 = a.unknown2;
        x.start_frame = a.start_frame;
        x.loop_frame = a.loop_frame;
        x.frame_count = a.frame_count;
        const bool before = a.stream_before.has_value();
        for (const auto& c : a.channels) x.channels.push_back({c.count, static_cast<std::uint16_t>(c.base + (before ? 1 : 0))});
        if (before) x.stream.push_back(*a.stream_before);
        x.stream.insert(x.stream.end(), a.stream.begin(), a.stream.end());
        b.add_aux_animation(std::move(x));
    }
    plan.animations = anims.skeletal.size();
    plan.aux_animations = anims.aux.size();
    if (!anims.aux.empty())
        plan.warnings.push_back(std::to_string(anims.aux.size()) +
                                " texture animations are kept (battle rows name them) but drive no material now: "
                                "the new materials have no texture-animation channel");
}

struct LayoutWriter {
    const Model& model;
    const std::vector<MaterialOut>& mats;
    const std::vector<BoneLists>& lists;
    const Kept& kept;
    LayoutScript& l;
    std::vector<std::vector<std::size_t>> children;

    void material(std::uint32_t m) {
        const MaterialOut& o = mats[m];
        l.material(o.combiner, -1, o.material_dl, o.texture, o.palette, 0xFFFFFFFFu);
    }
    void bone(std::size_t b) {
        const ModelBone& mb = model.bones[b];
        l.bone(mb.id, mb.flags, mb.channel, {mb.translation[0], mb.translation[1], mb.translation[2]},
               {mb.rotation[0], mb.rotation[1], mb.rotation[2]}, mb.scale[0], mb.scale[1], mb.scale[2]);
        l.open();
        const auto& seams = lists[b].seams;
        for (std::size_t k = 0; k < seams.size(); ++k) {
            if (k > 0) {  // chunk 0's parent vertices were loaded under the parent, just before this bone
                material(seams[k].material);
                l.draw_with_bone(mesh_layer, model.bones[std::size_t(mb.parent)].id, seams[k].parent_load);
            }
            material(seams[k].material);
            l.draw(mesh_layer, seams[k].child_draw);
        }
        for (const auto& raw : kept.per_bone[b]) l.raw(raw);
        for (const auto& [m, dl] : lists[b].own) {
            material(m);
            l.draw(mesh_layer, dl);
        }
        for (std::size_t c : children[b]) {
            if (!lists[c].seams.empty()) {
                material(lists[c].seams[0].material);
                l.draw(mesh_layer, lists[c].seams[0].parent_load);
            }
            bone(c);
        }
        l.close();
    }
};

// Rotation-normalised corners (bone, x, y, z) ×3: the winding is kept, the first corner is not.
using TriKey = std::array<std::int32_t, 12>;
TriKey tri_key(std::array<std::array<std::int32_t, 4>, 3> c) {
    std::size_t first = 0;
    for (std::size_t k = 1; k < 3; ++k)
        if (c[k] < c[first]) first = k;
    TriKey t{};
    for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t j = 0; j < 4; ++j) t[k * 4 + j] = c[(first + k) % 3][j];
    return t;
}

[[noreturn]] void defect(const std::string& what, const std::string& path) {
    throw Error(ErrorKind::conflict, "the rebuilt model does not read back as planned: " + what +
                                         " (a modkit defect; nothing was written)", {}, no_offset, path);
}

void check_read_back(const Model& old, const Model& now, const std::vector<TriKey>& expected, const MeshPlan& plan,
                     const std::string& path) {
    if (now.bones.size() != old.bones.size()) defect("bone count", path);
    for (std::size_t i = 0; i < old.bones.size(); ++i) {
        const ModelBone &a = old.bones[i], &b = now.bones[i];
        if (a.id != b.id || a.flags != b.flags || a.channel != b.channel || a.translation != b.translation ||
            a.rotation != b.rotation || a.scale != b.scale || a.parent != b.parent)
            defect("bone " + std::to_string(i), path);
    }
    if (old.root_scale.value_or(std::array<std::int32_t, 3>{0x10000, 0x10000, 0x10000}) != now.root_scale) defect("root scale", path);
    if (now.triangles.size() != plan.triangles) defect("triangle count", path);
    std::vector<TriKey> got;
    for (const auto& t : now.triangles) {
        std::array<std::array<std::int32_t, 4>, 3> c{};
        for (int k = 0; k < 3; ++k) {
            const auto& v = now.vertices[t.corners[k].vertex];
            c[k] = {now.draws[t.corners[k].dl].bone, v.position[0], v.position[1], v.position[2]};
        }
        got.push_back(tri_key(c));
    }
    std::sort(got.begin(), got.end());
    if (got != expected) defect("triangles", path);
    // Every animation samples as before.
    const ModelAnimations a = read_animations(old, path), b = read_animations(now, path);
    if (a.skeletal.size() != b.skeletal.size() || a.aux.size() != b.aux.size()) defect("animation count", path);
    for (std::size_t i = 0; i < a.skeletal.size(); ++i)
        for (std::int32_t f = 0; f < std::min<std::int32_t>(a.skeletal[i].frame_count, 256); ++f)
            if (sample_bones(old, a.skeletal[i], f) != sample_bones(now, b.skeletal[i], f))
                defect("animation " + std::to_string(i) + " frame " + std::to_string(f), path);
    for (std::size_t i = 0; i < a.aux.size(); ++i)
        for (std::size_t c = 0; c < a.aux[i].channels.size(); ++c)
            for (std::int32_t f = 0; f < std::min<std::int32_t>(a.aux[i].frame_count, 256); ++f)
                if (sample_aux(a.aux[i], c, f) != sample_aux(b.aux[i], c, f))
                    defect("texture animation " + std::to_string(i), path);
}

std::uint32_t block_of(std::size_t decompressed) { return static_cast<std::uint32_t>((decompressed + 15) / 16 * 16 + 0x10); }

}  // namespace

MeshReplacement replace_mesh(const Model& model, scene::Scene source, const MeshReplaceOptions& options,
                             const std::string& path) {
    MeshReplacement out;
    MeshPlan& plan = out.plan;
    if (model.map.layout_scripts.size() != 1)
        throw Error(ErrorKind::usage, "the model has " + std::to_string(model.map.layout_scripts.size()) +
                                          " layout scripts; replacing the mesh of such a model is not supported", {},
                    no_offset, path);
    plan.root_scale = model.root_scale ? (*model.root_scale)[0] : 0x10000;
    plan.old_fragment = static_cast<std::uint32_t>(encode_fragment(model.fragment).size());
    const Kept kept = kept_commands(model, plan, path);
    MeshPartition part = partition_mesh(model, source, options, plan);

    ModelBuilder b(model.root.model_id);
    b.set_root_unknowns(model.root.unknown2, model.root.unknown6);
    const std::vector<MaterialOut> mats = build_materials(model, source, part, b, plan);
    const std::vector<BoneLists> lists = build_lists(model, source, part, mats, b, plan);
    copy_animations(model, b, plan, path);

    LayoutWriter w{model, mats, lists, kept, b.layout(), std::vector<std::vector<std::size_t>>(model.bones.size())};
    std::vector<std::size_t> roots;
    for (std::size_t i = 0; i < model.bones.size(); ++i)
        (model.bones[i].parent >= 0 ? w.children[std::size_t(model.bones[i].parent)] : roots).push_back(i);
    const auto s = model.root_scale.value_or(std::array<std::int32_t, 3>{0x10000, 0x10000, 0x10000});
    auto& l = b.layout();
    l.model_header().open().scale(s[0], s[1], s[2]).open();
    for (const auto& raw : kept.per_bone.back()) l.raw(raw);
    for (std::size_t r : roots) {
        if (!lists[r].seams.empty()) defect("a root bone has seams", path);
        w.bone(r);
    }
    l.close().close().end();

    out.fragment = b.build();
    plan.new_fragment = static_cast<std::uint32_t>(out.fragment.size());
    plan.old_block = block_of(plan.old_fragment);
    plan.new_block = block_of(plan.new_fragment);

    // The expected triangles, from the partition.
    std::vector<scene::Mat4> inv;
    for (const auto& bone : target_skeleton(model).bones) inv.push_back(bone.inverse_bind);
    std::vector<TriKey> expected;
    MeshPlan scratch;
    auto add = [&](const PartTriangle& t, std::int32_t draw_bone_parent, std::int32_t child) {
        std::array<std::array<std::int32_t, 4>, 3> c{};
        for (int k = 0; k < 3; ++k) {
            const Vertex v = make_vertex(model, source, part, inv, mats[t.material], t.v[k], t.bone[k], scratch);
            const std::int32_t drawn_by = t.bone[k] == draw_bone_parent ? draw_bone_parent : child;
            c[k] = {drawn_by, v.x, v.y, v.z};
        }
        expected.push_back(tri_key(c));
    };
    for (std::size_t bone = 0; bone < part.own.size(); ++bone)
        for (const auto& t : part.own[bone]) add(t, -2, std::int32_t(bone));
    for (std::size_t bone = 0; bone < part.seam.size(); ++bone)
        for (const auto& t : part.seam[bone]) add(t, model.bones[bone].parent, std::int32_t(bone));
    std::sort(expected.begin(), expected.end());

    Model now;
    try {
        now = read_model(out.fragment, {}, path);
    } catch (const Error& e) {
        defect(e.message(), path);
    }
    check_read_back(model, now, expected, plan, path);
    if (plan.new_fragment >= plan.limits.fragment_max)
        throw Error(ErrorKind::limit, "the new fragment is " + std::to_string(plan.new_fragment) + " bytes (0x" +
                                          [&] { char h[16]; std::snprintf(h, 16, "%X", plan.new_fragment); return std::string(h); }() +
                                          "); a fragment must stay below 0x100000 (pointers resolve by their low 20 bits)", {},
                    no_offset, path);
    return out;
}

namespace {

// `source` with each bone renamed as `map` sends it to `target` (bone_map.hpp's rules: an
// explicit pair, else its own name when the target has it, else the first strip rule that
// gives a target's name); bones the map sends nowhere keep their names.
scene::Scene named_by_map(scene::Scene source, const scene::BoneMap& map, const scene::Skeleton& target) {
    for (auto& bone : source.skeleton.bones) {
        if (const std::string* t = map.target_for(bone.name)) {
            bone.name = *t;
        } else if (!target.find(bone.name)) {
            for (const auto& prefix : map.strip_prefixes) {
                if (!std::string_view(bone.name).starts_with(prefix)) continue;
                const std::string stripped = bone.name.substr(prefix.size());
                if (target.find(stripped)) bone.name = stripped;
                break;
            }
        }
    }
    return source;
}

}  // namespace

RomMeshReplace replace_mesh_in_rom(const StadiumRom& rom, const Archive& archive, std::size_t model, scene::Scene source,
                                   const MeshReplaceOptions& options, const RepackOptions& repack) {
    const Model m = read_archive_model(archive, model);
    const std::string path = "archive[" + std::to_string(model) + "].fragment";
    // An unedited round trip, seen at the source (issue 30 item 4): the source draws what the old
    // model's export draws (its own export read back, no bone map, scale or axis given). The
    // rebuild below need not reproduce the original's encoding (a material drawn lit and unlit, a
    // 256-colour texture with few colours, a texture animation's channel) for the ROM to be kept.
    // Steps far below what the model stores (s16 positions, s8 normals, 1/32-texel S/T, 8-bit colours).
    const scene::DrawTolerance read_back{1.0f / 1024, 1.0f / 1024, 1.0f / 65536, 1.0f / 1024};
    // Through a bone map, the source's bones are compared under the names the map gives them
    // (a map that only renames compares alike; one that swaps or merges bones does not).
    const scene::Scene old_scene = model_scene(m);
    const bool source_is_old =
        options.keep_unchanged &&
        scene::draws_alike(options.bone_map.empty() && options.bone_map.strip_prefixes.empty()
                               ? source
                               : named_by_map(source, options.bone_map, old_scene.skeleton),
                           old_scene, read_back);
    MeshReplacement r = replace_mesh(m, std::move(source), options, path);
    r.plan.model = model;
    r.plan.limits = repack.limits;
    r.plan.old_entry = static_cast<std::uint32_t>((archive.entries[model].size + 15) / 16 * 16);
    // An unedited round trip (issue 30 item 4): the new model draws what the old one drew, as its
    // export shows it (scene::draws_alike of both models' scenes): the ROM is kept as it is.
    const Fragment f = parse_fragment(ByteReader(r.fragment, Endian::big, rom.file, path));
    if (source_is_old || scene::draws_alike(old_scene, model_scene(read_model(f, path)))) {
        r.plan.unchanged = true;
        if (options.keep_unchanged) {
            r.plan.new_entry = r.plan.old_entry;
            RomMeshReplace out;
            out.rom = image_of(rom);
            out.plan = std::move(r.plan);
            return out;
        }
    }
    const RepackResult rr = repack_model_edit(archive, model, f, repack);
    r.plan.new_entry = static_cast<std::uint32_t>((rr.entries[model].descriptor.size + 15) / 16 * 16);
    RomMeshReplace out;
    out.rom = write_archive(rom, rr, repack.rom_start);
    out.plan = std::move(r.plan);
    return out;
}

std::string format_mesh_plan(const MeshPlan& p) {
    std::string s;
    char buf[512];
    auto line = [&](const char* fmt, auto... args) {
        std::snprintf(buf, sizeof buf, fmt, args...);
        s += buf;
        s += '\n';
    };
    line("model %zu: %zu source vertices, %zu triangles -> %zu triangles drawn, %zu Vtx entries (limit 32767)", p.model,
         p.source_vertices, p.source_triangles, p.triangles, p.vtx_entries);
    line("vertex cache: %zu G_VTX loads of <= 32, %zu vertices loaded, %.3f per triangle", p.vtx_loads, p.vertices_loaded,
         p.loaded_per_triangle());
    line("seams: %zu triangles blended through the cache, %zu reassigned (%zu on three bones, %zu on bones not parent and child)",
         p.seams_blended, p.reassigned_three_bones + p.reassigned_not_adjacent, p.reassigned_three_bones,
         p.reassigned_not_adjacent);
    line("scale: root scale 0x%X kept; largest coordinate %d of 32767; source/model size %.3f", unsigned(p.root_scale),
         int(p.max_coordinate), p.size_ratio);
    for (const auto& b : p.bones)
        line("  %s: %zu vertices, %zu triangles (%zu seam)", b.name.c_str(), b.vertices, b.triangles, b.seam_triangles);
    for (std::size_t i = 0; i < p.materials.size(); ++i) {
        const auto& m = p.materials[i];
        const auto& t = p.textures[i];
        if (!t.shared_with.empty())
            line("  material '%s': %s (%s); texture %d, the same as material '%s'", m.name.c_str(),
                 m.lit ? "lit" : "vertex colours", m.shading_reason.c_str(), int(m.texture), t.shared_with.c_str());
        else
            line("  material '%s': %s (%s); texture %d %s %ux%u from %s (%ux%u), dE mean %.2f max %.2f, wrap %s/%s, TMEM %u of 4096",
                 m.name.c_str(), m.lit ? "lit" : "vertex colours", m.shading_reason.c_str(), int(m.texture), t.format.c_str(),
                 t.width, t.height, t.source.c_str(), t.source_width, t.source_height, t.mean_delta_e, t.max_delta_e,
                 t.wrap_s.c_str(), t.wrap_t.c_str(), t.tmem_bytes);
    }
    line("textures written: %zu, palettes: %zu (limit 255 each)", p.textures_written, p.palettes_written);
    line("kept: %zu animations, %zu texture animations, %zu layout commands (%zu dropped)", p.animations, p.aux_animations,
         p.kept_commands, p.dropped_commands);
    line("fragment: 0x%X -> 0x%X bytes (limit: below 0x%X)", p.old_fragment, p.new_fragment, p.limits.fragment_max);
    line("model block: 0x%X -> 0x%X bytes before graph nodes (limit 0x%X)", p.old_block, p.new_block, p.limits.model_block);
    if (p.old_entry || p.new_entry)
        line("stored entry: 0x%X -> 0x%X bytes (limit 0x%X)", p.old_entry, p.new_entry, p.limits.compressed_buffer);
    for (const auto& w : p.warnings) line("warning: %s", w.c_str());
    return s;
}

}  // namespace mod::stadium
