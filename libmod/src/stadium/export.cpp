#include "libmod/stadium/export.hpp"

#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/game_trig.hpp"
#include "stadium/export_node.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/image/colour.hpp"
#include "libmod/image/png.hpp"
#include "libmod/scene/export.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <tuple>

namespace mod::stadium {

namespace {

namespace fs = std::filesystem;
using scene::Mat4;
using scene::Vec3;

// The bone matrices as the game builds them (doc/formats/stadium-model.md "Bone matrices"), in
// the decomp's row-vector form (v' = v · G, translation in row 3): the caller transposes.
// Rotations are binary angles (65536 = 360°): 0x1D hands its rotation to SINS/COSS unconverted
// (src/geo_layout.c), unlike 0x1B/0x1F/0x20, which convert degrees with (x << 15) / 180.
using Row4 = std::array<std::array<double, 4>, 4>;
using V3 = std::array<double, 3>;

Row4 row_identity() {
    Row4 m{};
    for (int i = 0; i < 4; ++i) m[i][i] = 1;
    return m;
}

struct Trig {
    double sx, cx, sy, cy, sz, cz;
};
// The game's SINS/COSS (game_trig.hpp): its 4096-entry table, not the exact angle.
Trig trig(const ChannelPose& b) {
    const auto& r = b.rotation;
    return {game_sins(r[0]), game_coss(r[0]), game_sins(r[1]), game_coss(r[1]), game_sins(r[2]), game_coss(r[2])};
}

// func_8000F5A8 (t, r, s) when s is the bone's own scale and the translation row is t;
// func_8000F730 when s = (1, 1, 1) and the translation row is t ⊙ the inherited scale.
Row4 rotation_rows(const Trig& a, const V3& s, const V3& row3) {
    Row4 m{};
    m[0] = {a.cy * a.cz * s[0], a.cy * a.sz * s[0], -a.sy * s[0], 0};
    m[1] = {(a.sx * a.sy * a.cz - a.cx * a.sz) * s[1], (a.sx * a.sy * a.sz + a.cx * a.cz) * s[1], a.sx * a.cy * s[1], 0};
    m[2] = {(a.cx * a.sy * a.cz + a.sx * a.sz) * s[2], (a.cx * a.sy * a.sz - a.sx * a.cz) * s[2], a.cx * a.cy * s[2], 0};
    m[3] = {row3[0], row3[1], row3[2], 1};
    return m;
}

// func_8000FBB0: a × b (rotation rows and translation row; column 3 = 0 0 0 1).
Row4 row_multiply(const Row4& a, const Row4& b) {
    Row4 m{};
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 3; ++c)
            m[r][c] = a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c] + (r == 3 ? b[3][c] : 0.0);
    m[3][3] = 1;
    return m;
}

// func_8000F2C4 (t, r): rotation about z, then x, then y (row form), translation row t.
Row4 zxy_rows(const Trig& a, const V3& t) {
    Row4 r{};
    r[0] = {a.cy * a.cz + a.sx * a.sy * a.sz, a.cx * a.sz, -a.sy * a.cz + a.sx * a.cy * a.sz, 0};
    r[1] = {-a.cy * a.sz + a.sx * a.sy * a.cz, a.cx * a.cz, a.sy * a.sz + a.sx * a.cy * a.cz, 0};
    r[2] = {a.cx * a.sy, -a.sx, a.cx * a.cy, 0};
    r[3] = {t[0], t[1], t[2], 1};
    return r;
}

// func_8000FDE4: rows 0..2 scaled by s.
Row4 scale_rows(Row4 m, const V3& s) {
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) m[r][c] *= s[r];
    return m;
}

// The matrix stack entry of a bone: its matrix, the matrix without the inherited scale (flag-0
// path only), whether it took that path, and the top of the separate scale stack below it.
struct BoneState {
    Row4 full = row_identity(), unscaled = row_identity();
    bool scale_apart = false;
    V3 scale_stack{1, 1, 1};
};

