// modkit: one command group per file (see cli.hpp). Compiled twice: modkit-scene (every
// command) and, with MODKIT_LEAN_FRONT, the lean `modkit` the user types.
#include "cli.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>

#include <malloc.h>

#if defined(MODKIT_LEAN_FRONT)
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#endif

namespace {

#if defined(MODKIT_LEAN_FRONT)
// The lean front (doc/architecture.md, "Two executables") runs the codec commands itself and
// hands every other command line, unchanged, to modkit-scene in its own folder.
bool runs_here(const std::vector<std::string>& args) {
    if (args.empty()) return false;  // the overview lists every group: modkit-scene's
    if (args[0] == "--version" || args[0] == "version") return true;
    std::size_t g = 0;
    if (args[0] == "help") {
        if (args.size() < 2) return false;
        g = 1;
    }
    auto it = modkit::groups().find(args[g]);
    if (it == modkit::groups().end()) return false;  // modkit-scene's, or unknown (it says so)
    if (!it->second.partial) return true;
    // A partial group: only its lean subcommands (and their --help) run here.
    if (args.size() < g + 2) return false;
    for (const auto& sub : it->second.subcommands)
        if (sub.name == args[g + 1]) return true;
    return false;
}

// glibc's malloc backs its heap with transparent huge pages when GLIBC_TUNABLES says so (read
// at a process's start, hence set for the helper). On a machine whose THP mode is `madvise` (Debian's
// default) a 32 MiB ROM buffer then costs 16 page faults instead of 8,192: `apply` of the Stadium
// example went from 0.55 s to 0.13 s CPU (issue 31, doc/benchmarks.md). Output bytes do not depend
// on it; a user's own GLIBC_TUNABLES is kept, and a hugetlb setting there wins.
void ask_for_huge_pages() {
    const char* had = std::getenv("GLIBC_TUNABLES");
    std::string tunables = had ? had : "";
    if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return;
    if (!tunables.empty()) tunables += ':';
    tunables += "glibc.malloc.hugetlb=1";
    ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
}

// The lean front cannot give itself that tunable (glibc reads it at start), so for `apply`, which
// holds ROM images, it does what the tunable does: the heap is grown once to 256 MiB of address
// space, marked MADV_HUGEPAGE and handed back to malloc, not to the system (the trim threshold
// is raised above it), so the images are carved from huge pages. Address space only: pages cost
// memory when touched. Without THP (or on failure) nothing changes but the speed.
void heap_on_huge_pages() {
    constexpr std::size_t size = std::size_t(256) << 20, huge = std::size_t(2) << 20;
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    void* block = std::malloc(size);
    if (!block) return;
    const auto begin = (reinterpret_cast<std::uintptr_t>(block) + huge - 1) & ~(huge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(block) + size) & ~(huge - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    std::free(block);
}

[[noreturn]] void run_scene_helper(char** argv) {
    std::string self(4096, '\0');
    ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
    std::string helper = "modkit-scene";
    if (n > 0) {
        self.resize(static_cast<std::size_t>(n));
        auto slash = self.rfind('/');
        helper = self.substr(0, slash + 1) + helper;
    }
    ask_for_huge_pages();
    ::execv(helper.c_str(), argv);
    std::fprintf(stderr, "modkit: internal error: cannot run %s (it holds every command but the codecs and "
                 "belongs next to modkit): %s\n", helper.c_str(), std::strerror(errno));
    std::exit(70);
}
#endif

void print_overview() {
    std::cout << "usage: modkit GROUP SUBCOMMAND [options]\n\n"
                 "modkit reads game assets into editable models and writes them back byte for byte.\n\n"
                 "groups:\n";
    for (const auto& [name, group] : modkit::groups())
        std::cout << "  " << name << std::string(name.size() < 10 ? 10 - name.size() : 1, ' ')
                  << group.summary << "\n";
    std::cout << "\n'modkit help GROUP' (or 'modkit GROUP --help') lists a group's subcommands; 'modkit --version'.\n"
                 "Start with 'modkit sample game': every --help ends with examples that run on it.\n"
                 "exit codes: 0 ok, 1 usage, 2 invalid input, 3 limit/conflict, 4 I/O\n";
}

}  // namespace

int main(int argc, char** argv) {
    // Image-sized buffers (a 32 MiB ROM, its 12.6 MiB archive region) are allocated and freed a
    // few times per command: kept in the heap instead of mapped and unmapped each time, their
    // pages are reused instead of faulted in afresh (issue 31: about 10 % of `apply`).
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    std::vector<std::string> args(argv + 1, argv + argc);
#if defined(MODKIT_LEAN_FRONT)
    if (!runs_here(args)) run_scene_helper(argv);
    modkit::set_lean_front();
    if (!args.empty() && args[0] == "apply") heap_on_huge_pages();
#endif
    // Temporary files of an earlier run that was killed are removed from an output folder
    // before the first write there (mod::write_file_atomic); the user hears which.
    mod::set_stale_temporary_notifier([](const std::filesystem::path& removed) {
        modkit::warn("removed " + removed.string() + ", a temporary file left by an interrupted run");
    });
    try {
        // `modkit help GROUP [SUBCOMMAND]` is `modkit GROUP [SUBCOMMAND] --help`.
        if (args.size() >= 2 && args[0] == "help") {
            auto it = modkit::groups().find(args[1]);
            if (it == modkit::groups().end())
                modkit::usage_error("unknown command '" + args[1] + "' (see 'modkit --help')");
            std::vector<std::string> rest(args.begin() + 2, args.end());
            rest.push_back("--help");
            return modkit::run_group(it->second, rest);
        }
        if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            print_overview();
            return args.empty() ? 1 : 0;
        }
        if (args[0] == "--version" || args[0] == "version") {
            std::cout << "modkit " << MODKIT_VERSION << "\n";
            return 0;
        }
        auto it = modkit::groups().find(args[0]);
        if (it == modkit::groups().end())
            modkit::usage_error("unknown command '" + args[0] + "' (see 'modkit --help')");
        return modkit::run_group(it->second, std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const modkit::HandOver&) {
        // A command found, before any side effect, that it needs modkit-scene (cli.hpp).
#if defined(MODKIT_LEAN_FRONT)
        run_scene_helper(argv);
#endif
        std::fprintf(stderr, "modkit: internal error: a command asked to be handed over outside the lean front\n");
        return 70;
    } catch (const mod::Error& e) {
        std::fprintf(stderr, "modkit: %s\n", e.what());
        return mod::exit_code(e.kind());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "modkit: out of memory\n");
        return 3;
    } catch (const std::filesystem::filesystem_error& e) {
        // A file-system failure that escaped a library call is the I/O error it is (exit 4),
        // not an internal error (issue 21: 70 is reserved for bugs).
        std::fprintf(stderr, "modkit: %s\n", mod::io_error(e).what());
        return 4;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "modkit: internal error: %s\n", mod::escape_controls(e.what()).c_str());
        return 70;
    }
}
