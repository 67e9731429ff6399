// Pokémon Stadium operations: palette.set, palette.hsv, texture.replace, entry.replace,
// fragment.bytes. Each is a thin call into libmod/stadium (palette_edit, texture_edit, the
// archive repacker); the ROM in the workspace is kept in z64 order.
#include "operation.hpp"

#include "libmod/core/hash.hpp"
#include "libmod/image/palette_text.hpp"
#include "libmod/image/png.hpp"
#include "libmod/stadium/species.hpp"
#include "libmod/stadium/fragment.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/palette_use.hpp"
#include "libmod/stadium/rom_archive.hpp"
#include "libmod/stadium/texture_edit.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>

namespace mod::manifest::detail {

namespace {

using namespace mod::stadium;

struct Opened {
    std::shared_ptr<const Archive> shared;
    const Archive& archive;
};

// The archive of the workspace ROM (z64 order), parsed once per change of the ROM.
Opened open(const EditEnv& env) {
    auto a = workspace_archive(env.target);
    const Archive& ref = *a;
    return {std::move(a), ref};
}

std::string entry_region(std::size_t index) { return "archive[" + std::to_string(index) + "]"; }

RepackOptions repack_options(const EditEnv& env) {
    RepackOptions opt;
    opt.threads = env.threads;
    return opt;
}

// The workspace ROM's archive region, which the edits' archive views (workspace_archive): a
// repack writes over it in place, with no second region (repack_archive_into).
std::span<std::uint8_t> region_of(EditEnv& env, const Archive& a) {
    Bytes& rom = env.target.current;
    if (rom.size() < std::uint64_t(model_archive_rom) + a.region.size() ||
        a.region.data() != rom.data() + model_archive_rom)
        throw std::logic_error("the archive is not a view of the workspace ROM (ask workspace_archive again)");
    return {rom.data() + model_archive_rom, a.region.size()};
}

// Writes the edited fragment back through the archive repacker (limits checked there).
void commit(EditEnv& env, const Opened& o, std::size_t index, const FragmentImage& image) {
    repack_model_edit_into(o.archive, index, image.build(), repack_options(env), region_of(env, o.archive));
}

void add_model_touches(const EditEnv& env, PlannedEdit& out, std::size_t index) {
    // The entry is rebuilt (shared with other edits of it); the archive may move behind it.
    out.touches.push_back(touch(env.target, entry_region(index), 0, to_end, false, "re-encodes entry " + std::to_string(index)));
    out.touches.push_back(touch(env.target, "bytes", model_archive_rom, to_end, false, "the model archive (repacked)"));
    out.limits.push_back("compressed entry <= 0x28000 bytes, decompressed + 0x10 <= 0x3C000, fragment < 0x100000");
    out.limits.push_back("the archive ends before ROM 0x15C0000");
}

Touch palette_touch(const EditEnv& env, std::size_t index, const ModelPalette& p, std::size_t palette,
                    const std::vector<unsigned>& slots) {
    // Slots are 2-byte colours at the palette's body offset: edits of other slots do not overlap.
    const std::uint64_t lo = slots.empty() ? 0 : slots.front(), hi = slots.empty() ? 0 : slots.back() + 1;
    return touch(env.target, entry_region(index) + ".fragment", p.offset + 2 * lo, p.offset + 2 * hi, true,
                 "palette " + std::to_string(palette) + " slots " + ranges_text(slots));
}

// One exclusive touch per run of consecutive slots, so a locked slot between two runs stays
// free for other edits.
void add_slot_runs(const EditEnv& env, PlannedEdit& out, std::size_t index, const ModelPalette& p, std::size_t palette,
                   const std::vector<unsigned>& slots) {
    for (std::size_t i = 0; i < slots.size();) {
        std::size_t j = i;
        while (j + 1 < slots.size() && slots[j + 1] == slots[j] + 1) ++j;
        out.touches.push_back(palette_touch(env, index, p, palette, {slots.begin() + long(i), slots.begin() + long(j) + 1}));
        i = j + 1;
    }
}

const ModelPalette& palette_of(const EditEnv& env, const Model& m, std::uint64_t palette, const char* field) {
    if (palette >= m.palettes.size())
        env.fail(field, "model " + std::to_string(env.u64("model")) + " has " + std::to_string(m.palettes.size()) +
                            " palettes; there is no palette " + std::to_string(palette));
    return m.palettes[palette];
}

void report_palette(ReportOut& r, const PaletteEditReport& p, const ModelPalette& before_palette,
                    const std::vector<unsigned>& locked) {
    rapidjson::Value o(rapidjson::kObjectType), changes(rapidjson::kArrayType), before(rapidjson::kArrayType),
        textures(rapidjson::kArrayType), lock(rapidjson::kArrayType);
    o.AddMember("palette", std::uint64_t(p.palette), r.a);
    o.AddMember("format", rapidjson::Value(n64::to_string(before_palette.format), r.a), r.a);
    for (auto v : before_palette.entries) before.PushBack(r.str(hex(v, 4)), r.a);
    o.AddMember("before", before, r.a);
    for (const auto& c : p.changes) {
        rapidjson::Value ch(rapidjson::kObjectType);
        ch.AddMember("slot", c.slot, r.a).AddMember("before", r.str(hex(c.before, 4)), r.a)
            .AddMember("after", r.str(hex(c.after, 4)), r.a).AddMember("requested", r.str(image::colour_text(c.requested)), r.a)
            .AddMember("result", r.str(image::colour_text(c.result)), r.a).AddMember("rounded", c.rounded(), r.a)
            .AddMember("rounding_delta_e", c.rounding_delta_e, r.a);
        changes.PushBack(ch, r.a);
    }
    o.AddMember("changes", changes, r.a);
    for (auto l : locked) lock.PushBack(l, r.a);
    o.AddMember("locked", lock, r.a);
    for (auto t : p.textures) textures.PushBack(std::uint64_t(t), r.a);
    o.AddMember("textures", textures, r.a);
    if (!r.obj.HasMember("palettes")) r.set("palettes", rapidjson::Value(rapidjson::kArrayType));
    r.obj["palettes"].PushBack(o, r.a);
}

// Every palette of the model with what it colours (palette_use.hpp), and where to see it: the
// figure that tells on a real dump which palette is which part (patches/README.md).
void add_palette_notes(const EditEnv& env, PlannedEdit& out, const Model& m, std::size_t index) {
    out.notes.push_back("which palette colours which part of a model is not documented for any real model (hypothesis "
                        "stadium-palette-parts/1); model " + std::to_string(index) + " has " +
                        std::to_string(m.palettes.size()) + " palette(s):");
    for (const auto& u : palette_use(m)) out.notes.push_back(palette_use_text(u));
    out.notes.push_back("pictures: modkit stadium export " + env.target.display + " " + std::to_string(index) +
                        " DIR writes DIR/palNN.png (each palette's colours) and DIR/texNN.png (each texture with its "
                        "palette); modkit stadium preview " + env.target.display + " " + std::to_string(index) +
                        " model.png shows the model");
}

// ---- palette.set ---------------------------------------------------------------------------

void plan_palette_set(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open(env);
    const std::size_t index = env.u64("model");
    const Model m = read_archive_model(o.archive, index);
    const std::uint64_t pal = env.u64("palette");
    const ModelPalette& p = palette_of(env, m, pal, "palette");
    std::vector<unsigned> slots;
    for (const auto& c : env.slot_colours("colours")) {
        if (c.slot >= p.color_count)
            env.fail("colours", "palette " + std::to_string(pal) + " has " + std::to_string(p.color_count) +
                                    " slots; there is no slot " + std::to_string(c.slot));
        slots.push_back(c.slot);
    }
    for (unsigned s : slots) out.touches.push_back(palette_touch(env, index, p, pal, {s}));
    add_model_touches(env, out, index);
    add_palette_notes(env, out, m, index);
    out.summary = "set " + std::to_string(slots.size()) + " slot(s) of palette " + std::to_string(pal) + " of " +
                  model_label(index, m.root.model_id);
}

void apply_palette_set(EditEnv& env, ReportOut& r) {
    const Opened o = open(env);
    const std::size_t index = env.u64("model");
    const Model m = read_archive_model(o.archive, index);
    const std::uint64_t pal = env.u64("palette");
    const ModelPalette before = palette_of(env, m, pal, "palette");
    FragmentImage image(m.fragment);
    const auto locked = env.slots("lock");
    const auto report = set_palette_slots(m, image, pal, env.slot_colours("colours"), locked);
    commit(env, o, index, image);
    r.set("model", std::uint64_t(index));
    report_palette(r, report, before, locked);
    if (report.rounded())
        r.warn("palette " + std::to_string(pal) + " of model " + std::to_string(index) + ": " +
               std::to_string(report.rounded()) + " colour(s) rounded to RGBA5551 (max dE " +
               std::to_string(report.max_rounding_delta_e()).substr(0, 5) + ")");
}

// ---- palette.hsv ---------------------------------------------------------------------------

void plan_palette_hsv(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open(env);
    const std::size_t index = env.u64("model");
    const Model m = read_archive_model(o.archive, index);
    const auto asked = env.slots("slots");
    const auto locked = env.slots("lock");
    for (auto pal : env.u64_list("palette")) {
        const ModelPalette& p = palette_of(env, m, pal, "palette");
        std::vector<unsigned> slots;
        for (unsigned s = 0; s < p.color_count; ++s)
            if ((asked.empty() || std::binary_search(asked.begin(), asked.end(), s)) &&
                !std::binary_search(locked.begin(), locked.end(), s))
                slots.push_back(s);
        for (auto s : asked)
            if (s >= p.color_count)
                env.fail("slots", "palette " + std::to_string(pal) + " has " + std::to_string(p.color_count) +
                                      " slots; there is no slot " + std::to_string(s));
        add_slot_runs(env, out, index, p, pal, slots);
    }
    add_model_touches(env, out, index);
    add_palette_notes(env, out, m, index);
    const auto s = env.hsv_shift();
    out.summary = "shift hue " + std::to_string(s.hue_degrees).substr(0, 6) + " deg, saturation x" +
                  std::to_string(s.saturation).substr(0, 4) + ", value x" + std::to_string(s.value).substr(0, 4) +
                  " of " + model_label(index, m.root.model_id);
}

void apply_palette_hsv(EditEnv& env, ReportOut& r) {
    const Opened o = open(env);
    const std::size_t index = env.u64("model");
    const Model m = read_archive_model(o.archive, index);
    FragmentImage image(m.fragment);
    const auto asked = env.slots("slots");
    const auto locked = env.slots("lock");
    r.set("model", std::uint64_t(index));
    for (auto pal : env.u64_list("palette")) {
        const ModelPalette before = palette_of(env, m, pal, "palette");
        report_palette(r, shift_palette_hsv(m, image, pal, env.hsv_shift(), asked, locked), before, locked);
    }
    commit(env, o, index, image);
}

// ---- texture.replace ------------------------------------------------------------------------

TextureReplaceOptions texture_options(const EditEnv& env) {
    TextureReplaceOptions t;
    t.mode = parse_ci_mode(env.text("mode", "auto"));  // schema: the CiMode names, default auto
    if (env.has("format")) t.format = n64::parse_texel_format(env.text("format"));
    t.allow_resize = env.flag("resize", false);
    t.locked = env.slots("lock");
    t.threads = env.threads;
    return t;
}

void check_texture_counts(const EditEnv& env, const std::vector<std::uint64_t>& textures, std::size_t pngs,
                          CiMode mode) {
    if (textures.size() != pngs)
        env.fail("png", "gives " + std::to_string(pngs) + " PNG(s) for " + std::to_string(textures.size()) +
                            " texture(s): give one per texture");
    if (textures.size() > 1 && mode != CiMode::shared && mode != CiMode::automatic)
        env.fail("texture", "several textures at once need \"mode\": \"shared\" (or \"auto\")");
}

// auto with several textures: the one mode that fits them, shared.
CiMode effective_mode(CiMode mode, std::size_t textures) {
    return mode == CiMode::automatic && textures > 1 ? CiMode::shared : mode;
}

void plan_texture_replace(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open(env);
    const std::size_t index = env.u64("model");
    const Model m = read_archive_model(o.archive, index);
    auto opt = texture_options(env);
    const auto textures = env.u64_list("texture");
    check_texture_counts(env, textures, env.text_list("png").size(), opt.mode);
    opt.mode = effective_mode(opt.mode, textures.size());
    for (auto t : textures) {
        if (t >= m.textures.size())
            env.fail("texture", "model " + std::to_string(index) + " has " + std::to_string(m.textures.size()) +
                                    " textures; there is no texture " + std::to_string(t));
        const auto& tex = m.textures[t];
        out.touches.push_back(touch(env.target, entry_region(index) + ".fragment", tex.offset, tex.offset + tex.data.size(),
                                    true, "texels of texture " + std::to_string(t)));
        out.touches.push_back(touch(env.target, entry_region(index) + ".texture[" + std::to_string(t) + "]", 0, to_end,
                                    true, "texture " + std::to_string(t) + " (descriptor and load)"));
        // The CI modes that rewrite the drawing palette claim its unlocked slots (auto may pick one).
        if (opt.mode != CiMode::fork)
            for (std::size_t pi = 0; pi < m.palettes.size(); ++pi) {
                bool draws = false;
                for (const auto& mt : m.materials) draws |= mt.texture == long(t) && mt.palette == long(pi);
                if (!draws) continue;
                std::vector<unsigned> slots;
                for (unsigned s = 0; s < m.palettes[pi].color_count; ++s)
                    if (!std::binary_search(opt.locked.begin(), opt.locked.end(), s)) slots.push_back(s);
                add_slot_runs(env, out, index, m.palettes[pi], pi, slots);
            }
    }
    if (opt.allow_resize)
        out.touches.push_back(touch(env.target, entry_region(index) + ".layout", 0, to_end, true,
                                    "may move fragment bytes (resize)"));
    add_model_touches(env, out, index);
    out.summary = "replace texture(s) " + [&] {
        std::string s;
        for (auto t : textures) s += (s.empty() ? "" : ",") + std::to_string(t);
        return s;
    }() + " of " + model_label(index, m.root.model_id) + " (" + to_string(opt.mode) + ")";
}

rapidjson::Value texels_json(ReportOut& r, const ModelTexture& t) {
    rapidjson::Value o(rapidjson::kObjectType);
    o.AddMember("format", rapidjson::Value(t.format ? n64::to_string(*t.format) : "unknown", r.a), r.a);
    o.AddMember("width", unsigned(t.descriptor.width), r.a).AddMember("height", unsigned(t.descriptor.height), r.a);
    o.AddMember("bytes", std::uint64_t(t.data.size()), r.a);
    o.AddMember("sha1", r.str(to_hex(sha1(t.data))), r.a);
    return o;
}

void apply_texture_replace(EditEnv& env, ReportOut& r) {
    const Opened o = open(env);
    const std::size_t index = env.u64("model");
    const Model m = read_archive_model(o.archive, index);
    auto opt = texture_options(env);
    const auto textures = env.u64_list("texture");
    const auto pngs = env.text_list("png");
    check_texture_counts(env, textures, pngs.size(), opt.mode);
    const CiMode requested = opt.mode;
    opt.mode = effective_mode(opt.mode, textures.size());
    std::vector<image::RgbaImage> images;
    for (std::size_t i = 0; i < pngs.size(); ++i) {
        const auto p = env.path_at("png", env.params["png"].IsArray() ? i : SIZE_MAX);
        images.push_back(image::read_png(env.read_path("png", p), p.string()));
    }
    FragmentImage image(m.fragment);
    std::vector<TextureReport> reports;
    std::vector<std::size_t> idx(textures.begin(), textures.end());
    if (opt.mode == CiMode::shared) reports = replace_textures_shared(m, image, idx, images, opt);
    else reports.push_back(replace_texture(m, image, idx[0], images[0], opt));
    commit(env, o, index, image);
    const Model after = read_archive_model(open(env).archive, index);
    r.set("model", std::uint64_t(index)).set("mode", std::string(to_string(requested)));
    rapidjson::Value list(rapidjson::kArrayType);
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const auto& t = reports[i];
        rapidjson::Value e(rapidjson::kObjectType), slots(rapidjson::kArrayType), touched(rapidjson::kArrayType);
        e.AddMember("texture", std::uint64_t(t.texture), r.a).AddMember("png", r.str(pngs[i]), r.a)
            .AddMember("mean_delta_e", t.mean_delta_e, r.a).AddMember("max_delta_e", t.max_delta_e, r.a)
            .AddMember("opaque_texels", t.opaque_texels, r.a).AddMember("transparent_texels", t.transparent_texels, r.a)
            .AddMember("resized", t.resized, r.a).AddMember("palette_forked", t.palette_forked, r.a)
            .AddMember("palette_added", t.palette_added, r.a).AddMember("palette_detached", t.palette_detached, r.a);
        if (t.palette) e.AddMember("palette", std::uint64_t(*t.palette), r.a);
        if (t.mode) e.AddMember("mode_used", r.str(to_string(*t.mode)), r.a);
        rapidjson::Value tried(rapidjson::kObjectType);
        for (const auto& [mode, de] : t.tried) tried.AddMember(r.str(to_string(mode)), rapidjson::Value(de), r.a);
        e.AddMember("modes_tried", tried, r.a);
        for (auto s : t.written_slots) slots.PushBack(s, r.a);
        for (auto x : t.touched) touched.PushBack(std::uint64_t(x), r.a);
        e.AddMember("written_slots", slots, r.a).AddMember("other_textures_changed", touched, r.a);
        e.AddMember("before", texels_json(r, m.textures[t.texture]), r.a);
        if (t.texture < after.textures.size()) e.AddMember("after", texels_json(r, after.textures[t.texture]), r.a);
        list.PushBack(e, r.a);
        if (t.better)
            r.warn("texture " + std::to_string(t.texture) + " of model " + std::to_string(index) + ": mean dE " +
                   std::to_string(t.mean_delta_e).substr(0, 5) + " against the PNG with \"mode\": \"" +
                   to_string(requested) + "\"; \"" + to_string(t.better->first) + "\" gives " +
                   std::to_string(t.better->second).substr(0, 5) + " (\"auto\" picks the best)");
        else if (t.mean_delta_e > 10)
            r.warn("texture " + std::to_string(t.texture) + " of model " + std::to_string(index) + ": mean dE " +
                   std::to_string(t.mean_delta_e).substr(0, 5) + " against the PNG" +
                   (t.mode ? " with mode " + std::string(to_string(*t.mode)) : std::string()) +
                   ", the best of the modes that fit");
        if (!t.touched.empty())
            r.warn("texture " + std::to_string(t.texture) + " of model " + std::to_string(index) + " shares its palette: " +
                   std::to_string(t.touched.size()) + " other texture(s) changed colour");
    }
    r.set("textures", std::move(list));
}

// ---- entry.replace ---------------------------------------------------------------------------

void plan_entry_replace(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open(env);
    const std::size_t index = env.u64("entry");
    if (index >= o.archive.entries.size())
        env.fail("entry", "the archive has " + std::to_string(o.archive.entries.size()) + " entries; there is no entry " +
                              std::to_string(index));
    out.touches.push_back(touch(env.target, entry_region(index), 0, to_end, true, "all of entry " + std::to_string(index)));
    out.touches.push_back(touch(env.target, "bytes", model_archive_rom, to_end, false, "the model archive (repacked)"));
    out.limits.push_back("compressed entry <= 0x28000 bytes, decompressed + 0x10 <= 0x3C000, fragment < 0x100000");
    out.summary = "replace entry " + std::to_string(index) + " from " + env.text("file");
}

void apply_entry_replace(EditEnv& env, ReportOut& r) {
    const Opened o = open(env);
    const std::size_t index = env.u64("entry");
    Bytes content = env.read("file");
    const DecodedEntry before = decode_entry(o.archive, index);
    // The same checks the reader applies: a FRAGMENT entry must stay a valid FRAGMENT.
    if (before.is_fragment || has_fragment_magic(content)) {
        const Fragment f = parse_fragment(ByteReader(content, Endian::big, env.path("file").string(), "fragment"));
        check_model_limits(f, index);
    }
    std::vector<Replacement> rep{{index, content}};
    const RepackResult packed = repack_archive_into(o.archive, rep, repack_options(env), region_of(env, o.archive));
    r.set("entry", std::uint64_t(index)).set("kind", std::string(to_string(before.kind)))
        .set("size_before", std::uint64_t(before.content.size())).set("size_after", std::uint64_t(content.size()))
        .set("stored_before", std::uint64_t(o.archive.entries[index].size))
        .set("stored_after", std::uint64_t(packed.entries[index].descriptor.size));
}

// ---- fragment.bytes --------------------------------------------------------------------------

void check_fragment_bytes(const EditEnv& env, const Model& m, std::uint64_t at, const Bytes& expect) {
    const auto& body = m.fragment.body;
    if (at < 0x20)
        env.fail("offset", "the first 0x20 bytes are the FRAGMENT header, which modkit rewrites itself; offsets start at 0x20");
    if (at > body.size() || expect.size() > body.size() - at)
        env.fail("offset", "bytes " + hex(at) + "+" + std::to_string(expect.size()) + " lie outside the fragment body (" +
                               hex(body.size()) + " bytes)");
    if (!std::equal(expect.begin(), expect.end(), body.begin() + long(at)))
        env.fail("expect", "the fragment bytes at " + hex(at) + " are " + hex_text(ByteView(body.data() + at, expect.size())) +
                               ", not the expected " + hex_text(expect),
                 ErrorKind::conflict);
}

void plan_fragment_bytes(const EditEnv& env, PlannedEdit& out) {
    const Opened o = open(env);
    const std::size_t index = env.u64("entry");
    const Model m = read_archive_model(o.archive, index);
    const std::uint64_t at = env.offset("offset");
    const Bytes expect = env.hex_bytes("expect"), bytes = env.hex_bytes("bytes");
    if (expect.size() != bytes.size()) env.fail("bytes", "must be as long as \"expect\"");
    check_fragment_bytes(env, m, at, expect);
    out.touches.push_back(touch(env.target, entry_region(index) + ".fragment", at, at + bytes.size(), true,
                                std::to_string(bytes.size()) + " fragment bytes at " + hex(at)));
    out.touches.push_back(touch(env.target, entry_region(index) + ".layout", 0, to_end, false, "fragment offsets"));
    add_model_touches(env, out, index);
    out.summary = "write " + std::to_string(bytes.size()) + " bytes at fragment offset " + hex(at) + " of entry " +
                  std::to_string(index);
}

void apply_fragment_bytes(EditEnv& env, ReportOut& r) {
    const Opened o = open(env);
    const std::size_t index = env.u64("entry");
    const Model m = read_archive_model(o.archive, index);
    const std::uint64_t at = env.offset("offset");
    const Bytes expect = env.hex_bytes("expect"), bytes = env.hex_bytes("bytes");
    check_fragment_bytes(env, m, at, expect);
    FragmentImage image(m.fragment);
    image.write_data(static_cast<std::uint32_t>(at), bytes, "fragment.bytes");
    commit(env, o, index, image);
    r.set("entry", std::uint64_t(index)).set("offset", at).set("before", hex_text(expect, 256)).set("after", hex_text(bytes, 256));
}

}  // namespace

std::shared_ptr<const Archive> workspace_archive(const FileState& f) {
    return std::make_shared<const Archive>(view_archive(f.current, nullptr, f.display));
}

void register_stadium_ops(OpTable& ops) {
    const Game g = Game::pokemon_stadium;
    add_op(ops, OpInfo{"palette.set", g, plan_palette_set, apply_palette_set});
    add_op(ops, OpInfo{"palette.hsv", g, plan_palette_hsv, apply_palette_hsv});
    add_op(ops, OpInfo{"texture.replace", g, plan_texture_replace, apply_texture_replace});
    add_op(ops, OpInfo{"entry.replace", g, plan_entry_replace, apply_entry_replace});
    add_op(ops, OpInfo{"fragment.bytes", g, plan_fragment_bytes, apply_fragment_bytes});
}

}  // namespace mod::manifest::detail
