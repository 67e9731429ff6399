#include "libmod/stadium/palette_edit.hpp"

#include <algorithm>

namespace mod::stadium {

namespace {

const ModelPalette& palette_at(const Model& model, std::size_t palette) {
    if (palette >= model.palettes.size())
        throw Error(ErrorKind::usage, "palette " + std::to_string(palette) + " does not exist (the model has " +
                                          std::to_string(model.palettes.size()) + ")");
    return model.palettes[palette];
}

// set/hsv compute in RGBA5551 (image::set_slots, image::hsv_shift): IA16 palettes are refused.
const ModelPalette& rgba5551_palette_at(const Model& model, std::size_t palette, const char* action) {
    const ModelPalette& p = palette_at(model, palette);
    if (p.format != n64::TlutFormat::rgba5551)
        throw Error(ErrorKind::usage, "palette " + std::to_string(palette) + " holds " + n64::to_string(p.format) +
                                          " entries; palette " + action +
                                          " edits RGBA5551 palettes (replace the textures instead)");
    return p;
}

std::vector<std::size_t> textures_of_palette(const Model& model, std::size_t palette) {
    std::vector<std::size_t> out;
    for (std::size_t m : model.materials_with_palette(palette))
        if (model.materials[m].texture >= 0) out.push_back(static_cast<std::size_t>(model.materials[m].texture));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void write_palette(const Model& model, FragmentImage& image, const ModelPalette& p,
                   const std::vector<std::uint16_t>& entries) {
    require_plain_data(model, p.offset, 2 * entries.size(), "palette colours");
    Bytes b;
    for (std::uint16_t e : entries) {
        b.push_back(static_cast<std::uint8_t>(e >> 8));
        b.push_back(static_cast<std::uint8_t>(e));
    }
    image.write_data(p.offset, b, "palette colours");
}

}  // namespace

std::size_t PaletteEditReport::rounded() const noexcept {
    return static_cast<std::size_t>(std::count_if(changes.begin(), changes.end(), [](const auto& c) { return c.rounded(); }));
}

double PaletteEditReport::max_rounding_delta_e() const noexcept {
    double m = 0;
    for (const auto& c : changes) m = std::max(m, c.rounding_delta_e);
    return m;
}

PaletteEditReport set_palette_slots(const Model& model, FragmentImage& image, std::size_t palette,
                                    std::span<const image::SlotColour> requests, std::span<const unsigned> locked) {
    const ModelPalette& p = rgba5551_palette_at(model, palette, "set");
    std::vector<std::uint16_t> entries = p.entries;
    PaletteEditReport r;
    r.palette = palette;
    r.changes = image::set_slots(entries, requests, locked);
    r.textures = textures_of_palette(model, palette);
    write_palette(model, image, p, entries);
    return r;
}

PaletteEditReport shift_palette_hsv(const Model& model, FragmentImage& image, std::size_t palette,
                                    const image::HsvShift& shift, std::span<const unsigned> slots,
                                    std::span<const unsigned> locked) {
    const ModelPalette& p = rgba5551_palette_at(model, palette, "hsv");
    std::vector<std::uint16_t> entries = p.entries;
    PaletteEditReport r;
    r.palette = palette;
    r.changes = image::hsv_shift(entries, shift, slots, locked);
    r.textures = textures_of_palette(model, palette);
    write_palette(model, image, p, entries);
    return r;
}

Model read_archive_model(const Archive& archive, std::size_t index) {
    if (index >= archive.entries.size())
        throw Error(ErrorKind::usage, "the archive has " + std::to_string(archive.entries.size()) +
                                          " entries; there is no entry " + std::to_string(index));
    const std::string path = index_path("archive", index) + ".fragment";
    DecodedEntry d = decode_entry(archive, index);
    if (!d.is_fragment) throw Error(ErrorKind::format, "the entry is not a FRAGMENT", archive.file, no_offset, path);
    try {
        return read_model(parse_fragment(ByteReader(d.content, Endian::big, archive.file, path)), path);
    } catch (Error& e) {
        locate_entry_error(e, archive, index, d);
        throw;
    }
}

void check_model_limits(const Fragment& fragment, std::size_t index, const RuntimeLimits& limits) {
    const std::string path = index_path("archive", index) + ".fragment";
    Model m = read_model(fragment, path);
    if (m.textures.size() > max_model_textures)
        throw Error(ErrorKind::limit, "the model would have " + std::to_string(m.textures.size()) +
                                          " textures (command 0x17 holds at most 255)", {}, no_offset, path);
    if (m.palettes.size() > max_model_palettes)
        throw Error(ErrorKind::limit, "the model would have " + std::to_string(m.palettes.size()) +
                                          " palettes (command 0x17 holds at most 255)", {}, no_offset, path);
    if (m.vertex_count > max_model_vertices)
        throw Error(ErrorKind::limit, "the model would have " + std::to_string(m.vertex_count) +
                                          " vertices (command 0x17 holds fewer than 32768)", {}, no_offset, path);
    const Bytes bytes = encode_fragment(fragment);
    check_entry_limits(index, 0, static_cast<std::uint32_t>(bytes.size()), fragment.header.size_in_rom, limits);
    const CrossCheck c = cross_check(m.fragment, m.map);
    if (!c.ok())
        throw Error(ErrorKind::conflict, "the edited model's relocation table disagrees with its pointers (" +
                                             std::to_string(c.missing.size()) + " missing, " +
                                             std::to_string(c.unexplained.size()) + " unexplained)", {}, no_offset, path);
}

RepackResult repack_model_edit(const Archive& archive, std::size_t index, const Fragment& fragment,
                               const RepackOptions& options) {
    check_model_limits(fragment, index, options.limits);
    std::vector<Replacement> rep{{index, encode_fragment(fragment)}};
    return repack_archive(archive, rep, options);
}

RepackResult repack_model_edit_into(const Archive& archive, std::size_t index, const Fragment& fragment,
                                    const RepackOptions& options, std::span<std::uint8_t> region) {
    check_model_limits(fragment, index, options.limits);
    std::vector<Replacement> rep{{index, encode_fragment(fragment)}};
    return repack_archive_into(archive, rep, options, region);
}

Bytes apply_model_edit(const StadiumRom& rom, const Archive& archive, std::size_t index, const Fragment& fragment,
                       const RepackOptions& options) {
    return write_archive(rom, repack_model_edit(archive, index, fragment, options), options.rom_start);
}

}  // namespace mod::stadium
