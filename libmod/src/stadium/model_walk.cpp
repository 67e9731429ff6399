#include "libmod/stadium/model_walk.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace mod::stadium {

std::uint32_t layout_command_size(std::uint8_t op) noexcept {
    static constexpr std::uint8_t sizes[layout_last_op + 1] = {
        8,    4,    8,    8,    4,    4,    4,    8,     // 00-07
        0xC,  4,    8,    0x18, 4,    4,    4,    4,     // 08-0F
        4,    4,    0,    8,    0xC,  0xC,  4,    0x14,  // 10-17
        8,    8,    4,    0x10, 0x10, 0x1C, 8,    0x18,  // 18-1F
        0x14, 0x10, 8,    0x10, 4,    4,    0x14,        // 20-26
    };
    return op <= layout_last_op ? sizes[op] : 0;
}

namespace {

enum : std::uint8_t {
    g_vtx = 0x01, g_mtx = 0xDA, g_movemem = 0xDC, g_dl = 0xDE, g_enddl = 0xDF, g_settimg = 0xFD,
};

class Walker {
public:
    Walker(const Fragment& f, const std::string& path)
        : f_(f), r_(f.body, Endian::big, {}, path), base_(f.link_base()) {}

    ModelMap run() {
        map_.root = read_model_root(f_, r_.path());
        map_.getter = *find_root_getter(f_);
        const ModelRoot& root = map_.root;
        const std::uint32_t at = root.offset;
        auto layouts = pointer_field(at + 8, "root.layouts", root.layout_count, 4u * root.layout_count);
        auto anims = pointer_field(at + 0xC, "root.animations", root.animation_count, 4u * root.animation_count);
        auto aux = pointer_field(at + 0x10, "root.aux_animations", root.aux_animation_count, 4u * root.aux_animation_count);
        terminator(layouts, root.layout_count, "root.layouts");
        terminator(anims, root.animation_count, "root.animations");
        terminator(aux, root.aux_animation_count, "root.aux_animations");
        for (std::uint32_t i = 0; layouts && i < root.layout_count; ++i) {
            const std::string name = "layout[" + std::to_string(i) + "]";
            if (auto s = pointer_field(*layouts + 4 * i, name, 1, 4)) {
                map_.layout_scripts.push_back(*s);
                walk_script(*s, name);
            }
        }
        for (std::uint32_t i = 0; anims && i < root.animation_count; ++i) {
            const std::string name = "animation[" + std::to_string(i) + "]";
            if (auto h = pointer_field(*anims + 4 * i, name, 1, 0x1C)) {
                map_.animations.push_back(*h);
                for (std::uint32_t k = 0; k < 4; ++k)
                    pointer_field(*h + 0xC + 4 * k, name + ".data" + std::to_string(k), 0, 0);
            }
        }
        for (std::uint32_t i = 0; aux && i < root.aux_animation_count; ++i) {
            const std::string name = "aux_animation[" + std::to_string(i) + "]";
            if (auto h = pointer_field(*aux + 4 * i, name, 1, 0x14)) {
                map_.aux_animations.push_back(*h);
                pointer_field(*h + 0xC, name + ".channels", 0, 0);
                pointer_field(*h + 0x10, name + ".stream", 0, 0);
            }
        }
        walk_pending_dls();
        for (auto& [site, p] : pointers_) map_.pointers.push_back(std::move(p));
        map_.display_lists.assign(dl_starts_.begin(), dl_starts_.end());
        return std::move(map_);
    }

private:
    // R3: the game bounds the root's pointer arrays by the counts (+3/+4/+5); public readers
    // (seed 004's importer, StadiumBattleFX) stop at a NULL word. The word after the last
    // counted pointer should be that NULL: a note when it is not, never an error.
    void terminator(const std::optional<std::uint32_t>& array, std::uint32_t count, const std::string& what) {
        if (!array || count == 0) return;
        const std::uint64_t at = *array + 4ull * count;
        const std::string where = what + "[" + std::to_string(count) + "]";
        if (at + 4 > f_.body.size()) {
            map_.notes.push_back(where + ": no NULL terminator (the array ends the body); the game reads " +
                                 std::to_string(count) + " by count, readers that stop at NULL read past it");
            return;
        }
        const std::uint32_t w = f_.word(static_cast<std::uint32_t>(at));
        if (w != 0)
            map_.notes.push_back(where + " @" + hex(static_cast<std::uint32_t>(at)) + " is " + hex(w, 8) +
                                 ", not the NULL terminator: the count says " + std::to_string(count) +
                                 " (the game's reading), readers that stop at NULL read more");
    }

    [[noreturn]] void fail(std::uint32_t at, const std::string& what, const std::string& message) const {
        r_.fail_at_path(at, "." + what + "@" + hex(at), message);
    }

