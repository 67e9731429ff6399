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

std::string md5_hex(ByteView b) { return to_hex(md5(b)); }

// Hash check; a byte-swapped N64 dump of the right ROM is recognised and accepted.
void check_hashes(const Manifest& m, const InputDecl& in, FileState& f, std::vector<Diagnostic>& out) {
    struct Want {
        const char* name;
        const std::optional<std::string>& value;
        std::string (*of)(ByteView);
    };
    const Want wants[] = {{"sha1", in.sha1, sha1_hex}, {"md5", in.md5, md5_hex}, {"crc32", in.crc32, crc32_hex}};
    auto matches = [&](ByteView b) {
        for (const auto& w : wants)
            if (w.value && w.of(b) != *w.value) return false;
        return true;
    };
    if (matches(f.original)) return;
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
        if (!w.value || w.of(f.original) == *w.value) continue;
        out.push_back(m.at(pointer_join(pointer_join("/inputs", in.name), w.name),
                           in.path_text + " is not the base file this mod was made for: its " + w.name + " is " +
                               w.of(f.original) + ", the manifest expects " + *w.value));
        return;
    }
}

}  // namespace

namespace detail {

Build load_build(const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    Build b;
    std::vector<Diagnostic> out;
    ErrorKind kind = ErrorKind::format;
    for (std::size_t mi = 0; mi < manifests.size(); ++mi) {
        const Manifest& m = manifests[mi];
        std::set<std::string> name_tables;
        for (const auto& in : m.inputs)
            if (in.names) name_tables.insert(*in.names);
        for (const auto& in : m.inputs) {
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
                    f.original = read_file(in.path);
                } catch (const Error& e) {
                    if (out.empty()) kind = e.kind();  // io for a missing or unreadable file
                    out.push_back(m.at(pointer_join(pointer_join("/inputs", in.name), "path"),
                                       "cannot read " + in.path_text + ": " + e.message()));
                    continue;
                }
                f.current = f.original;
                if (f.kind == "rom") {
                    try {
                        const auto order = n64::detect_order(ByteReader(f.original, Endian::big, f.display));
                        f.rom_order = n64::to_string(order);
                        if (order != n64::ByteOrder::z64) f.current = n64::to_z64(f.original, order);
                    } catch (const Error& e) {
                        out.push_back(m.at(pointer_join(pointer_join("/inputs", in.name), "path"),
                                           in.path_text + " is not an N64 ROM: " + e.message()));
                        continue;
                    }
                }
            }
            check_hashes(m, in, f, out);
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
    if (!out.empty()) throw ManifestError(kind, std::move(out));
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

bool overlaps(const Touch& a, const Touch& b) { return a.begin < b.end && b.begin < a.end; }

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

    // Conflicts: same file and structure, overlapping ranges, one of them exclusive.
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<std::size_t, const Touch*>>> by_region;
    for (std::size_t i = 0; i < b.plan.edits.size(); ++i)
        for (const auto& t : b.plan.edits[i].touches) by_region[{t.file, t.region}].push_back({i, &t});
    // Each edit is reported once, with the first earlier edit it conflicts with (n edits that
    // all collide give n - 1 lines, not n^2 / 2), and at most max_conflicts lines in all.
    constexpr std::size_t max_conflicts = 200;
    std::set<std::size_t> reported;
    std::size_t more = 0;
    for (const auto& [region, list] : by_region)
        for (std::size_t x = 0; x < list.size(); ++x)
            for (std::size_t y = x + 1; y < list.size(); ++y) {
                const auto& [i, a] = list[x];
                const auto& [j, c] = list[y];
                if (i == j || !(a->exclusive || c->exclusive) || !overlaps(*a, *c)) continue;
                if (!reported.insert(std::max(i, j)).second) continue;
                if (out.size() >= max_conflicts) {
                    ++more;
                    continue;
                }
                const auto& first = b.plan.edits[std::min(i, j)];
                const Touch& ft = i < j ? *a : *c;
                const Touch& st = i < j ? *c : *a;
                const auto& ref = b.edit_refs[std::max(i, j)];
                out.push_back(manifests[ref.first].at(
                    ref.second->pointer, "conflicts with edit \"" + first.id + "\" (" + first.manifest + ":" +
                                             std::to_string(first.line) + ":" + std::to_string(first.column) +
                                             "): both change " + region.first + " " + region.second + " (" + st.what +
                                             " / " + ft.what + ")"));
            }
    if (more)
        out.push_back(Diagnostic{"", 0, 0, "", "and " + std::to_string(more) + " more edits in conflict (only the first " +
                                                   std::to_string(max_conflicts) + " are listed)"});
    if (!out.empty()) throw ManifestError(ErrorKind::conflict, std::move(out));
}

}  // namespace

ApplyResult apply_manifests(const std::vector<Manifest>& manifests, const ApplyOptions& options) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    Build b = load_build(manifests, options);
    for (const auto& [key, f] : b.files) {
        PlannedFile pf;
        pf.key = key;
        pf.input = f.path;
        pf.output = f.output;
        pf.size = f.original.size();
        pf.sha1 = sha1_hex(f.original);
        pf.crc32 = crc32_hex(f.original);
        pf.kind = f.kind;
        pf.notes = f.notes;
        b.plan.files.push_back(std::move(pf));
    }
    const auto t1 = clock::now();
    plan_all(b, manifests, options.threads);
    const auto t2 = clock::now();
    b.timings.emplace_back("load", std::chrono::duration<double, std::milli>(t1 - t0).count());
    b.timings.emplace_back("plan", std::chrono::duration<double, std::milli>(t2 - t1).count());
    ApplyResult result;
    if (options.dry_run) {
        result.plan = std::move(b.plan);
        return result;
    }

    // Execute in order on the in-memory files.
    Progress progress("apply", b.edit_refs.size(), options.quiet);
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
    b.timings.emplace_back("edits", std::chrono::duration<double, std::milli>(clock::now() - t2).count());
    return write_outputs(b, manifests, options);
}

}  // namespace mod::manifest
