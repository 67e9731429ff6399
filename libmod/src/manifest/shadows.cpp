// find_shadowed_edits: edits a later edit of the same file made (partly) invisible, read from
// the executed edits' result objects. Contract in apply_detail.hpp.

#include "apply_detail.hpp"
#include "json_fields.hpp"

#include "libmod/stadium/palette_edit.hpp"

#include <algorithm>

namespace mod::manifest::detail {

namespace {

template <class F>
void each(const rapidjson::Value& v, const char* name, F f) {
    if (const auto* m = member(v, name); m && m->IsArray())
        for (const auto& x : m->GetArray()) f(x);
}

bool is_palette_edit(const std::string& op) { return op == "palette.set" || op == "palette.hsv"; }

std::string list_text(const std::vector<std::uint64_t>& v) {
    std::string out;
    for (auto x : v) out += (out.empty() ? "" : ", ") + std::to_string(x);
    return out;
}

class Shadows {
public:
    explicit Shadows(Build& b) : b_(b) {
        for (std::size_t i = 0; i < b.plan.edits.size(); ++i) {
            const auto& e = b.plan.edits[i];
            auto k = b.input_keys.find({b.edit_refs[i].first, e.input});
            keys_.push_back(k == b.input_keys.end() ? std::string() : k->second);
        }
    }

    void run() {
        for (std::size_t i = 0; i < b_.results.size(); ++i) {
            if (b_.plan.edits[i].op != "texture.replace") continue;
            const auto& r = b_.results[i].report;
            if (u64_of(r, "model")) stadium_fork(i, r);
            else if (member(r, "bitmap")) totem_rewrite(i, r);
        }
    }

private:
    // The earlier palette edits of the same file as edit i.
    template <class F>
    void earlier_palette_edits(std::size_t i, F f) {
        for (std::size_t j = 0; j < i; ++j)
            if (is_palette_edit(b_.plan.edits[j].op) && !keys_[j].empty() && keys_[j] == keys_[i])
                f(j, b_.results[j].report);
    }

    void shadow(std::size_t shadowed, std::size_t by, const std::string& what, const std::string& fix) {
        const auto& later = b_.plan.edits[by];
        b_.results[shadowed].shadowed_by.emplace_back(by, what);
        b_.results[shadowed].warnings.push_back(what + ": " + fix);
        b_.results[by].warnings.push_back("it overrides part of edit \"" + b_.plan.edits[shadowed].id + "\" (" + later.op +
                                          " after " + b_.plan.edits[shadowed].op + "): " + what);
    }

    // Is palette `palette` of model `model` drawn by any material of the file as it ends?
    std::optional<bool> drawn_at_end(std::size_t i, std::uint64_t model, std::uint64_t palette) {
        auto f = b_.files.find(keys_[i]);
        if (f == b_.files.end()) return std::nullopt;
        try {
            const auto archive = workspace_archive(f->second);
            const stadium::Model m = stadium::read_archive_model(*archive, model);
            for (const auto& mt : m.materials)
                if (mt.palette >= 0 && std::uint64_t(mt.palette) == palette) return true;
            return false;
        } catch (const Error&) {
            return std::nullopt;  // the file is not (any more) a Stadium ROM: no claim made
        }
    }

    void stadium_fork(std::size_t i, const rapidjson::Value& r) {
        const std::uint64_t model = *u64_of(r, "model");
        each(r, "textures", [&](const rapidjson::Value& t) {
            const auto* forked = member(t, "palette_forked");
            if (!forked || !forked->IsBool() || !forked->GetBool()) return;
            const auto texture = u64_of(t, "texture"), new_palette = u64_of(t, "palette");
            if (!texture) return;
            earlier_palette_edits(i, [&](std::size_t j, const rapidjson::Value& pr) {
                if (u64_of(pr, "model") != model) return;
                each(pr, "palettes", [&](const rapidjson::Value& p) {
                    const auto palette = u64_of(p, "palette");
                    bool colours = false;
                    each(p, "textures", [&](const rapidjson::Value& x) { colours |= x.IsUint64() && x.GetUint64() == *texture; });
                    if (!palette || !colours) return;
                    std::string what = "palette " + std::to_string(*palette) + " of model " + std::to_string(model) +
                                       " no longer colours texture " + std::to_string(*texture) + ": edit \"" +
                                       b_.plan.edits[i].id + "\" gave the texture palette " +
                                       (new_palette ? std::to_string(*new_palette) : std::string("?")) +
                                       " of its own (\"mode\": \"fork\")";
                    if (drawn_at_end(i, model, *palette) == false)
                        what += "; palette " + std::to_string(*palette) + " is drawn by nothing now, so this edit changes "
                                "nothing you can see";
                    shadow(j, i, what,
                           "to recolour the texture, put this edit after \"" + b_.plan.edits[i].id + "\" with \"palette\": " +
                               (new_palette ? std::to_string(*new_palette) : std::string("its new palette")) +
                               ", or give \"" + b_.plan.edits[i].id + "\" another \"mode\"");
                });
            });
        });
    }

    void totem_rewrite(std::size_t i, const rapidjson::Value& r) {
        const std::string bitmap = text_of(r, "bitmap");
        std::vector<std::uint64_t> rewritten;
        each(r, "palette_slots_rewritten", [&](const rapidjson::Value& x) {
            if (x.IsUint64()) rewritten.push_back(x.GetUint64());
        });
        if (rewritten.empty()) return;
        earlier_palette_edits(i, [&](std::size_t j, const rapidjson::Value& pr) {
            if (text_of(pr, "bitmap") != bitmap) return;
            std::vector<std::uint64_t> lost;
            each(pr, "changes", [&](const rapidjson::Value& c) {
                const auto slot = u64_of(c, "slot");
                if (slot && std::binary_search(rewritten.begin(), rewritten.end(), *slot)) lost.push_back(*slot);
            });
            if (lost.empty()) return;
            std::sort(lost.begin(), lost.end());
            lost.erase(std::unique(lost.begin(), lost.end()), lost.end());
            shadow(j, i,
                   "palette slot(s) " + list_text(lost) + " of BITMAP " + bitmap + " were rewritten by edit \"" +
                       b_.plan.edits[i].id + "\" (texture.replace, mode " + text_of(r, "mode") + "), so this edit's colours there are gone",
                   "put this edit after \"" + b_.plan.edits[i].id + "\", or give \"" + b_.plan.edits[i].id +
                       "\" \"mode\": \"reindex\" (keeps the palette) or \"lock\": [" + list_text(lost) + "]");
        });
    }

    Build& b_;
    std::vector<std::string> keys_;
};

}  // namespace

void find_shadowed_edits(Build& b) { Shadows(b).run(); }

}  // namespace mod::manifest::detail