    // Records the word at `site` when it holds a relocatable address. Returns its target offset
    // in this fragment when it points here and `need` bytes fit there; `required` > 0 makes a
    // NULL/out-of-fragment value an error.
    std::optional<std::uint32_t> pointer_field(std::uint32_t site, const std::string& what,
                                               std::uint32_t required, std::uint32_t need) {
        if (site % 4 != 0 || std::uint64_t(site) + 4 > f_.body.size())
            fail(site, what, "pointer word outside the fragment body");
        const std::uint32_t v = f_.word(site);
        if (v == 0 || !is_fragment_address(v)) {
            if (required) fail(site, what, "expected a pointer into the fragment, found " + hex(v, 8));
            return std::nullopt;
        }
        pointers_.emplace(site, PointerSite{site, v, what});
        if ((v & 0xFFF00000u) != base_) {
            if (required) fail(site, what, "pointer " + hex(v, 8) + " names another fragment");
            return std::nullopt;
        }
        const std::uint32_t t = v - base_;
        if (t >= f_.body.size() || f_.body.size() - t < need)
            fail(site, what, "pointer " + hex(v, 8) + " leaves the " + hex(f_.body.size()) + "-byte body");
        return t;
    }

    void walk_script(std::uint32_t start, const std::string& name) {
        std::deque<std::uint32_t> work{start};
        while (!work.empty()) {
            std::uint32_t at = work.front();
            work.pop_front();
            for (;;) {
                if (!visited_cmds_.insert(at).second) break;
                if (at % 4 != 0 || std::uint64_t(at) + 4 > f_.body.size())
                    fail(at, name, "layout command outside the body (or misaligned)");
                const std::uint8_t op = f_.body[at];
                const std::uint32_t size = layout_command_size(op);
                if (size == 0)
                    fail(at, name, op == 0x12 ? "command 0x12 never advances: the game's interpreter would hang"
                                              : "unknown layout command " + hex(op, 2));
                if (std::uint64_t(at) + size > f_.body.size()) fail(at, name, "layout command runs past the body");
                map_.commands.push_back({at, op});
                const std::string cmd = name + ".cmd" + hex(op, 2).substr(2);
                bool stop = false;
                switch (op) {
                case 0x00: case 0x03:
                    if (auto t = pointer_field(at + 4, cmd + ".target", 1, 4)) work.push_back(*t);
                    break;
                case 0x02:
                    if (auto t = pointer_field(at + 4, cmd + ".target", 1, 4)) work.push_back(*t);
                    stop = true;
                    break;
                case 0x01: case 0x04: stop = true; break;
                case 0x07: case 0x0A: pointer_field(at + 4, cmd + ".node", 0, 0); break;
                case 0x08:
                    pointer_field(at + 4, cmd + ".callback", 0, 0);
                    pointer_field(at + 8, cmd + ".argument", 0, 0);
                    break;
                case 0x17: model_header(at, cmd); break;
                case 0x1E: case 0x22: dl_field(at + 4, cmd + ".dl"); break;
                case 0x20: dl_field(at + 0x10, cmd + ".dl"); break;
                case 0x21: dl_field(at + 0xC, cmd + ".dl"); break;
                case 0x23: dl_field(at + 4, cmd + ".material_dl"); break;
                default: break;
                }
                if (stop) break;
                at += size;
            }
        }
    }

    void model_header(std::uint32_t at, const std::string& cmd) {
        ModelTables t;
        t.command_offset = at;
        const std::uint16_t tex_count = r_.u16_at(at + 2), pal_count = r_.u16_at(at + 4);
        t.vertex_count = r_.u16_at(at + 6);
        auto tex = pointer_field(at + 8, cmd + ".texture_table", 0, 12u * tex_count);
        auto pal = pointer_field(at + 0xC, cmd + ".palette_table", 0, 12u * pal_count);
        auto vtx = pointer_field(at + 0x10, cmd + ".vertices", 0, 16u * t.vertex_count);
        if (vtx) t.vertex_array = base_ + *vtx;
        for (std::uint32_t i = 0; tex && i < tex_count; ++i) {
            const std::uint32_t e = *tex + 12 * i;
            TextureEntry te;
            te.offset = e;
            te.fmt = r_.u8_at(e);
            te.siz = r_.u8_at(e + 1);
            te.width = r_.u16_at(e + 2);
            te.height = r_.u16_at(e + 4);
            te.texel_count = r_.u16_at(e + 6);
            te.texels = r_.u32_at(e + 8);
            pointer_field(e + 8, cmd + ".texture[" + std::to_string(i) + "].texels", 0, 0);
            t.textures.push_back(te);
        }
        for (std::uint32_t i = 0; pal && i < pal_count; ++i) {
            const std::uint32_t e = *pal + 12 * i;
            PaletteEntry pe;
            pe.offset = e;
            pe.color_count = r_.u32_at(e);
            pe.colors = r_.u32_at(e + 4);
            pe.tlut_dl = r_.u32_at(e + 8);
            pointer_field(e + 4, cmd + ".palette[" + std::to_string(i) + "].colors", 0, 0);
            dl_field(e + 8, cmd + ".palette[" + std::to_string(i) + "].tlut_dl");
            t.palettes.push_back(pe);
        }
        map_.tables.push_back(std::move(t));
    }

