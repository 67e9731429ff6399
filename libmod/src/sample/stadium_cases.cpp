// Issue 17 forge cases for the Stadium sample (see stadium_cases.hpp).
#include "stadium_cases.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/stadium/model.hpp"

namespace mod::sample {

stadium::Vec3s sample_bone_rotation(std::size_t, int bone) {
    if (bone == 1) return {0, 0x4000, 0};
    if (bone == 2) return {0x2000, 0, 0};
    return {0, 0, 0};
}

stadium::DlId sample_material_dl(stadium::ModelBuilder& m, std::size_t k, std::int16_t texture) {
    if (k == 1) return m.add_material_dl(texture, 1, 2);  // G_TX_MIRROR on S, G_TX_CLAMP on T
    return m.add_material_dl(texture);
}

bool sample_bone_unlit(std::size_t model, int bones, int bone) { return model % 2 == 1 && bone == bones - 1; }

std::array<std::uint8_t, 4> sample_unlit_colour(int corner) {
    return {0xFF, static_cast<std::uint8_t>(0x80 | (corner * 8)), 0x20, 0xFF};
}

void sample_tlut_override(Bytes& fragment, std::size_t model) {
    if (model != sample_tlut_override_model) return;
    const stadium::Model m = stadium::read_model(fragment);
    const stadium::ModelPalette& p = m.palettes.at(0);
    // The builder's TLUT DL: SETTIMG at +0 (address word +4), LOADTLUT at +0x20 (w1 at +0x24).
    const std::uint32_t dl = p.tlut_dl - stadium::model_link_base;
    endian::store_be32(&fragment.at(dl + 4), p.entry_colors + 8);
    endian::store_be32(&fragment.at(dl + 0x24), stadium::gbi::loadtlut_w1(7, 12));
}

}  // namespace mod::sample
