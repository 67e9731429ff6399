// The vertex-cache walker: G_VTX fills slots, G_TRI1/G_TRI2 read them, state carries over.
#include "libmod/n64/gbi_walk.hpp"

namespace mod::n64::gbi {

VertexCacheWalker::VertexCacheWalker(WalkOptions options)
    : options_(std::move(options)), geometry_mode_(options_.geometry_mode) {}

std::optional<Corner> VertexCacheWalker::slot(unsigned i) const noexcept {
    return i < cache_.size() ? cache_[i] : std::nullopt;
}

void VertexCacheWalker::run(std::uint32_t dl_index, const DisplayList& list) {
    std::size_t steps = 0;
    execute(dl_index, list, "dl[" + std::to_string(dl_index) + "]", 0, 0, steps);
}

void VertexCacheWalker::fail(const DisplayList& list, std::size_t command, const std::string& path,
                             const std::string& message, ErrorKind kind) const {
    std::uint64_t offset = list.origin == no_offset ? no_offset : list.origin + 8 * std::uint64_t(command);
    throw Error(kind, message, {}, offset, path + ".cmd[" + std::to_string(command) + "]");
}

Corner VertexCacheWalker::corner(const DisplayList& list, std::size_t command, const std::string& path,
                                 std::uint8_t index_byte) const {
    if (index_byte & 1)
        fail(list, command, path, "triangle index byte " + std::to_string(index_byte) + " is odd (slots are stored x2)");
    unsigned s = index_byte / 2u;
    if (s >= vertex_cache_size)
        fail(list, command, path, "triangle uses slot " + std::to_string(s) + " beyond the 64-entry vertex cache");
    if (!cache_[s])
        fail(list, command, path, "triangle uses vertex cache slot " + std::to_string(s) + ", which no G_VTX loaded");
    return *cache_[s];
}

bool VertexCacheWalker::loaded(std::uint32_t dl_index, const DisplayList& list, std::size_t command,
                               const std::string& path, std::span<const std::uint8_t> index_bytes) const {
    if (!options_.on_unloaded_slot) return true;
    for (std::uint8_t b : index_bytes) {
        const unsigned s = b / 2u;
        if ((b & 1) == 0 && s < vertex_cache_size && !cache_[s]) {
            const std::uint64_t offset = list.origin == no_offset ? no_offset : list.origin + 8 * std::uint64_t(command);
            options_.on_unloaded_slot(dl_index, offset,
                                      path + ".cmd[" + std::to_string(command) + "]: triangle uses vertex cache slot " +
                                          std::to_string(s) + ", which no G_VTX has loaded yet");
            return false;
        }
    }
    return true;
}

void VertexCacheWalker::execute(std::uint32_t dl_index, const DisplayList& list, const std::string& path,
                                unsigned depth, std::uint32_t top_command, std::size_t& steps) {
    for (std::size_t i = 0; i < list.commands.size(); ++i) {
        if (++steps > options_.max_steps)
            fail(list, i, path, "display list execution exceeds " + std::to_string(options_.max_steps) +
                                    " commands (a branch loop?)", ErrorKind::limit);
        const Command& cmd = list.commands[i];
        const std::uint32_t at = depth == 0 ? static_cast<std::uint32_t>(i) : top_command;
        if (const auto* v = std::get_if<Vertex>(&cmd)) {
            if (v->count == 0) fail(list, i, path, "G_VTX loads no vertices");
            if (v->end > vertex_cache_size || v->count > v->end)
                fail(list, i, path, "G_VTX loads slots " + std::to_string(v->first()) + ".." +
                                        std::to_string(int(v->end) - 1) + ", outside the 64-entry vertex cache");
            if (!options_.vertex_index) fail(list, i, path, "no vertex address mapping was given", ErrorKind::usage);
            auto base = options_.vertex_index(v->address);
            if (!base)
                fail(list, i, path, "G_VTX address " + hex(v->address, 8) + " is not in the vertex array");
            if (std::uint64_t(*base) + v->count > options_.vertex_count)
                fail(list, i, path, "G_VTX loads vertices " + std::to_string(*base) + ".." +
                                        std::to_string(std::uint64_t(*base) + v->count - 1) + " of a " +
                                        std::to_string(options_.vertex_count) + "-vertex array");
            for (unsigned k = 0; k < v->count; ++k)
                cache_[static_cast<unsigned>(v->first()) + k] = Corner{dl_index, *base + k};
        } else if (const auto* t1 = std::get_if<Tri1>(&cmd)) {
            WalkTriangle t{dl_index, at, {}, geometry_mode_};
            if (loaded(dl_index, list, i, path, t1->index)) {
                for (int k = 0; k < 3; ++k) t.corners[k] = corner(list, i, path, t1->index[k]);
                triangles_.push_back(t);
            }
        } else if (const auto* t2 = std::get_if<Tri2>(&cmd)) {
            WalkTriangle a{dl_index, at, {}, geometry_mode_}, b = a;
            if (loaded(dl_index, list, i, path, t2->first)) {
                for (int k = 0; k < 3; ++k) a.corners[k] = corner(list, i, path, t2->first[k]);
                triangles_.push_back(a);
            }
            if (loaded(dl_index, list, i, path, t2->second)) {
                for (int k = 0; k < 3; ++k) b.corners[k] = corner(list, i, path, t2->second[k]);
                triangles_.push_back(b);
            }
        } else if (const auto* g = std::get_if<GeometryMode>(&cmd)) {
            geometry_mode_ = (geometry_mode_ & (g->clear | 0xFF000000u)) | g->set;
        } else if (const auto* call = std::get_if<CallList>(&cmd)) {
            if (!options_.resolve_call)
                fail(list, i, path, "G_DL to " + hex(call->address, 8) + " but no display-list resolver was given");
            if (depth + 1 > options_.max_call_depth)
                fail(list, i, path, "G_DL nesting deeper than " + std::to_string(options_.max_call_depth), ErrorKind::limit);
            const DisplayList* target = options_.resolve_call(call->address);
            if (!target) fail(list, i, path, "G_DL target " + hex(call->address, 8) + " is not a known display list");
            std::string child = path + ".cmd[" + std::to_string(i) + "].call";
            execute(dl_index, *target, child, depth + 1, at, steps);
            if (call->is_branch()) return;
        } else if (std::holds_alternative<EndList>(cmd)) {
            return;
        }
    }
}

std::vector<WalkTriangle> walk_lists(std::span<const DisplayList> lists, const WalkOptions& options) {
    VertexCacheWalker walker(options);
    for (std::size_t i = 0; i < lists.size(); ++i) walker.run(static_cast<std::uint32_t>(i), lists[i]);
    return walker.take_triangles();
}

}  // namespace mod::n64::gbi
