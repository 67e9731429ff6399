// modkit apply MANIFEST… and modkit manifest check|new|schema: edit manifests, the main entry
// point (doc/manifest.md). Thin layer over libmod/manifest/{manifest,apply,catalogue}.hpp.
#include "cli.hpp"
#include "json.hpp"
#include "manifest_cli.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/core/lock.hpp"
#include "libmod/manifest/apply.hpp"
#include "libmod/manifest/manifest.hpp"
#include "libmod/manifest/pack.hpp"  // looks_like_pack (the core's)
#include "libmod/manifest/watch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <set>
#include <thread>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

namespace modkit {

namespace fs = std::filesystem;
namespace mf = mod::manifest;

PackUnpacker pack_unpacker = nullptr;

std::vector<fs::path> manifest_paths(const po::variables_map& vm) {
    std::vector<fs::path> out;
    for (const auto& s : required_list(vm, "manifests")) out.emplace_back(s);
    return out;
}

// Every diagnostic on its own line (stderr), then the usual one-line error for the exit code.
int report_problems(const mf::ManifestError& e, const Global& g) {
    if (g.json) {
        Json j;
        j.begin_object().field("ok", false).field("kind", mod::to_string(e.kind())).key("problems").begin_array();
        for (const auto& d : e.diagnostics())
            j.begin_object().field("file", d.file).field("line", std::uint64_t(d.line)).field("column", std::uint64_t(d.column))
                .field("path", d.where).field("message", d.message).end_object();
        j.end_array().end_object();
    }
    for (const auto& d : e.diagnostics()) std::cerr << d.text() << "\n";
    std::cerr << "modkit: " << e.diagnostics().size() << " problem" << (e.diagnostics().size() == 1 ? "" : "s")
              << "; nothing was written\n";
    return mod::exit_code(e.kind());
}

namespace {

void print_plan(const mf::Plan& plan) {
    for (const auto& f : plan.files) {
        std::printf("input  %s (%s, %llu bytes, sha1 %s)%s%s\n", f.input.c_str(), f.kind.c_str(),
                    static_cast<unsigned long long>(f.size), f.sha1.c_str(), f.output ? " -> " : "",
                    f.output ? f.output->c_str() : "");
        for (const auto& n : f.notes) std::printf("       note: %s\n", n.c_str());
    }
    for (const auto& e : plan.edits) {
        std::printf("edit   %s:%zu:%zu %s [%s] %s\n", e.manifest.c_str(), e.line, e.column, e.id.c_str(), e.op.c_str(),
                    e.summary.c_str());
        for (const auto& t : e.touches)
            if (t.exclusive) std::printf("         writes %s %s: %s\n", t.file.c_str(), t.region.c_str(), t.what.c_str());
        for (const auto& l : e.limits) std::printf("         limit: %s\n", l.c_str());
        for (const auto& n : e.notes) std::printf("         note: %s\n", n.c_str());
    }
}

void plan_json(Json& j, const mf::Plan& plan) {
    j.key("inputs").begin_array();
    for (const auto& f : plan.files) {
        j.begin_object().field("path", f.input.string()).field("kind", f.kind).field("size", f.size).field("sha1", f.sha1)
            .field("output", f.output ? f.output->string() : std::string());
        j.key("notes").begin_array();
        for (const auto& n : f.notes) j.value(n);
        j.end_array().end_object();
    }
    j.end_array().key("edits").begin_array();
    for (const auto& e : plan.edits) {
        j.begin_object().field("manifest", e.manifest).field("id", e.id).field("op", e.op)
            .field("line", std::uint64_t(e.line)).field("column", std::uint64_t(e.column)).field("summary", e.summary);
        j.key("touches").begin_array();
        for (const auto& t : e.touches)
            j.begin_object().field("file", t.file).field("region", t.region).field("begin", t.begin)
                .field("end", t.end).field("exclusive", t.exclusive).field("what", t.what).end_object();
        j.end_array().key("limits").begin_array();
        for (const auto& l : e.limits) j.value(l);
        j.end_array().key("notes").begin_array();
        for (const auto& n : e.notes) j.value(n);
        j.end_array().end_object();
    }
    j.end_array();
}

// The folders two applies writing the same files would share (doc/manifest.md, "Two applies at
// once"): each manifest's folder, and the folder of each output and report (with --out, where
// they land). FolderLocks takes the nearest existing folder of one not made yet.
std::vector<fs::path> folders_to_lock(const std::vector<mf::Manifest>& manifests, const mf::ApplyOptions& o) {
    std::vector<fs::path> out;
    auto place = [&](const mf::Manifest& m, const fs::path& p) {
        return o.out_dir ? *o.out_dir / p.lexically_relative(m.dir) : p;
    };
    if (o.out_dir) out.push_back(*o.out_dir);
    for (const auto& m : manifests) {
        out.push_back(m.dir);
        for (const auto& [name, p] : m.outputs) out.push_back(place(m, p).parent_path());
        if (m.report) out.push_back(place(m, *m.report));
    }
    return out;
}

}  // namespace

mf::ApplyOptions apply_options(const po::variables_map& vm, const Global& g) {
    mf::ApplyOptions o;
    o.dry_run = vm.count("dry-run") > 0;
    o.threads = g.threads;
    o.quiet = g.quiet;
    o.digests = !g.quiet || g.json;  // -q shows no plan and no report (a report folder still gets one)
    if (vm.count("out")) o.out_dir = fs::path(vm["out"].as<std::string>());
    if (vm.count("input"))
        for (const auto& text : vm["input"].as<std::vector<std::string>>()) {
            const auto eq = text.find('=');
            if (eq == 0 || eq == std::string::npos || eq + 1 == text.size())
                usage_error("--input takes NAME=PATH (the manifest's input name, then the file), not '" + text + "'");
            if (!o.input_paths.emplace(text.substr(0, eq), fs::path(text.substr(eq + 1))).second)
                usage_error("--input " + text.substr(0, eq) + " is given twice");
        }
    if (vm.count("bases"))
        for (const auto& d : vm["bases"].as<std::vector<std::string>>()) {
            if (!fs::is_directory(d)) usage_error("--bases " + d + ": not a folder");
            o.bases.emplace_back(d);
        }
    if (const char* env = std::getenv("MODKIT_BASES"); env && o.bases.empty())
        for (std::string_view rest = env; !rest.empty();) {
            const auto colon = rest.find(':');
            const std::string_view d = rest.substr(0, colon);
            if (!d.empty()) o.bases.emplace_back(std::string(d));
            rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        }
    return o;
}

namespace {

// One apply: loads the manifests, takes the folder locks, applies; warnings on stderr. In the
// lean front, manifests that need what only modkit-scene carries are handed over first.
mf::ApplyResult apply_once(const std::vector<fs::path>& paths, const mf::ApplyOptions& o, bool wait) {
    std::vector<mf::Manifest> manifests;
    try {
        manifests = mf::load_manifests(paths);
    } catch (const mf::ManifestError&) {
        // Validation knows only the operations this program carries: modkit-scene, which
        // knows them all, says what is wrong (or applies it).
        if (lean_front()) throw HandOver{"problems in the manifests"};
        throw;
    }
    if (lean_front())
        if (std::string missing = mf::missing_capability(manifests, o); !missing.empty()) throw HandOver{std::move(missing)};
    std::optional<mod::FolderLocks> locks;
    if (!o.dry_run)
        locks.emplace(folders_to_lock(manifests, o), wait, [](const fs::path& dir) {
            warn("waiting for another modkit process writing in " + dir.string() + " (it holds the folder's lock)");
        });
    mf::ApplyResult r = mf::apply_manifests(manifests, o);
    for (const auto& w : r.warnings) warn(w);
    return r;
}

std::string clock_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
    return buf;
}

// One build of --watch: `line` gets its result ("applied …" or "failed (exit N): …"); problems
// go to stderr as apply prints them. Returns the files it wrote. Never throws for what the mod's
// files say: the loop goes on.
std::vector<fs::path> watch_build(const std::vector<fs::path>& paths, const mf::ApplyOptions& o, const Global& g,
                                  std::string& line) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<fs::path> written;
    try {
        const auto r = apply_once(paths, o, true);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        char buf[160];
        if (o.dry_run)
            std::snprintf(buf, sizeof buf, "checked %zu edit(s), %zu warning(s), nothing written (%.2f s)", r.plan.edits.size(),
                          r.warnings.size(), s);
        else
            std::snprintf(buf, sizeof buf, "applied %zu edit(s), %zu warning(s), wrote %zu file(s) (%.2f s)", r.plan.edits.size(),
                          r.warnings.size(), r.written.size(), s);
        line = buf;
        for (const auto& w : r.written) written.push_back(w.path);
    } catch (const mf::ManifestError& e) {
        const int code = report_problems(e, Global{false, g.quiet, g.threads});
        const auto& d = e.diagnostics();
        line = "failed (exit " + std::to_string(code) + "): " + (d.empty() ? std::string(e.what()) : d.front().text());
    } catch (const mod::Error& e) {
        std::fprintf(stderr, "modkit: %s\n", e.what());
        line = "failed (exit " + std::to_string(mod::exit_code(e.kind())) + "): " + e.what();
    } catch (const std::filesystem::filesystem_error& e) {
        const mod::Error io = mod::io_error(e);
        std::fprintf(stderr, "modkit: %s\n", io.what());
        line = "failed (exit 4): " + std::string(io.what());
    }
    return written;
}