// src/12D80.c func_800143C0, with the node flags func_80018490 derives from 0x1D's byte +2:
//   * bit 1 set: camera-relative (func_80010228). Export has no camera: the view matrix is taken
//     as the identity, so the bone keeps the parent's per-axis scale (row lengths) and position
//     but none of its rotation, and its own rotation goes through func_8000F2C4's order;
//   * else bit 0 clear: func_8000F5A8, scale inside the matrix, G = L × parent;
//   * else (bit 0 set): func_8000F730, rotation only with the translation × the inherited scale
//     stack, the scale pushed on that stack (func_80012458), U = L × (the parent's U when the
//     parent took this path, else its G), G = diag(stack) × U.
// `pose` holds the bone's translation, rotation and scale: its 0x1D bind values (bind_poses)
// or an animation's sampled values (animation.hpp), which replace them (§4.7).
BoneState bone_state(const ModelBone& b, const ChannelPose& pose, const BoneState& parent) {
    const Trig a = trig(pose);
    const V3 t = pose.translation;
    const V3 s = pose.scale;
    BoneState out;
    out.scale_stack = parent.scale_stack;
    if (b.flags & 2) {
        // func_8000F88C(view = identity, parent, t, 1): the parent's row lengths on the
        // diagonal, t carried through the parent.
        Row4 p = row_identity();
        for (int r = 0; r < 3; ++r) {
            const auto& g = parent.full[r];
            p[r][r] = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        }
        for (int c = 0; c < 3; ++c)
            p[3][c] = parent.full[0][c] * t[0] + parent.full[1][c] * t[1] + parent.full[2][c] * t[2] + parent.full[3][c];
        // func_8000F2C4 with a zero translation.
        out.full = scale_rows(row_multiply(zxy_rows(a, {0, 0, 0}), p), s);
    } else if (!(b.flags & 1)) {
        out.full = row_multiply(rotation_rows(a, s, t), parent.full);
    } else {
        const V3& inherited = parent.scale_stack;
        const Row4 l = rotation_rows(a, {1, 1, 1}, {t[0] * inherited[0], t[1] * inherited[1], t[2] * inherited[2]});
        out.scale_stack = {inherited[0] * s[0], inherited[1] * s[1], inherited[2] * s[2]};
        out.unscaled = row_multiply(l, parent.scale_apart ? parent.unscaled : parent.full);
        out.full = scale_rows(out.unscaled, out.scale_stack);
        out.scale_apart = true;
    }
    return out;
}

// Row-vector game matrix → scene (column vectors, row-major).
Mat4 to_scene(const Row4& g) {
    Mat4 m = scene::identity_matrix;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) m[r * 4 + c] = static_cast<float>(g[c][r]);
    return m;
}

// A palette entry's colour in the palette's TLUT format.
image::Rgba8 entry_colour(const ModelPalette& pal, std::uint16_t entry) {
    std::uint8_t c[4];
    n64::tlut_colour(entry, pal.format, c);
    return {c[0], c[1], c[2], c[3]};
}

std::string wrap_name(const n64::TileAxis& a) {
    if (a.mirror() && a.clamp()) return "mirror+clamp";
    if (a.mirror()) return "mirror";
    if (a.clamp()) return "clamp";
    return "repeat";
}

std::string num(std::size_t v, int w = 3) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%0*zu", w, v);
    return buf;
}

std::string json_string(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o + "\"";
}

std::string material_name(const Model& m, std::int32_t material) {
    if (material < 0) return "untextured";
    const auto& mt = m.materials[static_cast<std::size_t>(material)];
    std::string n = "mat" + std::to_string(material);
    if (mt.texture >= 0) n += "_tex" + num(static_cast<std::size_t>(mt.texture));
    if (mt.palette >= 0) n += "_pal" + num(static_cast<std::size_t>(mt.palette));
    return n;
}

// The colour a vertex carries into the scene: its RGBA (sRGB bytes → linear) when drawn unlit;
// white with its alpha when lit (bytes 12..14 are a normal there).
scene::Vec4 vertex_colour(const ModelVertex& v, bool lit) {
    const float a = float(v.colour[3]) / 255.0f;
    if (lit) return {1, 1, 1, a};
    return {float(image::srgb8_to_linear(v.colour[0])), float(image::srgb8_to_linear(v.colour[1])),
            float(image::srgb8_to_linear(v.colour[2])), a};
}

