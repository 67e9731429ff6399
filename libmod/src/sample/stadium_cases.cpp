// Issue 17 forge cases for the Stadium sample (see stadium_cases.hpp).
#include "stadium_cases.hpp"

#include "libmod/codec/szp.hpp"
#include "libmod/codec/yay0.hpp"
#include "libmod/core/endian.hpp"
#include "libmod/stadium/model.hpp"

namespace mod::sample {

SampleBoneFlags sample_bone_flags(std::size_t model, int bone) {
    if (model != sample_bone_flags_model) return {};
    if (bone == 1) return {1, 0x20000, 0x10000, 0x8000};
    if (bone == 2) return {1};
    if (bone == 3) return {2};
    return {};
}


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

namespace {
std::uint32_t palette0_colours(const Bytes& fragment) {
    return stadium::read_model(fragment).palettes.at(0).offset;
}
}  // namespace

void sample_fixup_content(Bytes& fragment, std::size_t model) {
    if (model != sample_fixup_entry) return;
    endian::store_be32(&fragment.at(palette0_colours(fragment)), sample_fixup_colours);
}

Bytes sample_fixup_blob(const Bytes& fragment) {
    const std::uint32_t colours = palette0_colours(fragment);
    const auto size1 = static_cast<std::uint32_t>(fragment.size());
    Bytes stream = fragment;
    endian::store_be32(&stream.at(colours), 0xDEADBEEFu);
    const char junk[] = "fixup-zero-fill!";
    stream.insert(stream.end(), junk, junk + 16);
    const std::uint32_t fixups[3][2] = {{0x11111111u, colours}, {sample_fixup_colours, colours}, {0xCAFEF00Du, size1 + 8}};
    ByteWriter w(Endian::big);
    w.bytes(ByteView(reinterpret_cast<const std::uint8_t*>(szp::magic), 8));
    w.u32(szp::packed_header_size + 8 * 3);
    w.u32(size1);
    w.u32(size1 + sample_fixup_slack);
    w.u32(3);
    for (const auto& f : fixups) {
        w.u32(f[0]);
        w.u32(f[1]);
    }
    w.bytes(yay0::encode(stream, yay0::Mode::nintendo));
    return w.take();
}

void sample_case_layout(stadium::LayoutScript& s, const std::function<void(stadium::LayoutScript&, int)>& bone_block,
                        stadium::DlId wrapper_dl) {
    const auto a = s.new_label(), b = s.new_label(), c = s.new_label();
    bone_block(s, 0);
    s.branch_and_link(a).branch(b).draw_with_bone(1, 0, wrapper_dl).jump(c);
    s.place(a);
    bone_block(s, 1);
    s.draw_transformed(1, sample_node_degrees, sample_node_translation, wrapper_dl);
    s.draw_billboard(1, sample_billboard_translation, sample_billboard_scale, wrapper_dl);
    s.end();
    s.place(b);
    bone_block(s, 2);
    s.close().ret();
    s.place(c);
    s.close().close().close().end();
}

}  // namespace mod::sample
