#pragma once
// Geometry from F3DEX2 display lists: follows the RSP's 64-entry vertex cache across a
// sequence of lists. The cache is NOT reset between lists: a model's bones draw with slots
// loaded by earlier bones (stadium.md §6.2), so every triangle corner records which list
// loaded it (hence which bone's matrix) and which vertex of the model's vertex array it is.
// Spec: doc/formats/f3dex2.md.

#include "libmod/n64/gbi.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mod::n64::gbi {

// One loaded cache slot / triangle corner: the list (by the index given to run()) whose G_VTX
// loaded it, and the vertex-array index.
struct Corner {
    std::uint32_t dl = 0;
    std::uint32_t vertex = 0;
    friend bool operator==(const Corner&, const Corner&) = default;
};

struct WalkTriangle {
    std::uint32_t dl = 0;       // the list drawing it
    std::uint32_t command = 0;  // its command index in that list (the G_DL for nested lists)
    std::array<Corner, 3> corners{};
    std::uint32_t geometry_mode = 0;  // at the time it was drawn (G_LIGHTING: normals vs colours)
    friend bool operator==(const WalkTriangle&, const WalkTriangle&) = default;
};

struct WalkOptions {
    // Maps a G_VTX address (segmented or link address, as stored) to the vertex-array index of
    // the first vertex loaded; nullopt when the address is outside the array (format error).
    std::function<std::optional<std::uint32_t>(std::uint32_t address)> vertex_index;
    // Vertices in the array: a load reaching past it is a format error.
    std::uint32_t vertex_count = UINT32_MAX;
    // Resolves a G_DL target. Without it, a G_DL is a format error.
    std::function<const DisplayList*(std::uint32_t address)> resolve_call;
    // Nested calls deeper than this are refused (F3DEX2's return stack holds 18 addresses).
    unsigned max_call_depth = 18;
    // Commands executed per run() before a limit error (guards against branch loops).
    std::size_t max_steps = 1u << 20;
    // Geometry mode before the first list.
    std::uint32_t geometry_mode = 0;
    // When set, a triangle using a slot no G_VTX has loaded yet is not an error: it is left
    // out and reported here with the index given to run(), the command's offset (no_offset
    // when the list's origin is unknown) and a message naming the path and the slot.
    std::function<void(std::uint32_t dl_index, std::uint64_t offset, const std::string& message)> on_unloaded_slot;
};

// G_LIGHTING in the geometry mode: 0x00020000 in every GBI (F3D, F3DEX and F3DEX2 alike).
// 0x00200000 is F3DEX2's G_SHADING_SMOOTH, not lighting (an earlier version tested that bit).
inline constexpr std::uint32_t g_lighting = 0x00020000;

class VertexCacheWalker {
public:
    explicit VertexCacheWalker(WalkOptions options);

    // Executes `list` with the cache left by earlier runs, appending its triangles. Errors
    // (format/limit) name the path `dl[<dl_index>].cmd[<i>]` (nested: `….call.cmd[<j>]`) and
    // the offset list.origin + 8 × i when the origin is known:
    //  * a G_VTX whose slots reach beyond 64, loads none, or whose address does not map;
    //  * a triangle using a slot never loaded (or an odd index byte, or a slot ≥ 64);
    //  * a G_DL without a resolver, unresolved, too deep, or a list running too long.
    void run(std::uint32_t dl_index, const DisplayList& list);

    const std::vector<WalkTriangle>& triangles() const noexcept { return triangles_; }
    std::vector<WalkTriangle> take_triangles() noexcept { return std::move(triangles_); }
    // What slot `i` holds now (nullopt when never loaded or i >= 64).
    std::optional<Corner> slot(unsigned i) const noexcept;
    std::uint32_t geometry_mode() const noexcept { return geometry_mode_; }

private:
    void execute(std::uint32_t dl_index, const DisplayList& list, const std::string& path, unsigned depth,
                 std::uint32_t top_command, std::size_t& steps);
    [[noreturn]] void fail(const DisplayList& list, std::size_t command, const std::string& path,
                           const std::string& message, ErrorKind kind = ErrorKind::format) const;
    Corner corner(const DisplayList& list, std::size_t command, const std::string& path, std::uint8_t index_byte) const;
    // Whether every corner's slot is loaded; reports through on_unloaded_slot when not (and
    // always true without it: corner() then fails).
    bool loaded(std::uint32_t dl_index, const DisplayList& list, std::size_t command, const std::string& path,
                std::span<const std::uint8_t> index_bytes) const;

    WalkOptions options_;
    std::array<std::optional<Corner>, vertex_cache_size> cache_{};
    std::uint32_t geometry_mode_ = 0;
    std::vector<WalkTriangle> triangles_;
};

// Runs lists[0], lists[1], … in order through one walker (the cache carries over).
std::vector<WalkTriangle> walk_lists(std::span<const DisplayList> lists, const WalkOptions& options);

}  // namespace mod::n64::gbi
