#include "libmod/sample/examples.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/error.hpp"
#include "libmod/image/png.hpp"
#include "libmod/sample/shred.hpp"
#include "libmod/sample/stadium.hpp"
#include "libmod/sample/totem.hpp"
#include "libmod/scene/export.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/scene_bridge.hpp"
#include "libmod/totem/skin.hpp"
#include "libmod/totem/verify.hpp"

#include <cstdlib>

namespace mod::sample {

namespace fs = std::filesystem;

namespace {

// A PNG the size of texture 1 of model 1: a diagonal blue-to-orange gradient.
fs::path write_texture_png(const fs::path& rom, const fs::path& out) {
    const auto archive = stadium::read_archive(stadium::load_rom(rom));
    const auto model = stadium::read_archive_model(archive, 1);  // texture 1: RGBA16
    image::RgbaImage img;
    img.width = model.textures.at(1).descriptor.width;
    img.height = model.textures.at(1).descriptor.height;
    img.pixels.resize(std::size_t(img.width) * img.height * 4);
    for (std::uint32_t y = 0; y < img.height; ++y)
        for (std::uint32_t x = 0; x < img.width; ++x) {
            const unsigned t = (x + y) * 255 / std::max<unsigned>(1, img.width + img.height - 2);
            std::uint8_t* p = &img.pixels[(std::size_t(y) * img.width + x) * 4];
            p[0] = std::uint8_t(40 + t * 215 / 255), p[1] = std::uint8_t(90 + t / 3), p[2] = std::uint8_t(230 - t * 200 / 255), p[3] = 255;
        }
    write_file_atomic(out, image::write_png(img));
    return out;
}

// Model 1's mesh as glb (its export scene, textures embedded) with the bones named as another rig
// names them ("Joint<i>"): a stand-in for a mesh made on the exported skeleton in a 3D editor
// (examples/stadium-mesh maps the names back with a bone map).
fs::path write_pokemon_glb(const fs::path& rom, const fs::path& out) {
    const auto archive = stadium::read_archive(stadium::load_rom(rom));
    scene::Scene s = stadium::model_scene(stadium::read_archive_model(archive, 1));
    for (std::size_t i = 0; i < s.skeleton.bones.size(); ++i) s.skeleton.bones[i].name = "Joint" + std::to_string(i);
    scene::export_file(s, out);
    return out;
}

// Mesh 1 of quartet skater01 as FBX, with Root and Pelvis renamed as another rig names them.
fs::path write_skater_fbx(const fs::path& pak_path, const fs::path& out) {
    const shred::Pak pak = shred::read_pak(read_file(pak_path), pak_path.string());
    scene::Scene s = shred::quartet_to_scene(shred::read_pak_quartet(pak, "skater01"), 1);
    for (auto& b : s.skeleton.bones) {
        if (b.name == "Root") b.name = "Armature";
        else if (b.name == "Pelvis") b.name = "mixamorig_Hips";
    }
    scene::export_file(s, out);
    return out;
}

// The hero SKIN's meshes as glb with every vertex's weights made even (1/n for its n bones):
// every influence stays (so no subsection loses a vertex), only the values change.
fs::path write_hero_glb(const fs::path& data, const fs::path& names_path, const fs::path& out) {
    using namespace mod::totem;
    const Bytes bytes = read_file(data);
    const auto order = detect_byte_order(bytes, Platform::gamecube);
    const ByteReader reader(bytes, order.endian, data.string(), "dgc");
    const Archive archive = decode_archive(reader);
    const Bytes nb = read_file(names_path);
    const NameTable names = NameTable::parse(ByteReader(nb, Endian::big, names_path.string(), "names"));
    const auto index = find_record_by_text(archive, names, "DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN");
    if (!index) throw Error(ErrorKind::format, "the sample has no hero SKIN", data.string());
    const Skin skin = decode_skin(payload_reader(reader, archive, *index));
    std::vector<std::pair<std::int32_t, Mesh>> meshes;
    for (auto id : skin.mesh_ids)
        if (auto r = find_record(archive, id); r && record_kind(archive.records[*r]) == RecordKind::mesh)
            meshes.emplace_back(id, decode_mesh(payload_reader(reader, archive, *r)));
    scene::Scene s = skin_to_scene(skin, meshes, names);
    for (auto& m : s.meshes)
        for (std::size_t v = 0; v < m.influences.size(); ++v) {
            auto list = m.influences[v];
            for (auto& inf : list) inf.weight = 1.0f / float(list.size());
        }
    scene::export_file(s, out);
    return out;
}

}  // namespace

std::vector<fs::path> write_example_inputs(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const char* g : {"stadium", "shred", "totem"}) fs::create_directories(dir / "base" / g);
    for (auto& p : write_stadium_sample(dir / "base" / "stadium")) out.push_back(p);
    for (auto& p : write_shred_sample(dir / "base" / "shred")) out.push_back(p);
    for (auto& p : write_totem_sample(dir / "base" / "totem")) out.push_back(p);
    fs::create_directories(dir / "assets");
    out.push_back(write_texture_png(dir / "base" / "stadium" / stadium_sample_file, dir / "assets" / "cheeks.png"));
    out.push_back(write_pokemon_glb(dir / "base" / "stadium" / stadium_sample_file, dir / "assets" / "pokemon_body.glb"));
    out.push_back(write_skater_fbx(dir / "base" / "shred" / "char_sample.pak", dir / "assets" / "skater.fbx"));
    out.push_back(write_hero_glb(dir / "base" / "totem" / "SAMPLE.DGC", dir / "base" / "totem" / "SAMPLE.NGC",
                                 dir / "assets" / "hero_even.glb"));
    return out;
}

ExampleExpectation read_example_expectation(const fs::path& file) {
    const Bytes bytes = read_file(file);
    std::string text(bytes.begin(), bytes.end());
    ExampleExpectation e;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        if (e.has_stderr) {
            e.stderr_text += line + "\n";
        } else if (line.rfind("manifests:", 0) == 0) {
            std::size_t i = 10;
            while (i < line.size()) {
                while (i < line.size() && line[i] == ' ') ++i;
                std::size_t j = line.find(' ', i);
                if (j == std::string::npos) j = line.size();
                if (j > i) e.manifests.push_back(line.substr(i, j - i));
                i = j;
            }
        } else if (line.rfind("exit:", 0) == 0) {
            e.exit = std::atoi(line.c_str() + 5);
        } else if (line == "stderr:") {
            e.has_stderr = true;
        } else if (!line.empty()) {
            throw Error(ErrorKind::format, "expected 'manifests:', 'exit:' or 'stderr:', got '" + line + "'", file.string());
        }
    }
    return e;
}

}  // namespace mod::sample
