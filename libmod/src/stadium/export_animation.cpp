// Animations in the glTF export (contract in export.hpp, spec doc/formats/stadium-animation.md
// "Export"): skeletal animations sampled per frame through the game's bone matrices, texture
// animations as switch joints (a copy of the material's mesh per texture shown, scaled to zero
// while another texture is shown).
#include "libmod/stadium/export.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace mod::stadium {

namespace {

using scene::Mat4;

std::string jstr(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\', o += c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
            o += b;
        } else o += c;
    }
    return o + "\"";
}

template <class T>
std::string jarray(const std::vector<T>& v) {
    std::string o = "[";
    for (std::size_t i = 0; i < v.size(); ++i) o += (i ? "," : "") + std::to_string(v[i]);
    return o + "]";
}

// Moves whose battle row plays skeletal animation `index` (aux: aux index) for this entry.
std::vector<std::uint32_t> moves_playing(const BattleTables* tables, std::size_t entry, std::size_t index, bool aux) {
    std::vector<std::uint32_t> out;
    if (!tables) return out;
    for (const auto& s : tables->species) {
        if (battle_model_entry(s.index) != entry) continue;
        for (const auto& r : s.rows)
            if (aux ? (r.aux() && *r.aux() == index) : r.skeletal() == index) out.push_back(r.move);
    }
    return out;
}

// Offsets of the context rows (battle_context_animation_rows) whose +0 starts skeletal
// animation `index` for this entry; none for aux animations (the game reads only +0 there).
std::vector<std::uint32_t> context_rows_playing(const BattleTables* tables, std::size_t entry, std::size_t index, bool aux) {
    std::vector<std::uint32_t> out;
    if (!tables || aux) return out;
    for (const auto& s : tables->species) {
        if (battle_model_entry(s.index) != entry) continue;
        for (const auto& r : s.context_rows)
            if (r.plays_context_animation() && r.skeletal() == index &&
                std::find(out.begin(), out.end(), r.offset) == out.end())
                out.push_back(r.offset);
    }
    return out;
}

std::string animation_name(const std::string& stem, std::size_t index, const std::vector<std::uint32_t>& moves,
                           const std::vector<std::uint32_t>& rows, const BattleTables* tables) {
    std::string n = stem + std::to_string(index);
    if (!tables) return n;
    if (moves.empty() && rows.empty()) return n + " (no move)";
    n += " (";
    if (!moves.empty()) {
        n += moves.size() > 1 ? "moves " : "move ";
        for (std::size_t i = 0; i < moves.size() && i < 8; ++i) n += (i ? "," : "") + std::to_string(moves[i]);
        if (moves.size() > 8) n += ",… " + std::to_string(moves.size()) + " moves";
    }
    if (!rows.empty()) {
        n += moves.empty() ? "" : "; ";
        n += rows.size() > 1 ? "rows " : "row ";
        for (std::size_t i = 0; i < rows.size(); ++i) n += (i ? "," : "") + hex(rows[i]);
    }
    return n + ")";
}

std::string moves_json(const std::vector<std::uint32_t>& moves, const std::vector<std::uint32_t>& rows,
                       const BattleTables* tables) {
    return tables ? ",\"moves\":" + jarray(moves) + ",\"context_rows\":" + jarray(rows) : std::string();
}