// Hypothesis (one place, doc/formats/stadium-model.md "Export"): how a drawn texture uses
// alpha. The render mode (othermode L) is not interpreted: texels whose alpha is all 0 or 255
// (RGBA5551, CI with RGBA5551 TLUTs) are cut out, graded alpha (IA, RGBA32) is blended.
scene::AlphaMode alpha_mode_for(const Bytes& rgba) {
    bool holes = false;
    for (std::size_t i = 3; i < rgba.size(); i += 4) {
        if (rgba[i] != 0 && rgba[i] != 255) return scene::AlphaMode::blend;
        holes = holes || rgba[i] == 0;
    }
    return holes ? scene::AlphaMode::mask : scene::AlphaMode::opaque;
}

std::uint32_t tile_extent(std::uint16_t ul, std::uint16_t lr) { return lr >= ul ? (lr - ul) / 4u + 1u : 0u; }

// Both axes of a render tile through gltf_wrap; the notes joined ("s: …; t: …"), empty when exact.
std::string tile_wraps(const n64::TileState& render, std::uint32_t width, std::uint32_t height, scene::TextureWrap& s,
                       scene::TextureWrap& t) {
    std::string note_s, note_t;
    s = gltf_wrap(render.s, tile_extent(render.uls, render.lrs), width, note_s);
    t = gltf_wrap(render.t, tile_extent(render.ult, render.lrt), height, note_t);
    std::string note = note_s.empty() ? std::string() : "s: " + note_s;
    if (!note_t.empty()) note += (note.empty() ? "t: " : "; t: ") + note_t;
    return note;
}

// The texture of material `mt` as drawn: its own palette (else the texture's first material's)
// and its own CI4 bank.
Bytes decode_material_texture(const Model& model, const ModelMaterial& mt) {
    const std::size_t t = static_cast<std::size_t>(mt.texture);
    const ModelTexture& tex = model.textures.at(t);
    if (!tex.format || !n64::is_ci(*tex.format) || !mt.load) {
        return decode_texture_rgba(model, t, mt.palette >= 0 ? std::optional<std::size_t>(mt.palette) : std::nullopt);
    }
    std::optional<std::size_t> pal = mt.palette >= 0 ? std::optional<std::size_t>(mt.palette) : palette_for_texture(model, t);
    if (!pal || *pal >= model.palettes.size())
        throw Error(ErrorKind::format, "texture[" + std::to_string(t) + "]: a CI texture no material gives a palette");
    ByteReader r(tex.data, Endian::big, {}, "texture[" + std::to_string(t) + "]");
    const unsigned bank = *tex.format == n64::TexelFormat::ci4 ? mt.load->render.palette : 0;
    return n64::decode_ci_rgba(*tex.format, r, tex.descriptor.width, tex.descriptor.height,
                               n64::Tlut{model.palettes[*pal].format, model.palettes[*pal].entries}, bank);
}

// The scene record of a material: decoded texture with glTF wrap modes, alpha mode, unlit.
scene::MaterialInfo material_info(const Model& model, std::int32_t material, bool unlit, std::vector<std::string>& warnings) {
    scene::MaterialInfo info;
    info.unlit = unlit;
    if (material < 0) return info;
    const ModelMaterial& mt = model.materials[static_cast<std::size_t>(material)];
    if (mt.texture < 0 || static_cast<std::size_t>(mt.texture) >= model.textures.size()) return info;
    const ModelTexture& tex = model.textures[static_cast<std::size_t>(mt.texture)];
    scene::MaterialTexture st;
    st.name = "tex" + num(static_cast<std::size_t>(mt.texture));
    st.width = tex.descriptor.width;
    st.height = tex.descriptor.height;
    try {
        st.rgba = decode_material_texture(model, mt);
    } catch (const Error& e) {
        warnings.push_back("material " + std::to_string(material) + ": texture not embedded: " + e.what());
        return info;
    }
    if (mt.load) {
        st.wrap_note = tile_wraps(mt.load->render, st.width, st.height, st.wrap_s, st.wrap_t);
    } else {
        st.wrap_note = "the material DL loads no texture: wrap modes unknown, repeat used";
    }
    info.alpha = alpha_mode_for(st.rgba);
    info.texture = std::move(st);
    return info;
}

}  // namespace

