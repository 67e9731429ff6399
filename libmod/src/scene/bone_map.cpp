// Bone maps and retargeting onto a target skeleton (contract: bone_map.hpp).
#include "libmod/scene/bone_map.hpp"

#include "libmod/core/error.hpp"
#include "libmod/core/file.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace mod::scene {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::string format_weight(double w) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", w);
    return buf;
}

}  // namespace

const std::string* BoneMap::target_for(std::string_view source) const {
    for (const auto& [s, t] : pairs)
        if (s == source) return &t;
    return nullptr;
}

BoneMap parse_bone_map(std::string_view text, std::string_view file) {
    BoneMap map;
    // A UTF-8 byte order mark (Windows editors write one) is not part of the first line.
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    std::size_t line_no = 0;
    while (!text.empty()) {
        ++line_no;
        std::size_t eol = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
        line = trim(line);
        if (line.empty() || line.front() == '#') continue;
        auto fail = [&](const std::string& message) -> Error {
            return Error(ErrorKind::format, message, std::string(file), no_offset, index_path("line", line_no));
        };
        std::size_t eq = line.find('=');
        if (eq == std::string_view::npos && (line == "strip" || line.starts_with("strip ") || line.starts_with("strip\t"))) {
            std::string prefix(trim(line.substr(5)));
            if (prefix.empty()) throw fail("'strip' needs a prefix (e.g. 'strip mixamorig:')");
            map.strip_prefixes.push_back(std::move(prefix));
            continue;
        }
        if (eq == std::string_view::npos) throw fail("expected 'source = target' or 'strip PREFIX'");
        std::string source(trim(line.substr(0, eq))), target(trim(line.substr(eq + 1)));
        if (source.empty() || target.empty()) throw fail("empty bone name");
        if (map.target_for(source)) throw fail("bone '" + source + "' is mapped twice");
        map.pairs.emplace_back(std::move(source), std::move(target));
    }
    return map;
}

BoneMap read_bone_map(const std::filesystem::path& path) {
    Bytes data = read_file(path, 16u << 20);
    return parse_bone_map(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()), path.string());
}

namespace {

[[noreturn]] void bone_out_of_range(const Mesh& mesh, const Influence& inf, std::size_t bones, const std::string& file) {
    throw Error(ErrorKind::format, "mesh '" + mesh.name + "' names bone " + std::to_string(inf.bone) + " of a " +
                                       std::to_string(bones) + "-bone skeleton",
                file);
}

// Rewrites `list` in place to target bones (`target_of(bone)`, negative = drop: zero weight,
// checked before), entries of one target summed in list order, targets in first-seen order.
// Entry i lands at or before position i. Returns the new length.
template <class TargetOf>
std::size_t merge_onto_targets(std::span<Influence> list, TargetOf target_of, std::size_t& merged) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Influence inf = list[i];
        const std::int32_t target = target_of(inf.bone);
        if (target < 0) continue;
        const auto t = static_cast<std::uint32_t>(target);
        std::size_t same = 0;
        while (same < kept && list[same].bone != t) ++same;
        if (same < kept) {
            list[same].weight += inf.weight;
            ++merged;
        } else {
            list[kept++] = {t, inf.weight};
        }
    }
    return kept;
}

// The common case: every source bone has its own target and the source skeleton has at most
// 64 bones. Each entry is range-checked and mapped where it stands (no list changes length),
// and a bit set per list notes whether a list names a bone twice. Returns whether one did:
// under a one-to-one map those are the only lists merge_onto_targets would shorten, and it
// may then run on the mapped lists with target_of = identity, with the same result.
bool map_in_place(Mesh& mesh, const std::vector<std::int32_t>& to_target, std::size_t source_bones,
                  const std::string& file) {
    bool repeats = false;
    InfluenceLists& lists = mesh.influences;
    for (std::size_t v = 0; v < lists.size(); ++v) {
        std::uint64_t seen = 0;
        for (Influence& inf : lists[v]) {
            if (inf.bone >= source_bones) bone_out_of_range(mesh, inf, source_bones, file);
            const std::uint64_t bit = std::uint64_t{1} << inf.bone;
            repeats |= (seen & bit) != 0;
            seen |= bit;
            inf.bone = static_cast<std::uint32_t>(to_target[inf.bone]);
        }
    }
    return repeats;
}

bool one_to_one(const std::vector<std::int32_t>& to_target, std::size_t target_bones) {
    std::vector<bool> taken(target_bones, false);
    for (std::int32_t t : to_target) {
        if (t < 0 || taken[static_cast<std::size_t>(t)]) return false;
        taken[static_cast<std::size_t>(t)] = true;
    }
    return true;
}

}  // namespace

RetargetReport retarget(Scene& scene, const Skeleton& target, const BoneMap& map) {
    return retarget(scene, Skeleton(target), map);
}

