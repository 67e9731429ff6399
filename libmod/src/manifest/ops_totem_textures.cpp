// TotemTech texture and material operations (game totemtech): palette.set, palette.hsv,
// texture.replace and material.colour. Each is a thin call into libmod/totem/texture_edit.hpp
// (the functions `modkit totem palette|texture|material` call), then the repacker; every other
// record stays byte for byte.
#include "ops_totem_common.hpp"

#include "libmod/image/palette_text.hpp"
#include "libmod/image/png.hpp"
#include "libmod/totem/repack.hpp"
#include "libmod/totem/texture_edit.hpp"
#include "libmod/totem/texture_scene.hpp"
#include "libmod/totem/verify.hpp"

#include <algorithm>
#include <cmath>

namespace mod::manifest::detail {

namespace {

using namespace mod::totem;

// The record an edit names in `field` (a `type` record) and the archive it is in.
struct Opened {
    Archive archive;
    NameTable names;
    std::optional<BitmapLayout> layout;
    std::size_t index = 0;

    ByteReader payload(const EditEnv& env) const {
        return payload_reader(ByteReader(env.target.current, archive.endian, env.target.display, "dgc"), archive, index);
    }
    BitmapLayout need_layout(const EditEnv& env) const {
        if (!layout) env.fail("bitmap", "no source describes PC bitmaps: modkit does not write them");
        return *layout;
    }
    std::string label() const { return names.display(archive.records[index].name_id); }
    std::string region() const { return "record[" + label() + "]"; }
};

Opened open(const EditEnv& env, const char* field, const char* type) {
    Opened o;
    o.archive = decode_totem_archive(env, env.target.current);
    o.names = totem_names(env);
    o.layout = totem::bitmap_layout(totem_platform(env), o.archive.endian);
    try {
        o.index = find_typed_record(o.archive, o.names, env.text(field), type);
    } catch (const Error& e) {
        env.fail(field, e.message() + (env.names ? "" : " (the manifest gives no name table: name it by 0xHASH or #index)"),
                 e.kind());
    }
    return o;
}

Opened open_bitmap(const EditEnv& env) { return open(env, "bitmap", "BITMAP"); }

// The named BITMAP decoded; with `need_palette`, one without a palette is refused.
Bitmap decode_named(const EditEnv& env, const Opened& o, bool need_palette) {
    Bitmap b = decode_bitmap(o.payload(env), o.need_layout(env));
    if (need_palette && !b.paletted())
        env.fail("bitmap", "BITMAP " + env.text("bitmap") + " is " + bitmap_format_name(b.layout, b.format) + ": it has no palette");
    return b;
}

void archive_touch(const EditEnv& env, PlannedEdit& out) {
    out.touches.push_back(touch(env.target, "bytes", 0, to_end, false, "the archive (repacked: records may move)"));
    out.limits.push_back("a record never crosses a chunk: a record that no longer fits its chunk moves");
}

void commit(EditEnv& env, const Opened& o, Bytes payload, ReportOut& r) {
    auto items = items_of(o.archive);
    items[o.index].record.payload = std::move(payload);
    RepackReport rep;
    const Archive packed = repack(o.archive, std::move(items), &rep);
    env.target.current = encode_archive(packed);
    r.set("moved", std::uint64_t(rep.moved)).set("chunk_size", std::uint64_t(packed.chunk_size));
    for (const auto& note : rep.notes) r.warn(note);
}

void report_changes(ReportOut& r, const Opened& o, const PaletteEditResult& p) {
    rapidjson::Value changes(rapidjson::kArrayType);
    std::size_t rounded = 0;
    for (const auto& c : p.changes) {
        rapidjson::Value ch(rapidjson::kObjectType);
        ch.AddMember("slot", c.slot, r.a).AddMember("before", r.str(hex(c.before)), r.a).AddMember("after", r.str(hex(c.after)), r.a)
            .AddMember("requested", r.str(image::colour_text(c.requested)), r.a)
            .AddMember("result", r.str(image::colour_text(c.result)), r.a)
            .AddMember("rounded", c.rounded(), r.a).AddMember("rounding_delta_e", c.rounding_delta_e, r.a);
        changes.PushBack(ch, r.a);
        rounded += c.rounded();
    }
    const std::string label = o.label();
    r.set("bitmap", label).set("format", bitmap_format_name(p.before.layout, p.before.format))
        .set("palette_format", palette_format_name(p.before.palette_format)).set("changes", std::move(changes));
    if (rounded)
        r.warn("BITMAP " + label + ": " + std::to_string(rounded) + " colour(s) rounded to " +
               palette_format_name(p.before.palette_format));
}

// Slot ranges of the palette an edit claims (exclusive): other slots stay free for other edits.
void add_slot_touches(const EditEnv& env, PlannedEdit& out, const std::string& reg, std::vector<unsigned> slots) {
    std::sort(slots.begin(), slots.end());
    for (std::size_t i = 0; i < slots.size();) {
        std::size_t j = i;
        while (j + 1 < slots.size() && slots[j + 1] == slots[j] + 1) ++j;
        out.touches.push_back(touch(env.target, reg + ".palette", slots[i], slots[j] + 1, true,
                                    "palette slots " + ranges_text({slots.begin() + long(i), slots.begin() + long(j) + 1})));
        i = j + 1;
    }
}

// ---- palette.set ------------------------------------------------------------------------------

void plan_palette_set(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open_bitmap(env);
    const Bitmap b = decode_named(env, o, true);
    std::vector<unsigned> slots;
    for (const auto& c : env.slot_colours("colours")) {
        if (c.slot >= b.palette_entries())
            env.fail("colours", "the palette has " + std::to_string(b.palette_entries()) + " slots; there is no slot " + std::to_string(c.slot));
        slots.push_back(c.slot);
    }
    add_slot_touches(env, out, o.region(), slots);
    archive_touch(env, out);
    out.limits.push_back("colours are rounded to the palette's format (" + palette_format_name(b.palette_format) + ")");
    out.summary = "set " + std::to_string(slots.size()) + " palette slot(s) of BITMAP " + env.text("bitmap");
}

void apply_palette_set(EditEnv& env, ReportOut& r) {
    const Opened o = open_bitmap(env);
    const auto locked = env.slots("lock");
    const auto p = set_palette(o.payload(env), o.need_layout(env), env.slot_colours("colours"), locked);
    report_changes(r, o, p);
    commit(env, o, p.payload, r);
}

// ---- palette.hsv ------------------------------------------------------------------------------

void plan_palette_hsv(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open_bitmap(env);
    const Bitmap b = decode_named(env, o, true);
    const auto asked = env.slots("slots"), locked = env.slots("lock");
    std::vector<unsigned> slots;
    for (unsigned s : asked)
        if (s >= b.palette_entries())
            env.fail("slots", "the palette has " + std::to_string(b.palette_entries()) + " slots; there is no slot " + std::to_string(s));
    for (unsigned s = 0; s < b.palette_entries(); ++s)
        if ((asked.empty() || std::binary_search(asked.begin(), asked.end(), s)) && !std::binary_search(locked.begin(), locked.end(), s))
            slots.push_back(s);
    add_slot_touches(env, out, o.region(), slots);
    archive_touch(env, out);
    out.summary = "shift hue/saturation/value of " + std::to_string(slots.size()) + " palette slot(s) of BITMAP " + env.text("bitmap");
}

void apply_palette_hsv(EditEnv& env, ReportOut& r) {
    const Opened o = open_bitmap(env);
    const auto p = shift_palette(o.payload(env), o.need_layout(env), env.hsv_shift(), env.slots("slots"), env.slots("lock"));
    report_changes(r, o, p);
    commit(env, o, p.payload, r);
}

// ---- texture.replace ------------------------------------------------------------------------------

void plan_texture_replace(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open_bitmap(env);
    const Bitmap b = decode_named(env, o, false);
    if (b.layout == BitmapLayout::gamecube && b.format == bitmap_rgb888)
        env.fail("bitmap", "BITMAP " + env.text("bitmap") + " is format 13 (RGB888), which the game shows as garbage: modkit does not write it");
    out.touches.push_back(touch(env.target, o.region(), 0, to_end, true, "the image of BITMAP " + env.text("bitmap")));
    archive_touch(env, out);
    out.limits.push_back("the image is written in the record's own format (" + bitmap_format_name(b.layout, b.format) + ")");
    out.summary = "replace BITMAP " + env.text("bitmap") + " (" + bitmap_format_name(b.layout, b.format) + ") from " + env.text("png");
}

void apply_texture_replace(EditEnv& env, ReportOut& r) {
    const Opened o = open_bitmap(env);
    const Bytes png = env.read("png");
    image::RgbaImage img;
    try {
        img = image::read_png(png, env.text("png"));
    } catch (const Error& e) {
        env.fail("png", e.message(), e.kind());
    }
    BitmapEncodeOptions opt;
    opt.mode = parse_palette_mode(env.text("mode", "auto"));  // schema: auto, quantise, reindex
    opt.locked = env.slots("lock");
    opt.threads = env.threads;
    const auto t = replace_texture(o.payload(env), o.need_layout(env), img, opt);
    r.set("bitmap", o.label()).set("format", bitmap_format_name(t.after.layout, t.after.format))
        .set("mode", t.report.mode).set("width", std::uint64_t(t.after.width)).set("height", std::uint64_t(t.after.height))
        .set("mean_delta_e", t.report.mean_delta_e).set("max_delta_e", t.report.max_delta_e);
    // The palette slots the replace rewrote: an earlier palette edit of them is overridden
    // (shadows.cpp says so).
    rapidjson::Value rewritten(rapidjson::kArrayType);
    const std::size_t entry = palette_entry_size(t.before.layout, t.before.palette_format);
    if (entry && t.before.palette_format == t.after.palette_format)
        for (std::size_t s = 0; s * entry < t.after.palette.size(); ++s) {
            const bool same = (s + 1) * entry <= t.before.palette.size() &&
                              std::equal(t.after.palette.begin() + long(s * entry), t.after.palette.begin() + long((s + 1) * entry),
                                         t.before.palette.begin() + long(s * entry));
            if (!same) rewritten.PushBack(std::uint64_t(s), r.a);
        }
    r.set("palette_slots_rewritten", std::move(rewritten));
    for (const auto& w : t.report.warnings) r.warn("BITMAP " + env.text("bitmap") + ": " + w);
    commit(env, o, t.payload, r);
}

// ---- material.colour ------------------------------------------------------------------------------

void plan_material_colour(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open(env, "material", "MATERIAL");
    decode_material(o.payload(env));
    if (!env.has("colour") && !env.has("emission")) env.fail("material", "give \"colour\" and/or \"emission\"");
    if (env.has("colour")) out.touches.push_back(touch(env.target, o.region(), 0, 16, true, "the colour of MATERIAL " + env.text("material")));
    if (env.has("emission")) out.touches.push_back(touch(env.target, o.region(), 16, 28, true, "the emission of MATERIAL " + env.text("material")));
    archive_touch(env, out);
    out.limits.push_back("colours are written as value/255 floats; NODE SKEL copies of the material are not changed");
    out.summary = "set the colour of MATERIAL " + env.text("material");
}

void apply_material_colour(EditEnv& env, ReportOut& r) {
    const Opened o = open(env, "material", "MATERIAL");
    MaterialColourEdit edit;
    edit.colour = env.colour("colour");
    edit.emission = env.colour("emission");
    const auto m = set_material_colour(o.payload(env), edit);
    rapidjson::Value before(rapidjson::kArrayType), after(rapidjson::kArrayType);
    for (int c = 0; c < 4; ++c) {
        const double b = m.before.colour[c].value(), a = m.after.colour[c].value();
        before.PushBack(std::isfinite(b) ? rapidjson::Value(b) : rapidjson::Value(), r.a);
        after.PushBack(std::isfinite(a) ? rapidjson::Value(a) : rapidjson::Value(), r.a);
    }
    r.set("material", o.label()).set("colour_before", std::move(before)).set("colour_after", std::move(after));
    commit(env, o, m.payload, r);
}

}  // namespace

void register_totem_texture_ops(OpTable& ops);

namespace {
const bool registered_totem_texture_family = register_family(40, register_totem_texture_ops);  // rank: after the core, in this order
}  // namespace

void register_totem_texture_ops(OpTable& ops) {
    const Game g = Game::totemtech;
    add_op(ops, OpInfo{"palette.set", g, plan_palette_set, apply_palette_set, "bitmap"});
    add_op(ops, OpInfo{"palette.hsv", g, plan_palette_hsv, apply_palette_hsv, "bitmap"});
    add_op(ops, OpInfo{"texture.replace", g, plan_texture_replace, apply_texture_replace, "bitmap"});
    add_op(ops, OpInfo{"material.colour", g, plan_material_colour, apply_material_colour});
}

}  // namespace mod::manifest::detail