scene::TextureWrap gltf_wrap(const n64::TileAxis& axis, std::uint32_t tile_extent, std::uint32_t texture_size,
                             std::string& note) {
    note.clear();
    const std::string size = std::to_string(texture_size);
    // mask 0: no wrapping at all; coordinates outside the tile rectangle clamp to its edge.
    if (axis.mask == 0) {
        if (tile_extent != texture_size)
            note = "clamps at texel " + std::to_string(tile_extent) + " of " + size + " (glTF clamps at the image edge)";
        return scene::TextureWrap::clamp_to_edge;
    }
    const std::uint64_t period = std::uint64_t(1) << std::min<unsigned>(axis.mask, 31);
    if (axis.clamp() && period >= tile_extent) {
        // The clamp is reached before the first wrap: mirror or not, it is a plain clamp.
        if (tile_extent != texture_size)
            note = "clamps at texel " + std::to_string(tile_extent) + " of " + size + " (glTF clamps at the image edge)";
        return scene::TextureWrap::clamp_to_edge;
    }
    const auto wrap = axis.mirror() ? scene::TextureWrap::mirrored_repeat : scene::TextureWrap::repeat;
    const std::string kind = axis.mirror() ? "mirrors" : "repeats";
    if (axis.clamp())
        note = kind + " every " + std::to_string(period) + " texels, then clamps at texel " + std::to_string(tile_extent) +
               ": glTF has no " + (axis.mirror() ? "mirror-then-clamp" : "wrap-then-clamp") + " sampler, " +
               (axis.mirror() ? "MIRRORED_REPEAT" : "REPEAT") + " used";
    else if (period != texture_size)
        note = kind + " every " + std::to_string(period) + " texels of a " + size +
               "-texel image: glTF wraps at the image edge";
    return wrap;
}

namespace {

// The root scale node (0x1C, func_80012344): its matrix entry scales rows, flag 0.
BoneState root_state_of(const Model& model) {
    BoneState root_state;
    if (model.root_scale)
        root_state.full = scale_rows(row_identity(), {(*model.root_scale)[0] / 65536.0, (*model.root_scale)[1] / 65536.0,
                                                      (*model.root_scale)[2] / 65536.0});
    return root_state;
}

}  // namespace

std::vector<Mat4> bone_globals(const Model& model, std::span<const ChannelPose> poses) {
    if (poses.size() != model.bones.size())
        throw Error(ErrorKind::usage, std::to_string(poses.size()) + " poses for " + std::to_string(model.bones.size()) + " bones");
    const BoneState root_state = root_state_of(model);
    std::vector<BoneState> states;
    std::vector<Mat4> out;
    states.reserve(model.bones.size());
    for (std::size_t i = 0; i < model.bones.size(); ++i) {
        const ModelBone& b = model.bones[i];
        // Parents come first (the walk's order); anything else is treated as a root.
        const bool parented = b.parent >= 0 && static_cast<std::size_t>(b.parent) < i;
        states.push_back(bone_state(b, poses[i], parented ? states[static_cast<std::size_t>(b.parent)] : root_state));
        out.push_back(to_scene(states.back().full));
    }
    return out;
}

