// modkit stadium animations|moves: the animations of a Pokémon model (skeletal and texture) as
// the game samples them, and the battle tables that say which animation each move plays. Thin
// layer over libmod/stadium/{animation,battle_table}.hpp.
#include "cli.hpp"
#include "json.hpp"

#include "libmod/stadium/animation.hpp"
#include "libmod/stadium/battle_table.hpp"
#include "libmod/stadium/export.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstdio>

namespace modkit {

// The animation options of `stadium export --animations` (declared in cmd_stadium_model.cpp):
// the battle tables name the animations when the ROM has them, else a warning says why not.
mod::stadium::ExportAnimations export_animations_for(const mod::Bytes& rom, std::size_t entry, const std::filesystem::path& in) {
    static std::optional<mod::stadium::BattleTables> tables;
    mod::stadium::ExportAnimations a;
    a.enabled = true;
    a.entry = entry;
    a.path = "archive[" + std::to_string(entry) + "].fragment";
    try {
        tables = mod::stadium::read_battle_tables(rom, in.string());
        a.tables = &*tables;
    } catch (const mod::Error& e) {
        warn(std::string("animations are named by index only: ") + e.what());
    }
    return a;
}

namespace {

namespace fs = std::filesystem;
using namespace mod::stadium;

const char* axis_name(std::size_t a) { return a == 0 ? "x" : a == 1 ? "y" : "z"; }

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

void json_pose(Json& j, const ChannelPose& p) {
    j.begin_object().key("t").begin_array();
    for (double v : p.translation) j.value(v);
    j.end_array().key("r").begin_array();
    for (auto v : p.rotation) j.value(int(v));
    j.end_array().key("s").begin_array();
    for (double v : p.scale) j.value(v);
    j.end_array().end_object();
}

int stadium_animations(const po::variables_map& vm, const Global& g) {
    const fs::path in = required(vm, "rom");
    if (!vm.count("model")) usage_error("MODEL (archive entry index) is required");
    const std::size_t index = vm["model"].as<std::size_t>();
    const bool dump = vm.count("dump") > 0;
    const Archive archive = read_rom_archive(in);  // the archive region only (issue 31)
    const Model m = read_archive_model(archive, index);
    ModelAnimations anims;
    try {
        anims = read_animations(m, "archive[" + std::to_string(index) + "].fragment");
    } catch (mod::Error& e) {
        e.set_file_if_empty(in.string());
        throw;
    }
    for (const auto& f : anims.findings) warn(f);
    if (g.json) {
        Json j;
        j.begin_object().field("entry", std::uint64_t(index)).key("bones").begin_array();
        for (const auto& b : m.bones) j.value(unsigned(b.channel));
        j.end_array().key("skeletal").begin_array();
        for (const auto& a : anims.skeletal) {
            j.begin_object().field("index", std::uint64_t(a.index)).field("mode", a.hermite() ? "hermite" : "packed")
                .field("flags", unsigned(a.flags)).field("hold", a.hold()).field("translation_bits", a.trans16() ? 16u : 12u)
                .field("start_frame", int(a.start_frame)).field("loop_frame", int(a.loop_frame))
                .field("frame_count", unsigned(a.frame_count)).field("descriptors", unsigned(a.descriptor_count))
                .field("channels", std::uint64_t(a.channel_count())).key("unknown2").begin_array()
                .value(unsigned(a.unknown2[0])).value(unsigned(a.unknown2[1])).end_array().key("channel_kinds").begin_array();
            for (std::size_t d = 0; d < a.descriptors.size(); ++d) {
                j.begin_object().field("descriptor", std::uint64_t(d)).field("channel", std::uint64_t(d / 3))
                    .field("axis", axis_name(d % 3));
                for (Component c : {Component::scale, Component::rotation, Component::translation})
                    j.field(to_string(c), component_kind(a, d, c));
                j.end_object();
            }
            j.end_array();
            if (dump) {
                j.key("frames").begin_array();
                for (std::int32_t f = 0; f < a.frame_count; ++f) {
                    j.begin_array();
                    for (std::size_t c = 0; c < a.channel_count(); ++c) json_pose(j, sample_channel(a, c, f));
                    j.end_array();
                }
                j.end_array();
            }
            j.key("findings").begin_array();
            for (const auto& f : a.findings) j.value(f);
            j.end_array().end_object();
        }
        j.end_array().key("aux").begin_array();
        for (const auto& a : anims.aux) {
            j.begin_object().field("index", std::uint64_t(a.index)).field("flags", unsigned(a.flags)).field("hold", a.hold())
                .field("start_frame", int(a.start_frame)).field("loop_frame", int(a.loop_frame))
                .field("frame_count", unsigned(a.frame_count)).key("channels").begin_array();
            for (const auto& c : a.channels) j.begin_object().field("count", unsigned(c.count)).field("base", unsigned(c.base)).end_object();
            j.end_array();
            if (dump) {
                j.key("frames").begin_array();
                for (std::int32_t f = 0; f < a.frame_count; ++f) {
                    j.begin_array();
                    for (std::size_t c = 0; c < a.channels.size(); ++c) j.value(unsigned(sample_aux(a, c, f)));
                    j.end_array();
                }
                j.end_array();
            }
            j.key("findings").begin_array();
            for (const auto& f : a.findings) j.value(f);
            j.end_array().end_object();
        }
        j.end_array().key("findings").begin_array();
        for (const auto& f : anims.findings) j.value(f);
        j.end_array().end_object();
        return 0;
    }
    std::printf("entry %zu: %zu skeletal, %zu texture animations; bone channels:", index, anims.skeletal.size(), anims.aux.size());
    for (const auto& b : m.bones) std::printf(" %u", unsigned(b.channel));
    std::printf("\n");
    for (const auto& a : anims.skeletal) {
        std::printf("animation %zu: %s%s, %u-bit translations, flags 0x%04X, frames %u (start %d, loop %d), %u descriptors "
                    "(%zu channels)\n",
                    a.index, a.hermite() ? "hermite" : "packed", a.hold() ? ", hold" : ", loop", a.trans16() ? 16u : 12u,
                    unsigned(a.flags), unsigned(a.frame_count), int(a.start_frame), int(a.loop_frame),
                    unsigned(a.descriptor_count), a.channel_count());
        for (std::size_t d = 0; d < a.descriptors.size(); ++d)
            std::printf("  channel %zu %s: scale %s, rotation %s, translation %s\n", d / 3, axis_name(d % 3),
                        component_kind(a, d, Component::scale).c_str(), component_kind(a, d, Component::rotation).c_str(),
                        component_kind(a, d, Component::translation).c_str());
        if (dump)
            for (std::int32_t f = 0; f < a.frame_count; ++f)
                for (std::size_t c = 0; c < a.channel_count(); ++c) {
                    const ChannelPose p = sample_channel(a, c, f);
                    std::printf("  frame %d channel %zu: t %s %s %s r %d %d %d s %s %s %s\n", f, c, num(p.translation[0]).c_str(),
                                num(p.translation[1]).c_str(), num(p.translation[2]).c_str(), p.rotation[0], p.rotation[1],
                                p.rotation[2], num(p.scale[0]).c_str(), num(p.scale[1]).c_str(), num(p.scale[2]).c_str());
                }
    }
    for (const auto& a : anims.aux) {
        std::printf("texture animation %zu: %s, flags 0x%04X, frames %u (start %d, loop %d), %zu channels\n", a.index,
                    a.hold() ? "hold" : "loop", unsigned(a.flags), unsigned(a.frame_count), int(a.start_frame),
                    int(a.loop_frame), a.channels.size());
        for (std::size_t c = 0; c < a.channels.size(); ++c)
            std::printf("  channel %zu: %u values from stream[%u]\n", c, unsigned(a.channels[c].count), unsigned(a.channels[c].base));
        if (dump)
            for (std::int32_t f = 0; f < a.frame_count; ++f) {
                std::printf("  frame %d:", f);
                for (std::size_t c = 0; c < a.channels.size(); ++c) std::printf(" %u", unsigned(sample_aux(a, c, f)));
                std::printf("\n");
            }
    }
    return 0;
}

int stadium_moves(const po::variables_map& vm, const Global& g) {
    const fs::path in = required(vm, "rom");
    const StadiumRom rom = load_rom(in);
    const BattleTables t = read_battle_tables(rom.z64, in.string());
    std::optional<std::size_t> only;
    if (vm.count("species")) {
        only = vm["species"].as<std::size_t>();
        if (*only >= battle_pointer_table_words)
            usage_error("SPECIES is a pointer table index 0.." + std::to_string(battle_pointer_table_words - 1) +
                        " (species number − 1; 152 = Pikachu's alternative model)");
        bool found = false;
        for (const auto& s : t.species) found = found || s.index == *only;
        if (!found) usage_error("pointer table word " + std::to_string(*only) + " is in the zero tail: no rows for that index");
    }
    if (g.json) {
        Json j;
        j.begin_object().key("species").begin_array();
        for (const auto& s : t.species) {
            if (only && s.index != *only) continue;
            j.begin_object().field("index", unsigned(s.index)).field("model_entry", unsigned(battle_model_entry(s.index)))
                .field("word", unsigned(s.word)).field("rom", unsigned(s.rom)).key("rows").begin_array();
            for (const auto& r : s.rows) {
                j.begin_object().field("move", unsigned(r.move)).field("skeletal", unsigned(r.skeletal()));
                if (r.aux()) j.field("aux", unsigned(*r.aux()));
                else j.key("aux").null();
                j.field("start_frame", unsigned(r.start_frame())).key("raw").begin_array();
                for (auto b : r.raw) j.value(unsigned(b));
                j.end_array().end_object();
            }
            j.end_array().key("context_rows").begin_array();
            for (const auto& r : s.context_rows) {
                j.begin_object().field("offset", unsigned(r.offset)).field("rom", unsigned(r.rom))
                    .field("starts_skeletal", r.plays_context_animation());
                if (r.plays_context_animation()) j.field("skeletal", unsigned(r.skeletal()));
                j.key("raw").begin_array();
                for (auto b : r.raw) j.value(unsigned(b));
                j.end_array().end_object();
            }
            j.end_array().end_object();
        }
        j.end_array().end_object();
        return 0;
    }
    for (const auto& s : t.species) {
        if (only && s.index != *only) continue;
        std::printf("species index %u (model entry %u): rows at 0x%X\n", s.index, battle_model_entry(s.index), s.rom);
        for (const auto& r : s.rows) {
            std::printf("  move %3u: skeletal %u, aux %s, start frame %u\n", r.move, unsigned(r.skeletal()),
                        r.aux() ? std::to_string(*r.aux()).c_str() : "none", unsigned(r.start_frame()));
        }
        for (const auto& r : s.context_rows)
            if (r.plays_context_animation())
                std::printf("  row 0x%X (context, outside move selection): skeletal %u\n", r.offset, unsigned(r.skeletal()));
    }
    return 0;
}

const Registrar stadium_anim_group({"stadium", "Pokémon Stadium model archive, PERS-SZP entries and FRAGMENTs", {
    {"animations", "ROM MODEL [--json] [--dump]",
     "a model's skeletal and texture animations: mode, flags, frames, channels, component kinds (--dump: every sampled value)",
     [](auto& o, auto& p) {
         o.add_options()("rom", po::value<std::string>(), "ROM image (z64, v64 or n64 byte order)")(
             "model", number<std::size_t>(), "model archive entry index (0-based)")(
             "dump", "every sampled value per frame: per channel t (model units), r (s16 binary angles), s (factors)");
         p.add("rom", 1).add("model", 1);
     },
     stadium_animations},
    {"moves", "ROM [SPECIES] [--json]",
     "the battle tables: per species index and move, the skeletal and texture animation played and the start frame",
     [](auto& o, auto& p) {
         o.add_options()("rom", po::value<std::string>(), "ROM image (z64, v64 or n64 byte order)")(
             "species", number<std::size_t>(), "pointer table index (species − 1; 152 = Pikachu's alternative)");
         p.add("rom", 1).add("species", 1);
     },
     stadium_moves},
}});

}  // namespace
}  // namespace modkit
