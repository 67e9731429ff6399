// apply_manifests: load and check the base files, plan, check conflicts, run the edits in
// memory, then hand the results to the output step (outputs.cpp).
#include "libmod/manifest/apply.hpp"

#include "apply_detail.hpp"
#include "json_source.hpp"
#include "operation.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/core/progress.hpp"
#include "libmod/n64/rom.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <cstdint>
#include <tuple>

namespace mod::manifest {

namespace fs = std::filesystem;
using namespace detail;

namespace {

std::string identity_of(const fs::path& p) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return "path:" + fs::absolute(p).lexically_normal().string();
    return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

std::string kind_for(Game g, bool is_names) {
    if (is_names) return "names";
    switch (g) {
    case Game::pokemon_stadium: return "rom";
    case Game::thps_shred: return "pak";
    case Game::totemtech: return "archive";
    }
    return "file";
}

// Hash check; a byte-swapped N64 dump of the right ROM is recognised and accepted.
void check_hashes(const Manifest& m, const InputDecl& in, FileState& f, DigestCache& cache, std::vector<Diagnostic>& out) {
    struct Want {
        const char* name;
        const std::optional<std::string>& value;
    };
    const Want wants[] = {{"sha1", in.sha1}, {"md5", in.md5}, {"crc32", in.crc32}};
    auto of_original = [&](const Want& w) -> const std::string& { return original_digest(f, w.name, cache); };
    auto matches = [&](ByteView b) {
        for (const auto& w : wants)
            if (w.value && digest_hex(w.name, b) != *w.value) return false;
        return true;
    };
    if (std::all_of(std::begin(wants), std::end(wants), [&](const Want& w) { return !w.value || of_original(w) == *w.value; }))
        return;
    if (m.game == Game::pokemon_stadium && f.original.size() >= 0x40) {
        try {
            const auto order = n64::detect_order(ByteReader(f.original, Endian::big, f.display));
            if (order != n64::ByteOrder::z64 && matches(n64::to_z64(f.original, order))) {
                f.notes.push_back(std::string("a byte-swapped (") + n64::to_string(order) +
                                  ") dump of the expected ROM: accepted; outputs keep its byte order and patches apply to it");
                return;
            }
        } catch (const Error&) {
        }
    }
    for (const auto& w : wants) {
        if (!w.value || of_original(w) == *w.value) continue;
        out.push_back(m.at(pointer_join(pointer_join("/inputs", in.name), w.name),
                           in.path_text + " is not the base file this mod was made for: its " + w.name + " is " +
                               of_original(w) + ", the manifest expects " + *w.value));
        return;
    }
}

}  // namespace

void check_input_names(const std::vector<Manifest>& manifests, const std::map<std::string, fs::path>& input_paths) {
    for (const auto& [name, path] : input_paths) {
        std::string declared;
        bool found = false;
        for (const auto& m : manifests)
            for (const auto& in : m.inputs) {
                found = found || in.name == name;
                declared += (declared.empty() ? "" : ", ") + in.name;
            }
        if (!found)
            throw Error(ErrorKind::usage, "--input " + name + "=" + path.string() + ": no manifest declares an input \"" + name +
                                              "\" (declared: " + (declared.empty() ? "none" : declared) + ")");
    }
}

namespace detail {

Build load_build(const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    check_input_names(manifests, options.input_paths);
    Build b;
    std::vector<Diagnostic> out;
    ErrorKind kind = ErrorKind::format;
    for (std::size_t mi = 0; mi < manifests.size(); ++mi) {
        const Manifest& m = manifests[mi];
        std::set<std::string> name_tables;
        for (const auto& in : m.inputs)
            if (in.names) name_tables.insert(*in.names);
        for (const auto& declared : m.inputs) {
            // Where the input is read from: --input NAME=PATH, else its manifest path, else (when
            // that does not exist) a file of the bases folders with its hashes.
            InputDecl in = declared;
            std::string found_note;
            if (auto o = options.input_paths.find(in.name); o != options.input_paths.end()) {
                in.path = o->second;
                in.path_text = o->second.string();
                found_note = "read from " + in.path_text + " (--input " + in.name + "=…)";
            } else if (!options.bases.empty()) {
                std::error_code ec;
                if (!fs::exists(in.path, ec)) {
                    std::size_t looked = 0;
                    if (auto hit = find_base(in, options.bases, looked)) {
                        found_note = in.path_text + " is not in the mod folder: the file with its hashes is " + hit->string() +
                                     " (found in the bases folders)";
                        in.path = *hit;
                        in.path_text = hit->string();
                    } else {
                        if (out.empty()) kind = ErrorKind::io;
                        std::string folders;
                        for (const auto& d : options.bases) folders += (folders.empty() ? "" : ", ") + d.string();
                        const bool hashed = in.sha1 || in.md5 || in.crc32;
                        const std::string why = hashed ? "none of the " + std::to_string(looked) + " file(s) in " + folders +
                                                             " has its hashes"
                                                       : "the input declares no hash to look it up by in " + folders;
                        out.push_back(m.at(pointer_join(pointer_join("/inputs", in.name), "path"),
                                           "cannot read " + in.path_text + ": it does not exist, and " + why +
                                               " (name the file with --input " + in.name + "=PATH)"));
                        continue;
                    }
                }
            }
            const std::string key = identity_of(in.path);
            b.input_keys[{mi, in.name}] = key;
            auto [it, fresh] = b.files.try_emplace(key);
            FileState& f = it->second;
            if (fresh) {
                f.key = key;
                f.display = in.path.lexically_normal().string();
                f.path = in.path;
                f.kind = kind_for(m.game, name_tables.count(in.name) > 0);
                f.platform = in.platform;
                try {
                    // The stamp before and after the read: equal, it names the bytes read (the
                    // digest cache's key); a file that changed meanwhile gets none.
                    f.read_at_ns = realtime_ns();
                    const auto before = file_stamp(in.path);
                    f.original = read_file(in.path);
                    if (before && before == file_stamp(in.path)) f.stamp = before;
                } catch (const Error& e) {
                    if (out.empty()) kind = e.kind();  // io for a missing or unreadable file
                    std::error_code ec;
                    // Issue 30 item 5: the message ends with what to do.
                    const std::string fix = fs::exists(in.path, ec) || options.input_paths.count(in.name)
                                                ? std::string()
                                                : " (give your copy with --input " + in.name +
                                                      "=PATH, or the folder holding it with --bases DIR)";
                    out.push_back(m.at(pointer_join(pointer_join("/inputs", in.name), "path"),
                                       "cannot read " + in.path_text + ": " + e.message() + fix));
                    continue;
                }
                if (!found_note.empty()) f.notes.push_back(found_note);
                if (f.kind == "rom") {
                    try {
                        const auto order = n64::detect_order(ByteReader(f.original, Endian::big, f.display));
                        f.rom_order = n64::to_string(order);
                        // A z64 image's workspace copy is made after the hash checks (open_workspaces).
                        if (order != n64::ByteOrder::z64) f.current = n64::to_z64(f.original, order);
                    } catch (const Error& e) {
                        out.push_back(m.at(pointer_join(pointer_join("/inputs", in.name), "path"),
                                           in.path_text + " is not an N64 ROM: " + e.message()));
                        continue;
                    }
                } else {
                    f.current = f.original;
                }
            }
            check_hashes(m, in, f, b.digests, out);
            if (auto o = m.outputs.find(in.name); o != m.outputs.end()) {
                fs::path dest = o->second;
                if (options.out_dir) dest = *options.out_dir / dest.lexically_relative(m.dir);
                if (!f.output) f.output = dest;
                else if (f.output->lexically_normal() != dest.lexically_normal())
                    f.notes.push_back("also named as output " + dest.string() + " by " + m.file.string() + "; written once, to " +
                                      f.output->string());
            }
        }
        for (const auto& in : m.inputs)
            if (in.names) {
                auto a = b.input_keys.find({mi, in.name}), n = b.input_keys.find({mi, *in.names});
                if (a != b.input_keys.end() && n != b.input_keys.end()) b.files[a->second].names_key = n->second;
            }
    }
    if (!out.empty()) {
        b.digests.save();  // what the hash checks computed, for the next run
        throw ManifestError(kind, std::move(out));
    }
    return b;
}

EditEnv env_for(Build& b, const Manifest& m, std::size_t mi, const EditDecl& e, unsigned threads) {
    FileState& target = b.files.at(b.input_keys.at({mi, e.input}));
    FileState* names = target.names_key.empty() ? nullptr : &b.files.at(target.names_key);
    const auto& params = m.source->doc()["edits"][rapidjson::SizeType(e.index)];
    return EditEnv{m, e, params, target, names, b.files, threads};
}

}  // namespace detail

namespace {

Diagnostic located(const Manifest& m, const EditDecl& e, const Error& err) {
    std::string msg = e.op + " failed: " + err.what();
    return m.at(e.pointer, std::move(msg));
}

// Points 0..n-1 (elementary segments between range ends), each holding the smallest value of
// the ranges laid over it: update lays a value over [lo, hi), query gives the smallest value
// over any point of [lo, hi) (none when nothing lies there). O(log n) each.
class EarliestCover {
public:
    static constexpr std::size_t none = SIZE_MAX;
    explicit EarliestCover(std::size_t n) : n_(n), tag_(4 * std::max<std::size_t>(n, 1), none), min_(tag_) {}
    void update(std::size_t lo, std::size_t hi, std::size_t v) { if (lo < hi) update(1, 0, n_, lo, hi, v); }
    std::size_t query(std::size_t lo, std::size_t hi) const { return lo < hi ? query(1, 0, n_, lo, hi) : none; }

private:
    void update(std::size_t node, std::size_t nl, std::size_t nr, std::size_t lo, std::size_t hi, std::size_t v) {
        if (hi <= nl || nr <= lo) return;
        if (lo <= nl && nr <= hi) {
            tag_[node] = std::min(tag_[node], v);
            min_[node] = std::min(min_[node], v);
            return;
        }
        const std::size_t mid = (nl + nr) / 2;
        update(2 * node, nl, mid, lo, hi, v);
        update(2 * node + 1, mid, nr, lo, hi, v);
        min_[node] = std::min({tag_[node], min_[2 * node], min_[2 * node + 1]});
    }
    std::size_t query(std::size_t node, std::size_t nl, std::size_t nr, std::size_t lo, std::size_t hi) const {
        if (hi <= nl || nr <= lo) return none;
        if (lo <= nl && nr <= hi) return min_[node];
        const std::size_t mid = (nl + nr) / 2;
        return std::min({tag_[node], query(2 * node, nl, mid, lo, hi), query(2 * node + 1, mid, nr, lo, hi)});
    }
    std::size_t n_;
    std::vector<std::size_t> tag_, min_;
};

// What to do about a conflict (issue 30 item 5: messages end with the fix), by what the two
// edits touch.
std::string conflict_fix(const std::string& later, const std::string& earlier) {
    const auto has = [&](const char* word) {
        return later.find(word) != std::string::npos || earlier.find(word) != std::string::npos;
    };
    if (has("palette"))
        return "give one edit other slots (\"lock\" the slots the other sets, or \"slots\"), or let a texture.replace "
               "take a palette of its own with \"mode\": \"fork\"";
    if (has("repacked"))
        return "a repack moves everything after it: put the byte edits into the replacement's source instead, or drop one";
    return "drop one of the two edits, or merge them into one";
}

void plan_all(Build& b, const std::vector<Manifest>& manifests, unsigned threads) {
    std::vector<Diagnostic> out;
    ErrorKind kind = ErrorKind::usage;
    for (std::size_t mi = 0; mi < manifests.size(); ++mi) {
        const Manifest& m = manifests[mi];
        for (const auto& e : m.edits) {
            PlannedEdit p;
            p.manifest = m.file.string();
            p.id = e.id;
            p.op = e.op;
            p.input = e.input;
            const auto pos = m.source->value_pos(e.pointer);
            p.line = pos.line, p.column = pos.column;
            try {
                EditEnv env = env_for(b, m, mi, e, threads);
                find_operation(e.op, m.game)->plan(env, p);
            } catch (const ManifestError& err) {
                if (out.empty()) kind = err.kind();  // the exit code follows the first problem
                out.insert(out.end(), err.diagnostics().begin(), err.diagnostics().end());
            } catch (const Error& err) {
                if (out.empty()) kind = err.kind();
                out.push_back(located(m, e, err));
            }
            b.plan.edits.push_back(std::move(p));
            b.edit_refs.push_back({mi, &e});
        }
    }
    if (!out.empty()) throw ManifestError(kind, std::move(out));

    const auto conflicts_start = std::chrono::steady_clock::now();
    // Conflicts: same file and structure, overlapping ranges, one of them exclusive. Each edit
    // in conflict is reported once, against the earliest edit it conflicts with (n edits that all
    // collide give n - 1 lines, not n^2 / 2), and at most max_conflicts lines in all. Near-linear
    // (issue 34: 20,000 edits took 18.6 s when every pair was compared): per region, the edits
    // go in order through two min-segment-trees over the region's range ends (every touch, the
    // exclusive ones), which answer "the earliest earlier touch overlapping [begin, end)".
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::size_t, const Touch*>>> by_region;
    for (std::size_t i = 0; i < b.plan.edits.size(); ++i)
        for (const auto& t : b.plan.edits[i].touches) by_region[{t.file, t.region}].push_back({i, &t});
    constexpr std::size_t max_conflicts = 200;
    std::set<std::size_t> reported;
    std::size_t more = 0;
    for (const auto& [region, list] : by_region) {
        // list is in edit order; a touch is named by its position in it.
        std::vector<std::uint64_t> coords;
        for (const auto& [i, t] : list)
            if (t->begin < t->end) coords.push_back(t->begin), coords.push_back(t->end);
        std::sort(coords.begin(), coords.end());
        coords.erase(std::unique(coords.begin(), coords.end()), coords.end());
        auto segments = [&](const Touch& t) {  // [first, last) elementary segments the touch covers
            return std::pair<std::size_t, std::size_t>(
                std::lower_bound(coords.begin(), coords.end(), t.begin) - coords.begin(),
                std::lower_bound(coords.begin(), coords.end(), t.end) - coords.begin());
        };
        const std::size_t n_seg = coords.empty() ? 0 : coords.size() - 1;
        EarliestCover all(n_seg), exclusive(n_seg);
        // For each later edit: (earliest partner position, its own touch position).
        std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> found;  // (x, y, edit)
        for (std::size_t y0 = 0; y0 < list.size();) {
            std::size_t y1 = y0;
            while (y1 < list.size() && list[y1].first == list[y0].first) ++y1;  // one edit's touches
            const std::size_t j = list[y0].first;
            std::size_t best_x = EarliestCover::none, best_y = 0;
            for (std::size_t y = y0; y < y1; ++y) {
                const Touch& t = *list[y].second;
                if (!(t.begin < t.end)) continue;
                const auto [lo, hi] = segments(t);
                const std::size_t x = (t.exclusive ? all : exclusive).query(lo, hi);
                if (x < best_x) best_x = x, best_y = y;
            }
            if (best_x != EarliestCover::none && !reported.count(j)) found.emplace_back(best_x, best_y, j);
            for (std::size_t y = y0; y < y1; ++y) {
                const Touch& t = *list[y].second;
                if (!(t.begin < t.end)) continue;
                const auto [lo, hi] = segments(t);
                all.update(lo, hi, y);
                if (t.exclusive) exclusive.update(lo, hi, y);
            }
            y0 = y1;
        }
        std::sort(found.begin(), found.end());  // the order a pass over every pair would find them
        for (const auto& [x, y, j] : found) {
            reported.insert(j);
            if (out.size() >= max_conflicts) {
                ++more;
                continue;
            }
            const auto& [i, ft_ptr] = list[x];
            const Touch& ft = *ft_ptr;
            const Touch& st = *list[y].second;
            const auto& first = b.plan.edits[i];
            const auto& ref = b.edit_refs[j];
            out.push_back(manifests[ref.first].at(
                ref.second->pointer, "conflicts with edit \"" + first.id + "\" (" + first.manifest + ":" +
                                         std::to_string(first.line) + ":" + std::to_string(first.column) +
                                         "): both change " + region.first + " " + region.second + " (" + st.what +
                                         " / " + ft.what + "); " + conflict_fix(st.what, ft.what)));
        }
    }
    if (more)
        out.push_back(Diagnostic{"", 0, 0, "", "and " + std::to_string(more) + " more edits in conflict (only the first " +
                                                   std::to_string(max_conflicts) + " are listed)"});
    if (!out.empty()) throw ManifestError(ErrorKind::conflict, std::move(out));
    b.timings.emplace_back("conflict check",
                           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - conflicts_start).count());
}

// The workspace copy of each z64 ROM, made once its hashes are checked and the plan has its
// digests. When nothing reads the base bytes afterwards (a dry run, or no patch and no report:
// the patches and the report pages are their only readers for a ROM) the read buffer becomes
// the workspace itself, without a copy: 32 MiB fewer to fill and hold (issue 31).
void open_workspaces(Build& b, const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    const bool patches = std::any_of(manifests.begin(), manifests.end(), [](const Manifest& m) { return !m.patches.empty(); });
    const bool base_read_later = !options.dry_run && (patches || builds_report(manifests, options));
    for (auto& [key, f] : b.files) {
        if (f.kind != "rom" || f.rom_order != n64::to_string(n64::ByteOrder::z64)) continue;
        if (base_read_later) f.current = f.original;
        else f.current = std::move(f.original);  // `original` is empty from here on
    }
}

}  // namespace