scene::Scene model_scene(const Model& model, const std::string& name) {
    scene::Scene sc;
    sc.source = name;
    sc.format = "stadium";
    // What the game would not draw as the layout says is left out (detached subtrees, triangles
    // on slots not loaded in the game's draw order): the export says so (model.hpp `findings`).
    for (const auto& f : model.findings) sc.warnings.push_back(f);
    Mat4 root = scene::identity_matrix;
    if (model.root_scale)
        for (int k = 0; k < 3; ++k) root[k * 5] = static_cast<float>((*model.root_scale)[k] / 65536.0);
    const std::vector<ChannelPose> binds = bind_poses(model);
    const std::vector<Mat4> globals = bone_globals(model, binds);
    for (std::size_t i = 0; i < model.bones.size(); ++i) {
        const ModelBone& b = model.bones[i];
        scene::Bone sb;
        sb.name = "bone" + std::to_string(i) + "_id" + std::to_string(b.id);
        sb.parent = b.parent;
        sb.bind = globals[i];
        if (b.flags & 2)
            sc.warnings.push_back(sb.name + ": flag bit 1 (camera-relative) drawn for an identity view: it faces +z");
        sc.skeleton.bones.push_back(std::move(sb));
    }
    for (const ModelNode& n : model.nodes)
        if (n.op == 0x21)
            sc.warnings.push_back("layout command 0x21 at " + hex(n.command) +
                                  ": a billboard drawn for an identity view (it faces +z, skinned to its bone)");
    const bool synthetic_root = sc.skeleton.bones.empty();
    if (synthetic_root) {
        scene::Bone sb;
        sb.name = "root";
        sb.bind = root;
        sc.skeleton.bones.push_back(std::move(sb));
    }
    scene::derive_bone_matrices(sc.skeleton);

    std::map<std::int32_t, std::size_t> mesh_of;  // material → mesh
    std::vector<std::int32_t> mesh_material;       // mesh → model material
    std::vector<bool> any_lit, any_unlit;          // per mesh
    std::vector<std::map<std::tuple<std::uint32_t, std::int32_t, std::int32_t>, std::uint32_t>> vertex_of;
    std::map<std::pair<std::int32_t, std::int32_t>, Mat4> node_matrices;  // (bone, node) → draw matrix
    std::vector<std::vector<scene::Vec4>> colours;  // per mesh, per vertex (linear RGBA)
    std::vector<std::vector<bool>> vertex_unlit;    // per mesh, per vertex: drawn unlit first
    for (const auto& tri : model.triangles) {
        const ModelDraw& d = model.draws[tri.dl];
        auto [it, fresh] = mesh_of.try_emplace(d.material, sc.meshes.size());
        if (fresh) {
            scene::Mesh mesh;
            mesh.name = material_name(model, d.material);
            mesh.material = static_cast<std::uint32_t>(sc.materials.size());
            sc.materials.push_back(mesh.name);
            sc.meshes.push_back(std::move(mesh));
            mesh_material.push_back(d.material);
            any_lit.push_back(false);
            any_unlit.push_back(false);
            vertex_of.emplace_back();
            colours.emplace_back();
        }
        scene::Mesh& mesh = sc.meshes[it->second];
        std::uint32_t w = 1, h = 1;
        if (d.material >= 0) {
            const auto& mt = model.materials[static_cast<std::size_t>(d.material)];
            if (mt.texture >= 0) {
                w = model.textures[static_cast<std::size_t>(mt.texture)].descriptor.width;
                h = model.textures[static_cast<std::size_t>(mt.texture)].descriptor.height;
            }
        }
        const bool lit = (tri.geometry_mode & n64::gbi::g_lighting) != 0;
        (lit ? any_lit : any_unlit)[it->second] = true;
        std::array<std::uint32_t, 3> idx{};
        std::array<Vec3, 3> pos{};
        for (int c = 0; c < 3; ++c) {
            const auto& corner = tri.corners[c];
            const std::int32_t bone = synthetic_root ? 0 : std::max<std::int32_t>(0, model.draws[corner.dl].bone);
            const std::int32_t node = model.draws[corner.dl].node;
            const auto key = std::make_tuple(corner.vertex, bone, node);
            const Mat4* bind_of = &sc.skeleton.bones[static_cast<std::size_t>(bone)].bind;
            if (node >= 0) {
                auto [nm, fresh_node] = node_matrices.try_emplace({bone, node});
                if (fresh_node) nm->second = node_draw_matrix(model, node, *bind_of);
                bind_of = &nm->second;
            }
            const Mat4& bind = *bind_of;
            const ModelVertex& v = model.vertices[corner.vertex];
            pos[c] = scene::transform_point(bind, {float(v.position[0]), float(v.position[1]), float(v.position[2])});
            auto [vi, added] = vertex_of[it->second].try_emplace(key, static_cast<std::uint32_t>(mesh.positions.size()));
            if (added) {
                mesh.positions.push_back(pos[c]);
                Vec3 n{0, 0, 1};
                if (lit) {
                    Vec3 raw{float(static_cast<std::int8_t>(v.colour[0])), float(static_cast<std::int8_t>(v.colour[1])),
                             float(static_cast<std::int8_t>(v.colour[2]))};
                    raw = scene::transform_direction(bind, raw);
                    const float l = std::sqrt(raw[0] * raw[0] + raw[1] * raw[1] + raw[2] * raw[2]);
                    if (l > 0) n = {raw[0] / l, raw[1] / l, raw[2] / l};
                }
                mesh.normals.push_back(n);
                mesh.tangents.push_back({1, 0, 0, 1});
                const scene::Vec2 uv{float(v.st[0] / 32.0 / w), float(1.0 - v.st[1] / 32.0 / h)};
                mesh.uv0.push_back(uv);
                mesh.uv1.push_back(uv);
                mesh.influences.push_back({{static_cast<std::uint32_t>(bone), 1.0f}});
                colours[it->second].push_back(vertex_colour(v, lit));
            }
            idx[c] = vi->second;
        }
        if (!lit) {
            // Unlit vertices carry colours, not normals: use the face normal for shading.
            const Vec3 a{pos[1][0] - pos[0][0], pos[1][1] - pos[0][1], pos[1][2] - pos[0][2]};
            const Vec3 b{pos[2][0] - pos[0][0], pos[2][1] - pos[0][1], pos[2][2] - pos[0][2]};
            Vec3 n{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
            const float l = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (l > 0)
                for (std::uint32_t i : idx) mesh.normals[i] = {n[0] / l, n[1] / l, n[2] / l};
        }
        mesh.triangles.push_back(idx);
    }
    for (std::size_t m = 0; m < sc.meshes.size(); ++m) {
        // Colours only where some triangle was drawn unlit (lit vertices hold normals there).
        if (any_unlit[m]) sc.meshes[m].colours = std::move(colours[m]);
        sc.material_info.push_back(material_info(model, mesh_material[m], !any_lit[m], sc.warnings));
        if (any_unlit[m])
            for (const auto& c : sc.meshes[m].colours)
                if (c[3] < 1.0f) sc.material_info.back().alpha = scene::AlphaMode::blend;
    }
    return sc;
}

namespace {
// A folder export_textures may write into: new, empty, or holding an earlier export's index.
void check_texture_folder(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec) || fs::exists(dir / "textures.json", ec)) return;
    if (fs::directory_iterator(dir, ec) != fs::directory_iterator() || ec)
        throw Error(ErrorKind::conflict,
                    "the folder holds other files and no textures.json of an earlier texture export; refusing to "
                    "write PNGs into it (choose a new or empty folder)",
                    dir.string());
}
}  // namespace