// " (FILE)" or " (FILE and more)" for the line of a build a change started.
std::string trigger_text(const std::vector<fs::path>& changed) {
    return changed.empty() ? std::string() : " (" + changed.front().string() + (changed.size() > 1 ? " and more" : "") + ")";
}

// The files of `changed` that are not among `ours` (apply's own outputs), compared as canonical paths.
std::vector<fs::path> not_written_by_us(const std::vector<fs::path>& changed, const std::vector<fs::path>& ours) {
    std::set<fs::path> mine;
    std::error_code ec;
    for (const auto& p : ours) mine.insert(fs::weakly_canonical(p, ec));
    std::vector<fs::path> out;
    for (const auto& p : changed)
        if (!mine.count(fs::weakly_canonical(p, ec))) out.push_back(p);
    return out;
}

// apply --watch: builds, then polls the mod's files (watch.hpp) every 250 ms; a change that has
// held still for one more poll starts the next build. A file changed while a build ran (other than
// what the build wrote) starts the next one at once, so no save is lost. Runs until interrupted,
// or --watch-builds.
int watch_loop(const po::variables_map& vm, const Global& g, const mf::ApplyOptions& o) {
    if (g.json) usage_error("--watch prints one line per build; it does not take --json");
    const auto paths = manifest_paths(vm);
    std::vector<fs::path> extra;
    for (const auto& [name, p] : o.input_paths) extra.push_back(p);
    const unsigned limit = vm["watch-builds"].as<unsigned>();
    using namespace std::chrono_literals;
    std::string trigger;
    auto before = mf::take_watch_snapshot(paths, extra);
    for (unsigned n = 1;; ++n) {
        std::string line;
        const auto written = watch_build(paths, o, g, line);
        // Taken before the line is printed: whatever changes after it is seen starts a build.
        const auto after = mf::take_watch_snapshot(paths, extra);
        std::printf("build %u %s%s: %s\n", n, clock_now().c_str(), trigger.c_str(), line.c_str());
        std::fflush(stdout);
        if (limit != 0 && n >= limit) return 0;
        const auto during = not_written_by_us(mf::changed_files(before, after, 64), written);
        if (!during.empty()) {
            trigger = trigger_text(during);
            before = after;
            continue;
        }
        auto seen = after;
        for (;;) {
            std::this_thread::sleep_for(250ms);
            auto now = mf::take_watch_snapshot(paths, extra);
            if (now == seen) continue;
            // Wait for the writer to finish: two polls in a row that agree.
            for (auto settled = mf::take_watch_snapshot(paths, extra); settled != now;
                 settled = mf::take_watch_snapshot(paths, extra)) {
                now = std::move(settled);
                std::this_thread::sleep_for(250ms);
            }
            trigger = trigger_text(mf::changed_files(seen, now, 2));
            before = std::move(now);
            break;
        }
    }
}

