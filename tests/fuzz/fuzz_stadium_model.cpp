// Fuzz target: the typed Pokémon model (layout walk, materials, tables, display lists, vertex
// cache) read from a FRAGMENT must either succeed or throw mod::Error, and whatever reads must
// be usable: every texture decodes or throws mod::Error, the export scene holds every triangle
// with consistent per-vertex arrays, and in-place edits (palette shift, texture replacement)
// give fragments that read again.
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/texture_edit.hpp"

#include <cstdio>
#include <cstdlib>

namespace {

using namespace mod::stadium;

[[noreturn]] void violated(const char* invariant) {
    std::fprintf(stderr, "fuzz_stadium_model: invariant broken: %s\n", invariant);
    std::abort();
}

void check_references(const Model& m) {
    for (const auto& t : m.triangles) {
        if (t.dl >= m.draws.size()) violated("triangle draw index");
        for (const auto& c : t.corners)
            if (c.dl >= m.draws.size() || c.vertex >= m.vertices.size()) violated("corner draw/vertex index");
    }
    for (const auto& d : m.draws)
        if (d.list >= m.lists.size() || d.material >= std::int32_t(m.materials.size()) ||
            d.bone >= std::int32_t(m.bones.size()))
            violated("draw list/material/bone index");
    for (const auto& b : m.bones)
        if (b.parent >= std::int32_t(m.bones.size())) violated("bone parent index");
    // The game's draw order is a permutation of the draws (model_walk.hpp game_draw_order).
    std::vector<bool> ordered(m.draws.size(), false);
    if (m.draw_order.size() != m.draws.size()) violated("draw order size");
    for (std::size_t d : m.draw_order) {
        if (d >= m.draws.size() || ordered[d]) violated("draw order permutation");
        ordered[d] = true;
    }
}

void check_textures(const Model& m) {
    for (std::size_t t = 0; t < m.textures.size(); ++t) {
        try {
            const mod::Bytes rgba = decode_texture_rgba(m, t);
            const auto& d = m.textures[t].descriptor;
            if (rgba.size() != 4ull * d.width * d.height) violated("decoded texture size");
        } catch (const mod::Error&) {
        }
        try {
            for (unsigned slot : slots_used(m, t))
                if (slot >= mod::n64::max_tlut_entries) violated("used TLUT slot");
        } catch (const mod::Error&) {
        }
    }
}

void check_scene(const Model& m) {
    try {
        const mod::scene::Scene s = model_scene(m);
        std::size_t triangles = 0;
        if (s.material_info.size() != s.meshes.size()) violated("one material record per mesh");
        for (const auto& mesh : s.meshes) {
            triangles += mesh.triangles.size();
            const std::size_t n = mesh.vertex_count();
            if (mesh.normals.size() != n || mesh.uv0.size() != n || mesh.influences.size() != n ||
                (!mesh.colours.empty() && mesh.colours.size() != n))
                violated("per-vertex array sizes");
            for (const auto& t : mesh.triangles)
                for (auto v : t)
                    if (v >= n) violated("scene triangle index");
        }
        if (triangles != m.triangles.size()) violated("scene triangle count");
        for (const auto& info : s.material_info)
            if (info.texture && info.texture->rgba.size() != 4ull * info.texture->width * info.texture->height)
                violated("embedded texture size");
    } catch (const mod::Error&) {
    }
}

void require_rereads(const FragmentImage& image) {
    const mod::Bytes edited = encode_fragment(image.build());
    try {
        (void)read_model(edited, "fuzz-edited");
    } catch (const mod::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        violated("an edited model re-reads");
    }
}

// In-place edits of a model that reads (a palette shift; texture 0 replaced by its own image,
// re-quantised into its palette) must give fragments that read again.
void check_edits(const Model& m) {
    if (!m.palettes.empty()) {
        FragmentImage image(m.fragment);
        try {
            shift_palette_hsv(m, image, 0, mod::image::HsvShift{90, 0.5, 0.75});
            require_rereads(image);
        } catch (const mod::Error&) {
        }
    }
    if (!m.textures.empty()) {
        FragmentImage image(m.fragment);
        mod::image::RgbaImage rgba;
        TextureReplaceOptions o;
        o.mode = CiMode::constrained;
        o.threads = 1;
        try {
            rgba = {m.textures[0].descriptor.width, m.textures[0].descriptor.height, decode_texture_rgba(m, 0)};
            (void)replace_texture(m, image, 0, rgba, o);
        } catch (const mod::Error&) {
            return;
        }
        require_rereads(image);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Model m;
    try {
        m = read_model(mod::ByteView(data, size), "fuzz");
    } catch (const mod::Error&) {
        return 0;
    }
    check_references(m);
    check_textures(m);
    check_scene(m);
    check_edits(m);
    return 0;
}
