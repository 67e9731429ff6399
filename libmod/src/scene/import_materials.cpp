// Scene::material_info from an Assimp scene (ImportOptions::read_textures): the base-colour
// factor, the unlit flag and the base-colour texture of every material, decoded to RGBA.
// Spec: doc/formats/scene-import.md ("Materials and textures").
#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"
#include "libmod/image/jpeg.hpp"
#include "libmod/image/png.hpp"
#include "libmod/scene/model.hpp"

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace mod::scene {

namespace {

namespace fs = std::filesystem;

TextureWrap wrap_of(aiTextureMapMode m) noexcept {
    switch (m) {
        case aiTextureMapMode_Mirror: return TextureWrap::mirrored_repeat;
        case aiTextureMapMode_Clamp:
        case aiTextureMapMode_Decal: return TextureWrap::clamp_to_edge;
        default: return TextureWrap::repeat;
    }
}

bool is_png(ByteView b) noexcept {
    static constexpr std::uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    return b.size() >= 8 && std::memcmp(b.data(), sig, 8) == 0;
}
// Decodes an encoded image (PNG or JPEG, what glTF allows) into the material texture; `what`
// names it in errors.
void decode_into(MaterialTexture& t, ByteView data, const std::string& what, const std::string& file) {
    const bool jpeg = image::is_jpeg(data);
    if (!jpeg && !is_png(data)) throw Error(ErrorKind::format, "texture " + what + " is neither PNG nor JPEG", file);
    image::RgbaImage img;
    try {
        img = jpeg ? image::read_jpeg(data, what) : image::read_png(data, what);
    } catch (const Error& e) {
        throw Error(ErrorKind::format, "texture " + what + ": " + e.message(), file);
    }
    t.width = img.width;
    t.height = img.height;
    t.rgba.assign(img.pixels.begin(), img.pixels.end());
}

}  // namespace

std::vector<MaterialInfo> read_material_info(const aiScene& scene, std::string_view name, std::size_t materials,
                                            std::vector<std::string>& warnings) {
    const std::string file(name);
    std::vector<MaterialInfo> out(materials);
    if (!scene.mMaterials) return out;
    const fs::path dir = fs::path(file).parent_path();
    for (std::size_t i = 0; i < materials && i < scene.mNumMaterials; ++i) {
        const aiMaterial* m = scene.mMaterials[i];
        if (!m) continue;
        MaterialInfo& info = out[i];
        aiColor4D c;
        if (m->Get(AI_MATKEY_BASE_COLOR, c) == AI_SUCCESS || m->Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS) {
            const float v[4] = {c.r, c.g, c.b, c.a};
            for (int k = 0; k < 4; ++k) info.base_colour[k] = std::isfinite(v[k]) ? std::clamp(v[k], 0.0f, 1.0f) : 1.0f;
        }
        int shading = 0;
        if (m->Get(AI_MATKEY_SHADING_MODEL, shading) == AI_SUCCESS && shading == aiShadingMode_Unlit) info.unlit = true;
        // glTF's alphaMode and alphaCutoff (a cut-out texture stays a cut-out through a round trip).
        aiString mode;
        if (m->Get(AI_MATKEY_GLTF_ALPHAMODE, mode) == AI_SUCCESS) {
            const std::string text = mode.C_Str();
            info.alpha = text == "MASK" ? AlphaMode::mask : text == "BLEND" ? AlphaMode::blend : AlphaMode::opaque;
            float cutoff = 0.5f;
            if (info.alpha == AlphaMode::mask && m->Get(AI_MATKEY_GLTF_ALPHACUTOFF, cutoff) == AI_SUCCESS &&
                std::isfinite(cutoff))
                info.alpha_cutoff = std::clamp(cutoff, 0.0f, 1.0f);
        }
        aiTextureType type = aiTextureType_NONE;
        if (m->GetTextureCount(aiTextureType_BASE_COLOR) > 0) type = aiTextureType_BASE_COLOR;
        else if (m->GetTextureCount(aiTextureType_DIFFUSE) > 0) type = aiTextureType_DIFFUSE;
        if (type == aiTextureType_NONE) continue;
        aiString path;
        aiTextureMapMode modes[3] = {aiTextureMapMode_Wrap, aiTextureMapMode_Wrap, aiTextureMapMode_Wrap};
        if (m->GetTexture(type, 0, &path, nullptr, nullptr, nullptr, nullptr, modes) != AI_SUCCESS) continue;
        MaterialTexture t;
        t.name = path.C_Str();
        t.wrap_s = wrap_of(modes[0]);
        t.wrap_t = wrap_of(modes[1]);
        const std::string what = "'" + t.name + "' of material " + std::to_string(i);
        if (const aiTexture* e = scene.GetEmbeddedTexture(path.C_Str())) {
            if (e->mHeight != 0 || !e->pcData)
                throw Error(ErrorKind::format, "texture " + what + " is embedded uncompressed; only PNG or JPEG is read", file);
            decode_into(t, ByteView(reinterpret_cast<const std::uint8_t*>(e->pcData), e->mWidth), what, file);
        } else {
            if (t.name.empty() || t.name[0] == '*')
                throw Error(ErrorKind::format, "texture " + what + " names no embedded image", file);
            fs::path p = fs::path(t.name);
            if (p.is_relative()) p = dir / p;
            std::error_code ec;
            if (!fs::is_regular_file(p, ec)) {
                // Files often name a path on the author's machine: the base colour stands in.
                warnings.push_back("texture " + what + " not found (looked for " + p.string() +
                                   "); the material's base colour is used");
                continue;
            }
            decode_into(t, read_file(p, 64ull << 20), what + " (" + p.string() + ")", file);
        }
        info.texture = std::move(t);
    }
    return out;
}

}  // namespace mod::scene
