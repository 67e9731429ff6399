// modkit texture …: N64 texel data <-> PNG, standalone (no model needed).
//   decode: raw texels (+ a TLUT for CI) → PNG (paletted PNG for CI, the TLUT as its palette)
//   encode: PNG → raw texels (+ the TLUT for CI: the PNG's own palette when it already fits
//           the format exactly, a palette mapped onto with --palette-in, else quantised)
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/colour.hpp"
#include "libmod/image/palette_text.hpp"
#include "libmod/image/png.hpp"
#include "libmod/image/quantise.hpp"
#include "libmod/image/recolour.hpp"
#include "libmod/n64/texel.hpp"
#include "libmod/n64/tlut.hpp"

#include <cstdio>
#include <optional>

namespace modkit {
namespace {

namespace fs = std::filesystem;
using mod::n64::TexelFormat;
using mod::n64::TlutFormat;
using mod::image::colour_text;

std::uint32_t dimension(const po::variables_map& vm, const char* name) {
    if (!vm.count(name)) usage_error(std::string("--") + name + " is required");
    return vm[name].as<std::uint32_t>();
}

unsigned capacity(TexelFormat f) { return f == TexelFormat::ci4 ? 16u : 256u; }

mod::image::Rgba8 entry_colour(std::uint16_t e, TlutFormat f) {
    std::uint8_t c[4];
    mod::n64::tlut_colour(e, f, c);
    return {c[0], c[1], c[2], c[3]};
}

// Reads a TLUT file from `offset`: `count` entries, or as many as the file holds (<= 256).
mod::n64::Tlut read_tlut(const fs::path& path, std::uint64_t offset, std::optional<unsigned> count, TlutFormat format) {
    auto data = mod::read_file(path);
    mod::ByteReader r(data, mod::Endian::big, path.string(), "tlut");
    if (offset > data.size()) r.fail_at(data.size(), "TLUT offset " + std::to_string(offset) + " is past the end");
    r.seek(static_cast<std::size_t>(offset));
    unsigned n = count ? *count : static_cast<unsigned>(std::min<std::size_t>(r.remaining() / 2, 256));
    return mod::n64::decode_tlut(r, n, format);
}

void declare_decode(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("in", po::value<std::string>(), "texel data file")("out", po::value<std::string>(), "PNG to write")
        ("format", po::value<std::string>(), "rgba16, rgba32, ci4, ci8, ia4, ia8, ia16, i4, i8")
        ("width", number<std::uint32_t>(), "texels per row")("height", number<std::uint32_t>(), "rows")
        ("offset", number<std::uint64_t>()->default_value(0), "byte offset of the texels in IN")
        ("tlut", po::value<std::string>(), "TLUT file (CI formats)")
        ("tlut-offset", number<std::uint64_t>()->default_value(0), "byte offset of the TLUT")
        ("tlut-count", number<unsigned>(), "TLUT entries (default: all the file holds, at most 256)")
        ("tlut-format", po::value<std::string>()->default_value("rgba5551"), "rgba5551 or ia16")
        ("bank", number<unsigned>()->default_value(0), "CI4 palette bank (entries 16*bank..16*bank+15)")
        ("intensity-alpha", "I4/I8 texels show their intensity as alpha (as the RDP does) instead of opaque");
    p.add("in", 1).add("out", 1);
}

int texture_decode(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in"), out = required(vm, "out");
    if (!vm.count("format")) usage_error("--format is required");
    const TexelFormat format = mod::n64::parse_texel_format(vm["format"].as<std::string>());
    const std::uint32_t w = dimension(vm, "width"), h = dimension(vm, "height");
    mod::n64::check_dimensions(w, h);
    const std::uint64_t offset = vm["offset"].as<std::uint64_t>();
    auto data = mod::read_file(in);
    mod::ByteReader file(data, mod::Endian::big, in.string(), "texels");
    if (offset > data.size()) file.fail_at(data.size(), "offset " + std::to_string(offset) + " is past the end");
    mod::ByteReader texels = file.sub(static_cast<std::size_t>(offset), data.size() - static_cast<std::size_t>(offset));
    const std::uint64_t texel_count = std::uint64_t(w) * h;
    const std::uint64_t bytes = mod::n64::texel_bytes(format, texel_count);
    const std::uint8_t pad = mod::n64::trailing_pad(format, texels.data(), texel_count);

    mod::Bytes png;
    std::size_t palette_entries = 0;
    if (mod::n64::is_ci(format)) {
        if (!vm.count("tlut")) usage_error(std::string(mod::n64::to_string(format)) + " needs --tlut FILE");
        const TlutFormat tf = mod::n64::parse_tlut_format(vm["tlut-format"].as<std::string>());
        std::optional<unsigned> count;
        if (vm.count("tlut-count")) count = vm["tlut-count"].as<unsigned>();
        auto tlut = read_tlut(vm["tlut"].as<std::string>(), vm["tlut-offset"].as<std::uint64_t>(), count, tf);
        const unsigned bank = vm["bank"].as<unsigned>();
        if (bank >= 16) usage_error("--bank must be 0..15");
        // The PNG palette is exactly the entries the texels can select.
        const unsigned first = format == TexelFormat::ci4 ? bank * 16 : 0;
        const unsigned n = format == TexelFormat::ci4 ? 16 : static_cast<unsigned>(tlut.entries.size());
        if (first + n > tlut.entries.size())
            throw mod::Error(mod::ErrorKind::usage, "CI4 bank " + std::to_string(bank) + " needs TLUT entries " +
                                                        std::to_string(first) + ".." + std::to_string(first + 15) +
                                                        ", the TLUT has " + std::to_string(tlut.entries.size()));
        mod::image::PalettedImage img{w, h, {}, mod::n64::decode_indices(format, texels, w, h)};
        for (unsigned i = 0; i < n; ++i) img.palette.push_back(entry_colour(tlut.entries[first + i], tf));
        for (std::size_t i = 0; i < img.indices.size(); ++i)
            if (img.indices[i] >= n)
                texels.fail_at_path(format == TexelFormat::ci4 ? i / 2 : i, "texel[" + std::to_string(i) + "]",
                                    "texel selects TLUT entry " + std::to_string(img.indices[i]) + " of a " +
                                        std::to_string(n) + "-entry TLUT");
        palette_entries = n;
        png = mod::image::write_png(img);
    } else {
        mod::n64::DecodeOptions o;
        if (vm.count("intensity-alpha")) o.i_alpha = mod::n64::IntensityAlpha::intensity;
        png = mod::image::write_png(mod::image::RgbaImage{w, h, mod::n64::decode_rgba(format, texels, w, h, o)});
    }
    std::vector<fs::path> inputs = {in};
    if (vm.count("tlut")) inputs.emplace_back(vm["tlut"].as<std::string>());  // read as well
    mod::write_file_atomic(out, png, inputs);
    if (pad != 0)
        warn("the unused low nibble after the last texel is " + std::to_string(pad) +
             "; a PNG cannot hold it (re-encode with --pad " + std::to_string(pad) + " for identical bytes)");
    if (g.json) {
        Json j;
        j.begin_object().field("operation", "decode").field("format", mod::n64::to_string(format))
            .field("width", w).field("height", h).field("texel_bytes", bytes)
            .field("palette_entries", std::uint64_t(palette_entries)).field("pad_nibble", unsigned(pad))
            .field("png_bytes", std::uint64_t(png.size())).end_object();
    } else {
        std::printf("decode: %s %ux%u (%llu bytes) -> %s\n", mod::n64::to_string(format), w, h,
                    static_cast<unsigned long long>(bytes), out.c_str());
    }
    return 0;
}

void declare_encode(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("in", po::value<std::string>(), "PNG to read")("out", po::value<std::string>(), "texel file to write")
        ("format", po::value<std::string>(), "rgba16, rgba32, ci4, ci8, ia4, ia8, ia16, i4, i8")
        ("palette-out", po::value<std::string>(), "CI: write the TLUT here (big-endian u16 entries)")
        ("palette-in", po::value<std::string>(), "CI: map onto this existing TLUT instead of making one (reindex)")
        ("tlut-format", po::value<std::string>()->default_value("rgba5551"), "rgba5551 or ia16")
        ("colours", number<unsigned>(), "CI: palette entries to produce (default 16 for ci4, 256 for ci8)")
        ("lock", po::value<std::vector<std::string>>()->multitoken(),
         "CI: fixed entries SLOT=RGBA5551 (hex, e.g. 0=0000 3=F801) the quantiser may use but not change")
        ("quantise", "CI: always quantise, even when the PNG's palette already fits")
        ("pad", number<unsigned>()->default_value(0), "4-bit formats: the low nibble after an odd texel count");
    p.add("in", 1).add("out", 1);
}

std::vector<mod::image::LockedSlot> parse_locks(const po::variables_map& vm) {
    std::vector<mod::image::LockedSlot> out;
    if (!vm.count("lock")) return out;
    for (const auto& s : vm["lock"].as<std::vector<std::string>>()) {
        auto eq = s.find('=');
        if (eq == std::string::npos) usage_error("--lock expects SLOT=RGBA5551 in hex, got '" + s + "'");
        mod::image::LockedSlot l;
        l.index = static_cast<unsigned>(
            parse_uint(s.substr(0, eq), std::numeric_limits<unsigned>::max(), "--lock expects SLOT=RGBA5551; the slot"));
        l.colour = static_cast<std::uint16_t>(parse_hex(s.substr(eq + 1), 0xFFFF, "--lock expects SLOT=RGBA5551; the colour"));
        out.push_back(l);
    }
    return out;
}

// The PNG's own palette as TLUT entries when every entry is exactly representable.
std::optional<std::vector<std::uint16_t>> exact_palette(const mod::image::PalettedImage& img, TlutFormat tf,
                                                        unsigned cap) {
    if (img.palette.size() > cap) return std::nullopt;
    std::vector<std::uint16_t> out;
    for (const auto& c : img.palette) {
        const std::uint8_t rgba[4] = {c.r, c.g, c.b, c.a};
        std::uint16_t e = mod::n64::tlut_entry(rgba, tf);
        if (!(entry_colour(e, tf) == c)) return std::nullopt;
        out.push_back(e);
    }
    return out;
}

int texture_encode(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in"), out = required(vm, "out");
    if (!vm.count("format")) usage_error("--format is required");
    const TexelFormat format = mod::n64::parse_texel_format(vm["format"].as<std::string>());
    const unsigned pad = vm["pad"].as<unsigned>();
    if (pad > 15) usage_error("--pad must be 0..15");
    auto data = mod::read_file(in);
    mod::image::RgbaImage rgba = mod::image::read_png(data, in.string());
    mod::n64::check_dimensions(rgba.width, rgba.height);
    const std::uint32_t w = rgba.width, h = rgba.height;
    std::vector<fs::path> inputs = {in};

    mod::Bytes texels;
    std::vector<std::uint16_t> palette;
    std::string mode;
    std::optional<mod::image::ImageReport> report;
    unsigned collapsed = 0;
    std::optional<unsigned> transparent;
    if (!mod::n64::is_ci(format)) {
        texels = mod::n64::encode_rgba(format, rgba.pixels, w, h, static_cast<std::uint8_t>(pad));
        mode = "direct";
    } else {
        const TlutFormat tf = mod::n64::parse_tlut_format(vm["tlut-format"].as<std::string>());
        const unsigned cap = capacity(format);
        mod::Bytes indices;
        auto paletted = mod::image::read_png_paletted(data, in.string());
        std::optional<std::vector<std::uint16_t>> exact;
        if (paletted && !vm.count("quantise") && !vm.count("palette-in")) exact = exact_palette(*paletted, tf, cap);
        if (vm.count("palette-in")) {
            if (tf != TlutFormat::rgba5551) usage_error("--palette-in maps onto RGBA5551 TLUTs only");
            fs::path pin = vm["palette-in"].as<std::string>();
            inputs.push_back(pin);
            auto tlut = read_tlut(pin, 0, std::nullopt, tf);
            if (tlut.entries.size() > cap) tlut.entries.resize(cap);
            mod::image::RemapOptions ro;
            ro.threads = g.threads;
            auto r = mod::image::remap(std::span(&rgba, 1), tlut.entries, ro);
            indices = std::move(r.indices[0]);
            report = r.reports[0];
            palette = tlut.entries;
            mode = "reindexed";
        } else if (exact) {
            indices = paletted->indices;
            palette = *exact;
            mode = "exact";
        } else {
            if (tf != TlutFormat::rgba5551)
                usage_error("quantising to an IA16 TLUT is not supported (give a paletted PNG whose entries are grey)");
            mod::image::QuantiseOptions qo;
            qo.palette_size = vm.count("colours") ? vm["colours"].as<unsigned>() : cap;
            if (qo.palette_size > cap)
                usage_error("--colours " + std::to_string(qo.palette_size) + " exceeds the " + std::to_string(cap) +
                            " entries " + mod::n64::to_string(format) + " can index");
            qo.locked = parse_locks(vm);
            qo.threads = g.threads;
            auto r = mod::image::quantise(std::span(&rgba, 1), qo);
            indices = std::move(r.indices[0]);
            report = r.reports[0];
            palette = r.palette;
            collapsed = r.collapsed;
            transparent = r.transparent_slot;
            mode = "quantised";
        }
        texels = mod::n64::encode_indices(format, indices, w, h, static_cast<std::uint8_t>(pad));
        if (vm.count("palette-out")) {
            fs::path pout = vm["palette-out"].as<std::string>();
            const fs::path outputs[] = {out, pout};  // the TLUT must not land on the texels
            mod::ensure_distinct_outputs(outputs);
            mod::ensure_distinct_output(out, inputs);
            mod::n64::Tlut t{tf, palette};
            mod::write_file_atomic(pout, mod::n64::encode_tlut(t), inputs);
        } else if (mode != "reindexed") {
            usage_error("CI formats need --palette-out FILE (or --palette-in FILE)");
        }
    }
    mod::write_file_atomic(out, texels, inputs);
    if (g.json) {
        Json j;
        j.begin_object().field("operation", "encode").field("format", mod::n64::to_string(format))
            .field("width", w).field("height", h).field("texel_bytes", std::uint64_t(texels.size()))
            .field("mode", mode).field("palette_entries", std::uint64_t(palette.size()));
        if (report) j.field("mean_delta_e", report->mean_delta_e).field("max_delta_e", report->max_delta_e);
        j.field("collapsed", collapsed);
        if (transparent) j.field("transparent_slot", *transparent);
        j.end_object();
    } else {
        std::printf("encode: %s %ux%u -> %zu bytes (%s", mod::n64::to_string(format), w, h, texels.size(), mode.c_str());
        if (!palette.empty()) std::printf(", %zu palette entries", palette.size());
        if (report) std::printf(", mean dE %.2f, max dE %.2f", report->mean_delta_e, report->max_delta_e);
        std::printf(")\n");
    }
    return 0;
}

// ---- Standalone TLUT recolouring (RGBA5551 TLUT files) -------------------------------------

std::vector<std::uint16_t> read_palette_file(const fs::path& path) {
    auto t = read_tlut(path, 0, std::nullopt, TlutFormat::rgba5551);
    return t.entries;
}

void report_changes(const Global& g, const char* operation, const std::vector<mod::image::SlotChange>& changes) {
    if (g.json) {
        Json j;
        j.begin_object().field("operation", operation).key("changes").begin_array();
        for (const auto& c : changes)
            j.begin_object().field("slot", c.slot).field("before", unsigned(c.before)).field("after", unsigned(c.after))
                .field("requested", colour_text(c.requested)).field("result", colour_text(c.result)).field("rounded", c.rounded())
                .field("rounding_delta_e", c.rounding_delta_e).end_object();
        j.end_array().end_object();
        return;
    }
    for (const auto& c : changes) {
        std::printf("slot %3u: %04X -> %04X  asked %s, got %s", c.slot, c.before, c.after, colour_text(c.requested).c_str(),
                    colour_text(c.result).c_str());
        if (c.rounded()) std::printf(" (RGBA5551 rounding, dE %.2f)", c.rounding_delta_e);
        std::printf("\n");
    }
}

void declare_palette_io(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("in", po::value<std::string>(), "RGBA5551 TLUT file")("out", po::value<std::string>(), "TLUT to write")
        ("lock", po::value<std::vector<std::string>>()->multitoken(), "slots that must not change (e.g. 0,5)");
    p.add("in", 1).add("out", 1);
}

int palette_set(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in"), out = required(vm, "out");
    auto palette = read_palette_file(in);
    const auto requests = slot_colour_option(vm, "set");
    const auto locked = slot_list_option(vm, "lock");
    auto changes = mod::image::set_slots(palette, requests, locked);
    mod::write_file_atomic(out, mod::n64::encode_tlut({TlutFormat::rgba5551, palette}), std::span<const fs::path>(&in, 1));
    report_changes(g, "palette-set", changes);
    return 0;
}

int palette_hsv(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in"), out = required(vm, "out");
    auto palette = read_palette_file(in);
    mod::image::HsvShift shift;
    shift.hue_degrees = vm["hue"].as<double>();
    shift.saturation = vm["saturation"].as<double>();
    shift.value = vm["value"].as<double>();
    if (shift.saturation < 0 || shift.value < 0) usage_error("--saturation and --value are non-negative factors");
    auto changes = mod::image::hsv_shift(palette, shift, slot_list_option(vm, "slots"), slot_list_option(vm, "lock"));
    mod::write_file_atomic(out, mod::n64::encode_tlut({TlutFormat::rgba5551, palette}), std::span<const fs::path>(&in, 1));
    report_changes(g, "palette-hsv", changes);
    return 0;
}

const Registrar texture_group({"texture", "N64 texel data <-> PNG (all RDP texture formats, TLUTs)", {
    {"decode", "IN OUT.png --format F --width W --height H [--tlut FILE] [--bank N]",
     "decode raw texels (CI through a TLUT) to PNG", declare_decode, texture_decode},
    {"encode", "IN.png OUT --format F [--palette-out FILE | --palette-in FILE] [--lock SLOT=HEX…]",
     "encode a PNG to raw texels (CI: exact palette, reindex or quantise)", declare_encode, texture_encode},
    {"palette-set", "TLUT OUT --set SLOT=RRGGBB[AA]… [--lock SLOTS] [--json]",
     "set TLUT slots to colours, reporting RGBA5551 rounding",
     [](auto& o, auto& p) {
         declare_palette_io(o, p);
         o.add_options()("set", po::value<std::vector<std::string>>()->multitoken(), "SLOT=RRGGBB[AA] (hex)");
     },
     palette_set},
    {"palette-hsv", "TLUT OUT [--hue DEG] [--saturation F] [--value F] [--slots SLOTS] [--lock SLOTS] [--json]",
     "shift hue/saturation/value of TLUT slots (all by default), locked slots untouched",
     [](auto& o, auto& p) {
         declare_palette_io(o, p);
         o.add_options()("hue", number<double>()->default_value(0.0), "degrees added to the hue")
             ("saturation", number<double>()->default_value(1.0), "saturation factor")
             ("value", number<double>()->default_value(1.0), "value factor")
             ("slots", po::value<std::vector<std::string>>()->multitoken(), "slots to shift (e.g. 1,2,7)");
     },
     palette_hsv},
}});

}  // namespace
}  // namespace modkit