RetargetReport retarget(Scene& scene, Skeleton&& target, const BoneMap& map) {
    const auto& source = scene.skeleton.bones;
    RetargetReport report;
    report.source_to_target.assign(source.size(), -1);
    std::unordered_map<std::string_view, std::int32_t> target_index;
    for (std::size_t i = 0; i < target.bones.size(); ++i)
        target_index.emplace(target.bones[i].name, static_cast<std::int32_t>(i));
    for (const auto& [s, t] : map.pairs) {
        if (!target_index.count(t))
            throw Error(ErrorKind::format, "the bone map sends '" + s + "' to '" + t +
                                               "', which the target skeleton does not have", scene.source);
        if (!scene.skeleton.find(s))
            scene.warnings.push_back("the bone map names '" + s + "', which the source skeleton does not have");
    }
    for (std::size_t i = 0; i < source.size(); ++i) {
        if (const std::string* t = map.target_for(source[i].name)) {
            report.source_to_target[i] = target_index.at(*t);
            ++report.mapped_explicitly;
        } else if (auto it = target_index.find(source[i].name); it != target_index.end()) {
            report.source_to_target[i] = it->second;
            ++report.mapped_by_name;
        } else {
            for (const auto& prefix : map.strip_prefixes) {
                if (!std::string_view(source[i].name).starts_with(prefix)) continue;
                if (auto st = target_index.find(std::string_view(source[i].name).substr(prefix.size()));
                    st != target_index.end()) {
                    report.source_to_target[i] = st->second;
                    ++report.mapped_by_prefix_rule;
                }
                break;
            }
        }
        // A name a client cut at its length limit (Blender: 63 bytes) still names the one target
        // that starts with it (issue 29 item 5); never when two targets do.
        if (report.source_to_target[i] < 0 && source[i].name.size() >= truncated_name_bytes) {
            std::int32_t only = -1;
            std::size_t matches = 0;
            for (std::size_t t = 0; t < target.bones.size(); ++t)
                if (target.bones[t].name.size() > source[i].name.size() &&
                    std::string_view(target.bones[t].name).starts_with(source[i].name))
                    ++matches, only = static_cast<std::int32_t>(t);
            if (matches == 1) {
                report.source_to_target[i] = only;
                ++report.mapped_by_truncated_name;
                scene.warnings.push_back("bone '" + source[i].name + "' (" + std::to_string(source[i].name.size()) +
                                         " bytes: cut by the program that wrote the file, as Blender cuts at 63) "
                                         "taken as '" + target.bones[static_cast<std::size_t>(only)].name +
                                         "', the only target bone that starts with it");
            }
        }
    }
    // Weight carried by unmapped bones: never dropped silently. When every source bone has a
    // target there is none to count, and the bone range check is made by the rewrite below,
    // each list checked before it is rewritten (the error is the same; lists before it are
    // then already rewritten, as the scene is after any failed step).
    const bool all_mapped = std::all_of(report.source_to_target.begin(), report.source_to_target.end(),
                                        [](std::int32_t t) { return t >= 0; });
    std::vector<std::size_t> vertices(source.size(), 0);
    std::vector<double> weight(source.size(), 0);
    for (const auto& mesh : scene.meshes)
        if (!all_mapped)
        for (const auto& list : mesh.influences)
            for (const auto& inf : list) {
                if (inf.bone >= source.size()) bone_out_of_range(mesh, inf, source.size(), scene.source);
                if (report.source_to_target[inf.bone] < 0 && inf.weight != 0) {
                    ++vertices[inf.bone];
                    weight[inf.bone] += inf.weight;
                }
            }
    std::string unmapped;
    std::size_t unmapped_count = 0;
    constexpr std::size_t max_listed = 20;
    std::vector<std::string> unmapped_lines;
    for (std::size_t i = 0; i < source.size(); ++i) {
        if (report.source_to_target[i] >= 0) continue;
        if (vertices[i] == 0) {
            ++report.unmapped_without_weight;
            continue;
        }
        ++unmapped_count;
        const std::string entry = "'" + source[i].name + "' (" + std::to_string(vertices[i]) + " vertices, total weight " +
                                  format_weight(weight[i]) + ")";
        // The one-line message names the first 20; every one gets its own warning line.
        if (unmapped_count <= max_listed) unmapped += (unmapped.empty() ? "" : ", ") + entry;
        unmapped_lines.push_back("unmapped bone " + entry);
    }
    if (unmapped_count) {
        if (unmapped_count > max_listed) unmapped += " and " + std::to_string(unmapped_count - max_listed) + " more";
        for (auto& line : unmapped_lines) scene.warnings.push_back(std::move(line));
        throw Error(ErrorKind::format, std::to_string(unmapped_count) + " bone(s) carry weight but have no bone of the "
                                           "same name in the target skeleton: " + unmapped +
                                           "; map them with a bone map ('source = target' lines, or 'strip PREFIX' "
                                           "for a prefix such as mixamorig:)", scene.source);
    }
    const bool in_place = all_mapped && source.size() <= 64 && one_to_one(report.source_to_target, target.bones.size());
    const auto& to_target = report.source_to_target;
    for (auto& mesh : scene.meshes) {
        if (in_place) {
            if (map_in_place(mesh, to_target, source.size(), scene.source))
                mesh.influences.rewrite_each([&](std::span<Influence> list) {
                    return merge_onto_targets(list, [](std::uint32_t t) { return std::int32_t(t); },
                                              report.merged_influences);
                });
        } else {
            mesh.influences.rewrite_each([&](std::span<Influence> list) {
                if (all_mapped)
                    for (const auto& inf : list)
                        if (inf.bone >= source.size()) bone_out_of_range(mesh, inf, source.size(), scene.source);
                return merge_onto_targets(list, [&](std::uint32_t bone) { return to_target[bone]; },
                                          report.merged_influences);
            });
        }
        mesh.skin.clear();
    }
    scene.skeleton = std::move(target);
    return report;
}

}  // namespace mod::scene