int run_apply(const po::variables_map& vm, const Global& g) {
    mf::ApplyOptions o = apply_options(vm, g);
    std::vector<fs::path> paths = manifest_paths(vm);
    std::optional<mod::ScratchFolder> scratch;
    const bool pack = std::any_of(paths.begin(), paths.end(), [](const fs::path& p) { return mf::looks_like_pack(p); });
    if (pack && paths.size() != 1) usage_error("apply takes one mod pack (.zip) at a time, without other manifests");
    if (pack && vm.count("watch")) usage_error("--watch watches a mod folder, not a pack: unpack it first");
    // The lean front runs one build of manifests; --watch is modkit-scene's (and packs: the
    // front has no unpacker).
    if (lean_front() && vm.count("watch")) throw HandOver{"--watch"};
    if (vm.count("watch")) return watch_loop(vm, g, o);
    try {
        if (pack) {
            if (!pack_unpacker) throw HandOver{"a mod pack"};
            paths = pack_unpacker(paths.front(), o, scratch, g);
        }
        const mf::ApplyResult r = apply_once(paths, o, vm.count("no-wait") == 0);
        if (vm.count("timings"))
            for (const auto& [step, ms] : r.timings) std::fprintf(stderr, "modkit: timing: %s %.1f ms\n", step.c_str(), ms);
        if (g.json) {
            if (o.dry_run) {
                Json j;
                j.begin_object().field("ok", true).field("dry_run", true);
                plan_json(j, r.plan);
                j.end_object();
            } else {
                std::fwrite(r.report_json.data(), 1, r.report_json.size(), stdout);
            }
            return 0;
        }
        // -q: nothing on success (issue 30: the plan used to be printed); warnings stay on stderr.
        if (g.quiet) return 0;
        print_plan(r.plan);
        if (o.dry_run) {
            std::printf("dry run: %zu edit(s) planned, no conflicts; nothing was written\n", r.plan.edits.size());
            return 0;
        }
        for (const auto& w : r.written)
            std::printf("wrote  %s (%s, %llu bytes)\n", w.path.c_str(), w.role.c_str(), static_cast<unsigned long long>(w.size));
        std::printf("applied %zu edit(s), %zu warning(s)\n", r.plan.edits.size(), r.warnings.size());
        return 0;
    } catch (const mf::ManifestError& e) {
        return report_problems(e, g);
    }
}

}  // namespace

