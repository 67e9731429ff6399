// Fuzz target: a TotemTech data archive (either byte order) must decode or throw mod::Error;
// a decoded archive must re-encode byte for byte, also after a repack that changes nothing
// (the repacker's own decisions: chunks, placement, empty chunks), and its MESH records must
// decode, re-encode and triangulate or throw mod::Error. An edit (record 0's subtype changed)
// is repacked too: the chunk it is in is rewritten with padding to the chunk size, which a
// hostile chunk size word must not turn into a memory bomb (run under a memory bound:
// tests/fuzz/CMakeLists.txt, doc/fuzzing.md).
#include "libmod/totem/archive.hpp"
#include "libmod/totem/mesh.hpp"
#include "libmod/totem/repack.hpp"
#include "libmod/totem/verify.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const mod::ByteView input(data, size);
    for (mod::Endian e : {mod::Endian::big, mod::Endian::little}) {
        try {
            mod::ByteReader dgc(input, e);
            auto archive = mod::totem::decode_archive(dgc);
            if (mod::totem::encode_archive(archive) != mod::Bytes(input.begin(), input.end())) std::abort();
            const auto unchanged = mod::totem::repack(archive, mod::totem::items_of(archive));
            if (mod::totem::encode_archive(unchanged) != mod::Bytes(input.begin(), input.end())) std::abort();
            if (!archive.records.empty()) {
                auto items = mod::totem::items_of(archive);
                items[0].record.subtype_id ^= 1;
                const auto edited = mod::totem::encode_archive(mod::totem::repack(archive, std::move(items)));
                // One record changed in place: at most one chunk grows to the full chunk size.
                if (edited.size() > size + archive.chunk_size) std::abort();
            }
            for (std::size_t i = 0; i < archive.records.size(); ++i) {
                if (mod::totem::record_kind(archive.records[i]) != mod::totem::RecordKind::mesh) continue;
                try {
                    auto mesh = mod::totem::decode_mesh(mod::totem::payload_reader(dgc, archive, i));
                    if (mod::totem::encode_mesh(mesh, e) != archive.records[i].payload) std::abort();
                    (void)mod::totem::check_mesh(mesh);
                    (void)mod::totem::build_triangles(mesh);
                } catch (const mod::Error&) {
                }
            }
        } catch (const mod::Error&) {
        }
    }
    return 0;
}