TextureExport export_textures(const Model& model, const fs::path& dir) {
    check_texture_folder(dir);
    create_folder(dir);
    TextureExport out;
    std::string json = "{\n  \"textures\": [";
    for (std::size_t t = 0; t < model.textures.size(); ++t) {
        const ModelTexture& tex = model.textures[t];
        TextureFile f;
        f.texture = t;
        f.file = "tex" + num(t) + ".png";
        f.palette = palette_for_texture(model, t);
        n64::TileAxis s, tt;
        for (std::size_t m : model.materials_with_texture(t))
            if (model.materials[m].load) {
                const n64::TileState& render = model.materials[m].load->render;
                s = render.s;
                tt = render.t;
                scene::TextureWrap ws, wt;
                f.wrap_note = tile_wraps(render, tex.descriptor.width, tex.descriptor.height, ws, wt);
                break;
            }
        f.wrap_s = wrap_name(s);
        f.wrap_t = wrap_name(tt);
        try {
            image::RgbaImage img{tex.descriptor.width, tex.descriptor.height, decode_texture_rgba(model, t)};
            write_file_atomic(dir / f.file, image::write_png(img));
            if (tex.format && n64::is_ci(*tex.format) && f.palette) {
                const auto& pal = model.palettes[*f.palette];
                const unsigned first = *tex.format == n64::TexelFormat::ci4 ? bank_for_texture(model, t) * 16 : 0;
                const unsigned size = *tex.format == n64::TexelFormat::ci4 ? 16 : pal.color_count;
                image::PalettedImage pi;
                pi.width = tex.descriptor.width;
                pi.height = tex.descriptor.height;
                for (unsigned i = 0; i < size && first + i < pal.entries.size(); ++i)
                    pi.palette.push_back(entry_colour(pal, pal.entries[first + i]));
                ByteReader r(tex.data, Endian::big, {}, "texture[" + std::to_string(t) + "]");
                pi.indices = n64::decode_indices(*tex.format, r, pi.width, pi.height);
                write_file_atomic(dir / ("tex" + num(t) + "_ci.png"), image::write_png(pi));
            }
        } catch (const Error& e) {
            out.warnings.push_back("texture " + std::to_string(t) + ": " + e.what());
            f.file.clear();
        }
        json += std::string(t ? "," : "") + "\n    {\"index\": " + std::to_string(t) + ", \"file\": " + json_string(f.file) +
                ", \"format\": " + json_string(tex.format ? n64::to_string(*tex.format) : "unknown") +
                ", \"width\": " + std::to_string(tex.descriptor.width) + ", \"height\": " + std::to_string(tex.descriptor.height) +
                ", \"texel_count\": " + std::to_string(tex.descriptor.texel_count) +
                ", \"palette\": " + (f.palette ? std::to_string(*f.palette) : std::string("null")) +
                ", \"wrap_s\": " + json_string(f.wrap_s) + ", \"wrap_t\": " + json_string(f.wrap_t) +
                (f.wrap_note.empty() ? std::string() : ", \"wrap_note\": " + json_string(f.wrap_note)) + "}";
        out.textures.push_back(std::move(f));
    }
    json += "\n  ],\n  \"palettes\": [";
    for (std::size_t p = 0; p < model.palettes.size(); ++p) {
        const auto& pal = model.palettes[p];
        image::RgbaImage img{static_cast<std::uint32_t>(pal.entries.size()), 1, {}};
        for (std::uint16_t e : pal.entries) {
            const image::Rgba8 c = entry_colour(pal, e);
            img.pixels.insert(img.pixels.end(), {c.r, c.g, c.b, c.a});
        }
        const std::string file = "pal" + num(p) + ".png";
        write_file_atomic(dir / file, image::write_png(img));
        out.palettes.push_back(file);
        json += std::string(p ? "," : "") + "\n    {\"index\": " + std::to_string(p) + ", \"file\": " + json_string(file) +
                ", \"color_count\": " + std::to_string(pal.color_count) +
                ", \"format\": " + json_string(n64::to_string(pal.format)) + "}";
    }
    json += "\n  ],\n  \"materials\": [";
    for (std::size_t m = 0; m < model.materials.size(); ++m) {
        const auto& mt = model.materials[m];
        json += std::string(m ? "," : "") + "\n    {\"index\": " + std::to_string(m) + ", \"name\": " +
                json_string(material_name(model, static_cast<std::int32_t>(m))) + ", \"texture\": " +
                std::to_string(mt.texture) + ", \"palette\": " + std::to_string(mt.palette) +
                ", \"combiner\": " + std::to_string(mt.combiner) + ", \"prim_colour\": " + json_string(hex(mt.prim_colour, 8)) + "}";
    }
    json += "\n  ]\n}\n";
    write_file_atomic(dir / "textures.json", json);
    return out;
}

