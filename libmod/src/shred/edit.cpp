// Same-topology edits: CSV parsing and in-place patching of streams found by scan().
#include "libmod/shred/edit.hpp"

#include "libmod/shred/preprocess.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>

namespace mod::shred {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> out;
    for (;;) {
        auto comma = line.find(',');
        out.push_back(trim(line.substr(0, comma)));
        if (comma == std::string_view::npos) return out;
        line.remove_prefix(comma + 1);
    }
}

struct LineError {
    const std::string& file;
    std::size_t line;
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(ErrorKind::format, what, file, no_offset, "line[" + std::to_string(line) + "]");
    }
};

std::uint32_t parse_index(std::string_view s, const LineError& where, const char* what) {
    std::uint32_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        where.fail(std::string(what) + " '" + std::string(s) + "' is not an unsigned integer");
    return v;
}

float parse_float(std::string_view s, const LineError& where) {
    std::string text(s);
    char* end = nullptr;
    float v = std::strtof(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) where.fail("value '" + text + "' is not a number");
    return v;
}

template <std::size_t N>
std::array<float, N> values(const std::vector<std::string_view>& f, const LineError& where) {
    if (f.size() != 3 + N)
        where.fail("field '" + std::string(f[2]) + "' takes " + std::to_string(N) + " values, got " +
                   std::to_string(f.size() - 3));
    std::array<float, N> v{};
    for (std::size_t k = 0; k < N; ++k) v[k] = parse_float(f[3 + k], where);
    return v;
}

}  // namespace

std::vector<VertexEdit> parse_edit_csv(std::string_view text, const std::string& file) {
    std::vector<VertexEdit> out;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> index;
    std::size_t line_no = 0;
    while (!text.empty()) {
        auto nl = text.find('\n');
        std::string_view line = trim(text.substr(0, nl));
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        ++line_no;
        if (line.empty() || line.front() == '#') continue;
        LineError where{file, line_no};
        auto f = split(line);
        if (f.size() < 4) where.fail("expected mesh,vertex,field,values...");
        std::uint32_t mesh = parse_index(f[0], where, "mesh");
        std::uint32_t vertex = parse_index(f[1], where, "vertex");
        auto key = std::make_pair(mesh, vertex);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, out.size()).first;
            out.push_back({});
            out.back().mesh = mesh;
            out.back().vertex = vertex;
        }
        VertexEdit& e = out[it->second];
        std::string_view field = f[2];
        if (field == "position") e.position = values<3>(f, where);
        else if (field == "normal") e.normal = values<3>(f, where);
        else if (field == "tangent") e.tangent = values<3>(f, where);
        else if (field == "tangent_sign") e.tangent_sign = values<1>(f, where)[0];
        else if (field == "uv0") e.uv0 = values<2>(f, where);
        else if (field == "uv1") e.uv1 = values<2>(f, where);
        else if (field == "weights") e.weights = values<4>(f, where);
        else
            where.fail("unknown field '" + std::string(field) +
                       "' (position, normal, tangent, tangent_sign, uv0, uv1 or weights)");
    }
    return out;
}

Bytes apply_edits(ByteView data, std::span<const VertexEdit> edits, const std::string& file, const ScanOptions& options,
                  EditReport* report) {
    Bytes out(data.begin(), data.end());
    std::vector<FoundMesh> meshes = scan(data, file, options);
    EditReport rep;
    rep.meshes_found = meshes.size();
    std::map<std::uint32_t, std::vector<const VertexEdit*>> by_mesh;
    for (const auto& e : edits) {
        if (e.mesh >= meshes.size())
            throw Error(ErrorKind::usage, "mesh " + std::to_string(e.mesh) + " does not exist (scan found " +
                                              std::to_string(meshes.size()) + ")",
                        file);
        by_mesh[e.mesh].push_back(&e);
    }
    ByteReader whole(data, Endian::big, file);
    for (const auto& [mi, list] : by_mesh) {
        const FoundMesh& fm = meshes[mi];
        const std::string path = "mesh[" + std::to_string(mi) + "].stream";
        if (!fm.error.empty())
            throw Error(ErrorKind::format, "mesh " + std::to_string(mi) + " is not valid, so it is not edited: " + fm.error,
                        file, fm.stream_offset, path);
        StreamContext ctx;
        ctx.bone_count = options.bone_count;
        Stream s = decode_stream(whole.sub(fm.stream_offset, data.size() - fm.stream_offset, path), ctx);
        for (const VertexEdit* e : list) {
            if (e->vertex >= s.vertices.size())
                throw Error(ErrorKind::usage, "vertex " + std::to_string(e->vertex) + " does not exist in mesh " +
                                                  std::to_string(mi) + " (" + std::to_string(s.vertices.size()) + " vertices)",
                            file);
            VertexRecord& rec = s.vertices[e->vertex];
            const VertexRecord before = rec;
            if (e->position) rec.set_vec3(vertex_field::position, *e->position);
            if (e->normal) rec.set_vec3(vertex_field::normal, *e->normal);
            if (e->tangent) rec.set_vec3(vertex_field::tangent, *e->tangent);
            if (e->tangent_sign) rec.set_f32(vertex_field::tangent_sign, *e->tangent_sign);
            if (e->uv0) rec.set_uv(0, *e->uv0);
            if (e->uv1) rec.set_uv(1, *e->uv1);
            if (e->weights) {
                auto bones = s.batches[s.batch_of(e->vertex)].header.bones();
                std::array<Influence, 4> active{};
                std::array<std::size_t, 4> slot{};
                std::size_t n = 0;
                for (std::size_t k = 0; k < 4; ++k) {
                    if (bones[k] == unused_bone) {
                        if ((*e->weights)[k] != 0)
                            throw Error(ErrorKind::format,
                                        "a weight on unused palette slot " + std::to_string(k) + " of vertex " +
                                            std::to_string(e->vertex) + " would change the palette (same-topology edits keep it)",
                                        file, fm.stream_offset, path);
                        continue;
                    }
                    active[n] = {bones[k], (*e->weights)[k]};
                    slot[n++] = k;
                }
                std::array<std::uint8_t, 4> q;
                try {
                    q = quantise_weights(std::span<const Influence>(active.data(), n));
                } catch (Error& err) {
                    err.prefix_path(path + ".vertex[" + std::to_string(e->vertex) + "].weights");
                    err.set_file_if_empty(file);
                    throw;
                }
                std::array<std::uint8_t, 4> w{};
                for (std::size_t k = 0; k < n; ++k) w[slot[k]] = q[k];
                rec.set_weights(w);
            }
            if (!(rec == before)) ++rep.vertices_changed;
        }
        StreamLocation loc{file, whole.absolute(fm.stream_offset), path};
        validate_stream(s, ctx, nullptr, loc);
        Bytes encoded = encode_stream(s);
        if (encoded.size() != fm.stream_size)
            throw Error(ErrorKind::conflict, "the edited stream changed size", file, fm.stream_offset, path);
        for (std::size_t k = 0; k < encoded.size(); ++k) rep.bytes_changed += encoded[k] != out[fm.stream_offset + k];
        std::memcpy(out.data() + fm.stream_offset, encoded.data(), encoded.size());
    }
    if (report) *report = rep;
    return out;
}

}  // namespace mod::shred