void declare_manifests(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("manifests", po::value<std::vector<std::string>>()->multitoken(), "manifest files");
    p.add("manifests", -1);
}

namespace {

const Registrar apply_group({"apply", "apply edit manifests: validate, plan, edit in memory, write outputs, patches and a report", {
    {"apply", "MANIFEST...|PACK.zip [--dry-run] [--out DIR] [--input NAME=PATH] [--bases DIR] [--watch] [--timings] [--no-wait] [--json] [-q]",
     "apply one or more mods (conflicts across them are checked before anything runs)",
     [](auto& o, auto& p) {
         declare_manifests(o, p);
         o.add_options()("dry-run", "validate and print the plan; write nothing")(
             "timings", "print how long each step and edit took on stderr (the report holds no timings)")(
             "no-wait", "when another modkit process is writing in the same folders, stop (exit 3) instead of waiting")(
             "watch", "apply again whenever the manifest or a file in its folder changes, one line per build (Ctrl-C stops)")(
             "watch-builds", number<unsigned>()->default_value(0), "with --watch: stop after N builds (0: never)")(
             "out", po::value<std::string>(), "write outputs under DIR (keeping their relative paths)")(
             "input", po::value<std::vector<std::string>>()->composing(),
             "NAME=PATH: read the manifest's input NAME from PATH (your own copy of the base file)")(
             "bases", po::value<std::vector<std::string>>()->composing(),
             "DIR: find an input missing from the mod folder by its hashes among DIR's files (also $MODKIT_BASES, "
             "folders separated by ':')");
     },
     run_apply},
}, true});

}  // namespace
}  // namespace modkit
