#pragma once
// mod::scene::InfluenceLists — the raw (bone, weight) lists of every vertex of a mesh, stored
// flat: one array of entries for all vertices and one offset per vertex, instead of one
// allocation per vertex. FBX gives one vertex per triangle corner (thousands of short lists);
// allocating, walking and freeing them one by one cost more than the weight processing itself.
//
// List v is entries()[offsets()[v] .. offsets()[v + 1]). A list may be empty. Lists are
// appended in vertex order; a list in the middle can be rewritten in place (its entries
// changed, or shortened through rewrite_each) or replaced (set, which moves later entries).
#include "libmod/core/error.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <span>
#include <vector>

namespace mod::scene {

// One (bone, weight) pair of a vertex before our weight processing: the weight exactly as the
// file stored it (not normalised, possibly more than 4 per vertex, possibly zero).
struct Influence {
    std::uint32_t bone = 0;  // index into Skeleton::bones
    float weight = 0;
};

// An entry's bone and weight bits as one word (no padding: the two fields are all its bytes).
inline std::uint64_t influence_bits(const Influence& inf) noexcept {
    static_assert(sizeof(Influence) == sizeof(std::uint32_t) + sizeof(float));
    std::uint64_t word;
    std::memcpy(&word, &inf, sizeof word);
    return word;
}

// The same raw list: bones and weight bits in the same order (-0 differs from 0; a NaN equals
// a NaN of the same bits). What weight processing and welding treat as one list.
inline bool same_bits(std::span<const Influence> a, std::span<const Influence> b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (influence_bits(a[i]) != influence_bits(b[i])) return false;
    return true;
}

class InfluenceLists {
public:
    InfluenceLists() = default;
    // One list per element, in order (tests and small producers: {{{0, 1.0f}}, {}, ...}).
    InfluenceLists(std::initializer_list<std::vector<Influence>> lists);

    // Number of vertices (lists), not of entries.
    std::size_t size() const noexcept { return offsets_.empty() ? 0 : offsets_.size() - 1; }
    bool empty() const noexcept { return offsets_.size() <= 1; }

    std::span<const Influence> operator[](std::size_t v) const noexcept {
        return {entries_.data() + offsets_[v], entries_.data() + offsets_[v + 1]};
    }
    // The list's entries, editable in place (its length is fixed; see rewrite_each and set).
    std::span<Influence> operator[](std::size_t v) noexcept {
        return {entries_.data() + offsets_[v], entries_.data() + offsets_[v + 1]};
    }

    // Appends the list of the next vertex.
    void push_back(std::span<const Influence> list);
    void push_back(std::initializer_list<Influence> list) { push_back(std::span<const Influence>(list.begin(), list.size())); }
    // Appends every list of `other` (which may be this object), in order.
    void append(const InfluenceLists& other);
    // Replaces list v (later entries move: linear in the total entry count; for edits, not loops).
    void set(std::size_t v, std::span<const Influence> list);
    void set(std::size_t v, std::initializer_list<Influence> list) { set(v, std::span<const Influence>(list.begin(), list.size())); }

    // `vertices` lists of the given sizes, every entry {0, 0}, for producers that count first
    // and then fill each list through operator[]. `counts` holds one size per vertex.
    static InfluenceLists with_sizes(std::span<const std::uint32_t> counts);

    // Calls keep = shorten(list) for every list in vertex order, with the list's entries
    // editable; the list then keeps its first `keep` entries (a `keep` above the list's size is
    // a usage error). One pass, entries compacted in place. When `shorten` throws, the lists
    // before the throwing one are rewritten, it keeps its length (its entries as the callback
    // left them), the later ones are as they were, and the object stays valid.
    template <class Shorten>
    void rewrite_each(Shorten shorten) {
        std::size_t written = 0, v = 0;
        try {
            for (; v + 1 < offsets_.size(); ++v) {
                const std::size_t begin = offsets_[v], end = offsets_[v + 1];
                std::span<Influence> list(entries_.data() + begin, end - begin);
                const std::size_t keep = shorten(list);
                if (keep > list.size()) throw Error(ErrorKind::usage, "influence list rewrite keeps more entries than it has");
                offsets_[v] = written;
                if (begin != written)
                    for (std::size_t i = 0; i < keep; ++i) entries_[written + i] = list[i];
                written += keep;
            }
        } catch (...) {
            close_gap(v, written);
            throw;
        }
        if (!offsets_.empty()) offsets_.back() = written;
        entries_.resize(written);
    }

    // Keeps only the lists of the vertices in `which` (increasing, each below size()), in that
    // order: the weld's gather of first occurrences. Does nothing when there are no lists.
    void keep_only(std::span<const std::uint32_t> which);

    void clear() noexcept {
        offsets_.clear();
        entries_.clear();
    }
    void reserve(std::size_t vertices, std::size_t entries) {
        offsets_.reserve(vertices + 1);
        entries_.reserve(entries);
    }

    // Every entry of every list, in vertex order, and the size()+1 list boundaries (empty when
    // there are no lists).
    std::span<const Influence> entries() const noexcept { return entries_; }
    std::span<const std::size_t> offsets() const noexcept { return offsets_; }

    // Iteration over the lists (each a span), in vertex order.
    class const_iterator {
    public:
        using value_type = std::span<const Influence>;
        using difference_type = std::ptrdiff_t;
        const_iterator() = default;
        const_iterator(const InfluenceLists* lists, std::size_t v) : lists_(lists), v_(v) {}
        value_type operator*() const noexcept { return (*lists_)[v_]; }
        const_iterator& operator++() noexcept { return ++v_, *this; }
        const_iterator operator++(int) noexcept { auto old = *this; ++v_; return old; }
        friend bool operator==(const const_iterator& a, const const_iterator& b) noexcept { return a.v_ == b.v_; }

    private:
        const InfluenceLists* lists_ = nullptr;
        std::size_t v_ = 0;
    };
    const_iterator begin() const noexcept { return {this, 0}; }
    const_iterator end() const noexcept { return {this, size()}; }

    // Same lists, same bones, same weights (compared as values: -0 == 0, NaN != NaN).
    friend bool operator==(const InfluenceLists& a, const InfluenceLists& b) noexcept;

private:
    // After rewriting lists [0, v) into entries [0, written): moves lists v.. down to `written`.
    void close_gap(std::size_t v, std::size_t written);

    std::vector<std::size_t> offsets_;  // empty, or size()+1 boundaries starting at 0
    std::vector<Influence> entries_;
};

}  // namespace mod::scene
