#include "libmod/totem/verify.hpp"

#include <memory>

#include "libmod/core/parallel.hpp"
#include "libmod/totem/names.hpp"

namespace mod::totem {

const char* to_string(RecordKind k) noexcept {
    switch (k) {
    case RecordKind::skin: return "SKIN";
    case RecordKind::mesh: return "MESH";
    case RecordKind::opaque: return "opaque";
    }
    return "unknown";
}

RecordKind record_kind(const Record& r) noexcept {
    static const std::int32_t skin = name_id("SKIN"), mesh = name_id("MESH");
    if (r.type_id == skin) return RecordKind::skin;
    if (r.type_id == mesh) return RecordKind::mesh;
    return RecordKind::opaque;
}

ByteReader payload_reader(const ByteReader& dgc, const Archive& archive, std::size_t index) {
    const Record& r = archive.records.at(index);
    const std::uint64_t at = r.offset - dgc.absolute(0) + record_header_size;
    return dgc.sub(static_cast<std::size_t>(at), r.payload.size(), index_path(".record", index))
        .with_path(index_path("dgc.record", index));
}

std::unordered_map<std::int32_t, MeshExtent> mesh_extents(const ByteReader& dgc, const Archive& archive,
                                                          unsigned threads) {
    auto extents = parallel_map(
        archive.records.size(),
        [&](std::size_t i) -> std::optional<MeshExtent> {
            if (record_kind(archive.records[i]) != RecordKind::mesh) return std::nullopt;
            try {
                Mesh m = decode_mesh(payload_reader(dgc, archive, i));
                return MeshExtent{static_cast<std::uint32_t>(m.positions.size()),
                                  static_cast<std::uint32_t>(m.normals.size())};
            } catch (const Error&) {
                return std::nullopt;
            }
        },
        threads);
    std::unordered_map<std::int32_t, MeshExtent> out;
    for (std::size_t i = 0; i < extents.size(); ++i)
        if (extents[i]) out.emplace(archive.records[i].name_id, *extents[i]);
    return out;
}

TargetTypeLookup target_types(const Archive& archive) {
    static const std::int32_t mesh = name_id("MESH");
    auto types = std::make_shared<std::unordered_map<std::int32_t, std::int32_t>>();
    for (const auto& r : archive.records) {
        auto [it, fresh] = types->emplace(r.name_id, r.type_id);
        if (!fresh && r.type_id == mesh) it->second = mesh;
    }
    return [types](std::int32_t id) -> std::optional<std::int32_t> {
        auto it = types->find(id);
        if (it == types->end()) return std::nullopt;
        return it->second;
    };
}

std::vector<RecordVerdict> verify_archive(const ByteReader& dgc, const Archive& archive, unsigned threads) {
    const auto extents = mesh_extents(dgc, archive, threads);
    MeshLookup lookup = [&](std::int32_t id) -> std::optional<MeshExtent> {
        auto it = extents.find(id);
        if (it == extents.end()) return std::nullopt;
        return it->second;
    };
    const TargetTypeLookup types = target_types(archive);
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < archive.records.size(); ++i)
        if (record_kind(archive.records[i]) != RecordKind::opaque) todo.push_back(i);
    return parallel_map(
        todo.size(),
        [&](std::size_t t) {
            RecordVerdict v;
            v.index = todo[t];
            const Record& rec = archive.records[v.index];
            v.kind = record_kind(rec);
            try {
                ByteReader payload = payload_reader(dgc, archive, v.index);
                if (v.kind == RecordKind::skin) {
                    SkinDecodeInfo info;
                    Skin s = decode_skin(payload, &info);
                    v.decoded = true;
                    v.reading = info.reading;
                    v.ambiguous = info.ambiguous;
                    v.round_trip = encode_skin(s, archive.endian) == rec.payload;
                    v.findings = check_skin(s, lookup, types);
                    if (info.ambiguous)
                        v.findings.push_back({Finding::Level::mismatch, "skin.zero2", info.reason});
                } else {
                    Mesh m = decode_mesh(payload);
                    v.decoded = true;
                    v.round_trip = encode_mesh(m, archive.endian) == rec.payload;
                    v.findings = check_mesh(m);
                    v.mesh_subtype = m.header.item_subtype;
                    v.strip_census = strip_index_census(m);
                }
            } catch (const Error& e) {
                v.error = e.what();
            }
            return v;
        },
        threads);
}

}  // namespace mod::totem
