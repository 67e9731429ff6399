// modkit totem textures | texture replace | palette set|hsv | material colour: TotemTech
// BITMAP, MATERIAL, MATERIALANIM and MATERIALOBJ records. The edits are the library's
// (libmod/totem/texture_edit.hpp), shared with the manifest operations.
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/palette_text.hpp"
#include "libmod/image/png.hpp"
#include "libmod/totem/repack.hpp"
#include "libmod/totem/texture_edit.hpp"
#include "libmod/totem/texture_export.hpp"
#include "libmod/totem/texture_scene.hpp"
#include "libmod/totem/verify.hpp"

#include <cstdio>
#include <filesystem>

namespace modkit {
namespace {

namespace fs = std::filesystem;
using namespace mod::totem;
using mod::image::colour_text;

struct Opened {
    fs::path data_path;
    mod::Bytes data;
    std::optional<Platform> platform;
    Archive archive;
    NameTable names;
    std::optional<BitmapLayout> layout;

    mod::ByteReader reader() const { return mod::ByteReader(data, archive.endian, data_path.string(), "dgc"); }
    std::string platform_text() const {
        if (platform) return to_string(*platform);
        return archive.endian == mod::Endian::big ? "gamecube" : "ps2-or-pc";
    }
    BitmapLayout need_layout() const {
        if (!layout) usage_error("no source describes PC bitmaps: modkit does not decode or write them");
        return *layout;
    }
};

Opened open(const po::variables_map& vm) {
    Opened o;
    o.data_path = required(vm, "data");
    if (vm.count("platform")) {
        const std::string p = vm["platform"].as<std::string>();
        o.platform = p == "gamecube" || p == "gc" ? Platform::gamecube : p == "ps2" ? Platform::ps2 : p == "pc" ? Platform::pc
                                                                                                       : (usage_error("unknown platform '" + p + "' (gamecube, ps2 or pc)"), Platform::pc);
    } else {
        o.platform = platform_from_path(o.data_path);
    }
    o.data = mod::read_file(o.data_path);
    try {
        const auto order = detect_byte_order(o.data, o.platform);
        o.archive = decode_archive(mod::ByteReader(o.data, order.endian, o.data_path.string(), "dgc"));
    } catch (mod::Error& e) {
        e.set_file_if_empty(o.data_path.string());
        throw;
    }
    const fs::path names = required(vm, "names");
    const auto bytes = mod::read_file(names);
    o.names = NameTable::parse(mod::ByteReader(bytes, mod::Endian::big, names.string(), "names"));
    o.layout = bitmap_layout(o.platform, o.archive.endian);
    return o;
}

// The archive opened and the `type` record RECORD names found in it.
struct OpenedRecord : Opened {
    std::size_t index = 0;
    mod::ByteReader payload() const { return payload_reader(reader(), archive, index); }
};

OpenedRecord open_record(const po::variables_map& vm, const char* type) {
    OpenedRecord o{open(vm)};
    o.index = find_typed_record(o.archive, o.names, required(vm, "record"), type);
    return o;
}

// Repacks with the record replaced and writes the archive (atomically).
void write_with(const OpenedRecord& o, mod::Bytes payload, const fs::path& out) {
    auto items = items_of(o.archive);
    items[o.index].record.payload = std::move(payload);
    RepackReport rep;
    const Archive packed = repack(o.archive, std::move(items), &rep);
    mod::write_file_atomic(out, encode_archive(packed));
    for (const auto& n : rep.notes) warn(n);
}

void declare_data(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("data", po::value<std::string>(), "archive (.DGC, .DPS)")("names", po::value<std::string>(), "name table (.NGC, .NPS)")(
        "platform", po::value<std::string>(), "gamecube, ps2 or pc (default: from the extension)");
    p.add("data", 1).add("names", 1);
}

// ---- textures ------------------------------------------------------------------------------------

int totem_textures(const po::variables_map& vm, const Global& g) {
    const Opened o = open(vm);
    const auto rest = vm.count("rest") ? vm["rest"].as<std::vector<std::string>>() : std::vector<std::string>{};
    if (rest.empty() || rest.size() > 2) usage_error("expected DATA NAMES [RECORD] DIR");
    const fs::path dir = rest.back();
    std::optional<std::vector<std::size_t>> bitmaps, materials;
    if (rest.size() == 2) {
        const auto index = find_record_by_text(o.archive, o.names, rest[0]);
        if (!index) usage_error("no record named '" + rest[0] + "' (" + hash_text(id_from_text(o.names, rest[0])) + ")");
        bitmaps = bitmaps_of(o.reader(), o.archive, *index);
        materials = materials_of(o.reader(), o.archive, *index);
        if (bitmaps->empty()) warn("record '" + rest[0] + "' leads to no BITMAP");
    }
    const TextureExport e = export_textures(o.reader(), o.archive, o.names, o.layout, o.platform_text(), bitmaps, materials);
    for (const auto& f : e.files) mod::write_file_atomic(dir / fs::path(f.file), f.png);
    mod::write_file_atomic(dir / textures_index_name, mod::Bytes(e.index_json.begin(), e.index_json.end()));
    for (const auto& w : e.warnings) warn(w);
    if (g.json) {
        Json j;
        j.begin_object().field("dir", dir.string()).field("bitmaps", std::uint64_t(e.bitmaps))
            .field("decoded", std::uint64_t(e.decoded)).field("index", (dir / textures_index_name).string()).end_object();
    } else {
        std::printf("%s: %zu of %zu bitmaps written as PNG, index in %s\n", dir.c_str(), e.decoded, e.bitmaps,
                    (dir / textures_index_name).c_str());
    }
    return 0;
}

// ---- texture replace -------------------------------------------------------------------------------

int totem_texture(const po::variables_map& vm, const Global& g) {
    if (required(vm, "action") != "replace") usage_error("texture actions: replace");
    const OpenedRecord o = open_record(vm, "BITMAP");
    const fs::path png = required(vm, "png"), out = required(vm, "out");
    const auto bytes = mod::read_file(png);
    const auto img = mod::image::read_png(bytes, png.string());
    BitmapEncodeOptions opt;
    opt.mode = parse_palette_mode(vm["mode"].as<std::string>());
    opt.locked = slot_list_option(vm, "lock");
    opt.threads = g.threads;
    const auto r = replace_texture(o.payload(), o.need_layout(), img, opt);
    write_with(o, r.payload, out);
    for (const auto& w : r.report.warnings) warn(w);
    if (g.json) {
        Json j;
        j.begin_object().field("out", out.string()).field("format", bitmap_format_name(r.after.layout, r.after.format))
            .field("mode", r.report.mode).field("width", unsigned(r.after.width)).field("height", unsigned(r.after.height))
            .field("mean_delta_e", r.report.mean_delta_e).field("max_delta_e", r.report.max_delta_e).end_object();
    } else {
        std::printf("%s: %s %ux%u (%s), mean dE %.3f, max dE %.3f\n", out.c_str(),
                    bitmap_format_name(r.after.layout, r.after.format).c_str(), r.after.width, r.after.height,
                    r.report.mode.c_str(), r.report.mean_delta_e, r.report.max_delta_e);
    }
    return 0;
}

// ---- palette set|hsv --------------------------------------------------------------------------------

void print_changes(const Global& g, const fs::path& out, const std::vector<PaletteChange>& changes) {
    if (g.json) {
        Json j;
        j.begin_object().field("out", out.string()).key("changes").begin_array();
        for (const auto& c : changes)
            j.begin_object().field("slot", c.slot).field("before", mod::hex(c.before)).field("after", mod::hex(c.after))
                .field("requested", colour_text(c.requested)).field("result", colour_text(c.result))
                .field("rounding_delta_e", c.rounding_delta_e).end_object();
        j.end_array().end_object();
        return;
    }
    std::size_t rounded = 0;
    for (const auto& c : changes) rounded += c.rounded();
    std::printf("%s: %zu slot(s) changed, %zu rounded to the palette format\n", out.c_str(), changes.size(), rounded);
    for (const auto& c : changes)
        std::printf("  slot %u: %s -> %s (asked %s, got %s)\n", c.slot, mod::hex(c.before).c_str(), mod::hex(c.after).c_str(),
                    colour_text(c.requested).c_str(), colour_text(c.result).c_str());
}

int totem_palette(const po::variables_map& vm, const Global& g) {
    const std::string action = required(vm, "action");
    const OpenedRecord o = open_record(vm, "BITMAP");
    const fs::path out = required(vm, "out");
    const auto payload = o.payload();
    const auto locked = slot_list_option(vm, "lock");
    PaletteEditResult r;
    if (action == "set") {
        r = set_palette(payload, o.need_layout(), slot_colour_option(vm, "set"), locked);
    } else if (action == "hsv") {
        mod::image::HsvShift s;
        s.hue_degrees = vm["hue"].as<double>();
        s.saturation = vm["saturation"].as<double>();
        s.value = vm["value"].as<double>();
        if (s.saturation < 0 || s.value < 0) usage_error("--saturation and --value are non-negative factors");
        r = shift_palette(payload, o.need_layout(), s, slot_list_option(vm, "slots"), locked);
    } else {
        usage_error("palette actions: set, hsv");
    }
    write_with(o, r.payload, out);
    print_changes(g, out, r.changes);
    return 0;
}

// ---- material colour ----------------------------------------------------------------------------------

int totem_material(const po::variables_map& vm, const Global& g) {
    if (required(vm, "action") != "colour" && required(vm, "action") != "color") usage_error("material actions: colour");
    const OpenedRecord o = open_record(vm, "MATERIAL");
    const fs::path out = required(vm, "out");
    MaterialColourEdit edit;
    edit.colour = colour_option(vm, "colour");
    edit.emission = colour_option(vm, "emission");
    if (!edit.colour && !edit.emission) usage_error("give --colour RRGGBB[AA] and/or --emission RRGGBB");
    const auto r = set_material_colour(o.payload(), edit);
    write_with(o, r.payload, out);
    auto text4 = [](const std::array<F32, 4>& c) {
        char b[96];
        std::snprintf(b, sizeof b, "%.4f %.4f %.4f %.4f", double(c[0].value()), double(c[1].value()), double(c[2].value()),
                      double(c[3].value()));
        return std::string(b);
    };
    if (g.json) {
        Json j;
        j.begin_object().field("out", out.string()).field("colour_before", text4(r.before.colour))
            .field("colour_after", text4(r.after.colour)).end_object();
    } else {
        std::printf("%s: colour %s -> %s\n", out.c_str(), text4(r.before.colour).c_str(), text4(r.after.colour).c_str());
    }
    return 0;
}

void declare_edit(po::options_description& o, po::positional_options_description& p, const char* record_help) {
    o.add_options()("action", po::value<std::string>(), "action");
    p.add("action", 1);
    declare_data(o, p);
    o.add_options()("record", po::value<std::string>(), record_help)("out", po::value<std::string>(), "output archive");
    p.add("record", 1);
}

const Registrar totem_textures_group({"totem", "", {
    {"textures", "DATA NAMES [RECORD] DIR",
     "write BITMAPs as PNG with index.json (bitmaps, palettes, MATERIAL colours and links, MATERIALANIM tracks); "
     "RECORD (a BITMAP, MATERIAL, MATERIALANIM, MATERIALOBJ, MESH or SKIN) limits it to what that record leads to",
     [](auto& o, auto& p) {
         declare_data(o, p);
         o.add_options()("rest", po::value<std::vector<std::string>>()->multitoken(), "[RECORD] DIR");
         p.add("rest", -1);
     },
     totem_textures},
    {"texture", "replace DATA NAMES BITMAP PNG OUT [--mode auto|quantise|reindex] [--lock S]",
     "replace a BITMAP's image from a PNG in the record's own format (never format 13)",
     [](auto& o, auto& p) {
         declare_edit(o, p, "BITMAP record (name, 0xHASH or #index)");
         o.add_options()("png", po::value<std::string>(), "PNG image")(
             "mode", po::value<std::string>()->default_value("auto"),
             "C4/C8 palettes:\n  quantise: a new palette (locked slots kept)\n  reindex: map onto the palette as it is\n"
             "  auto: the lower mean dE of the two")(
             "lock", po::value<std::vector<std::string>>()->multitoken(), "palette slots that must not change (e.g. 0,5)");
         p.add("png", 1).add("out", 1);
     },
     totem_texture},
    {"palette", "set|hsv DATA NAMES BITMAP OUT [--set SLOT=RRGGBB[AA]…] [--hue D --saturation F --value F] [--slots S] [--lock S]",
     "recolour a C4/C8 BITMAP's palette in its own format (RGB5A3, RGB565 or RGBA8888; rounding reported)",
     [](auto& o, auto& p) {
         declare_edit(o, p, "BITMAP record (name, 0xHASH or #index)");
         o.add_options()("set", po::value<std::vector<std::string>>()->multitoken(), "SLOT=RRGGBB[AA] (hex)")(
             "hue", number<double>()->default_value(0.0), "degrees added to the hue")(
             "saturation", number<double>()->default_value(1.0), "saturation factor")(
             "value", number<double>()->default_value(1.0), "value factor")(
             "slots", po::value<std::vector<std::string>>()->multitoken(), "slots to shift (default all)")(
             "lock", po::value<std::vector<std::string>>()->multitoken(), "slots that must not change");
         p.add("out", 1);
     },
     totem_palette},
    {"material", "colour DATA NAMES MATERIAL OUT [--colour RRGGBB[AA]] [--emission RRGGBB]",
     "set a MATERIAL's colour (the factor the texture is multiplied by) and/or emission, as value/255",
     [](auto& o, auto& p) {
         declare_edit(o, p, "MATERIAL record (name, 0xHASH or #index)");
         o.add_options()("colour", po::value<std::string>(), "RRGGBB or RRGGBBAA (hex)")("emission", po::value<std::string>(),
                                                                                         "RRGGBB (hex)");
         p.add("out", 1);
     },
     totem_material},
}});

}  // namespace
}  // namespace modkit