std::string missing_capability(const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    for (const auto& m : manifests)
        for (const auto& e : m.edits)
            if (!detail::find_operation(e.op, m.game)) return "operation " + e.op + " (" + to_string(m.game) + ")";
    if (writes_report_folder(manifests, options) && !detail::report_page_builder()) return "a report page";
    return {};
}

ApplyResult apply_manifests(const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    if (const std::string missing = missing_capability(manifests, options); !missing.empty())
        throw std::logic_error("this program does not carry " + missing + " (modkit-scene does)");
    Build b = load_build(manifests, options);
    for (auto& [key, f] : b.files) {
        PlannedFile pf;
        pf.key = key;
        pf.input = f.path;
        pf.output = f.output;
        pf.size = f.original.size();
        if (builds_report(manifests, options)) {
            pf.sha1 = original_digest(f, "sha1", b.digests);
            pf.crc32 = original_digest(f, "crc32", b.digests);
        }
        pf.kind = f.kind;
        pf.notes = f.notes;
        b.plan.files.push_back(std::move(pf));
    }
    b.digests.save();  // what the hash checks and the plan computed, for the next run
    open_workspaces(b, manifests, options);
    const auto t1 = clock::now();
    plan_all(b, manifests, options.threads);
    const auto t2 = clock::now();
    b.timings.insert(b.timings.begin(), {{"load", std::chrono::duration<double, std::milli>(t1 - t0).count()},
                                         {"plan", std::chrono::duration<double, std::milli>(t2 - t1).count()}});
    // Execute in order on the in-memory files, for a dry run too (issue 30: what the dry run
    // accepts, apply must accept, so every asset is read and every edit run; nothing is written).
    Progress progress(options.dry_run ? "dry run" : "apply", b.edit_refs.size(), options.quiet);
    for (std::size_t i = 0; i < b.edit_refs.size(); ++i) {
        const auto& [mi, e] = b.edit_refs[i];
        const Manifest& m = manifests[mi];
        EditResult er;
        er.report.SetObject();
        ReportOut out{er.report, b.alloc(), er.warnings};
        const auto start = clock::now();
        try {
            EditEnv env = env_for(b, m, mi, *e, options.threads);
            find_operation(e->op, m.game)->apply(env, out);
            env.target.edited = true;
        } catch (const ManifestError&) {
            throw;
        } catch (const Error& err) {
            throw ManifestError(err.kind(), {located(m, *e, err)});
        }
        er.ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
        b.results.push_back(std::move(er));
        progress.advance();
    }
    find_shadowed_edits(b);
    b.timings.emplace_back("edits", std::chrono::duration<double, std::milli>(clock::now() - t2).count());
    if (options.dry_run) {
        ApplyResult result;
        for (std::size_t i = 0; i < b.results.size(); ++i)
            for (const auto& w : b.results[i].warnings) result.warnings.push_back(b.plan.edits[i].id + ": " + w);
        result.plan = std::move(b.plan);
        result.timings = std::move(b.timings);
        return result;
    }
    return write_outputs(b, manifests, options);
}

}  // namespace mod::manifest
