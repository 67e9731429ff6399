#include "libmod/stadium/builder.hpp"

#include "builder_bytes.hpp"

#include <algorithm>
#include <map>

namespace mod::stadium {

using namespace builder_bytes;

namespace {

void put32(Bytes& b, std::uint32_t at, std::uint32_t v) { endian::store_be32(&b[at], v); }

std::uint32_t log2_floor(std::uint32_t v) {
    std::uint32_t r = 0;
    while (v > 1) { v >>= 1; ++r; }
    return r;
}

}  // namespace

// ---- FragmentLinker ---------------------------------------------------------------------------

FragmentLinker::Blob FragmentLinker::add(Bytes data, std::uint32_t alignment) {
    if (alignment == 0 || (alignment & (alignment - 1))) usage("blob alignment must be a power of two");
    blobs_.push_back(std::move(data));
    align_.push_back(alignment);
    return static_cast<Blob>(blobs_.size() - 1);
}

Bytes& FragmentLinker::data(Blob blob) {
    if (blob >= blobs_.size()) usage("unknown blob " + std::to_string(blob));
    return blobs_[blob];
}

void FragmentLinker::pointer(Blob from, std::uint32_t offset, Blob to, std::uint32_t addend) {
    if (from >= blobs_.size() || to >= blobs_.size()) usage("pointer between unknown blobs");
    if (offset % 4 || std::uint64_t(offset) + 4 > blobs_[from].size()) usage("pointer site outside its blob");
    fixups_.push_back({from, offset, to, addend});
}

void FragmentLinker::place_last(Blob blob) {
    if (blob >= blobs_.size()) usage("unknown blob " + std::to_string(blob));
    last_ = blob;
}

std::vector<FragmentLinker::Blob> FragmentLinker::order() const {
    std::vector<Blob> out;
    for (Blob b = 0; b < blobs_.size(); ++b)
        if (b != last_) out.push_back(b);
    if (last_) out.push_back(*last_);
    return out;
}

std::uint32_t FragmentLinker::offset_of(Blob blob) const {
    std::uint64_t at = fragment_header_size + 0x10;  // the getter
    for (Blob b : order()) {
        at = align_up(at, align_[b]);
        if (b == blob) return static_cast<std::uint32_t>(at);
        at += blobs_[b].size();
    }
    usage("unknown blob " + std::to_string(blob));
}

Bytes FragmentLinker::link(Blob root) const {
    std::vector<std::uint32_t> offsets(blobs_.size());
    std::uint64_t at = fragment_header_size + 0x10;
    for (Blob b : order()) {
        at = align_up(at, align_[b]);
        offsets[b] = static_cast<std::uint32_t>(at);
        at += blobs_[b].size();
    }
    const std::uint64_t body_size = align_up(at, 16);
    if (body_size >= fragment_max_size) throw Error(ErrorKind::limit, "linked fragment body is not below 0x100000 bytes");
    if (root >= blobs_.size()) usage("unknown root blob");
    Bytes body(static_cast<std::size_t>(body_size), 0);
    for (Blob b = 0; b < blobs_.size(); ++b) std::copy(blobs_[b].begin(), blobs_[b].end(), body.begin() + offsets[b]);
    std::vector<std::uint32_t> sites;
    for (const auto& f : fixups_) {
        const std::uint32_t site = offsets[f.from] + f.offset;
        put32(body, site, base_ + offsets[f.to] + f.addend);
        sites.push_back(site);
    }
    std::sort(sites.begin(), sites.end());
    sites.erase(std::unique(sites.begin(), sites.end()), sites.end());

    const std::uint32_t root_address = base_ + offsets[root];
    put32(body, 0x00, (mips::op_j << 26) | (((base_ + fragment_header_size) & 0x0FFFFFFFu) >> 2));
    put32(body, 0x04, 0);
    std::copy(std::begin(fragment_magic), std::end(fragment_magic), body.begin() + 8);
    const bool shared = getter_ == Getter::shared_hi16;
    ByteWriter table(Endian::big);
    table.u32(static_cast<std::uint32_t>((shared ? 4 : 3) + sites.size()));
    table.u32(Reloc::make(RelocType::mips_26, 0).raw);
    table.u32(Reloc::make(RelocType::mips_hi16, 0x20).raw);
    if (shared) {
        constexpr std::uint32_t v0 = 2, v1 = 3, t0 = 8, op_lw = 0x23;
        put32(body, 0x20, mips::lui(v1, mips::hi16(root_address)));
        put32(body, 0x24, mips::addiu(v0, v1, mips::lo16(root_address)));
        put32(body, 0x28, mips::jr_ra);
        put32(body, 0x2C, (op_lw << 26) | (v1 << 21) | (t0 << 16) | mips::lo16(root_address + 0x14));
        if (mips::hi16(root_address + 0x14) != mips::hi16(root_address))
            usage("the shared-HI16 getter needs root and root + 0x14 under one upper half");
        table.u32(Reloc::make(RelocType::mips_lo16, 0x24).raw);
        table.u32(Reloc::make(RelocType::mips_lo16, 0x2C).raw);
    } else {
        put32(body, 0x20, mips::lui(2, mips::hi16(root_address)));
        put32(body, 0x24, mips::jr_ra);
        put32(body, 0x28, mips::addiu(2, 2, mips::lo16(root_address)));
        put32(body, 0x2C, 0);
        table.u32(Reloc::make(RelocType::mips_lo16, 0x28).raw);
    }
    for (auto s : sites) table.u32(Reloc::make(RelocType::mips_32, s).raw);
    while ((body_size + table.size()) % 16) table.u8(0);
    const std::uint32_t reloc_offset = static_cast<std::uint32_t>(body_size);
    put32(body, 0x10, fragment_header_size);
    put32(body, 0x14, reloc_offset);
    put32(body, 0x18, static_cast<std::uint32_t>(body_size + table.size()));
    put32(body, 0x1C, reloc_offset);
    body.insert(body.end(), table.data().begin(), table.data().end());
    return body;
}

// ---- DisplayList ------------------------------------------------------------------------------

DisplayList& DisplayList::vtx(std::uint32_t first_vertex, std::uint32_t count, std::uint32_t slot) {
    if (count == 0 || count > 32 || slot + count > 32) usage("G_VTX: count 1..32 and slot + count <= 32");
    commands_.push_back({(std::uint32_t(gbi::op_vtx) << 24) | (count << 12) | ((slot + count) << 1), 0,
                         Command::Ref::vertex, first_vertex});
    return *this;
}

DisplayList& DisplayList::tri1(std::uint8_t a, std::uint8_t b, std::uint8_t c) {
    commands_.push_back({(std::uint32_t(gbi::op_tri1) << 24) | (std::uint32_t(a * 2) << 16) |
                         (std::uint32_t(b * 2) << 8) | std::uint32_t(c * 2), 0});
    return *this;
}

DisplayList& DisplayList::tri2(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d, std::uint8_t e,
                               std::uint8_t f) {
    commands_.push_back({(std::uint32_t(gbi::op_tri2) << 24) | (std::uint32_t(a * 2) << 16) |
                             (std::uint32_t(b * 2) << 8) | std::uint32_t(c * 2),
                         (std::uint32_t(d * 2) << 16) | (std::uint32_t(e * 2) << 8) | std::uint32_t(f * 2)});
    return *this;
}

DisplayList& DisplayList::call(DlId dl) {
    commands_.push_back({std::uint32_t(gbi::op_dl) << 24, 0, Command::Ref::dl, dl});
    return *this;
}

DisplayList& DisplayList::branch(DlId dl) {
    commands_.push_back({(std::uint32_t(gbi::op_dl) << 24) | (1u << 16), 0, Command::Ref::dl, dl});
    return *this;
}

DisplayList& DisplayList::raw(std::uint32_t w0, std::uint32_t w1) {
    const std::uint8_t op = static_cast<std::uint8_t>(w0 >> 24);
    if (op == gbi::op_vtx || op == gbi::op_dl || op == gbi::op_settimg || op == 0xDA || op == 0xDC)
        usage("raw DL command " + hex(op, 2) + " carries an address: use vtx()/call()");
    commands_.push_back({w0, w1});
    return *this;
}

DisplayList& DisplayList::end() {
    commands_.push_back({std::uint32_t(gbi::op_enddl) << 24, 0});
    return *this;
}

namespace gbi {
std::uint32_t settimg_w0(TexFormat fmt, TexSize siz, std::uint32_t width) {
    return (std::uint32_t(op_settimg) << 24) | (std::uint32_t(fmt) << 21) | (std::uint32_t(siz) << 19) |
           ((width - 1) & 0xFFF);
}
std::uint32_t loadtlut_w1(std::uint32_t tile, std::uint32_t count) {
    return (tile << 24) | (((count - 1) & 0x3FF) << 14);
}
}  // namespace gbi

// ---- LayoutScript -----------------------------------------------------------------------------

LayoutScript& LayoutScript::model_header() {
    node_at_level(0x17);
    const auto at = static_cast<std::uint32_t>(bytes_.size());
    bytes_.resize(bytes_.size() + 0x14, 0);
    bytes_[at] = 0x17;
    refs_.push_back({at + 8, Ref::Kind::texture_table});
    refs_.push_back({at + 0xC, Ref::Kind::palette_table});
    refs_.push_back({at + 0x10, Ref::Kind::vertices});
    return *this;
}

LayoutScript& LayoutScript::scale(std::int32_t x, std::int32_t y, std::int32_t z) {
    node_at_level(0x1C);
    put_cmd(bytes_, {0x1C, 0, 0, 0});
    put_u32(bytes_, std::uint32_t(x));
    put_u32(bytes_, std::uint32_t(y));
    put_u32(bytes_, std::uint32_t(z));
    return *this;
}

LayoutScript& LayoutScript::bone(std::uint8_t id, std::uint8_t flags, std::uint8_t channel, Vec3s t, Vec3s r,
                                 std::int32_t sx, std::int32_t sy, std::int32_t sz) {
    node_at_level(0x1D);
    put_cmd(bytes_, {0x1D, id, flags, channel});
    put_vec(bytes_, t);
    put_vec(bytes_, r);
    put_u32(bytes_, std::uint32_t(sx));
    put_u32(bytes_, std::uint32_t(sy));
    put_u32(bytes_, std::uint32_t(sz));
    return *this;
}

LayoutScript& LayoutScript::material(std::uint8_t mode, std::int16_t tex_anim_channel, DlId material_dl,
                                     std::int16_t texture, std::int16_t palette, std::uint32_t prim_rgba) {
    node_at_level(0x23);
    const auto at = static_cast<std::uint32_t>(bytes_.size());
    put_cmd(bytes_, {0x23, mode});
    put_u16(bytes_, std::uint16_t(tex_anim_channel));
    put_u32(bytes_, 0);
    put_u16(bytes_, std::uint16_t(texture));
    put_u16(bytes_, std::uint16_t(palette));
    put_u32(bytes_, prim_rgba);
    refs_.push_back({at + 4, Ref::Kind::dl, material_dl});
    return *this;
}

LayoutScript& LayoutScript::draw(std::uint8_t layer, DlId dl) {
    node_at_level(0x22);
    const auto at = static_cast<std::uint32_t>(bytes_.size());
    put_cmd(bytes_, {0x22, layer, 0, 0});
    put_u32(bytes_, 0);
    refs_.push_back({at + 4, Ref::Kind::dl, dl});
    return *this;
}

LayoutScript& LayoutScript::draw_with_bone(std::uint8_t layer, std::int16_t bone, DlId dl) {
    node_at_level(0x1E);
    const auto at = static_cast<std::uint32_t>(bytes_.size());
    put_cmd(bytes_, {0x1E, layer});
    put_u16(bytes_, std::uint16_t(bone));
    put_u32(bytes_, 0);
    refs_.push_back({at + 4, Ref::Kind::dl, dl});
    return *this;
}

LayoutScript& LayoutScript::raw(ByteView command) {
    if (command.empty()) usage("empty layout command");
    const std::uint8_t op = command[0];
    static constexpr std::uint8_t with_pointers[] = {0x00, 0x02, 0x03, 0x07, 0x08, 0x0A, 0x17, 0x1E, 0x20, 0x21, 0x22, 0x23};
    if (std::find(std::begin(with_pointers), std::end(with_pointers), op) != std::end(with_pointers))
        usage("raw layout command " + hex(op, 2) + " has pointer fields: use its builder method");
    static constexpr std::uint8_t sizes[] = {8, 4, 8, 8, 4, 4, 4, 8, 0xC, 4, 8, 0x18, 4, 4, 4, 4, 4, 4, 0, 8,
                                             0xC, 0xC, 4, 0x14, 8, 8, 4, 0x10, 0x10, 0x1C, 8, 0x18, 0x14, 0x10,
                                             8, 0x10, 4, 4, 0x14};
    if (op >= std::size(sizes) || sizes[op] == 0 || sizes[op] != command.size())
        usage("raw layout command " + hex(op, 2) + " has the wrong size or is never valid");
    // Not checked against the root rule (hostile fixtures), but followed.
    if (op == 0x05 && level_) ++*level_;
    if (op == 0x06 && level_ && *level_ > 0) --*level_;
    if (op == 0x01 || op == 0x04) level_.reset();
    if (level_ && *level_ == 0 && op > 0x06 && op != 0x08 && op != 0x15 && op != 0x25) has_root_ = true;
    bytes_.insert(bytes_.end(), command.begin(), command.end());
    return *this;
}

// ---- ModelBuilder -----------------------------------------------------------------------------

std::int16_t ModelBuilder::add_texture(TexFormat fmt, TexSize siz, std::uint16_t width, std::uint16_t height,
                                       Bytes texels) {
    const std::uint64_t bits = 4ull << unsigned(siz);
    if (width == 0 || height == 0 || std::uint64_t(width) * height * bits / 8 != texels.size())
        usage("texture texels must be width x height x bits / 8 bytes");
    if (std::uint64_t(width) * height > 0xFFFF) usage("texel count does not fit the table's 16-bit field");
    if (textures_.size() >= 255) usage("command 0x17 stores the texture count as u8: at most 255 textures");
    textures_.push_back({fmt, siz, width, height, std::move(texels)});
    return static_cast<std::int16_t>(textures_.size() - 1);
}

std::int16_t ModelBuilder::add_palette(std::vector<std::uint16_t> colors) {
    if (colors.size() != 16 && colors.size() != 256) usage("a palette has 16 or 256 colours");
    if (palettes_.size() >= 255) usage("command 0x17 stores the palette count as u8: at most 255 palettes");
    palettes_.push_back(std::move(colors));
    palette_ia16_.push_back(false);
    return static_cast<std::int16_t>(palettes_.size() - 1);
}

std::int16_t ModelBuilder::add_palette_ia16(std::vector<std::uint16_t> entries) {
    const std::int16_t p = add_palette(std::move(entries));
    palette_ia16_.back() = true;
    return p;
}

std::uint32_t ModelBuilder::add_vertices(std::span<const Vertex> vertices) {
    if (vertices_.size() + vertices.size() > 0x7FFF) usage("command 0x17 stores the vertex count as s16");
    const auto first = static_cast<std::uint32_t>(vertices_.size());
    vertices_.insert(vertices_.end(), vertices.begin(), vertices.end());
    return first;
}

DlId ModelBuilder::add_display_list(DisplayList dl) {
    dls_.push_back(std::move(dl));
    return static_cast<DlId>(dls_.size() - 1);
}

DlId ModelBuilder::add_material_dl(std::int16_t texture) { return add_material_dl(texture, 0, 0); }

DlId ModelBuilder::add_material_dl(std::int16_t texture, std::uint8_t cms, std::uint8_t cmt) {
    if (cms > 3 || cmt > 3) usage("wrap bits are 2 bits per axis");
    if (texture < 0 || std::size_t(texture) >= textures_.size()) usage("material DL for an unknown texture");
    const Texture& t = textures_[std::size_t(texture)];
    const std::uint32_t bits = 4u << unsigned(t.siz);
    const std::uint32_t texels = std::uint32_t(t.width) * t.height;
    // LoadBlock moves 4- and 8-bit textures as 16-bit words.
    const TexSize load_siz = t.siz == TexSize::b32 ? TexSize::b32 : TexSize::b16;
    const std::uint32_t load_texels = t.siz == TexSize::b4 ? texels / 4 : t.siz == TexSize::b8 ? texels / 2 : texels;
    const std::uint32_t line_bytes = t.width * bits / 8;
    const std::uint32_t line_words = std::max<std::uint32_t>(1, line_bytes / 8);
    const std::uint32_t dxt = (2048 + line_words - 1) / line_words;
    const std::uint32_t line = (line_bytes + 7) / 8;
    DisplayList dl;
    dl.raw((std::uint32_t(gbi::op_settile) << 24) | (std::uint32_t(t.fmt) << 21) | (std::uint32_t(load_siz) << 19),
           7u << 24);
    dl.raw(std::uint32_t(gbi::op_loadsync) << 24, 0);
    dl.raw(std::uint32_t(gbi::op_loadblock) << 24,
           (7u << 24) | (std::min<std::uint32_t>(std::max<std::uint32_t>(load_texels, 1) - 1, 0x7FF) << 12) | (dxt & 0xFFF));
    dl.raw(std::uint32_t(gbi::op_pipesync) << 24, 0);
    const std::uint32_t masks = log2_floor(t.width), maskt = log2_floor(t.height);
    dl.raw((std::uint32_t(gbi::op_settile) << 24) | (std::uint32_t(t.fmt) << 21) | (std::uint32_t(t.siz) << 19) |
               (line << 9),
           (0u << 20) | (std::uint32_t(cmt) << 18) | (maskt << 14) | (std::uint32_t(cms) << 8) | (masks << 4));
    dl.raw(std::uint32_t(gbi::op_settilesize) << 24,
           ((std::uint32_t(t.width - 1) << 2) << 12) | (std::uint32_t(t.height - 1) << 2));
    dl.end();
    return add_display_list(std::move(dl));
}

LayoutScript& ModelBuilder::layout() {
    if (layouts_.empty()) layouts_.emplace_back();
    return layouts_.front();
}

LayoutScript& ModelBuilder::add_layout() {
    if (layouts_.size() >= 255) usage("the root stores the layout count as u8");
    return layouts_.emplace_back();
}

void ModelBuilder::add_animation(SkeletalAnimation animation) {
    if (animations_.size() >= 255) usage("the root stores the animation count as u8");
    animations_.push_back(std::move(animation));
}

void ModelBuilder::add_aux_animation(AuxAnimation animation) {
    if (aux_animations_.size() >= 255) usage("the root stores the aux animation count as u8");
    aux_animations_.push_back(std::move(animation));
}

void ModelBuilder::set_root_unknowns(std::uint8_t unknown2, std::uint16_t unknown6) {
    unknown2_ = unknown2;
    unknown6_ = unknown6;
}

namespace {

Bytes s16_stream(const std::vector<std::int16_t>& v) {
    Bytes b(std::max<std::size_t>(2, 2 * v.size()), 0);
    for (std::size_t i = 0; i < v.size(); ++i) endian::store_be16(&b[2 * i], std::uint16_t(v[i]));
    return b;
}

}  // namespace

Bytes ModelBuilder::build() const {
    using Blob = FragmentLinker::Blob;
    FragmentLinker L;
    if (layouts_.empty()) usage("a model needs at least one layout script");

    // Root and its pointer arrays: the counts (the game's bound) and a NULL after each array
    // (what the seed's importer and other public readers stop at).
    Bytes root(model_root_size, 0);
    root[0] = std::uint8_t(model_id_ >> 8);
    root[1] = std::uint8_t(model_id_);
    root[2] = unknown2_;
    root[3] = std::uint8_t(layouts_.size());
    root[4] = std::uint8_t(animations_.size());
    root[5] = std::uint8_t(aux_animations_.size());
    root[6] = std::uint8_t(unknown6_ >> 8);
    root[7] = std::uint8_t(unknown6_);
    const Blob root_blob = L.add(std::move(root), 8);
    if (root_last_) L.place_last(root_blob);
    L.set_getter(getter_);
    const Blob layout_array = L.add(Bytes(4 * (layouts_.size() + 1), 0), 4);
    L.pointer(root_blob, 8, layout_array);
    std::optional<Blob> anim_array, aux_array;
    if (!animations_.empty()) {
        anim_array = L.add(Bytes(4 * (animations_.size() + 1), 0), 4);
        L.pointer(root_blob, 0xC, *anim_array);
    }
    if (!aux_animations_.empty()) {
        aux_array = L.add(Bytes(4 * (aux_animations_.size() + 1), 0), 4);
        L.pointer(root_blob, 0x10, *aux_array);
    }

    std::vector<Blob> scripts;
    for (std::size_t i = 0; i < layouts_.size(); ++i) {
        if (layouts_[i].bytes().empty()) usage("layout script " + std::to_string(i) + " is empty");
        scripts.push_back(L.add(layouts_[i].bytes(), 8));
        L.pointer(layout_array, std::uint32_t(4 * i), scripts.back());
    }

    for (std::size_t i = 0; i < animations_.size(); ++i) {
        const auto& a = animations_[i];
        Bytes h(0x1C, 0);
        h[0] = std::uint8_t(a.flags >> 8); h[1] = std::uint8_t(a.flags);
        h[2] = a.unknown2[0]; h[3] = a.unknown2[1];
        h[4] = std::uint8_t(std::uint16_t(a.start_frame) >> 8); h[5] = std::uint8_t(a.start_frame);
        h[6] = std::uint8_t(std::uint16_t(a.loop_frame) >> 8); h[7] = std::uint8_t(a.loop_frame);
        // One entry per descriptor (axis): the count the game bounds 3c + 2 against (§4.2).
        const std::uint16_t channels = std::uint16_t(a.channels.size());
        h[8] = std::uint8_t(channels >> 8); h[9] = std::uint8_t(channels);
        h[0xA] = std::uint8_t(a.frame_count >> 8); h[0xB] = std::uint8_t(a.frame_count);
        const Blob hb = L.add(std::move(h), 4);
        L.pointer(*anim_array, std::uint32_t(4 * i), hb);
        Bytes table;
        for (const auto& c : a.channels) {
            put_cmd(table, {c.n_scale, c.n_rot, c.n_trans, c.interp});
            put_u16(table, c.scale_off);
            put_u16(table, c.rot_off);
            put_u16(table, c.trans_off);
        }
        if (table.empty()) table.resize(10, 0);
        const Blob tb = L.add(std::move(table), 4);
        const Blob sb = L.add(s16_stream(a.scale), 2);
        const Blob rb = L.add(s16_stream(a.rotation), 2);
        const Blob trb = L.add(s16_stream(a.translation), 2);
        L.pointer(hb, 0xC, tb);
        L.pointer(hb, 0x10, sb);
        L.pointer(hb, 0x14, rb);
        L.pointer(hb, 0x18, trb);
    }
    for (std::size_t i = 0; i < aux_animations_.size(); ++i) {
        const auto& a = aux_animations_[i];
        Bytes h(0x14, 0);
        h[0] = std::uint8_t(a.flags >> 8); h[1] = std::uint8_t(a.flags);
        h[2] = a.unknown2[0]; h[3] = a.unknown2[1];
        h[4] = std::uint8_t(std::uint16_t(a.start_frame) >> 8); h[5] = std::uint8_t(a.start_frame);
        h[6] = std::uint8_t(std::uint16_t(a.loop_frame) >> 8); h[7] = std::uint8_t(a.loop_frame);
        h[8] = std::uint8_t(a.channels.size() >> 8); h[9] = std::uint8_t(a.channels.size());
        h[0xA] = std::uint8_t(a.frame_count >> 8); h[0xB] = std::uint8_t(a.frame_count);
        const Blob hb = L.add(std::move(h), 4);
        L.pointer(*aux_array, std::uint32_t(4 * i), hb);
        Bytes table;
        for (const auto& c : a.channels) { put_u16(table, c.count); put_u16(table, c.offset); }
        if (table.empty()) table.resize(4, 0);
        Bytes stream = a.stream;
        if (stream.empty()) stream.push_back(0);
        const Blob tb = L.add(std::move(table), 4);
        const Blob sb = L.add(std::move(stream), 4);
        L.pointer(hb, 0xC, tb);
        L.pointer(hb, 0x10, sb);
    }

    // Tables, display lists, vertices, colours, texels.
    std::optional<Blob> tex_table, pal_table, vtx_blob;
    if (!textures_.empty()) tex_table = L.add(Bytes(12 * textures_.size(), 0), 4);
    if (!palettes_.empty()) pal_table = L.add(Bytes(12 * palettes_.size(), 0), 4);
    std::vector<Blob> tlut_dls, user_dls, colors, texels;
    for (std::size_t p = 0; p < palettes_.size(); ++p) tlut_dls.push_back(L.add(Bytes((palette_ia16_[p] ? 8 : 7) * 8, 0), 8));
    for (const auto& dl : dls_) user_dls.push_back(L.add(Bytes(8 * dl.commands().size(), 0), 8));
    if (!vertices_.empty()) vtx_blob = L.add(Bytes(16 * vertices_.size(), 0), 16);
    for (const auto& p : palettes_) {
        Bytes c;
        for (auto v : p) put_u16(c, v);
        colors.push_back(L.add(std::move(c), 8));
    }
    for (const auto& t : textures_) texels.push_back(L.add(t.texels, 8));

    for (std::size_t i = 0; i < textures_.size(); ++i) {
        const Texture& t = textures_[i];
        Bytes& e = L.data(*tex_table);
        const std::size_t at = 12 * i;
        e[at] = std::uint8_t(t.fmt);
        e[at + 1] = std::uint8_t(t.siz);
        e[at + 2] = std::uint8_t(t.width >> 8); e[at + 3] = std::uint8_t(t.width);
        e[at + 4] = std::uint8_t(t.height >> 8); e[at + 5] = std::uint8_t(t.height);
        const std::uint32_t count = std::uint32_t(t.width) * t.height;
        e[at + 6] = std::uint8_t(count >> 8); e[at + 7] = std::uint8_t(count);
        L.pointer(*tex_table, std::uint32_t(at + 8), texels[i]);
    }
    for (std::size_t p = 0; p < palettes_.size(); ++p) {
        Bytes& e = L.data(*pal_table);
        const std::size_t at = 12 * p;
        put32(e, std::uint32_t(at), std::uint32_t(palettes_[p].size()));
        L.pointer(*pal_table, std::uint32_t(at + 4), colors[p]);
        L.pointer(*pal_table, std::uint32_t(at + 8), tlut_dls[p]);
        Bytes& d = L.data(tlut_dls[p]);
        put32(d, 0x00, gbi::settimg_w0(TexFormat::rgba, TexSize::b16, 1));
        L.pointer(tlut_dls[p], 0x04, colors[p]);
        put32(d, 0x08, std::uint32_t(gbi::op_tilesync) << 24);
        put32(d, 0x10, (std::uint32_t(gbi::op_settile) << 24) | 0x100);  // TLUT in upper TMEM
        put32(d, 0x14, 7u << 24);
        put32(d, 0x18, std::uint32_t(gbi::op_loadsync) << 24);
        put32(d, 0x20, std::uint32_t(gbi::op_loadtlut) << 24);
        put32(d, 0x24, gbi::loadtlut_w1(7, std::uint32_t(palettes_[p].size())));
        put32(d, 0x28, std::uint32_t(gbi::op_pipesync) << 24);
        std::uint32_t end = 0x30;
        if (palette_ia16_[p]) {
            put32(d, 0x30, 0xE3001001u);  // G_SETOTHERMODE_H, G_MDSFT_TEXTLUT, 2 bits
            put32(d, 0x34, 0x0000C000u);  // G_TT_IA16
            end = 0x38;
        }
        put32(d, end, std::uint32_t(gbi::op_enddl) << 24);
    }
    for (std::size_t k = 0; k < dls_.size(); ++k) {
        const auto& cmds = dls_[k].commands();
        for (std::size_t c = 0; c < cmds.size(); ++c) {
            const auto& cmd = cmds[c];
            const std::uint32_t at = std::uint32_t(8 * c);
            put32(L.data(user_dls[k]), at, cmd.w0);
            put32(L.data(user_dls[k]), at + 4, cmd.w1);
            using Ref = DisplayList::Command::Ref;
            if (cmd.ref == Ref::vertex) {
                const std::uint32_t n = (cmd.w0 >> 12) & 0xFF;
                if (!vtx_blob || std::uint64_t(cmd.id) + n > vertices_.size())
                    usage("display list " + std::to_string(k) + " loads vertices past the array");
                L.pointer(user_dls[k], at + 4, *vtx_blob, 16 * cmd.id);
            } else if (cmd.ref == Ref::dl) {
                if (cmd.id >= dls_.size()) usage("display list " + std::to_string(k) + " calls an unknown list");
                L.pointer(user_dls[k], at + 4, user_dls[cmd.id]);
            }
        }
    }
    for (std::size_t v = 0; v < vertices_.size(); ++v) {
        Bytes& b = L.data(*vtx_blob);
        const Vertex& x = vertices_[v];
        const std::uint16_t words[6] = {std::uint16_t(x.x), std::uint16_t(x.y), std::uint16_t(x.z), x.flag,
                                        std::uint16_t(x.s), std::uint16_t(x.t)};
        for (int w = 0; w < 6; ++w) {
            b[16 * v + 2 * w] = std::uint8_t(words[w] >> 8);
            b[16 * v + 2 * w + 1] = std::uint8_t(words[w]);
        }
        std::copy(x.color.begin(), x.color.end(), b.begin() + 16 * v + 12);
    }

    for (std::size_t i = 0; i < layouts_.size(); ++i) {
        Bytes& s = L.data(scripts[i]);
        for (const auto& ref : layouts_[i].refs()) {
            using Kind = LayoutScript::Ref::Kind;
            switch (ref.kind) {
            case Kind::dl:
                if (ref.dl >= dls_.size()) usage("layout script " + std::to_string(i) + " names an unknown display list");
                L.pointer(scripts[i], ref.offset, user_dls[ref.dl]);
                break;
            case Kind::texture_table:
                s[ref.offset - 6] = 0;
                s[ref.offset - 5] = std::uint8_t(textures_.size());
                s[ref.offset - 4] = 0;
                s[ref.offset - 3] = std::uint8_t(palettes_.size());
                s[ref.offset - 2] = std::uint8_t(vertices_.size() >> 8);
                s[ref.offset - 1] = std::uint8_t(vertices_.size());
                if (tex_table) L.pointer(scripts[i], ref.offset, *tex_table);
                break;
            case Kind::palette_table:
                if (pal_table) L.pointer(scripts[i], ref.offset, *pal_table);
                break;
            case Kind::vertices:
                if (vtx_blob) L.pointer(scripts[i], ref.offset, *vtx_blob);
                break;
            case Kind::label:
                L.pointer(scripts[i], ref.offset, scripts[i], layouts_[i].label_offset(ref.dl));
                break;
            }
        }
    }
    return L.link(root_blob);
}

}  // namespace mod::stadium
