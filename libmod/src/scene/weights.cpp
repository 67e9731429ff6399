// Top-N selection, renormalisation and largest-remainder quantisation (contract: weights.hpp).
#include "libmod/scene/weights.hpp"

#include "libmod/core/error.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace mod::scene {
namespace {

// Names a vertex in messages, built only when a message is needed.
struct Where {
    std::string_view text;       // used when mesh is null
    const std::string* mesh = nullptr;
    std::size_t vertex = 0;
    std::string str() const {
        if (!mesh) return text.empty() ? std::string("vertex") : std::string(text);
        return "mesh '" + *mesh + "' vertex " + std::to_string(vertex);
    }
};

struct Slot {
    std::uint32_t bone;
    double weight;
};

// Insertion sort: stable, and what std::sort itself does for up to 16 elements, so replacing
// std::sort by it for those sizes changes no result (equal bones are summed in this order).
template <class Less>
void insertion_sort(Slot* first, std::size_t n, Less less) {
    for (std::size_t i = 1; i < n; ++i) {
        Slot x = first[i];
        std::size_t j = i;
        for (; j > 0 && less(x, first[j - 1]); --j) first[j] = first[j - 1];
        first[j] = x;
    }
}

constexpr std::size_t small_sort = 16;  // libstdc++'s insertion-sort threshold

template <class Less>
void sort_slots(std::vector<Slot>& slots, Less less) {
    if (slots.size() <= small_sort) insertion_sort(slots.data(), slots.size(), less);
    else std::sort(slots.begin(), slots.end(), less);
}

// Step 1: merged, positive, finite entries (sorted by bone so merging is order-independent).
// Fills `slots` (reused across vertices to avoid an allocation per vertex).
void positive_entries(std::span<const Influence> influences, const Where& where, std::vector<Slot>& slots) {
    slots.clear();
    for (const auto& inf : influences) {
        if (!std::isfinite(inf.weight) || inf.weight < 0)
            throw Error(ErrorKind::format, where.str() + ": bone " + std::to_string(inf.bone) +
                                               " has weight " + std::to_string(inf.weight) +
                                               " (weights must be finite and not negative)");
        if (inf.weight > 0) slots.push_back({inf.bone, inf.weight});
    }
    sort_slots(slots, [](const Slot& a, const Slot& b) { return a.bone < b.bone; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        if (out > 0 && slots[out - 1].bone == slots[i].bone) slots[out - 1].weight += slots[i].weight;
        else slots[out++] = slots[i];
    }
    slots.resize(out);
}

// What one vertex adds to a WeightReport (kept per distinct list, see process_weights).
struct Outcome {
    std::uint8_t positive = 0;      // positive source influences, 8 meaning 8 or more
    std::uint8_t final_count = 0;
    std::uint8_t dropped = 0;       // kept slots that quantised to zero
    bool trimmed = false, renormalised = false;

    // What `vertices` vertices with this outcome add.
    void add_to(WeightReport& r, std::size_t vertices) const {
        r.source_histogram[positive] += vertices;
        r.histogram[final_count] += vertices;
        r.trimmed_vertices += trimmed * vertices;
        r.renormalised_vertices += renormalised * vertices;
        r.dropped_by_rounding += dropped * vertices;
    }
};

SkinWeights quantise(std::vector<Slot>& slots, const WeightOptions& options, const Where& where, Outcome& outcome) {
    if (options.max_influences < 1 || options.max_influences > max_skin_influences)
        throw Error(ErrorKind::usage, "max_influences must be 1 to 4");
    SkinWeights out;
    std::size_t positive = slots.size();
    outcome = {};
    outcome.positive = static_cast<std::uint8_t>(std::min<std::size_t>(positive, 8));
    outcome.trimmed = positive > options.max_influences;
    if (slots.empty()) {
        if (!options.allow_unweighted)
            throw Error(ErrorKind::format, where.str() + " has no positive bone weight");
        return out;
    }
    // Step 2: largest first, lower bone index on ties (bones are unique: a total order).
    sort_slots(slots, [](const Slot& a, const Slot& b) {
        return a.weight != b.weight ? a.weight > b.weight : a.bone < b.bone;
    });
    std::size_t keep = std::min(slots.size(), options.max_influences);
    // Step 3.
    double sum = 0;
    for (std::size_t i = 0; i < keep; ++i) sum += slots[i].weight;
    double all = 0;
    for (const auto& s : slots) all += s.weight;
    outcome.renormalised = std::abs(all - 1.0) > 1e-6;
    // Step 4: floor, then the missing units to the largest remainders (earlier slot on ties).
    std::array<unsigned, 4> units{};
    std::array<double, 4> remainder{};
    unsigned total = 0;
    for (std::size_t i = 0; i < keep; ++i) {
        double scaled = slots[i].weight / sum * 255.0;
        // 0 <= scaled <= 255: the conversion truncates, which is the floor here.
        units[i] = std::min(255u, static_cast<unsigned>(scaled));
        remainder[i] = scaled - units[i];
        total += units[i];
    }
    // Slots by remainder descending, earlier slot first on ties (a stable insertion sort).
    std::array<std::size_t, 4> order{0, 1, 2, 3};
    for (std::size_t i = 1; i < keep; ++i)
        for (std::size_t j = i; j > 0 && remainder[order[j]] > remainder[order[j - 1]]; --j)
            std::swap(order[j], order[j - 1]);
    for (std::size_t k = 0; total < 255; k = k + 1 == keep ? 0 : k + 1) {
        ++units[order[k]];
        ++total;
    }
    // Step 5.
    std::array<Slot, 4> kept{};
    std::size_t count = 0;
    for (std::size_t i = 0; i < keep; ++i) {
        if (units[i] == 0) {
            ++outcome.dropped;
            continue;
        }
        kept[count++] = {slots[i].bone, double(units[i])};
    }
    // Insertion sort of at most 4 slots: weight descending, then bone ascending.
    for (std::size_t i = 1; i < count; ++i)
        for (std::size_t j = i; j > 0; --j) {
            const Slot& a = kept[j - 1];
            const Slot& b = kept[j];
            if (a.weight > b.weight || (a.weight == b.weight && a.bone < b.bone)) break;
            std::swap(kept[j - 1], kept[j]);
        }
    out.count = static_cast<std::uint8_t>(count);
    for (std::size_t i = 0; i < count; ++i) {
        out.bones[i] = kept[i].bone;
        out.weights[i] = static_cast<std::uint8_t>(kept[i].weight);
    }
    outcome.final_count = static_cast<std::uint8_t>(count);
    return out;
}

}  // namespace

SkinWeights quantise_influences(std::span<const Influence> influences, const WeightOptions& options,
                                std::string_view where) {
    Where w{where};
    std::vector<Slot> slots;
    positive_entries(influences, w, slots);
    Outcome outcome;
    return quantise(slots, options, w, outcome);
}

void process_weights(Mesh& mesh, const WeightOptions& options, WeightReport* report) {
    std::size_t n = mesh.vertex_count();
    if (mesh.influences.size() != n)
        throw Error(ErrorKind::format, "mesh '" + mesh.name + "' has " + std::to_string(mesh.influences.size()) +
                                           " influence lists for " + std::to_string(n) + " vertices");
    // Files that store one vertex per triangle corner (FBX) repeat each control point's list on
    // every corner: each distinct list (bones and weight bits, in order) is processed once, at
    // its first vertex, and later vertices copy its result; its report outcome is added once
    // per vertex that uses it. The result is a function of the list alone, and the first vertex
    // of a list that fails is the one that would have failed first, so results, reports and
    // errors are those of a vertex-by-vertex pass. Open addressing over distinct lists
    // (slot = distinct list + 1, 0 = empty).
    std::size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    std::vector<std::uint32_t> table(capacity, 0);
    // One entry per distinct list, in order of first appearance.
    struct Distinct {
        std::uint32_t first_vertex;
        SkinWeights result;
        Outcome outcome;       // what one vertex with this list adds to the report
        std::uint32_t uses;    // vertices with this list
    };
    std::vector<Distinct> distinct;
    std::vector<SkinWeights> skin;
    skin.reserve(n);
    std::vector<Slot> slots;
    const InfluenceLists& lists = mesh.influences;
    for (std::size_t v = 0; v < n; ++v) {
        const std::span<const Influence> list = lists[v];
        std::uint64_t h = list.size();
        for (const auto& inf : list)
            h = (h ^ influence_bits(inf)) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        std::size_t at = h & (capacity - 1);
        for (; table[at] != 0; at = (at + 1) & (capacity - 1))
            if (same_bits(lists[distinct[table[at] - 1].first_vertex], list)) break;
        if (std::uint32_t id = table[at]; id != 0) {
            Distinct& d = distinct[id - 1];
            skin.push_back(d.result);
            ++d.uses;
            continue;
        }
        Where where{{}, &mesh.name, v};
        positive_entries(list, where, slots);
        Outcome outcome;
        const SkinWeights result = quantise(slots, options, where, outcome);
        distinct.push_back({static_cast<std::uint32_t>(v), result, outcome, 1});
        table[at] = static_cast<std::uint32_t>(distinct.size());
        skin.push_back(result);
    }
    if (report)
        for (const Distinct& d : distinct) d.outcome.add_to(*report, d.uses);
    mesh.skin = std::move(skin);
}

WeightReport process_weights(Scene& scene, const WeightOptions& options) {
    WeightReport report;
    for (auto& mesh : scene.meshes) {
        try {
            process_weights(mesh, options, &report);
        } catch (Error& e) {
            e.set_file_if_empty(scene.source);
            throw;
        }
    }
    return report;
}

}  // namespace mod::scene
