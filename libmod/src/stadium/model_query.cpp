// Queries on a read Model (model.hpp): node angles, materials by texture/palette, addresses,
// the data-vs-structure guard, the TLUT type a list selects and texture decoding. The reader
// that builds the Model is model.cpp.
#include "libmod/stadium/model.hpp"

namespace mod::stadium {

std::array<std::int16_t, 3> ModelNode::rotation() const noexcept {
    std::array<std::int16_t, 3> r{};
    for (int k = 0; k < 3; ++k) r[k] = static_cast<std::int16_t>((std::int32_t(degrees[k]) * 32768) / 180);
    return r;
}

std::vector<std::size_t> Model::materials_with_texture(std::size_t t) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < materials.size(); ++i)
        if (materials[i].texture >= 0 && std::size_t(materials[i].texture) == t) out.push_back(i);
    return out;
}

std::vector<std::size_t> Model::materials_with_palette(std::size_t p) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < materials.size(); ++i)
        if (materials[i].palette >= 0 && std::size_t(materials[i].palette) == p) out.push_back(i);
    return out;
}

std::uint32_t Model::offset_of(std::uint32_t address, const std::string& what) const {
    const std::uint32_t base = fragment.link_base();
    if ((address & 0xFFF00000u) != base || address - base >= fragment.body.size())
        throw Error(ErrorKind::format, what + ": " + hex(address, 8) + " is not an address of this fragment");
    return address - base;
}

void require_plain_data(const Model& model, std::uint32_t at, std::size_t size, const std::string& what) {
    for (const ModelRange& r : model.structure)
        if (r.begin < std::uint64_t(at) + size && at < r.end)
            throw Error(ErrorKind::conflict,
                        what + ": [" + hex(at) + ", +" + hex(size) + ") shares bytes with the " + r.what + " at " +
                            hex(r.begin) + "; refusing to overwrite it",
                        {}, no_offset, "fragment");
}

std::optional<n64::TlutFormat> tlut_format_set_by(const n64::gbi::DisplayList& list) {
    constexpr int textlut_shift = 14;  // G_MDSFT_TEXTLUT
    std::optional<n64::TlutFormat> out;
    for (const auto& c : list.commands) {
        const auto* m = std::get_if<n64::gbi::SetOtherMode>(&c);
        if (!m || !m->high || m->shift() > textlut_shift || m->shift() + int(m->length()) < textlut_shift + 2) continue;
        switch ((m->data >> textlut_shift) & 3u) {
        case 2: out = n64::TlutFormat::rgba5551; break;
        case 3: out = n64::TlutFormat::ia16; break;
        default: out.reset(); break;
        }
    }
    return out;
}

std::optional<std::size_t> palette_for_texture(const Model& model, std::size_t texture) {
    for (std::size_t i : model.materials_with_texture(texture))
        if (model.materials[i].palette >= 0) return static_cast<std::size_t>(model.materials[i].palette);
    return std::nullopt;
}

unsigned bank_for_texture(const Model& model, std::size_t texture) {
    for (std::size_t i : model.materials_with_texture(texture))
        if (model.materials[i].load) return model.materials[i].load->render.palette;
    return 0;
}

Bytes decode_texture_rgba(const Model& model, std::size_t texture, std::optional<std::size_t> palette,
                          std::optional<unsigned> bank_override) {
    if (texture >= model.textures.size())
        throw Error(ErrorKind::usage, "texture " + std::to_string(texture) + " does not exist (the model has " +
                                          std::to_string(model.textures.size()) + ")");
    const ModelTexture& t = model.textures[texture];
    if (!t.format)
        throw Error(ErrorKind::format, "texture " + std::to_string(texture) + " has a format models do not use");
    const std::string path = "texture[" + std::to_string(texture) + "]";
    ByteReader r(t.data, Endian::big, {}, path);
    if (!n64::is_ci(*t.format)) return n64::decode_rgba(*t.format, r, t.descriptor.width, t.descriptor.height);
    if (!palette) palette = palette_for_texture(model, texture);
    if (!palette || *palette >= model.palettes.size())
        throw Error(ErrorKind::format, path + ": a CI texture no material gives a palette");
    n64::Tlut tlut{model.palettes[*palette].format, model.palettes[*palette].entries};
    const unsigned bank =
        *t.format == n64::TexelFormat::ci4 ? (bank_override ? *bank_override : bank_for_texture(model, texture)) : 0;
    return n64::decode_ci_rgba(*t.format, r, t.descriptor.width, t.descriptor.height, tlut, bank);
}

}  // namespace mod::stadium
