#include "libmod/manifest/catalogue.hpp"

#include "json_source.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/shred/import.hpp"
#include "libmod/shred/pak.hpp"
#include "libmod/shred/quartet.hpp"
#include "libmod/stadium/species.hpp"
#include "libmod/stadium/animation_replace.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/totem/archive.hpp"
#include "libmod/totem/names.hpp"
#include "libmod/totem/verify.hpp"

#include "libmod/core/rapidjson.hpp"

namespace mod::manifest {

namespace fs = std::filesystem;
using rapidjson::Value;
using Alloc = rapidjson::Document::AllocatorType;

namespace {

const auto& str = detail::json_str;

Value stadium_catalogue(const Bytes& bytes, const std::string& file, Alloc& a) {
    using namespace mod::stadium;
    const StadiumRom rom = load_rom_bytes(bytes, file);
    const Archive archive = read_archive(rom);
    Value models(rapidjson::kArrayType);
    for (std::size_t i = 0; i < archive.entries.size(); ++i) {
        Model m;
        try {
            m = read_archive_model(archive, i);
        } catch (const Error&) {
            continue;  // not a model FRAGMENT
        }
        Value o(rapidjson::kObjectType), tex(rapidjson::kArrayType), pal(rapidjson::kArrayType);
        o.AddMember("model", std::uint64_t(i), a).AddMember("model_id", unsigned(m.root.model_id), a);
        if (const auto sp = entry_species(i, m.root.model_id)) o.AddMember("species", str(a, *sp), a);
        for (std::size_t t = 0; t < m.textures.size(); ++t) {
            const auto& x = m.textures[t];
            tex.PushBack(str(a, std::to_string(t) + ": " + (x.format ? n64::to_string(*x.format) : "unknown") + " " +
                                    std::to_string(x.descriptor.width) + "x" + std::to_string(x.descriptor.height)),
                         a);
        }
        for (std::size_t p = 0; p < m.palettes.size(); ++p)
            pal.PushBack(str(a, std::to_string(p) + ": " + std::to_string(m.palettes[p].color_count) + " " +
                                    n64::to_string(m.palettes[p].format) + " colours"),
                         a);
        Value bones(rapidjson::kArrayType);  // the names mesh.replace's bone maps target
        for (std::size_t b = 0; b < m.bones.size(); ++b) bones.PushBack(str(a, animation_bone_name(m, b)), a);
        o.AddMember("textures", tex, a).AddMember("palettes", pal, a).AddMember("bones", bones, a);
        models.PushBack(o, a);
    }
    return models;
}

Value shred_catalogue(const Bytes& bytes, const std::string& file, Alloc& a) {
    using namespace mod::shred;
    const Pak pak = read_pak(bytes, file);
    Value quartets(rapidjson::kArrayType);
    for (const auto& q : find_quartets(pak)) {
        Value o(rapidjson::kObjectType);
        o.AddMember("quartet", str(a, q.base), a);
        try {
            const QuartetModel m = read_pak_quartet(pak, q.base);
            o.AddMember("meshes", std::uint64_t(m.meshes.size()), a).AddMember("bones", std::uint64_t(m.skeleton.bones.size()), a);
        } catch (const Error& e) {
            o.AddMember("unreadable", str(a, e.what()), a);
        }
        quartets.PushBack(o, a);
    }
    return quartets;
}

Value totem_catalogue(const Bytes& bytes, const fs::path& path, const totem::NameTable& names, Alloc& a) {
    using namespace mod::totem;
    const auto order = detect_byte_order(bytes, platform_from_path(path));
    const Archive archive = decode_archive(ByteReader(bytes, order.endian, path.string(), "dgc"));
    Value records(rapidjson::kArrayType);
    for (std::size_t i = 0; i < archive.records.size(); ++i) {
        const auto& r = archive.records[i];
        const RecordKind k = record_kind(r);
        if (k == RecordKind::opaque) continue;
        records.PushBack(str(a, std::string(to_string(k)) + " " + names.display(r.name_id) + " (#" + std::to_string(i) + ")"), a);
    }
    return records;
}

}  // namespace

std::string starter_manifest(const std::string& game, std::span<const fs::path> inputs, const fs::path& manifest_path) {
    if (game != "pokemon-stadium" && game != "thps-shred" && game != "totemtech")
        throw Error(ErrorKind::usage, "unknown game '" + game + "' (pokemon-stadium, thps-shred or totemtech)");
    const fs::path dir = fs::absolute(manifest_path).parent_path().lexically_normal();
    rapidjson::Document d;
    d.SetObject();
    Alloc& a = d.GetAllocator();
    d.AddMember("modkit", 1, a).AddMember("name", "My mod", a).AddMember("game", str(a, game), a);
    Value ins(rapidjson::kObjectType), outs(rapidjson::kObjectType), cat(rapidjson::kObjectType);
    totem::NameTable names;
    std::string data_name;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const fs::path& p = inputs[i];
        const fs::path rel = fs::absolute(p).lexically_normal().lexically_relative(dir);
        if (rel.empty() || *rel.begin() == "..")
            throw Error(ErrorKind::usage, "the input lies outside the manifest's folder " + dir.string() +
                                              " (manifest paths may not leave it): put the manifest beside or above it",
                        p.string());
        const Bytes bytes = read_file(p);
        std::string ext = p.extension().string();
        for (auto& c : ext) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        const bool is_names = game == "totemtech" && ext.size() == 4 && ext[1] == 'N';
        std::string name = game == "pokemon-stadium" ? "rom" : game == "thps-shred" ? "pak" : is_names ? "names" : "data";
        if (inputs.size() > 1 && !(game == "totemtech" && inputs.size() == 2)) name += std::to_string(i + 1);
        Value in(rapidjson::kObjectType);
        in.AddMember("path", str(a, rel.generic_string()), a).AddMember("sha1", str(a, to_hex(sha1(bytes))), a);
        if (is_names) names = totem::NameTable::parse(ByteReader(bytes, Endian::big, p.string(), "names"));
        else data_name = name;
        ins.AddMember(str(a, name), in, a);
        if (!is_names) outs.AddMember(str(a, name), str(a, "out/" + p.filename().string()), a);
    }
    if (game == "totemtech" && ins.HasMember("names") && !data_name.empty())
        ins[data_name.c_str()].AddMember("names", "names", a);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const fs::path& p = inputs[i];
        std::string ext = p.extension().string();
        for (auto& c : ext) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (game == "totemtech" && ext.size() == 4 && ext[1] == 'N') continue;
        const Bytes bytes = read_file(p);
        Value entry = game == "pokemon-stadium" ? stadium_catalogue(bytes, p.string(), a)
                      : game == "thps-shred"    ? shred_catalogue(bytes, p.string(), a)
                                                : totem_catalogue(bytes, p, names, a);
        cat.AddMember(str(a, p.filename().string()), entry, a);
    }
    Value examples(rapidjson::kArrayType);
    auto example = [&](const char* text) { examples.PushBack(Value(text, a), a); };
    if (game == "pokemon-stadium") {
        example(R"({"op": "palette.hsv", "model": 1, "palette": 0, "hue": 120, "lock": "0"})");
        example(R"({"op": "palette.set", "model": 1, "palette": 0, "colours": {"3": "FF8000"}})");
        example(R"({"op": "texture.replace", "model": 1, "texture": 0, "png": "assets/new.png", "mode": "constrained"})");
        example(R"({"op": "mesh.replace", "model": 1, "source": "assets/new.fbx", "bone_map": "assets/bones.txt"})");
    } else if (game == "thps-shred") {
        example(R"({"op": "mesh.replace", "quartet": "NAME", "mesh": 0, "source": "assets/new.fbx", "bone_map": "assets/bones.txt"})");
    } else {
        example(R"({"op": "skin.reweight", "skin": "NAME", "model": "assets/weights.glb"})");
    }
    cat.AddMember("example_edits", examples, a);
    outs.AddMember("patches", Value(rapidjson::kArrayType).PushBack(Value(game == "pokemon-stadium" ? "bps" : "vcdiff", a), a), a);
    outs.AddMember("report", "out/report", a);
    d.AddMember("inputs", ins, a).AddMember("outputs", outs, a).AddMember("edits", Value(rapidjson::kArrayType), a);
    d.AddMember("_catalogue", cat, a);
    rapidjson::StringBuffer sb;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(sb);
    w.SetIndent(' ', 2);
    d.Accept(w);
    return std::string(sb.GetString(), sb.GetSize()) + "\n";
}

}  // namespace mod::manifest
