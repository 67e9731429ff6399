// modkit stadium show: the typed model of one archive entry (bones, materials, textures,
// palettes, draws, counts). In the lean front (CMakeLists.txt MODKIT_LEAN_SOURCES): it reads
// only the archive (read_rom_archive), so it starts without the scene libraries (issue 31).
#include "cli.hpp"
#include "json.hpp"
#include "stadium_cli.hpp"

#include "libmod/stadium/model.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/palette_use.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/stadium/species.hpp"

#include <cstdio>

namespace modkit {
namespace {

namespace fs = std::filesystem;
using namespace mod::stadium;
using namespace stadium_cli;
namespace n64 = mod::n64;
namespace img = mod::image;

// ---- show ------------------------------------------------------------------------------------
int stadium_show(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "rom");
    const std::size_t index = model_index(vm);
    auto archive = read_rom_archive(in);  // the archive region only (issue 31)
    const Model m = read_archive_model(archive, index);
    const CrossCheck cc = cross_check(m.fragment, m.map);
    for (const auto& w : m.warnings) warn(w);
    if (g.json) {
        Json j;
        j.begin_object().field("entry", std::uint64_t(index)).field("model_id", unsigned(m.root.model_id))
            .field("species", mod::stadium::entry_species(index, m.root.model_id).value_or(""))
            .field("fragment_bytes", std::uint64_t(m.fragment.body.size())).field("layout_commands", std::uint64_t(m.commands.size()))
            .field("crosscheck_ok", cc.ok());
        if (m.root_scale) {
            j.key("root_scale").begin_array();
            for (auto v : *m.root_scale) j.value(std::int64_t(v));
            j.end_array();
        }
        j.key("bones").begin_array();
        for (const auto& b : m.bones) {
            j.begin_object().field("id", unsigned(b.id)).field("flags", unsigned(b.flags)).field("channel", unsigned(b.channel))
                .field("parent", int(b.parent));
            j.key("translation").begin_array();
            for (auto v : b.translation) j.value(int(v));
            j.end_array().key("rotation").begin_array();
            for (auto v : b.rotation) j.value(int(v));
            j.end_array().key("scale").begin_array();
            for (auto v : b.scale) j.value(std::int64_t(v));
            j.end_array().end_object();
        }
        j.end_array().key("materials").begin_array();
        for (const auto& mt : m.materials) {
            j.begin_object().field("combiner", unsigned(mt.combiner)).field("texture_channel", int(mt.texture_channel))
                .field("texture", int(mt.texture)).field("palette", int(mt.palette)).field("prim_colour", mod::hex(mt.prim_colour, 8))
                .field("material_dl", mod::hex(mt.material_dl, 8)).field("bone", int(mt.bone));
            if (mt.load)
                j.field("load", n64::to_string(mt.load->method)).field("cms", unsigned(mt.load->render.s.cm))
                    .field("cmt", unsigned(mt.load->render.t.cm)).field("bank", unsigned(mt.load->render.palette));
            j.end_object();
        }
        j.end_array().key("textures").begin_array();
        for (const auto& t : m.textures)
            j.begin_object().field("format", t.format ? n64::to_string(*t.format) : "unknown")
                .field("fmt", unsigned(t.descriptor.fmt)).field("siz", unsigned(t.descriptor.siz))
                .field("width", unsigned(t.descriptor.width)).field("height", unsigned(t.descriptor.height))
                .field("texel_count", t.descriptor.texel_count).field("texels", mod::hex(t.texels, 8))
                .field("bytes", std::uint64_t(t.data.size())).end_object();
        j.end_array().key("palettes").begin_array();
        const auto uses = mod::stadium::palette_use(m);  // what each palette colours (issue 33)
        for (std::size_t i = 0; i < m.palettes.size(); ++i) {
            const auto& p = m.palettes[i];
            j.begin_object().field("color_count", p.color_count).field("colors", mod::hex(p.colors, 8))
                .field("tlut_dl", mod::hex(p.tlut_dl, 8)).field("format", mod::n64::to_string(p.format))
                .field("texels", uses[i].texels).key("hue_texels").begin_array();
            for (auto n : uses[i].hue_texels) j.value(n);
            j.end_array().field("grey_texels", uses[i].grey_texels).field("use", mod::stadium::palette_use_text(uses[i]))
                .end_object();
        }
        j.end_array().field("vertices", unsigned(m.vertex_count)).field("draws", std::uint64_t(m.draws.size()))
            .field("display_lists", std::uint64_t(m.lists.size())).field("triangles", std::uint64_t(m.triangles.size()));
        j.key("draw_order").begin_array();
        for (auto d : m.draw_order) j.value(std::uint64_t(d));
        j.end_array().key("findings").begin_array();
        for (const auto& w : m.findings) j.value(w);
        j.end_array().key("warnings").begin_array();
        for (const auto& w : m.warnings) j.value(w);
        j.end_array().end_object();
        return 0;
    }
    std::printf("%s: stored id %u, fragment 0x%zX bytes, %zu layout commands, relocations %s\n",
                mod::stadium::model_label(index, m.root.model_id).c_str(), unsigned(m.root.model_id), m.fragment.body.size(), m.commands.size(), cc.ok() ? "match" : "DISAGREE");
    if (m.root_scale)
        std::printf("root scale %.4f %.4f %.4f\n", (*m.root_scale)[0] / 65536.0, (*m.root_scale)[1] / 65536.0,
                    (*m.root_scale)[2] / 65536.0);
    std::printf("%zu bones:\n", m.bones.size());
    for (std::size_t i = 0; i < m.bones.size(); ++i) {
        const auto& b = m.bones[i];
        std::printf("  [%zu] id %u parent %d flags %u channel %u  T(%d,%d,%d) R(%d,%d,%d) S(%.3f,%.3f,%.3f)\n", i,
                    unsigned(b.id), b.parent, unsigned(b.flags), unsigned(b.channel), b.translation[0], b.translation[1],
                    b.translation[2], b.rotation[0], b.rotation[1], b.rotation[2], b.scale[0] / 65536.0,
                    b.scale[1] / 65536.0, b.scale[2] / 65536.0);
    }
    std::printf("%zu materials:\n", m.materials.size());
    for (std::size_t i = 0; i < m.materials.size(); ++i) {
        const auto& mt = m.materials[i];
        std::printf("  [%zu] combiner %u texture %d palette %d channel %d prim %08X dl %08X bone %d%s%s\n", i,
                    unsigned(mt.combiner), mt.texture, mt.palette, mt.texture_channel, mt.prim_colour, mt.material_dl,
                    mt.bone, mt.load ? (std::string(" load ") + n64::to_string(mt.load->method)).c_str() : "",
                    mt.drawn ? "" : " (never drawn: detached)");
    }
    std::printf("%zu textures:\n", m.textures.size());
    for (std::size_t i = 0; i < m.textures.size(); ++i) {
        const auto& t = m.textures[i];
        std::printf("  [%zu] %s %ux%u texels %u at %08X\n", i, t.format ? n64::to_string(*t.format) : "unknown",
                    unsigned(t.descriptor.width), unsigned(t.descriptor.height), t.descriptor.texel_count, t.texels);
    }
    std::printf("%zu palettes:\n", m.palettes.size());
    const auto uses = mod::stadium::palette_use(m);  // which palette is which part: hypothesis stadium-palette-parts/1
    for (std::size_t i = 0; i < m.palettes.size(); ++i)
        std::printf("  [%zu] %u %s colours at %08X, TLUT DL %08X; %s\n", i, m.palettes[i].color_count,
                    mod::n64::to_string(m.palettes[i].format), m.palettes[i].colors, m.palettes[i].tlut_dl,
                    mod::stadium::palette_use_text(uses[i]).c_str());
    std::printf("%u vertices, %zu draws, %zu display lists, %zu triangles\n", unsigned(m.vertex_count), m.draws.size(),
                m.lists.size(), m.triangles.size());
    std::printf("draw order as the game runs it (render layer 0 to 9, walk order inside a layer):");
    for (auto d : m.draw_order) std::printf(" %zu/L%u", d, unsigned(m.draws[d].layer));
    std::printf("\n");
    if (!m.findings.empty()) std::printf("%zu finding(s) where the game would not draw what the layout says (above)\n", m.findings.size());
    return 0;
}

const Registrar stadium_show_group({"stadium", "Pokémon Stadium model archive, PERS-SZP entries and FRAGMENTs", {
    {"show", "ROM MODEL [--json]", "the typed model: bones, materials, textures, palettes, draws, counts",
     declare_rom_model, stadium_show},
}, false, true});  // partial: the group's other commands run in modkit-scene

}  // namespace
}  // namespace modkit
