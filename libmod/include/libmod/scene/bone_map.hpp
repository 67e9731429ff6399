#pragma once
// Mapping a scene's bones onto a target skeleton (e.g. a SHRED SCP skeleton) by name.
//
// A source bone goes to the target bone the explicit map names for it, else to the target bone
// with exactly the same name. Weight is never dropped silently: if any bone that carries
// weight in any vertex has no target, retarget() fails and lists every such bone.

#include "libmod/scene/model.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mod::scene {

// Explicit source-name -> target-name pairs.
struct BoneMap {
    std::vector<std::pair<std::string, std::string>> pairs;
    // Prefix rules ("strip mixamorig:"): a source bone without an explicit pair and without a
    // target of its own name maps to the target named like it without the first of these
    // prefixes it starts with.
    std::vector<std::string> strip_prefixes;

    // The target the map names for `source`, or nullptr.
    const std::string* target_for(std::string_view source) const;
    bool empty() const noexcept { return pairs.empty(); }
};

// Text form, one pair per line: "source = target", or a prefix rule "strip PREFIX" (e.g.
// "strip mixamorig:"). Names are trimmed of surrounding blanks
// and may contain inner spaces; '#' starts a comment line; blank lines are ignored; a UTF-8
// byte order mark at the very start is skipped. Throws
// mod::Error (format, naming `file` and the 1-based line as the path "line[N]") on a line
// without '=', an empty name, or a source named twice.
BoneMap parse_bone_map(std::string_view text, std::string_view file = {});
BoneMap read_bone_map(const std::filesystem::path& path);

// Names at least this long may have been cut by the program that wrote them (Blender keeps 63
// bytes of a name); retarget maps such a name to the one target bone that starts with it.
inline constexpr std::size_t truncated_name_bytes = 63;

struct RetargetReport {
    // For each source bone: its target index, or -1 when it has none (and carries no weight).
    std::vector<std::int32_t> source_to_target;
    std::size_t mapped_by_name = 0;
    std::size_t mapped_explicitly = 0;
    std::size_t mapped_by_prefix_rule = 0;  // by a "strip PREFIX" rule
    std::size_t mapped_by_truncated_name = 0;  // a cut name (>= truncated_name_bytes) that one target starts with
    std::size_t unmapped_without_weight = 0;
    std::size_t merged_influences = 0;  // vertex entries merged because two sources hit one target
};

// A source bone is mapped by the map's explicit pair, else by its own name, else by a strip rule,
// else, when its name is truncated_name_bytes or longer, to the one target whose name starts
// with it (a warning says so; two such targets: unmapped).
// Rewrites every mesh's raw influences to index `target.bones` and replaces scene.skeleton by
// `target`. Entries of one vertex that land on the same target bone are summed. Throws
// mod::Error (format, naming scene.source) listing the unmapped bones that carry weight
// (name, vertices, total weight; the first 20 and "and N more" in the one-line message, every
// one of them as its own line in scene.warnings), or when the explicit map names a target bone that `target`
// does not have; map entries whose source bone does not exist become Scene::warnings.
// Processed weights (Mesh::skin) are cleared: process_weights must run after retargeting.
RetargetReport retarget(Scene& scene, const Skeleton& target, const BoneMap& map = {});
// The same, moving `target` into the scene instead of copying it.
RetargetReport retarget(Scene& scene, Skeleton&& target, const BoneMap& map = {});

}  // namespace mod::scene
