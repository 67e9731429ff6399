// The flat influence lists of influence_lists.hpp.
#include "libmod/scene/influence_lists.hpp"

#include <algorithm>
#include <functional>

namespace mod::scene {

InfluenceLists::InfluenceLists(std::initializer_list<std::vector<Influence>> lists) {
    std::size_t total = 0;
    for (const auto& list : lists) total += list.size();
    reserve(lists.size(), total);
    for (const auto& list : lists) push_back(list);
}

// Each change reserves first and then only writes into reserved room, so that running out of
// memory leaves the lists as they were.

void InfluenceLists::push_back(std::span<const Influence> list) {
    const std::less<const Influence*> before;
    if (!list.empty() && !before(list.data(), entries_.data()) && before(list.data(), entries_.data() + entries_.size())) {
        const std::vector<Influence> copy(list.begin(), list.end());  // one of our own lists
        push_back(copy);
        return;
    }
    offsets_.reserve(offsets_.size() + (offsets_.empty() ? 2 : 1));
    entries_.insert(entries_.end(), list.begin(), list.end());
    if (offsets_.empty()) offsets_.push_back(0);
    offsets_.push_back(entries_.size());
}

void InfluenceLists::append(const InfluenceLists& other) {
    if (&other == this) {
        const InfluenceLists copy = other;
        append(copy);
        return;
    }
    if (other.empty()) return;
    offsets_.reserve(offsets_.size() + other.size() + (offsets_.empty() ? 1 : 0));
    const std::size_t base = entries_.size();
    entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
    if (offsets_.empty()) offsets_.push_back(0);
    for (std::size_t v = 1; v < other.offsets_.size(); ++v) offsets_.push_back(base + other.offsets_[v]);
}

void InfluenceLists::set(std::size_t v, std::span<const Influence> list) {
    const std::size_t begin = offsets_[v], end = offsets_[v + 1];
    const std::vector<Influence> copy(list.begin(), list.end());  // `list` may point into entries_
    entries_.reserve(entries_.size() - (end - begin) + copy.size());
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(begin), entries_.begin() + static_cast<std::ptrdiff_t>(end));
    entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(begin), copy.begin(), copy.end());
    for (std::size_t i = v + 1; i < offsets_.size(); ++i) offsets_[i] = offsets_[i] - (end - begin) + copy.size();
}

InfluenceLists InfluenceLists::with_sizes(std::span<const std::uint32_t> counts) {
    InfluenceLists out;
    out.offsets_.resize(counts.size() + 1);
    std::size_t total = 0;
    out.offsets_[0] = 0;
    for (std::size_t v = 0; v < counts.size(); ++v) out.offsets_[v + 1] = total += counts[v];
    out.entries_.resize(total);
    return out;
}

void InfluenceLists::keep_only(std::span<const std::uint32_t> which) {
    if (empty()) return;  // no lists at all (a mesh without influences)
    // `which` is increasing, so every kept list moves down (or stays): gathered in place.
    std::size_t written = 0;
    for (std::size_t i = 0; i < which.size(); ++i) {
        const std::size_t begin = offsets_[which[i]], end = offsets_[which[i] + 1];
        offsets_[i] = written;
        if (begin != written) std::copy(entries_.begin() + static_cast<std::ptrdiff_t>(begin),
                                        entries_.begin() + static_cast<std::ptrdiff_t>(end),
                                        entries_.begin() + static_cast<std::ptrdiff_t>(written));
        written += end - begin;
    }
    offsets_.resize(which.size() + 1);
    offsets_.back() = written;
    entries_.resize(written);
}

void InfluenceLists::close_gap(std::size_t v, std::size_t written) {
    if (v + 1 >= offsets_.size()) return;
    const std::size_t shift = offsets_[v] - written;
    entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(written),
                   entries_.begin() + static_cast<std::ptrdiff_t>(offsets_[v]));
    for (std::size_t i = v; i < offsets_.size(); ++i) offsets_[i] -= shift;
}

bool operator==(const InfluenceLists& a, const InfluenceLists& b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t v = 0; v < a.size(); ++v) {
        auto x = a[v], y = b[v];
        if (!std::equal(x.begin(), x.end(), y.begin(), y.end(),
                        [](const Influence& p, const Influence& q) { return p.bone == q.bone && p.weight == q.weight; }))
            return false;
    }
    return true;
}

}  // namespace mod::scene
