// LayoutScript: the node level and the root rule check, the level commands (0x05, 0x06, 0x01),
// the DL nodes with their own transform (0x20, 0x21) and the control-flow commands (0x00, 0x02,
// 0x03, 0x04) with labels. See builder.hpp.
#include "builder_bytes.hpp"

namespace mod::stadium {

using namespace builder_bytes;

// The root rule check and the node level (builder.hpp, "The game draws only the root …").
void LayoutScript::node_at_level(std::uint8_t op) {
    if (!level_ || *level_ != 0) return;
    if (has_root_)
        usage("layout command " + hex(op, 2) + " at level 0 after the root: the game attaches only the first level-0 "
              "node and draws nothing under a later one (src/geo_layout.c func_80017AC4); open() a level after "
              "model_header() and add it there");
    if (op != 0x17)
        usage("layout command " + hex(op, 2) + " as the root: the root must be the 0x17 header (model_header()), "
              "whose draw gives 0x23 materials the texture tables (src/12D80.c:663-665)");
    has_root_ = true;
}

LayoutScript& LayoutScript::open() {
    if (level_) ++*level_;
    put_cmd(bytes_, {0x05, 0, 0, 0});
    return *this;
}
LayoutScript& LayoutScript::close() {
    if (level_ && *level_ == 0) usage("close() at level 0: no level is open");
    if (level_) --*level_;
    put_cmd(bytes_, {0x06, 0, 0, 0});
    return *this;
}
LayoutScript& LayoutScript::end() {
    put_cmd(bytes_, {0x01, 0, 0, 0});
    level_.reset();
    return *this;
}

LayoutScript& LayoutScript::draw_transformed(std::uint8_t layer, Vec3s degrees, Vec3s translation, DlId dl) {
    node_at_level(0x20);
    const auto at = static_cast<std::uint32_t>(bytes_.size());
    put_cmd(bytes_, {0x20, layer, 0, 0});
    put_vec(bytes_, degrees);
    put_vec(bytes_, translation);
    put_u32(bytes_, 0);
    refs_.push_back({at + 0x10, Ref::Kind::dl, dl});
    return *this;
}

LayoutScript& LayoutScript::draw_billboard(std::uint8_t layer, Vec3s translation, std::uint32_t scale, DlId dl) {
    node_at_level(0x21);
    const auto at = static_cast<std::uint32_t>(bytes_.size());
    put_cmd(bytes_, {0x21, layer});
    put_vec(bytes_, translation);
    put_u32(bytes_, scale);
    put_u32(bytes_, 0);
    refs_.push_back({at + 0xC, Ref::Kind::dl, dl});
    return *this;
}

LayoutScript::Label LayoutScript::new_label() {
    labels_.emplace_back();
    label_levels_.emplace_back();
    return static_cast<Label>(labels_.size() - 1);
}

LayoutScript& LayoutScript::place(Label label) {
    if (label >= labels_.size()) usage("unknown layout label");
    if (labels_[label]) usage("layout label placed twice");
    labels_[label] = static_cast<std::uint32_t>(bytes_.size());
    // Reached from a call or jump that recorded its level: that level; else by falling through.
    if (label_levels_[label]) level_ = label_levels_[label];
    return *this;
}

std::uint32_t LayoutScript::label_offset(Label label) const {
    if (label >= labels_.size() || !labels_[label]) usage("a layout command names a label that was never placed");
    return *labels_[label];
}

LayoutScript& LayoutScript::to_label(std::uint8_t op, Label target) {
    if (target >= labels_.size()) usage("unknown layout label");
    if (!label_levels_[target]) label_levels_[target] = level_;
    const auto at = static_cast<std::uint32_t>(bytes_.size());
    put_cmd(bytes_, {op, 0, 0, 0});
    put_u32(bytes_, 0);
    refs_.push_back({at + 4, Ref::Kind::label, target});
    // 0x00 comes back at its level (0x01 restores it); after 0x03 (the sub-script's 0x04 keeps
    // whatever level it left) and 0x02 the level is unknown.
    if (op != 0x00) level_.reset();
    return *this;
}

LayoutScript& LayoutScript::branch_and_link(Label target) { return to_label(0x00, target); }
LayoutScript& LayoutScript::branch(Label target) { return to_label(0x03, target); }
LayoutScript& LayoutScript::jump(Label target) { return to_label(0x02, target); }
LayoutScript& LayoutScript::ret() {
    put_cmd(bytes_, {0x04, 0, 0, 0});
    level_.reset();
    return *this;
}

}  // namespace mod::stadium