void add_skeletal(scene::Scene& sc, const Model& model, const SkeletalAnimationData& a, const BattleTables* tables,
                  std::size_t entry) {
    const std::size_t nb = model.bones.size();
    const std::int32_t frames = std::max<std::int32_t>(a.frame_count, 1);
    scene::Animation an;
    const auto moves = moves_playing(tables, entry, a.index, false);
    const auto rows = context_rows_playing(tables, entry, a.index, false);
    an.name = animation_name("anim", a.index, moves, rows, tables);
    std::vector<scene::AnimationChannel> t(nb), r(nb), s(nb);
    std::vector<bool> warned(nb, false);
    for (std::size_t b = 0; b < nb; ++b) {
        t[b].bone = r[b].bone = s[b].bone = static_cast<std::uint32_t>(b);
        t[b].path = scene::AnimationChannel::Path::translation;
        r[b].path = scene::AnimationChannel::Path::rotation;
        s[b].path = scene::AnimationChannel::Path::scale;
    }
    for (std::int32_t f = 0; f < frames; ++f) {
        const auto poses = sample_bones(model, a, f);
        const auto g = bone_globals(model, poses);
        for (std::size_t b = 0; b < nb; ++b) {
            const std::int32_t p = model.bones[b].parent;
            const bool parented = p >= 0 && static_cast<std::size_t>(p) < b;
            const Mat4 local = parented ? scene::multiply(scene::inverse(g[static_cast<std::size_t>(p)], "bone matrix"), g[b]) : g[b];
            double err = 0;
            const scene::Trs trs = scene::decompose(local, &err);
            double mag = 1;
            for (int i = 0; i < 12; ++i) mag = std::max(mag, double(std::abs(local[i])));
            if (err > 1e-3 * mag && !warned[b]) {
                warned[b] = true;
                sc.warnings.push_back(an.name + ": " + sc.skeleton.bones[b].name + " (flags " + std::to_string(model.bones[b].flags) +
                                      ") has a sheared local matrix at frame " + std::to_string(f) +
                                      " that translation/rotation/scale cannot hold (error " + std::to_string(err) + ")");
            }
            const float time = static_cast<float>(f / frames_per_second);
            for (auto* ch : {&t[b], &r[b], &s[b]}) ch->times.push_back(time);
            t[b].values.insert(t[b].values.end(), trs.translation.begin(), trs.translation.end());
            s[b].values.insert(s[b].values.end(), trs.scale.begin(), trs.scale.end());
            scene::Vec4 q = trs.rotation;
            if (r[b].values.size() >= 4) {  // same hemisphere as the previous key: the short way
                const float* prev = &r[b].values[r[b].values.size() - 4];
                if (prev[0] * q[0] + prev[1] * q[1] + prev[2] * q[2] + prev[3] * q[3] < 0)
                    for (float& v : q) v = -v;
            }
            r[b].values.insert(r[b].values.end(), q.begin(), q.end());
        }
    }
    for (std::size_t b = 0; b < nb; ++b) {
        an.channels.push_back(std::move(t[b]));
        an.channels.push_back(std::move(r[b]));
        an.channels.push_back(std::move(s[b]));
    }
    an.extras_json = "{\"modkit_skeletal\":{\"index\":" + std::to_string(a.index) + ",\"mode\":" +
                     jstr(a.hermite() ? "hermite" : "packed") + ",\"flags\":" + std::to_string(a.flags) +
                     ",\"hold\":" + (a.hold() ? "true" : "false") + ",\"translation_bits\":" + (a.trans16() ? "16" : "12") +
                     ",\"start_frame\":" + std::to_string(a.start_frame) + ",\"loop_frame\":" + std::to_string(a.loop_frame) +
                     ",\"frame_count\":" + std::to_string(a.frame_count) + ",\"descriptor_count\":" +
                     std::to_string(a.descriptor_count) + ",\"unknown2\":[" + std::to_string(a.unknown2[0]) + "," +
                     std::to_string(a.unknown2[1]) + "],\"fps\":30,\"at_end\":" + jstr(a.hold() ? "hold last frame" : "loop to loop_frame") +
                     "}" + moves_json(moves, rows, tables) + "}";
    sc.animations.push_back(std::move(an));
}

// Mesh index of each model material, in model_scene's order (first draw of each material).
std::map<std::int32_t, std::size_t> mesh_of_material(const Model& model) {
    std::map<std::int32_t, std::size_t> out;
    for (const auto& tri : model.triangles) out.try_emplace(model.draws[tri.dl].material, out.size());
    return out;
}

struct Switch {
    std::size_t material = 0;     // model material
    std::int16_t channel = -1;    // its texture channel
    std::int16_t texture = -1;    // the texture this copy shows
    std::vector<std::uint32_t> joints;  // one per bone the mesh uses
};

}  // namespace

