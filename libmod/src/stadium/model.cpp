#include "libmod/stadium/model.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace mod::stadium {

namespace {

std::int16_t s16(const Bytes& b, std::size_t at) {
    return static_cast<std::int16_t>((std::uint16_t(b[at]) << 8) | b[at + 1]);
}
std::uint16_t u16(const Bytes& b, std::size_t at) { return static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]); }
std::uint32_t u32(const Bytes& b, std::size_t at) {
    return (std::uint32_t(b[at]) << 24) | (std::uint32_t(b[at + 1]) << 16) | (std::uint32_t(b[at + 2]) << 8) | b[at + 3];
}

// One word of the geo-layout interpreter's stack (gGeoLayoutStack): a return address (a body
// offset, or the NULL that ends the script) or the frame word 00 pushes (node index << 16 |
// return index).
struct StackWord {
    std::uint32_t value = 0;
    bool frame = false;
    bool null = false;  // an address word holding 0
    auto key() const { return std::make_tuple(value, frame, null); }
};

// What gCurGraphNodeList holds at one level: a bone (0x1D) or a 0x20/0x21 node, or another node.
struct Level {
    std::int32_t bone = -1;
    std::int32_t node = -1;
};
inline constexpr std::size_t graph_node_levels = 32;  // gCurGraphNodeList[32]

class ModelReader {
public:
    ModelReader(Model& m, const std::string& path)
        : m_(m), r_(m.fragment.body, Endian::big, {}, path), base_(m.fragment.link_base()) {}

    void run() {
        for (std::size_t i = 0; i < m_.map.layout_scripts.size(); ++i)
            walk_script(m_.map.layout_scripts[i], "layout[" + std::to_string(i) + "]");
        walk_geometry();
        collect_structure();
    }

private:
    [[noreturn]] void fail(std::uint32_t at, const std::string& what, const std::string& message,
                           ErrorKind kind = ErrorKind::format) const {
        r_.fail_at_path(at, "." + what, message, kind);
    }

    std::uint32_t local(std::uint32_t address, std::uint32_t at, const std::string& what, std::uint32_t need) const {
        if ((address & 0xFFF00000u) != base_ || address - base_ >= m_.fragment.body.size() ||
            m_.fragment.body.size() - (address - base_) < need)
            fail(at, what, "pointer " + hex(address, 8) + " does not lead to " + std::to_string(need) +
                               " bytes of this fragment");
        return address - base_;
    }

    // The innermost bone among the open levels, and the innermost 0x20/0x21 node nearer than it.
    Level enclosing() const {
        Level out;
        for (std::size_t k = index_; k-- > 0;) {
            if (list_[k].bone >= 0) { out.bone = list_[k].bone; break; }
            if (out.node < 0 && list_[k].node >= 0) out.node = list_[k].node;
        }
        return out;
    }
    std::int32_t enclosing_bone() const { return enclosing().bone; }

