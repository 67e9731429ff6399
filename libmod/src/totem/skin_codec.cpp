// SKIN payload reading and writing, including the per-record choice of the zero2 reading.
#include "libmod/totem/skin.hpp"

namespace mod::totem {

const char* to_string(Zero2Reading r) noexcept {
    switch (r) {
    case Zero2Reading::no_anim_block: return "no-anim-block";
    case Zero2Reading::seed: return "seed";
    case Zero2Reading::chum_world: return "chum-world";
    }
    return "unknown";
}

namespace {

// The same range and cursor, with the structure path extended (errors name the element).
ByteReader child(const ByteReader& r, std::string_view path) {
    return r.with_path(join_path(r.path(), path));
}

std::uint32_t read_count(ByteReader& r, std::size_t element_size) {
    const std::uint32_t n = r.u32();
    r.require_array(n, element_size);
    return n;
}

std::vector<SkinWeight> read_weights(ByteReader& r, std::string_view list) {
    ByteReader l = child(r, list);
    const std::uint32_t n = read_count(l, 8);
    std::vector<SkinWeight> out(n);
    for (auto& w : out) {
        w.id = l.u32();
        w.weight.bits = l.u32();
    }
    r.seek(l.tell());
    return out;
}

std::vector<std::uint32_t> read_words(ByteReader& r) {
    const std::uint32_t n = read_count(r, 4);
    std::vector<std::uint32_t> out(n);
    for (auto& v : out) v = r.u32();
    return out;
}

// Everything up to the end of the animation entries (identical in both readings).
Skin read_prefix(ByteReader& r) {
    Skin s;
    s.header = read_object_header(r);
    {
        ByteReader m = child(r, ".mesh_ids");
        const std::uint32_t n = read_count(m, 4);
        s.mesh_ids.resize(n);
        for (auto& id : s.mesh_ids) id = m.i32();
        r.seek(m.tell());
    }
    s.zero = r.u32();
    const std::uint32_t sections = read_count(r, 8);
    s.sections.resize(sections);
    for (std::uint32_t i = 0; i < sections; ++i) {
        ByteReader sr = child(r, index_path(".sections", i));
        SkinSection& sec = s.sections[i];
        sec.group_id = sr.i32();
        const std::uint32_t subs = read_count(sr, 10);
        sec.subsections.resize(subs);
        for (std::uint32_t j = 0; j < subs; ++j) {
            ByteReader ss = child(sr, index_path(".subsections", j));
            SkinSubsection& sub = sec.subsections[j];
            sub.mesh_index = ss.u16();
            sub.vertices = read_weights(ss, ".vertices");
            sub.normals = read_weights(ss, ".normals");
            sr.seek(ss.tell());
        }
        r.seek(sr.tell());
    }
    s.has_anims = r.u8();
    if (s.has_anims != 0) {
        ByteReader a = child(r, ".anims");
        const std::uint32_t n = read_count(a, 8);
        s.anims.resize(n);
        for (auto& e : s.anims) {
            e.symbol = a.u32();
            e.anim_id = a.i32();
        }
        r.seek(a.tell());
    }
    return s;
}

// From the end of the animation entries to the end of the payload, which must be reached.
void read_tail(ByteReader& r, Skin& s, Zero2Reading reading) {
    s.reading = s.has_anims == 0 ? Zero2Reading::no_anim_block : reading;
    if (s.reading == Zero2Reading::seed) {
        ByteReader z = child(r, ".zero2");
        s.zero2 = z.u32();
        r.seek(z.tell());
    }
    const std::uint32_t n = read_count(r, 8);
    s.unknown.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        ByteReader u = child(r, index_path(".unknown", i));
        s.unknown[i].vertices = read_words(u);
        s.unknown[i].normals = read_words(u);
        r.seek(u.tell());
    }
    if (!r.at_end())
        r.fail(std::to_string(r.remaining()) + " bytes left after the unknown entries (reading: " +
               to_string(reading) + ")");
}

ByteReader skin_reader(const ByteReader& payload) { return child(payload, ".skin"); }

// HYPOTHESIS (doc/formats/totem-skin.md, "zero2"): when both readings consume a payload
// exactly, prefer the one that satisfies the seed's own invariants — zero2 == 0 and
// unknown_count == section_count — and the seed's layout when both or neither do.
Zero2Reading prefer_zero2_reading(const Skin& with_zero2, const Skin& without) {
    const bool seed_ok = with_zero2.zero2 == 0 && with_zero2.unknown.size() == with_zero2.sections.size();
    const bool chum_ok = without.unknown.size() == without.sections.size();
    if (!seed_ok && chum_ok) return Zero2Reading::chum_world;
    return Zero2Reading::seed;
}

}  // namespace

Skin decode_skin_as(const ByteReader& payload, Zero2Reading reading) {
    ByteReader r = skin_reader(payload);
    Skin s = read_prefix(r);
    read_tail(r, s, reading == Zero2Reading::seed ? Zero2Reading::seed : Zero2Reading::chum_world);
    return s;
}