void add_animations(scene::Scene& sc, const Model& model, const ModelAnimations& anims, const BattleTables* tables,
                    std::size_t entry) {
    if (!model.bones.empty())
        for (const auto& a : anims.skeletal) add_skeletal(sc, model, a, tables, entry);
    else if (!anims.skeletal.empty())
        sc.warnings.push_back("the model has no bones: its skeletal animations are not exported");

    // Texture animations: switch joints per (material with a channel, texture shown, bone).
    const auto mesh_of = mesh_of_material(model);
    const std::size_t base_bones = sc.skeleton.bones.size();
    std::vector<Switch> switches;
    for (std::size_t mi = 0; mi < model.materials.size() && !anims.aux.empty(); ++mi) {
        const auto& mt = model.materials[mi];
        const auto mesh_it = mesh_of.find(static_cast<std::int32_t>(mi));
        if (mt.texture_channel < 0 || mesh_it == mesh_of.end() || mesh_it->second >= sc.meshes.size()) continue;
        std::set<std::int16_t> shown{mt.texture};
        for (const auto& a : anims.aux) {
            if (static_cast<std::size_t>(mt.texture_channel) >= a.channels.size()) continue;
            for (std::int32_t f = 0; f < std::max<std::int32_t>(a.frame_count, 1); ++f) {
                const std::uint8_t v = sample_aux(a, static_cast<std::size_t>(mt.texture_channel), f);
                if (v < model.textures.size()) shown.insert(static_cast<std::int16_t>(v));
            }
        }
        if (shown.size() < 2) continue;
        const std::size_t base_mesh = mesh_it->second;
        const scene::Mesh original = sc.meshes[base_mesh];  // influences on the model's bones
        for (std::int16_t k : shown) {
            std::size_t mesh = base_mesh;
            if (k != mt.texture) {
                // A copy of the mesh drawn with texture k (the material's palette for CI textures).
                scene::MaterialInfo info = sc.material_info.at(sc.meshes[base_mesh].material);
                try {
                    const auto& tex = model.textures[static_cast<std::size_t>(k)];
                    const bool ci = tex.format && n64::is_ci(*tex.format);
                    std::optional<std::size_t> pal;
                    if (ci && mt.palette >= 0) pal = static_cast<std::size_t>(mt.palette);
                    scene::MaterialTexture t;
                    t.name = "tex" + std::to_string(k);
                    t.width = tex.descriptor.width;
                    t.height = tex.descriptor.height;
                    // The frame texture is drawn through this material's render tile (12D80.c
                    // swaps only the 0x17 entry), so a CI4 frame takes this material's bank (A17).
                    std::optional<unsigned> bank;
                    if (ci && mt.load) bank = mt.load->render.palette;
                    t.rgba = decode_texture_rgba(model, static_cast<std::size_t>(k), pal, bank);
                    if (info.texture) {
                        t.wrap_s = info.texture->wrap_s;
                        t.wrap_t = info.texture->wrap_t;
                        t.wrap_note = info.texture->wrap_note;
                    }
                    info.texture = std::move(t);
                } catch (const Error& e) {
                    sc.warnings.push_back("texture animation: material " + std::to_string(mi) + " frame texture " +
                                          std::to_string(k) + " cannot be decoded (" + e.message() + "): left out");
                    continue;
                }
                scene::Mesh copy = original;
                copy.name += "_tex" + std::to_string(k);
                copy.material = static_cast<std::uint32_t>(sc.materials.size());
                sc.materials.push_back(sc.materials[sc.meshes[base_mesh].material] + "_tex" + std::to_string(k));
                sc.material_info.push_back(std::move(info));
                mesh = sc.meshes.size();
                sc.meshes.push_back(std::move(copy));
            }
            Switch sw{mi, mt.texture_channel, k, {}};
            std::map<std::uint32_t, std::uint32_t> joint_of;  // bone → switch joint
            scene::Mesh& m = sc.meshes[mesh];
            scene::InfluenceLists lists;
            for (std::size_t v = 0; v < original.influences.size(); ++v) {
                std::vector<scene::Influence> l(original.influences[v].begin(), original.influences[v].end());
                for (auto& inf : l) {
                    auto [it, fresh] = joint_of.try_emplace(inf.bone, static_cast<std::uint32_t>(sc.skeleton.bones.size()));
                    if (fresh) {
                        scene::Bone j;
                        j.name = "texswitch_mat" + std::to_string(mi) + "_tex" + std::to_string(k) + "_" +
                                 sc.skeleton.bones[inf.bone].name;
                        j.parent = static_cast<std::int32_t>(inf.bone);
                        j.bind = sc.skeleton.bones[inf.bone].bind;
                        sc.skeleton.bones.push_back(std::move(j));
                        sw.joints.push_back(it->second);
                    }
                    inf.bone = it->second;
                }
                lists.push_back(std::span<const scene::Influence>(l));
            }
            m.influences = std::move(lists);
            m.skin.clear();
            switches.push_back(std::move(sw));
        }
    }
    if (switches.empty()) {
        for (const auto& a : anims.aux)
            sc.warnings.push_back("texture animation " + std::to_string(a.index) +
                                  ": no drawn material shows more than one texture through it (exact data in no glTF animation)");
        return;
    }
    scene::derive_bone_matrices(sc.skeleton);
    // Rest pose: each material shows its own texture; the other copies are scaled to zero.
    for (const auto& sw : switches)
        if (sw.texture != model.materials[sw.material].texture)
            for (auto j : sw.joints) sc.skeleton.bones[j].local = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    (void)base_bones;
    for (const auto& a : anims.aux) {
        scene::Animation an;
        const auto moves = moves_playing(tables, entry, a.index, true);
        const std::vector<std::uint32_t> rows;
        an.name = animation_name("texanim", a.index, moves, rows, tables);
        const std::int32_t frames = std::max<std::int32_t>(a.frame_count, 1);
        std::string shown = "[";
        for (const auto& sw : switches) {
            const bool driven = static_cast<std::size_t>(sw.channel) < a.channels.size();
            const std::int16_t own = model.materials[sw.material].texture;
            for (auto j : sw.joints) {
                scene::AnimationChannel ch;
                ch.bone = j;
                ch.path = scene::AnimationChannel::Path::scale;
                ch.step = true;
                for (std::int32_t f = 0; f < frames; ++f) {
                    const std::int16_t tex = driven ? std::int16_t(sample_aux(a, std::size_t(sw.channel), f)) : own;
                    const float v = tex == sw.texture ? 1.0f : 0.0f;
                    ch.times.push_back(static_cast<float>(f / frames_per_second));
                    ch.values.insert(ch.values.end(), {v, v, v});
                }
                an.channels.push_back(std::move(ch));
            }
        }
        std::string chans = "[", stream = "[", per_frame = "[";
        for (std::size_t c = 0; c < a.channels.size(); ++c)
            chans += std::string(c ? "," : "") + "{\"count\":" + std::to_string(a.channels[c].count) + ",\"base\":" +
                     std::to_string(a.channels[c].base) + "}";
        for (std::size_t i = 0; i < a.stream.size(); ++i) stream += (i ? "," : "") + std::to_string(a.stream[i]);
        for (std::int32_t f = 0; f < frames; ++f) {
            per_frame += f ? ",[" : "[";
            for (std::size_t c = 0; c < a.channels.size(); ++c) per_frame += (c ? "," : "") + std::to_string(sample_aux(a, c, f));
            per_frame += "]";
        }
        (void)shown;
        an.extras_json = "{\"modkit_texture_animation\":{\"index\":" + std::to_string(a.index) + ",\"flags\":" +
                         std::to_string(a.flags) + ",\"hold\":" + (a.hold() ? "true" : "false") + ",\"start_frame\":" +
                         std::to_string(a.start_frame) + ",\"loop_frame\":" + std::to_string(a.loop_frame) +
                         ",\"frame_count\":" + std::to_string(a.frame_count) + ",\"unknown2\":[" +
                         std::to_string(a.unknown2[0]) + "," + std::to_string(a.unknown2[1]) + "],\"channels\":" + chans +
                         "],\"stream\":" + stream + "],\"textures_per_frame\":" + per_frame +
                         "],\"representation\":\"switch joints: node texswitch_mat<M>_tex<T>_<bone> has scale 1 while material M "
                         "shows texture T, else 0\"}" + moves_json(moves, rows, tables) + "}";
        if (!an.channels.empty()) sc.animations.push_back(std::move(an));
    }
}

}  // namespace mod::stadium
