// Bone-map templates (contract in bone_suggest.hpp).
#include "libmod/scene/bone_suggest.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace mod::scene {
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// The part up to and including the last ':' or '|', or empty.
std::string_view namespace_prefix(std::string_view name) {
    const auto at = name.find_last_of(":|");
    return at == std::string_view::npos ? std::string_view() : name.substr(0, at + 1);
}

}  // namespace

std::vector<BoneUsage> bone_usage(const Scene& scene) {
    std::vector<BoneUsage> out(scene.skeleton.bones.size());
    for (std::size_t b = 0; b < out.size(); ++b) out[b].name = scene.skeleton.bones[b].name;
    for (const Mesh& m : scene.meshes)
        for (std::size_t v = 0; v < m.influences.size(); ++v)
            for (const Influence& e : m.influences[v])
                if (e.bone < out.size() && e.weight != 0 && std::isfinite(e.weight)) {
                    out[e.bone].total_weight += e.weight;
                    ++out[e.bone].vertices;
                }
    return out;
}

std::string normalised_bone_name(std::string_view name) {
    name.remove_prefix(namespace_prefix(name).size());
    std::string l = lower(name);
    for (const char* p : {"bip01 ", "bip01_", "bip001 ", "bip001_", "def-", "def_", "org-", "b_", "bn_", "bone_", "jnt_"})
        if (l.rfind(p, 0) == 0 && l.size() > std::char_traits<char>::length(p)) {
            l.erase(0, std::char_traits<char>::length(p));
            break;
        }
    std::string out;
    for (char c : l)
        if (c != ' ' && c != '_' && c != '-' && c != '.') out.push_back(c);
    return out;
}

std::string bone_map_text(const BoneMapTemplate& t, const std::vector<BoneUsage>& source) {
    std::string x;
    x += "# bone map template written by modkit (shred, totem or stadium bones): source = target, one per line.\n";
    x += "# Check every line; '# ... = ?' lines had no (or more than one) matching target; '# by shape' lines\n";
    x += "# were matched by where the bones are, not by name.\n";
    for (const auto& p : t.strip_prefixes) x += "strip " + p + "\n";
    std::map<std::string, const BoneUsage*> usage;
    for (const auto& s : source) usage[s.name] = &s;
    for (const auto& b : t.bones) {
        if (b.same_name || b.by_strip) continue;
        const auto u = usage.find(b.source);
        if (u == usage.end()) continue;
        char weight[64];
        std::snprintf(weight, sizeof weight, "%.6g", u->second->total_weight);
        if (!b.target.empty() && b.by_shape) {
            // The note goes on its own line: a map line is "source = target" to its end.
            char d[128];
            std::snprintf(d, sizeof d, "# by shape (%.0f%% of the skeleton's size away), check:\n", 100 * b.shape_distance);
            x += d + b.source + " = " + b.target + "\n";
        } else if (!b.target.empty()) {
            x += b.source + " = " + b.target + "\n";
        } else {
            x += "# " + b.source + " = ?    # " +
                 (b.candidates ? std::to_string(b.candidates) + " targets match" : std::string("no target matches")) +
                 "; weight " + weight + " on " + std::to_string(u->second->vertices) + " vertices\n";
        }
    }
    return x;
}

BoneMapTemplate suggest_bone_map(const std::vector<BoneUsage>& source, const std::vector<std::string>& target) {
    BoneMapTemplate t;
    std::set<std::string> exact(target.begin(), target.end());
    std::map<std::string, std::vector<std::string>> by_key;
    for (const auto& name : target) by_key[normalised_bone_name(name)].push_back(name);

    for (const auto& s : source) {
        BoneSuggestion b;
        b.source = s.name;
        if (exact.count(s.name)) {
            b.target = s.name;
            b.same_name = true;
            b.candidates = 1;
        } else {
            auto it = by_key.find(normalised_bone_name(s.name));
            b.candidates = it == by_key.end() ? 0 : it->second.size();
            if (b.candidates == 1) b.target = it->second.front();
        }
        t.bones.push_back(b);
    }
    // A namespace prefix ("mixamorig:") becomes a strip rule when removing it gives the exact
    // target name of at least two bones.
    std::map<std::string, std::size_t> strip_hits;
    for (const auto& b : t.bones) {
        if (b.same_name || b.target.empty()) continue;
        const std::string_view p = namespace_prefix(b.source);
        if (!p.empty() && p.size() < b.source.size() && b.source.substr(p.size()) == b.target) ++strip_hits[std::string(p)];
    }
    for (const auto& [prefix, hits] : strip_hits)
        if (hits >= 2 && prefix.find('#') == std::string::npos) t.strip_prefixes.push_back(prefix);
    for (auto& b : t.bones) {
        if (b.same_name || b.target.empty()) continue;
        for (const auto& p : t.strip_prefixes)
            if (b.source.rfind(p, 0) == 0 && b.source.substr(p.size()) == b.target) b.by_strip = true;
    }

    t.text = bone_map_text(t, source);
    return t;
}

}  // namespace mod::scene
