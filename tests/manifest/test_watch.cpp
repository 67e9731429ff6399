// Issue 30 item 7: `modkit apply --watch` re-applies when the manifest or a file of its folder
// changes, one line per build; a build that fails says why and the loop goes on. The snapshot it
// polls (libmod/manifest/watch.hpp) is tested on its own first.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/manifest/watch.hpp"
#include "libmod/sample/examples.hpp"

#include <cstdio>
#include <fstream>
#include <thread>

namespace fs = std::filesystem;
namespace mf = mod::manifest;
using modtest::TempDir;

namespace {

std::string watch_totem_mod(const std::string& hue) {
    return R"({ "modkit": 1, "name": "watch", "game": "totemtech",
  "inputs": { "data": { "path": "base/totem/SAMPLE.DGC", "names": "names" }, "names": { "path": "base/totem/SAMPLE.NGC" } },
  "outputs": { "data": "out/SAMPLE.DGC" },
  "edits": [ { "id": "crate", "op": "palette.hsv", "bitmap": "DB:>SAMPLE>TEXTURES>CRATE.TBITMAP", "hue": )" +
           hue + R"( } ] }
)";
}

std::string watch_line_of(FILE* f) {
    char buf[4096];
    if (!std::fgets(buf, sizeof buf, f)) return {};
    return buf;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(manifest_watch)

BOOST_AUTO_TEST_CASE(the_snapshot_sees_edits_new_files_and_removals_but_not_hidden_folders_or_temporaries) {
    TempDir tmp;
    const fs::path mod = tmp / "mod";
    modtest::write_text_file(mod / "mod.json", "{}");
    modtest::write_text_file(mod / "assets/a.png", "aaaa");
    modtest::write_text_file(mod / ".git/HEAD", "ref");
    modtest::write_text_file(mod / "assets/b.png.modkit-tmp.12.0", "partial");
    const fs::path manifests[] = {mod / "mod.json"};
    const auto first = mf::take_watch_snapshot(manifests);
    BOOST_TEST(first.size() == 2u);  // mod.json and assets/a.png
    BOOST_TEST(first.count((mod / "assets/a.png").lexically_normal()) == 1u);
    BOOST_TEST(mf::changed_files(first, mf::take_watch_snapshot(manifests)).empty());

    modtest::write_text_file(mod / ".git/HEAD", "other");
    modtest::write_text_file(mod / "assets/b.png.modkit-tmp.12.0", "partial, longer");
    BOOST_TEST(mf::changed_files(first, mf::take_watch_snapshot(manifests)).empty());

    modtest::write_text_file(mod / "assets/a.png", "aaaaa");  // a size change (mtime may share its tick)
    auto changed = mf::changed_files(first, mf::take_watch_snapshot(manifests));
    BOOST_TEST_REQUIRE(changed.size() == 1u);
    BOOST_TEST(changed[0] == (mod / "assets/a.png").lexically_normal());

    modtest::write_text_file(mod / "assets/new.glb", "x");
    fs::remove(mod / "assets/a.png");
    changed = mf::changed_files(first, mf::take_watch_snapshot(manifests));
    BOOST_TEST(changed.size() == 2u);  // a.png vanished, new.glb appeared

    // A base file outside the folder (--input) is watched when named.
    modtest::write_text_file(tmp / "elsewhere/base.z64", "rom");
    const fs::path extra[] = {tmp / "elsewhere/base.z64"};
    BOOST_TEST(mf::take_watch_snapshot(manifests, extra).size() == mf::take_watch_snapshot(manifests).size() + 1);
}

BOOST_AUTO_TEST_CASE(apply_watch_rebuilds_on_a_change_and_keeps_going_after_a_failed_build) {
    TempDir tmp;
    const fs::path mod = tmp / "mod";
    fs::create_directories(mod);
    mod::sample::write_example_inputs(mod);
    modtest::write_text_file(mod / "mod.json", watch_totem_mod("90"));

    const char* exe = std::getenv("MODKIT_CLI");
    const std::string program = exe ? exe : (fs::path(MODKIT_BINARY_DIR) / "modkit").string();
    const std::string cmd = "timeout 120 '" + program + "' apply '" + (mod / "mod.json").string() +
                            "' --watch --watch-builds 3 2>'" + (tmp / "err").string() + "'";
    FILE* f = popen(cmd.c_str(), "r");
    BOOST_TEST_REQUIRE(f != nullptr);

    const std::string first = watch_line_of(f);
    BOOST_TEST(first.rfind("build 1 ", 0) == 0, first);
    // One warning: the new colours are rounded to RGB5A3.
    BOOST_TEST(first.find("applied 1 edit(s), 1 warning(s), wrote 1 file(s)") != std::string::npos, first);
    const mod::Bytes after_first = mod::read_file(mod / "out/SAMPLE.DGC");

    // Blender-like: the file is replaced while the watcher sleeps.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    modtest::write_text_file(mod / "mod.json", watch_totem_mod("150.25"));
    const std::string second = watch_line_of(f);
    BOOST_TEST(second.rfind("build 2 ", 0) == 0, second);
    BOOST_TEST(second.find("mod.json)") != std::string::npos, second);  // what started it
    BOOST_TEST(second.find("applied 1 edit(s)") != std::string::npos, second);
    const mod::Bytes after_second = mod::read_file(mod / "out/SAMPLE.DGC");
    BOOST_TEST((after_second != after_first));  // the new hue was written

    modtest::write_text_file(mod / "mod.json", watch_totem_mod("\"a lot\""));
    const std::string third = watch_line_of(f);
    BOOST_TEST(third.rfind("build 3 ", 0) == 0, third);
    BOOST_TEST(third.find("failed (exit 2): ") != std::string::npos, third);
    BOOST_TEST(third.find("hue") != std::string::npos, third);
    const int status = pclose(f);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0);  // --watch-builds 3 reached
    BOOST_TEST((mod::read_file(mod / "out/SAMPLE.DGC") == after_second));  // a failed build writes nothing
    const mod::Bytes err = mod::read_file(tmp / "err");
    BOOST_TEST(std::string(err.begin(), err.end()).find("nothing was written") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(watch_refuses_json_output) {
    TempDir tmp;
    modtest::write_text_file(tmp / "mod.json", watch_totem_mod("90"));
    const auto r = modtest::run_cli({"apply", (tmp / "mod.json").string(), "--watch", "--json"});
    BOOST_TEST(r.exit_code == 1);
    BOOST_TEST(r.err.find("--watch") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