Skin decode_skin(const ByteReader& payload, SkinDecodeInfo* info) {
    ByteReader r = skin_reader(payload);
    Skin prefix = read_prefix(r);
    SkinDecodeInfo local;
    if (prefix.has_anims == 0) {
        read_tail(r, prefix, Zero2Reading::no_anim_block);
        local.reason = "no animation block";
        if (info) *info = local;
        return prefix;
    }
    std::optional<Skin> seed, chum;
    std::optional<Error> seed_error, chum_error;
    try {
        ByteReader t = r;
        Skin s = prefix;
        read_tail(t, s, Zero2Reading::seed);
        seed = std::move(s);
    } catch (const Error& e) {
        seed_error = e;
    }
    try {
        ByteReader t = r;
        Skin s = prefix;
        read_tail(t, s, Zero2Reading::chum_world);
        chum = std::move(s);
    } catch (const Error& e) {
        chum_error = e;
    }
    if (!seed && !chum) {
        const Error& deeper = seed_error->offset() >= chum_error->offset() ? *seed_error : *chum_error;
        throw Error(ErrorKind::format,
                    "no zero2 reading consumes the payload exactly; with zero2 (seed): " + seed_error->message() +
                        " at " + hex(seed_error->offset()) + "; without (Chum World): " + chum_error->message() +
                        " at " + hex(chum_error->offset()),
                    deeper.file(), deeper.offset(), deeper.path());
    }
    if (seed && chum) {
        local.ambiguous = true;
        local.reading = prefer_zero2_reading(*seed, *chum);
        local.reason = std::string("both readings consume the payload; chose ") + to_string(local.reading) +
                       " by the invariants zero2 == 0 and unknown_count == section_count";
    } else {
        local.reading = seed ? Zero2Reading::seed : Zero2Reading::chum_world;
        local.reason = seed ? "only the seed's layout (with zero2) consumes the payload exactly"
                            : "only Chum World's layout (no zero2) consumes the payload exactly";
    }
    if (info) *info = local;
    return local.reading == Zero2Reading::seed ? std::move(*seed) : std::move(*chum);
}

namespace {

std::uint32_t count32(std::size_t n, const char* what) {
    if (n > 0xFFFFFFFFu) throw Error(ErrorKind::limit, std::string(what) + " count does not fit 32 bits");
    return static_cast<std::uint32_t>(n);
}

void write_weights(ByteWriter& w, const std::vector<SkinWeight>& list) {
    w.u32(count32(list.size(), "weight list"));
    for (const auto& e : list) {
        w.u32(e.id);
        w.u32(e.weight.bits);
    }
}

void write_words(ByteWriter& w, const std::vector<std::uint32_t>& list) {
    w.u32(count32(list.size(), "unknown entry"));
    for (auto v : list) w.u32(v);
}

}  // namespace

Bytes encode_skin(const Skin& s, Endian endian) {
    if (s.has_anims != 0 && s.reading == Zero2Reading::no_anim_block)
        throw Error(ErrorKind::usage, "SKIN has an animation block but no zero2 reading was chosen");
    if (s.has_anims == 0 && !s.anims.empty())
        throw Error(ErrorKind::usage, "SKIN has animation entries but has_anims is 0");
    // What the bytes cannot carry: the reader would give back another model.
    if (s.has_anims == 0 && s.reading != Zero2Reading::no_anim_block)
        throw Error(ErrorKind::usage, std::string("SKIN has no animation block but a zero2 reading (") +
                                          to_string(s.reading) + ") is set; it would read back as no-anim-block");
    if (s.reading != Zero2Reading::seed && s.zero2 != 0)
        throw Error(ErrorKind::usage, "SKIN zero2 is " + hex(s.zero2) + " but only the seed reading writes it");
    ByteWriter w(endian);
    write_object_header(w, s.header);
    w.u32(count32(s.mesh_ids.size(), "mesh"));
    for (auto id : s.mesh_ids) w.i32(id);
    w.u32(s.zero);
    w.u32(count32(s.sections.size(), "section"));
    for (const auto& sec : s.sections) {
        w.i32(sec.group_id);
        w.u32(count32(sec.subsections.size(), "subsection"));
        for (const auto& sub : sec.subsections) {
            w.u16(sub.mesh_index);
            write_weights(w, sub.vertices);
            write_weights(w, sub.normals);
        }
    }
    w.u8(s.has_anims);
    if (s.has_anims != 0) {
        w.u32(count32(s.anims.size(), "animation"));
        for (const auto& a : s.anims) {
            w.u32(a.symbol);
            w.i32(a.anim_id);
        }
        if (s.reading == Zero2Reading::seed) w.u32(s.zero2);
    }
    w.u32(count32(s.unknown.size(), "unknown entry"));
    for (const auto& u : s.unknown) {
        write_words(w, u.vertices);
        write_words(w, u.normals);
    }
    return w.take();
}

}  // namespace mod::totem