    void walk_script(std::uint32_t start, const std::string& name) {
        // process_geo_layout: stack {0, 0}, return index 2, node index 0, gCurGraphNodeList[0] = 0.
        std::vector<StackWord> stack{{0, false, true}, {0, true, false}};
        std::size_t return_index = 2;
        list_.assign(graph_node_levels, Level{});
        index_ = 0;
        std::set<std::vector<std::tuple<std::uint32_t, bool, bool>>> seen;
        std::uint32_t at = start;
        const Bytes& body = m_.fragment.body;
        for (;;) {
            const std::string where = name + ".cmd@" + hex(at);
            if (at % 4 != 0 || std::uint64_t(at) + 4 > body.size())
                fail(at, where, "layout command outside the body (or misaligned)");
            std::vector<std::tuple<std::uint32_t, bool, bool>> key{{at, false, false}, {std::uint32_t(index_), false, false},
                                                                   {std::uint32_t(return_index), false, false}};
            for (const StackWord& w : stack) key.push_back(w.key());
            if (!seen.insert(key).second)
                fail(at, where, "layout loop: the command is reached again with the same return stack");
            const std::uint8_t op = body[at];
            const std::uint32_t size = layout_command_size(op);
            if (size == 0)
                fail(at, where, op == 0x12 ? "command 0x12 never advances: the game's interpreter would hang"
                                           : "unknown layout command " + hex(op, 2));
            if (std::uint64_t(at) + size > body.size()) fail(at, where, "layout command runs past the body");
            m_.commands.push_back({at, op, Bytes(body.begin() + at, body.begin() + at + size),
                                   static_cast<std::uint32_t>(index_)});
            std::uint32_t next = at + size;
            bool node = true;  // whether the command registers a graph node (func_80017AC4)
            Level registered;
            switch (op) {
            case 0x00:  // geo_layout_cmd_branch_and_link
                if (stack.size() >= 2 + 2 * max_layout_call_depth)
                    fail(at, where, "layout calls nested too deeply", ErrorKind::limit);
                stack.push_back({next, false, false});
                stack.push_back({std::uint32_t(index_ << 16) | std::uint32_t(return_index), true, false});
                return_index = stack.size();
                next = local(u32(body, at + 4), at + 4, where + ".target", 4);
                node = false;
                break;
            case 0x03:  // geo_layout_cmd_branch
                if (stack.size() >= 2 + 2 * max_layout_call_depth)
                    fail(at, where, "layout calls nested too deeply", ErrorKind::limit);
                stack.push_back({next, false, false});
                next = local(u32(body, at + 4), at + 4, where + ".target", 4);
                node = false;
                break;
            case 0x02:  // geo_layout_cmd_jump
                next = local(u32(body, at + 4), at + 4, where + ".target", 4);
                node = false;
                break;
            case 0x01: {  // geo_layout_cmd_end: unwind to the last 00's frame
                stack.resize(return_index);
                const StackWord frame = stack.back();
                stack.pop_back();
                return_index = frame.value & 0xFFFF;
                index_ = frame.value >> 16;
                const StackWord ret = stack.back();
                stack.pop_back();
                if (ret.null) return;
                next = ret.value;
                node = false;
                break;
            }
            case 0x04: {  // geo_layout_cmd_return: pop one word and go there
                const StackWord ret = stack.back();
                if (ret.frame && stack.size() != 2)
                    fail(at, where, "0x04 returns through the frame word " + hex(ret.value, 8) +
                                        " that a 0x00 pushed (0x00 returns with 0x01): the game would jump to it");
                if (stack.size() == 2 || ret.null) return;  // the initial NULL words: the script ends
                stack.pop_back();
                next = ret.value;
                node = false;
                break;
            }
            case 0x05:  // geo_layout_cmd_open_node
                if (index_ + 1 >= graph_node_levels)
                    fail(at, where, "more than 31 open levels: gCurGraphNodeList has 32 entries", ErrorKind::limit);
                list_[index_ + 1] = list_[index_];
                ++index_;
                node = false;
                break;
            case 0x06:  // geo_layout_cmd_close_node
                if (index_ == 0) m_.warnings.push_back(where + ": 0x06 closes a level that is not open");
                else --index_;
                node = false;
                break;
            case 0x17: tables(at, where); break;
            case 0x1C:
                if (!m_.root_scale) m_.root_scale = {{static_cast<std::int32_t>(u32(body, at + 4)),
                                                      static_cast<std::int32_t>(u32(body, at + 8)),
                                                      static_cast<std::int32_t>(u32(body, at + 12))}};
                break;
            case 0x1D:
                bone(at, where);
                registered.bone = static_cast<std::int32_t>(m_.bones.size() - 1);
                break;
            case 0x23: material(at, where); break;
            case 0x1E: {
                const std::int16_t id = s16(body, at + 2);
                std::int32_t b = -1;
                for (std::size_t i = m_.bones.size(); i-- > 0;)
                    if (m_.bones[i].id == static_cast<std::uint8_t>(id)) { b = static_cast<std::int32_t>(i); break; }
                if (b < 0) m_.warnings.push_back(where + ": draws with bone id " + std::to_string(id) + " that no 0x1D defined before");
                draw(at, op, body[at + 1], u32(body, at + 4), b, -1, where);
                break;
            }
            case 0x20:
            case 0x21:
                registered.node = transform_node(at, op);
                draw(at, op, body[at + 1], u32(body, at + (op == 0x20 ? 0x10 : 0xC)), enclosing_bone(), registered.node, where);
                break;
            case 0x22: {
                const Level e = enclosing();
                draw(at, op, body[at + 1], u32(body, at + 4), e.bone, e.node, where);
                break;
            }
            case 0x08: case 0x15: case 0x25: node = false; break;
            default: break;
            }
            if (node) list_[index_] = registered;  // func_80017AC4
            at = next;
        }
    }

