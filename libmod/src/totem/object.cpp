#include "libmod/totem/object.hpp"

namespace mod::totem {

const char* item_type_name(std::uint16_t type) noexcept {
    switch (type) {
    case item_surface: return "SURFACE";
    case item_spline: return "SPLINE";
    case item_skin: return "SKIN";
    case item_rotshape: return "ROTSHAPE";
    case item_lod: return "LOD";
    case item_mesh: return "MESH";
    case item_camera: return "CAMERA";
    case item_occluder: return "OCCLUDER";
    case item_camerazone: return "CAMERAZONE";
    case item_light: return "LIGHT";
    case item_hfog: return "HFOG";
    case item_collisionvol: return "COLLISIONVOL";
    case item_omni: return "OMNI";
    case item_particles: return "PARTICLES";
    }
    return "";
}

ObjectHeader read_object_header(ByteReader& r) {
    if (!r.has(object_header_size))
        r.fail_at_path(r.tell(), ".header", "truncated: the common header needs 0x64 bytes, " +
                                                std::to_string(r.remaining()) + " available");
    ObjectHeader h;
    for (auto& f : h.unknown) f.bits = r.u32();
    for (auto& f : h.matrix) f.bits = r.u32();
    auto junk = r.bytes(16);
    std::copy(junk.begin(), junk.end(), h.junk.begin());
    h.item_type = r.u16();
    h.item_subtype = r.u16();
    return h;
}

void write_object_header(ByteWriter& w, const ObjectHeader& h) {
    for (auto f : h.unknown) w.u32(f.bits);
    for (auto f : h.matrix) w.u32(f.bits);
    w.bytes(h.junk);
    w.u16(h.item_type);
    w.u16(h.item_subtype);
}

}  // namespace mod::totem