ModelExport export_model(const Model& model, const fs::path& out, std::span<const fs::path> inputs,
                         const ExportAnimations& animations) {
    std::string ext = out.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    ModelExport report;
    report.file = out;
    fs::path dir;
    if (ext == ".glb" || ext == ".gltf") {
        // A folder per export, so two exports side by side never overwrite each other's PNGs.
        dir = out;
        dir.replace_filename(out.stem().string() + "_textures");
    } else {
        // A name with another extension is a typo or a format not written here, not a folder
        // to create (an existing folder of that name is still one).
        std::error_code ec;
        if (!ext.empty() && !fs::is_directory(out, ec))
            throw Error(ErrorKind::usage, "cannot export to '" + out.string() + "': a Stadium model is exported as .glb or "
                                          ".gltf, or into a folder (a name without extension); " + ext + " is not written");
        dir = out;
        report.file = out / "model.glb";
    }
    report.texture_dir = dir;
    // Animations are decoded before anything is written (a decode error leaves no output).
    std::optional<ModelAnimations> anims;
    if (animations.enabled) anims = read_animations(model, animations.path);
    report.warnings = export_textures(model, dir).warnings;
    scene::Scene sc = model_scene(model, report.file.stem().string());
    if (anims) {
        add_animations(sc, model, *anims, animations.tables, animations.entry);
        report.animations = sc.animations.size();
    }
    for (std::size_t m = 0; m < sc.material_info.size(); ++m) {
        const auto& tex = sc.material_info[m].texture;
        if (!tex) continue;
        ++report.embedded_textures;
        if (!tex->wrap_note.empty()) report.wrap_notes.push_back("material " + sc.materials[m] + ": " + tex->wrap_note);
    }
    report.warnings.insert(report.warnings.end(), sc.warnings.begin(), sc.warnings.end());
    scene::export_file(sc, report.file, inputs);
    return report;
}

}  // namespace mod::stadium