    std::int32_t transform_node(std::uint32_t at, std::uint8_t op) {
        const Bytes& b = m_.fragment.body;
        ModelNode n;
        n.command = at;
        n.op = op;
        const Level e = enclosing();
        n.parent = e.node;
        n.bone = e.bone;
        if (op == 0x20) {
            for (int k = 0; k < 3; ++k) {
                n.degrees[k] = s16(b, at + 4 + 2 * k);
                n.translation[k] = s16(b, at + 0xA + 2 * k);
            }
        } else {
            for (int k = 0; k < 3; ++k) n.translation[k] = s16(b, at + 2 + 2 * k);
            n.scale = u32(b, at + 8);
        }
        m_.nodes.push_back(n);
        return static_cast<std::int32_t>(m_.nodes.size() - 1);
    }

    void tables(std::uint32_t at, const std::string& where) {
        const ModelTables* t = nullptr;
        for (const auto& x : m_.map.tables)
            if (x.command_offset == at) t = &x;
        if (!t) fail(at, where, "command 0x17 the pointer walk did not reach");
        const Bytes& body = m_.fragment.body;
        const std::uint32_t tex = u32(body, at + 8), pal = u32(body, at + 0xC), vtx = u32(body, at + 0x10);
        if (m_.tables_command != 0) {
            if (tex == m_.texture_table && pal == m_.palette_table && vtx == m_.vertex_array) return;
            fail(at, where, "a second 0x17 names other tables (first at " + hex(m_.tables_command) +
                                "): models with several table sets are not supported", ErrorKind::usage);
        }
        m_.tables_command = at;
        m_.texture_table = tex;
        m_.palette_table = pal;
        m_.vertex_array = vtx;
        m_.vertex_count = t->vertex_count;
        for (std::size_t i = 0; i < t->textures.size(); ++i) texture(t->textures[i], where + ".texture[" + std::to_string(i) + "]");
        for (std::size_t i = 0; i < t->palettes.size(); ++i) palette(t->palettes[i], where + ".palette[" + std::to_string(i) + "]");
        if (m_.vertex_count > 0 && vtx != 0) {
            const std::uint32_t o = local(vtx, at + 0x10, where + ".vertices", 16u * m_.vertex_count);
            for (std::uint32_t i = 0; i < m_.vertex_count; ++i) {
                const std::uint32_t v = o + 16 * i;
                ModelVertex mv;
                for (int k = 0; k < 3; ++k) mv.position[k] = s16(body, v + 2 * k);
                mv.flag = u16(body, v + 6);
                mv.st = {s16(body, v + 8), s16(body, v + 10)};
                for (int k = 0; k < 4; ++k) mv.colour[k] = body[v + 12 + k];
                m_.vertices.push_back(mv);
            }
        }
    }

    void texture(const TextureEntry& e, const std::string& what) {
        ModelTexture t;
        t.entry = e.offset;
        t.descriptor = {e.fmt, e.siz, e.width, e.height, e.texel_count};
        t.texels = e.texels;
        t.format = t.descriptor.format();
        if (!t.format) {
            m_.warnings.push_back(what + ": format " + std::to_string(e.fmt) + "/" + std::to_string(e.siz) +
                                  " is not one models use; texels not read");
        } else {
            if (std::uint32_t(e.width) * e.height != e.texel_count)
                m_.warnings.push_back(what + ": texel count " + std::to_string(e.texel_count) + " is not " +
                                      std::to_string(e.width) + " x " + std::to_string(e.height));
            const auto bytes = n64::texel_bytes(*t.format, std::uint64_t(e.width) * e.height);
            t.offset = local(e.texels, e.offset + 8, what + ".texels", static_cast<std::uint32_t>(bytes));
            t.data.assign(m_.fragment.body.begin() + t.offset, m_.fragment.body.begin() + t.offset + bytes);
        }
        m_.textures.push_back(std::move(t));
    }