    void dl_field(std::uint32_t site, const std::string& what) {
        if (auto t = pointer_field(site, what, 0, 8)) pending_dls_.push_back({*t, what});
    }

    void walk_pending_dls() {
        while (!pending_dls_.empty()) {
            auto [at, what] = pending_dls_.front();
            pending_dls_.pop_front();
            dl_starts_.insert(at);
            for (;;) {
                if (!visited_dl_.insert(at).second) break;
                if (at % 8 != 0 || std::uint64_t(at) + 8 > f_.body.size())
                    fail(at, "dl", "display list command outside the body (or not 8-aligned), reached from " + what);
                const std::uint32_t w0 = f_.word(at);
                const std::uint8_t op = static_cast<std::uint8_t>(w0 >> 24);
                const std::string here = "dl@" + hex(at) + ".w1";
                if (op == g_enddl) break;
                if (op == g_vtx || op == g_settimg || op == g_mtx || op == g_movemem) {
                    pointer_field(at + 4, here, 0, 0);
                } else if (op == g_dl) {
                    if (auto t = pointer_field(at + 4, here, 0, 8)) pending_dls_.push_back({*t, here});
                    if (((w0 >> 16) & 0xFF) == 1) break;  // branch: no return
                }
                at += 8;
            }
        }
    }

    const Fragment& f_;
    ByteReader r_;
    std::uint32_t base_;
    ModelMap map_;
    std::map<std::uint32_t, PointerSite> pointers_;
    std::set<std::uint32_t> visited_cmds_, visited_dl_, dl_starts_;
    std::deque<std::pair<std::uint32_t, std::string>> pending_dls_;
};

}  // namespace

ModelMap walk_model(const Fragment& fragment, const std::string& path) {
    return Walker(fragment, path).run();
}

CrossCheck cross_check(const Fragment& f, const ModelMap& map) {
    CrossCheck c;
    std::set<std::uint32_t> in_table;
    bool j_seen = false, hi_seen = false, lo_seen = false;
    // A LO16 the game pairs (by register, pair_hi_lo) with the getter's HI16 and that lies in
    // the getter's scan window 0x20..0x7C is the getter's too: a getter may share its LUI
    // between several LO16s (e.g. addiu v0, v1, %lo(root) and lw t0, %lo(root + 0x14)(v1)).
    std::set<std::uint32_t> getter_lo;
    for (const RelocPair& p : pair_hi_lo(f)) {
        const std::uint32_t hi = f.relocs[p.hi].offset(), lo = f.relocs[p.lo].offset();
        if (hi == map.getter.lui_offset && lo >= fragment_header_size && lo < 0x80) getter_lo.insert(lo);
    }
    for (const Reloc& e : f.relocs) {
        switch (e.type()) {
        case RelocType::mips_32: in_table.insert(e.offset()); break;
        case RelocType::mips_26:
            if (e.offset() == 0) j_seen = true;
            else c.getter_problems.push_back("R_MIPS_26 at " + hex(e.offset()) + " (models have only the one at 0)");
            break;
        case RelocType::mips_hi16:
            if (e.offset() == map.getter.lui_offset) hi_seen = true;
            else c.getter_problems.push_back("R_MIPS_HI16 at " + hex(e.offset()) + " is not the getter's LUI");
            break;
        case RelocType::mips_lo16:
            if (e.offset() == map.getter.lo_offset) lo_seen = true;
            else if (!getter_lo.count(e.offset()))
                c.getter_problems.push_back("R_MIPS_LO16 at " + hex(e.offset()) + " is not the getter's ADDIU");
            break;
        }
    }
    if (!j_seen) c.getter_problems.push_back("no R_MIPS_26 entry for the entry jump at 0");
    if (!hi_seen) c.getter_problems.push_back("no R_MIPS_HI16 entry for the getter's LUI at " + hex(map.getter.lui_offset));
    if (!lo_seen) c.getter_problems.push_back("no R_MIPS_LO16 entry for the getter's ADDIU at " + hex(map.getter.lo_offset));
    std::set<std::uint32_t> walked;
    for (const auto& p : map.pointers) {
        walked.insert(p.site);
        if (in_table.count(p.site)) ++c.matched;
        else c.missing.push_back(p);
    }
    for (const Reloc& e : f.relocs)
        if (e.type() == RelocType::mips_32 && !walked.count(e.offset())) c.unexplained.push_back(e);
    return c;
}

unsigned render_bucket(std::uint8_t layer) noexcept { return layer & 0xFu; }

std::vector<std::size_t> game_draw_order(std::span<const std::uint8_t> layers) {
    std::vector<std::size_t> order(layers.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return render_bucket(layers[a]) < render_bucket(layers[b]); });
    return order;
}

}  // namespace mod::stadium
