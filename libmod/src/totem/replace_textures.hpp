#pragma once
// mesh.replace, step "materials": the source's own base-colour images become new BITMAP and
// MATERIAL records (replace.hpp ReplaceOptions::source_textures). Internal to replace.cpp.
// Spec: doc/formats/totem-mesh.md ("The source's textures").

#include "libmod/scene/model.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/bitmap.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/repack.hpp"
#include "libmod/totem/replace.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mod::totem::replace_detail {

class TextureImporter {
public:
    // Keeps references to every argument: they must outlive the importer.
    TextureImporter(const ByteReader& dgc, const Archive& archive, const NameTable& names, const scene::Scene& source,
                    const ReplaceOptions& options, ReplaceReport& report);

    // The material id the source material `source_material` (index into Scene::materials),
    // paired with the MATERIAL/MATERIALANIM `paired`, is drawn with in MESH `mesh`: `paired`
    // itself when the source brings nothing new (no image, or the image and factor the worn
    // MATERIAL already has, or source textures off), else the id of a new MATERIAL (made once
    // per source material and pairing). Throws usage (naming the source material and the way
    // out; limit for an image over 1024 texels a side) when a new texture cannot be written: a PC
    // archive, no BITMAP the encoders can take as a model, a name table that cannot take a
    // new name.
    std::int32_t material_for(std::size_t source_material, std::int32_t paired, const std::string& mesh);

    // The new records, in the order made (BITMAP before the MATERIAL that names it).
    std::vector<RepackItem> take_records() { return std::move(records_); }
    bool made_any() const noexcept { return !records_.empty(); }

private:
    struct Worn;
    Worn worn_by(std::int32_t paired) const;
    // Whether `img`, written in `bitmap`'s format, stores exactly the texels `worn` (`bitmap`'s
    // own texels): the source image is the one already worn, up to the format's rounding.
    bool stores_as(const Bitmap& bitmap, const image::RgbaImage& img, const image::RgbaImage& worn) const;
    std::pair<Bitmap, std::size_t> encode_new_bitmap(const image::RgbaImage& img, std::optional<std::size_t> first_choice,
                                                     const std::string& label, BitmapEncodeReport& report) const;
    std::string new_name(const std::string& like, const std::string& stem, const char* fallback_dir,
                         const char* fallback_ext);

    const ByteReader& dgc_;
    const Archive& a_;
    const NameTable& names_;
    const scene::Scene& source_;
    const ReplaceOptions& options_;
    ReplaceReport& report_;
    NameTable trial_;                      // names_ plus the names made so far (collisions)
    std::set<std::int32_t> taken_;         // ids of records made so far
    std::map<std::pair<std::size_t, std::int32_t>, std::int32_t> made_;
    std::vector<RepackItem> records_;
};

// The source image as the BITMAP stores it: rows flipped (attach_materials flips them on
// export, texture_scene.hpp), checked for size (usage error naming `label` otherwise).
image::RgbaImage stored_image(const scene::MaterialTexture& t, const std::string& label);

// A record-name stem from a source name: upper case, every byte outside A-Z, 0-9 and '_'
// becomes '_', at most 48 bytes; "MATERIAL" when nothing is left.
std::string name_stem(const std::string& source_name);

}  // namespace mod::totem::replace_detail