    void palette(const PaletteEntry& e, const std::string& what) {
        ModelPalette p;
        p.entry = e.offset;
        p.color_count = p.entry_count = e.color_count;
        p.colors = p.entry_colors = e.colors;
        p.tlut_dl = e.tlut_dl;
        if (e.color_count == 0 || e.color_count > n64::max_tlut_entries)
            fail(e.offset, what, "colour count " + std::to_string(e.color_count) + " is not 1..256");
        if (e.color_count != 16 && e.color_count != 256)
            m_.warnings.push_back(what + ": colour count " + std::to_string(e.color_count) + " is neither 16 nor 256");
        p.offset = local(e.colors, e.offset + 4, what + ".colors", 2 * e.color_count);
        for (std::uint32_t i = 0; i < e.color_count; ++i) p.entries.push_back(u16(m_.fragment.body, p.offset + 2 * i));
        if (e.tlut_dl != 0) {
            const n64::gbi::DisplayList& dl = list_at(e.tlut_dl, e.offset + 8, what + ".tlut_dl");
            p.load = n64::find_tlut_load(dl);
            if (const auto f = tlut_format_set_by(dl)) p.format = *f;
            if (!p.load) m_.warnings.push_back(what + ": the TLUT display list has no LOADTLUT; the table entry is used");
            else if (p.load->address != e.colors || p.load->count != e.color_count) {
                // The list is authoritative (seed 004 §17.4): decode what it loads.
                std::string said;
                if (p.load->address != e.colors)
                    said = "loads " + hex(p.load->address, 8) + ", the entry says " + hex(e.colors, 8);
                if (p.load->count != e.color_count)
                    said += std::string(said.empty() ? "" : "; it ") + "loads " + std::to_string(p.load->count) +
                            " entries, the entry says " + std::to_string(e.color_count);
                const std::uint32_t a = p.load->address, n = p.load->count;
                const bool usable = n >= 1 && n <= n64::max_tlut_entries && (a & 0xFFF00000u) == base_ &&
                                    a - base_ < m_.fragment.body.size() && m_.fragment.body.size() - (a - base_) >= 2 * n;
                if (usable) {
                    p.colors = a;
                    p.color_count = n;
                    p.offset = a - base_;
                    p.entries.clear();
                    for (std::uint32_t i = 0; i < n; ++i) p.entries.push_back(u16(m_.fragment.body, p.offset + 2 * i));
                    m_.warnings.push_back(what + ": the TLUT DL " + said + "; decoded with what the list loads");
                } else {
                    m_.warnings.push_back(what + ": the TLUT DL " + said +
                                          "; what it loads is not in this fragment, the table entry is used");
                }
            }
        }
        m_.palettes.push_back(std::move(p));
    }

    void bone(std::uint32_t at, const std::string& where) {
        const Bytes& b = m_.fragment.body;
        ModelBone bone;
        bone.command = at;
        bone.id = b[at + 1];
        bone.flags = b[at + 2];
        bone.channel = b[at + 3];
        for (int k = 0; k < 3; ++k) {
            bone.translation[k] = s16(b, at + 4 + 2 * k);
            bone.rotation[k] = s16(b, at + 0xA + 2 * k);
            bone.scale[k] = static_cast<std::int32_t>(u32(b, at + 0x10 + 4 * k));
        }
        const Level e = enclosing();
        bone.parent = e.bone;
        if (e.node >= 0)
            m_.warnings.push_back(where + ": bone " + std::to_string(m_.bones.size()) + " is opened under the 0x" +
                                  hex(m_.nodes[std::size_t(e.node)].op, 2).substr(2) + " node at " +
                                  hex(m_.nodes[std::size_t(e.node)].command) +
                                  ": the game's bone matrix inherits that node's transform, exported bones do not");
        m_.bones.push_back(bone);
    }

    void material(std::uint32_t at, const std::string& where) {
        const Bytes& b = m_.fragment.body;
        ModelMaterial mt;
        mt.command = at;
        mt.combiner = b[at + 1];
        mt.texture_channel = s16(b, at + 2);
        mt.material_dl = u32(b, at + 4);
        mt.texture = s16(b, at + 8);
        mt.palette = s16(b, at + 0xA);
        mt.prim_colour = u32(b, at + 0xC);
        mt.bone = enclosing_bone();
        if (mt.texture < -1 || (mt.texture >= 0 && std::size_t(mt.texture) >= m_.textures.size()))
            fail(at + 8, where + ".texture", "texture index " + std::to_string(mt.texture) + " outside the " +
                                                 std::to_string(m_.textures.size()) + "-entry table");
        if (mt.palette < -1 || (mt.palette >= 0 && std::size_t(mt.palette) >= m_.palettes.size()))
            fail(at + 0xA, where + ".palette", "palette index " + std::to_string(mt.palette) + " outside the " +
                                                   std::to_string(m_.palettes.size()) + "-entry table");
        if (mt.material_dl != 0) {
            const n64::gbi::DisplayList& dl = list_at(mt.material_dl, at + 4, where + ".material_dl");
            mt.load = n64::find_texture_load(dl);
            const auto tt = tlut_format_set_by(dl);
            if (tt && mt.palette >= 0 && *tt != m_.palettes[std::size_t(mt.palette)].format)
                m_.warnings.push_back(where + ": the material DL selects " + n64::to_string(*tt) + " TLUTs, palette " +
                                      std::to_string(mt.palette) + "'s TLUT DL " +
                                      n64::to_string(m_.palettes[std::size_t(mt.palette)].format));
        }
        current_material_ = static_cast<std::int32_t>(m_.materials.size());
        m_.materials.push_back(std::move(mt));
    }

    void draw(std::uint32_t at, std::uint8_t op, std::uint8_t layer, std::uint32_t dl, std::int32_t bone,
              std::int32_t node, const std::string& where) {
        if (dl == 0) return;
        ModelDraw d;
        d.node = node;
        d.command = at;
        d.op = op;
        d.layer = layer;
        d.dl = dl;
        d.bone = bone;
        d.material = current_material_;
        const std::uint32_t off = local(dl, at, where + ".dl", 8);
        list_at(dl, at, where + ".dl");
        auto it = list_index_.find(off);
        if (it == list_index_.end()) {
            it = list_index_.emplace(off, m_.lists.size()).first;
            m_.lists.push_back({off, lists_.at(off)});
        }
        d.list = it->second;
        m_.draws.push_back(d);
    }

    // Decodes (once) the display list at a link address.
    const n64::gbi::DisplayList& list_at(std::uint32_t address, std::uint32_t site, const std::string& what) {
        const std::uint32_t off = local(address, site, what, 8);
        auto it = lists_.find(off);
        if (it != lists_.end()) return it->second;
        ByteReader sub = r_.sub(off, m_.fragment.body.size() - off, "dl@" + hex(off));
        n64::gbi::DisplayList dl = n64::gbi::decode_list(sub);
        dl.origin = off;
        return lists_.emplace(off, std::move(dl)).first->second;
    }

    void walk_geometry() {
        n64::gbi::WalkOptions o;
        const std::uint32_t array = m_.vertex_array, count = m_.vertex_count;
        o.vertex_index = [array, count](std::uint32_t a) -> std::optional<std::uint32_t> {
            if (a < array || (a - array) % 16 != 0 || (a - array) / 16 >= count) return std::nullopt;
            return (a - array) / 16;
        };
        o.vertex_count = count;
        o.resolve_call = [this](std::uint32_t a) -> const n64::gbi::DisplayList* {
            if ((a & 0xFFF00000u) != base_ || a - base_ + 8 > m_.fragment.body.size()) return nullptr;
            return &list_at(a, a - base_, "dl");
        };
        n64::gbi::VertexCacheWalker walker(o);
        for (std::size_t i = 0; i < m_.draws.size(); ++i)
            walker.run(static_cast<std::uint32_t>(i), m_.lists[m_.draws[i].list].list);
        m_.triangles = walker.take_triangles();
    }

    void collect_structure() {
        auto& out = m_.structure;
        for (const auto& c : m_.commands)
            out.push_back({c.offset, c.offset + static_cast<std::uint32_t>(c.raw.size()), "layout command " + hex(c.op, 2)});
        for (const auto& t : m_.textures) out.push_back({t.entry, t.entry + 12, "texture table entry"});
        for (const auto& p : m_.palettes) out.push_back({p.entry, p.entry + 12, "palette table entry"});
        if (m_.vertex_count > 0 && m_.vertex_array != 0)
            out.push_back({m_.vertex_array - base_, m_.vertex_array - base_ + 16u * m_.vertex_count, "vertex array"});
        for (const auto& [off, list] : lists_)
            out.push_back({off, off + 8 * static_cast<std::uint32_t>(list.commands.size()), "display list"});
        std::sort(out.begin(), out.end(), [](const ModelRange& a, const ModelRange& b) {
            return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
        });
    }

    Model& m_;
    ByteReader r_;
    std::uint32_t base_;
    std::vector<Level> list_;  // gCurGraphNodeList
    std::size_t index_ = 0;    // gCurGraphNodeIndex
    std::int32_t current_material_ = -1;
    std::map<std::uint32_t, n64::gbi::DisplayList> lists_;
    std::map<std::uint32_t, std::size_t> list_index_;
};

}  // namespace

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

Model read_model(Fragment fragment, const std::string& path) {
    Model m;
    m.fragment = std::move(fragment);
    m.map = walk_model(m.fragment, path);
    m.root = m.map.root;
    ModelReader(m, path).run();
    m.warnings.insert(m.warnings.begin(), m.map.notes.begin(), m.map.notes.end());
    return m;
}

Model read_model(ByteView bytes, const std::string& file, const std::string& path) {
    try {
        return read_model(parse_fragment(ByteReader(bytes, Endian::big, file, path)), path);
    } catch (Error& e) {
        e.set_file_if_empty(file);
        throw;
    }
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
