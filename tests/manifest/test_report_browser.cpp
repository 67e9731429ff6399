// The report page in a real browser: Debian's chromium (installed by `bash build.sh test`)
// renders the stadium-recolour example's report.html headless to a screenshot, which must show
// the palette swatch of slot 1 (FFD700 -> RGBA5551 0xFE81 -> rgb(255, 214, 0), worked out by
// hand) as a 24 × 24 block of exactly that colour, and the model preview pixel for pixel as the
// page embeds it. Chromium's network log must show no request the page made, while a probe page
// with external references does show its requests (so the check can fail). Fonts never matter:
// the test looks for colours and pictures, not for positions of text.
//
// Skipped (with a message) only on a machine without apt, where chromium cannot be installed.
#include "test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/image/png.hpp"
#include "libmod/sample/examples.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <array>
#include <cmath>
#include <regex>
#include <set>

using modtest::TempDir;
namespace fs = std::filesystem;

namespace {

std::optional<fs::path> find_program(const std::vector<std::string>& names) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (const auto& name : names)
        for (std::size_t at = 0; at <= dirs.size();) {
            const std::size_t end = std::min(dirs.find(':', at), dirs.size());
            const fs::path p = fs::path(dirs.substr(at, end - at)) / name;
            std::error_code ec;
            if (fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) return p;
            at = end + 1;
        }
    return std::nullopt;
}

std::string text_of(const fs::path& p) {
    const mod::Bytes b = mod::read_file(p);
    return std::string(b.begin(), b.end());
}

mod::Bytes from_base64(const std::string& s) {
    mod::Bytes out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : s) {
        int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
              : c == '+' ? 62 : c == '/' ? 63 : -1;
        if (v < 0) continue;  // '=' padding
        acc = acc << 6 | std::uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>(acc >> bits));
        }
    }
    return out;
}

// The PNG of the first <img> whose alt text is `alt`.
mod::image::RgbaImage embedded(const std::string& html, const std::string& alt) {
    const std::size_t at = html.find("alt=\"" + alt + "\" src=\"data:image/png;base64,");
    BOOST_REQUIRE(at != std::string::npos);
    const std::size_t from = html.find("base64,", at) + 7;
    return mod::image::read_png(from_base64(html.substr(from, html.find('"', from) - from)));
}

// Runs chromium headless on `page`: screenshot and network log into `dir`.
void screenshot(const fs::path& chromium, const fs::path& page, const fs::path& dir, const std::string& size) {
    const std::string cmd = "timeout 180 '" + chromium.string() +
                            "' --headless --no-sandbox --disable-gpu --force-device-scale-factor=1 "
                            "--force-color-profile=srgb --hide-scrollbars --no-first-run --disable-sync "
                            "--disable-background-networking --disable-component-update --disable-extensions "
                            "--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir='" + (dir / "profile").string() +
                            "' --log-net-log='" + (dir / "net.json").string() + "' --screenshot='" +
                            (dir / "shot.png").string() + "' --window-size=" + size + " 'file://" + page.string() +
                            "' >'" + (dir / "chromium.log").string() + "' 2>&1";
    const int rc = std::system(cmd.c_str());
    BOOST_TEST_INFO(cmd);
    BOOST_REQUIRE_EQUAL(rc, 0);
    BOOST_REQUIRE(fs::exists(dir / "shot.png"));
}

// Requests a page made: the network log's requests whose initiator is an origin (the browser's
// own background requests have "not an origin").
std::vector<std::string> page_requests(const fs::path& netlog) {
    const std::string log = text_of(netlog);
    std::vector<std::string> out;
    static const std::regex initiator("\"initiator\":\"([^\"]*)\"");
    for (auto it = std::sregex_iterator(log.begin(), log.end(), initiator); it != std::sregex_iterator(); ++it)
        if ((*it)[1] != "not an origin") out.push_back(log.substr(std::size_t(it->position()), 300));
    return out;
}

mod::image::Rgba8 px(const mod::image::RgbaImage& im, std::uint32_t x, std::uint32_t y) {
    return im.at(std::size_t(y) * im.width + x);
}

// Top-left corners of every w × h block of exactly colour c.
std::vector<std::pair<std::uint32_t, std::uint32_t>> blocks(const mod::image::RgbaImage& im, mod::image::Rgba8 c,
                                                            std::uint32_t w, std::uint32_t h) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (std::uint32_t y = 0; y + h <= im.height; ++y)
        for (std::uint32_t x = 0; x + w <= im.width; ++x) {
            bool all = true;
            for (std::uint32_t j = 0; all && j < h; ++j)
                for (std::uint32_t i = 0; all && i < w; ++i) all = px(im, x + i, y + j) == c;
            if (all) out.push_back({x, y});
        }
    return out;
}

// Where `pic` appears pixel for pixel in `shot`, if anywhere.
std::optional<std::pair<std::uint32_t, std::uint32_t>> find_picture(const mod::image::RgbaImage& shot,
                                                                    const mod::image::RgbaImage& pic) {
    // Anchor: the first pixel unlike the top-left one (the background).
    std::size_t anchor = 0;
    while (anchor < pic.pixel_count() && pic.at(anchor) == pic.at(0)) ++anchor;
    if (anchor == pic.pixel_count()) anchor = 0;
    const std::uint32_t ax = std::uint32_t(anchor % pic.width), ay = std::uint32_t(anchor / pic.width);
    for (std::uint32_t y = ay; y + (pic.height - ay) <= shot.height; ++y)
        for (std::uint32_t x = ax; x + (pic.width - ax) <= shot.width; ++x) {
            if (!(px(shot, x, y) == pic.at(anchor))) continue;
            bool same = true;
            for (std::uint32_t j = 0; same && j < pic.height; ++j)
                for (std::uint32_t i = 0; same && i < pic.width; ++i)
                    same = px(shot, x - ax + i, y - ay + j) == px(pic, i, j);
            if (same) return std::pair{x - ax, y - ay};
        }
    return std::nullopt;
}

// Chromium, or nothing when this machine cannot have it (no apt): the test then says it skipped.
// Where apt could install it, its absence fails the test (`bash build.sh test` installs it).
std::optional<fs::path> chromium_or_skip() {
    const auto chromium = find_program({"chromium", "chromium-browser"});
    if (!chromium) {
        if (find_program({"apt-get"})) BOOST_FAIL("chromium is not installed but apt is: `bash build.sh test` installs it");
        BOOST_TEST_MESSAGE("SKIPPED: the browser test needs chromium, and this machine has no apt to install it");
    }
    return chromium;
}

// examples/NAME copied to DIR/NAME with its inputs written and applied; returns DIR/NAME.
fs::path applied_example(const fs::path& dir, const std::string& name) {
    const fs::path work = dir / name;
    fs::copy(fs::path(MODKIT_SOURCE_DIR) / "examples" / name, work, fs::copy_options::recursive);
    mod::sample::write_example_inputs(work);
    const auto r = modtest::run_cli({"apply", (work / "mod.json").string(), "-q"});
    BOOST_TEST_INFO(name << ": " << r.err);
    BOOST_REQUIRE_EQUAL(r.exit_code, 0);
    return work;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(report_browser)

BOOST_AUTO_TEST_CASE(chromium_shows_the_swatch_and_the_preview_and_the_page_requests_nothing) {
    const auto chromium = chromium_or_skip();
    if (!chromium) return;
    TempDir tmp;
    const fs::path work = applied_example(tmp.path(), "stadium-recolour");
    const fs::path page = fs::absolute(work / "out/report/report.html");
    const std::string html = text_of(page);

    const fs::path run = tmp / "run";
    fs::create_directories(run);
    screenshot(*chromium, page, run, "1200,4000");
    const auto shot = mod::image::read_png(mod::read_file(run / "shot.png"));
    BOOST_REQUIRE_EQUAL(shot.width, 1200u);

    // The swatch: FFD700 -> 0xFE81 (R 31, G 26, B 0) -> (31 << 3 | 31 >> 2, 26 << 3 | 26 >> 2, 0).
    const mod::image::Rgba8 gold{255, 214, 0, 255};
    const auto found = blocks(shot, gold, 24, 24);
    BOOST_TEST(!found.empty());
    // Each is a whole swatch: 24 × 24 and no bigger (the page draws swatches at 24 px).
    for (const auto& [x, y] : found) {
        BOOST_TEST((x == 0 || !(px(shot, x - 1, y) == gold)));
        BOOST_TEST((x + 24 >= shot.width || !(px(shot, x + 24, y) == gold)));
    }
    // The preview of model 1 after the edits, as the page embeds it, pixel for pixel.
    const auto preview = embedded(html, "after (front, side)");
    BOOST_TEST(preview.width > 100u);
    const auto at = find_picture(shot, preview);
    BOOST_TEST(at.has_value());
    // And the texture's 8× zoom (nearest neighbour: blocks of 8 × 8 equal pixels).
    BOOST_TEST(find_picture(shot, embedded(html, "after (8×)")).has_value());

    // The page made no request; a probe page with external references does (the check works).
    const auto requests = page_requests(run / "net.json");
    BOOST_TEST_INFO((requests.empty() ? std::string() : requests.front()));
    BOOST_TEST(requests.empty());
    const fs::path probe_dir = tmp / "probe";
    fs::create_directories(probe_dir);
    {
        std::ofstream probe(probe_dir / "probe.html");
        probe << "<!DOCTYPE html><html><body><p>probe</p><img src=\"http://modkit-probe.invalid/x.png\"></body></html>\n";
    }
    screenshot(*chromium, fs::absolute(probe_dir / "probe.html"), probe_dir, "400,300");
    const auto probe_requests = page_requests(probe_dir / "net.json");
    BOOST_TEST(!probe_requests.empty());
    BOOST_TEST(text_of(probe_dir / "net.json").find("modkit-probe.invalid") != std::string::npos);
}

// Issue 30 item 5: below about 600 px the page used to scroll sideways. Each example's page, in a
// 500 px window (headless chromium's narrowest), is no wider than the window: a copy of the page gets a script that writes the
// document's scroll width and the window's width into the title, and chromium dumps the DOM.
BOOST_AUTO_TEST_CASE(every_example_page_fits_a_500_pixel_window) {
    const auto chromium = chromium_or_skip();
    if (!chromium) return;
    std::size_t pages = 0;
    for (const char* name : {"stadium-recolour", "stadium-mesh", "totem-reweight", "shred-replace-fbx"}) {
        TempDir tmp;
        const fs::path work = applied_example(tmp.path(), name);
        std::string html = text_of(work / "out/report/report.html");
        const std::string probe =
            "<script>window.onload = () => { document.title = 'probe ' + document.documentElement.scrollWidth + ' ' + "
            "window.innerWidth; };</script>";
        html.insert(html.rfind("</body>"), probe);
        const fs::path page = fs::absolute(tmp / "probe.html");
        mod::write_file_atomic(page, html);
        const std::string cmd = "timeout 180 '" + chromium->string() +
                                "' --headless --no-sandbox --disable-gpu --force-device-scale-factor=1 --hide-scrollbars "
                                "--no-first-run --disable-sync --disable-background-networking --disable-extensions "
                                "--user-data-dir='" + (tmp / "profile").string() +
                                "' --window-size=500,800 --virtual-time-budget=2000 --dump-dom 'file://" + page.string() +
                                "' >'" + (tmp / "dom.html").string() + "' 2>/dev/null";
        BOOST_REQUIRE_EQUAL(std::system(cmd.c_str()), 0);
        const std::string dom = text_of(tmp / "dom.html");
        static const std::regex title("<title>probe (\\d+) (\\d+)</title>");
        std::smatch m;
        BOOST_TEST_INFO(name << ": " << dom.substr(0, 300));
        BOOST_REQUIRE(std::regex_search(dom, m, title));
        const int scroll = std::stoi(m[1]), width = std::stoi(m[2]);
        BOOST_TEST(width == 500, name << ": window " << width << ", page " << scroll);
        BOOST_TEST(scroll <= width, name << ": the page is " << scroll << " px wide in a " << width << " px window");
        ++pages;
    }
    BOOST_TEST(pages == 4u);
}

// Issue 29 item 6: the interactive 3D before/after. Chromium (WebGL on SwiftShader) loads each
// model of the page's viewer, chosen with #3d=LABEL; the controller's state line must say it
// loaded, with no page error, and model-viewer's own bounding box of the model must be the size
// the page's box table gives for that side (three decimals there). The page makes no request.
BOOST_AUTO_TEST_CASE(the_3d_view_loads_each_model_at_the_size_of_the_box_table) {
    const auto chromium = chromium_or_skip();
    if (!chromium) return;
    std::size_t checked = 0;
    for (const char* name : {"stadium-mesh", "totem-reweight"}) {
        TempDir tmp;
        const fs::path work = applied_example(tmp.path(), name);
        const fs::path page = fs::absolute(work / "out/report/report.html");
        const std::string html = text_of(page);
        BOOST_TEST_INFO(name << ": the page has no 3D view (was model-viewer installed by build.sh?)");
        BOOST_REQUIRE(html.find("<model-viewer loading=\"eager\"") != std::string::npos);
        // The box table's sizes, by side.
        std::map<std::string, std::array<double, 3>> sizes;
        static const std::regex row("<tr><th>(before|after)</th><td class=\"mono\">[^<]*</td><td class=\"mono\">[^<]*</td>"
                                    "<td class=\"mono\">\\(([-0-9.]+), ([-0-9.]+), ([-0-9.]+)\\)</td></tr>");
        for (auto it = std::sregex_iterator(html.begin(), html.end(), row); it != std::sregex_iterator(); ++it)
            sizes[(*it)[1]] = {std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4])};
        BOOST_REQUIRE_EQUAL(sizes.size(), 2u);
        // (a few views per example: each chromium run costs seconds)
        const std::vector<std::string> views = std::string(name) == "stadium-mesh" ? std::vector<std::string>{"before", "after", "bones after", "after&play"}
                                                                                   : std::vector<std::string>{"after", "weights after"};
        for (const std::string& view : views) {
            const fs::path run = tmp / ("run-" + std::to_string(checked));
            fs::create_directories(run);
            std::string hash = view;
            for (std::size_t at; (at = hash.find(' ')) != std::string::npos;) hash.replace(at, 1, "%20");
            const bool play = view.ends_with("&play");
            static const std::regex state("<pre class=\"viewer-state\">\\{\"view\":\"([^\"]*)\",\"loaded\":(true|false),"
                                          "\"errors\":\\[([^\\]]*)\\],\"dims\":\\[([-0-9.e]+),([-0-9.e]+),([-0-9.e]+)\\]");
            std::string dom;
            std::smatch m;
            // Virtual time does not wait for SwiftShader's real work: on a loaded machine the model
            // may not have loaded within the budget. A run whose state is still empty, or says "not
            // loaded" with no error, is tried again with a longer budget; an error fails at once.
            for (const int budget : {15000, 60000}) {
                const std::string cmd = "timeout 240 '" + chromium->string() +
                                        "' --headless --no-sandbox --enable-unsafe-swiftshader --use-angle=swiftshader "
                                        "--no-first-run --disable-sync --disable-background-networking --disable-extensions "
                                        "--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir='" + (run / "profile").string() +
                                        "' --log-net-log='" + (run / "net.json").string() + "' --window-size=800,600 --virtual-time-budget=" +
                                        std::to_string(budget) + " --dump-dom 'file://" + page.string() + "#3d=" + hash + "' >'" +
                                        (run / "dom.html").string() + "' 2>/dev/null";
                BOOST_REQUIRE_EQUAL(std::system(cmd.c_str()), 0);
                dom = text_of(run / "dom.html");
                if (std::regex_search(dom, m, state)) break;
                const bool waiting = dom.find("<pre class=\"viewer-state\">{}</pre>") != std::string::npos ||
                                     dom.find("\"loaded\":false,\"errors\":[]") !=
                                         std::string::npos;
                if (!waiting) break;
            }
            const std::size_t shown = dom.find("<pre class=\"viewer-state\">");
            BOOST_TEST_INFO(name << " " << view << ": " << (shown == std::string::npos ? dom.substr(0, 300) : dom.substr(shown, 300)));
            BOOST_REQUIRE(std::regex_search(dom, m, state));
            BOOST_TEST(m[1] == (play ? view.substr(0, view.size() - 5) : view));
            BOOST_TEST(m[2] == "true");
            BOOST_TEST(m[3] == "", name << " " << view << ": page errors " << m[3]);
            if (play) {
                // Model 1 keeps its skeletal animations (anim0 …), and the first one plays.
                // (Its clock is not checked: headless Chromium under a virtual-time budget
                // produces no animation frames, so model-viewer's currentTime stays 0.)
                static const std::regex played("\"animations\":\\[\"(anim0[^\"]*)\"[^\\]]*\\],\"playing\":(true|false),\"time\":([-0-9.e]+)");
                std::smatch p;
                BOOST_TEST_INFO(name << " " << view);
                BOOST_REQUIRE(std::regex_search(dom, p, played));
                BOOST_TEST(p[2] == "true");
            } else if (view == "bones after") {  // the model and its skeleton: at least the model's box
                const auto& want = sizes.at("after");
                for (int k = 0; k < 3; ++k)
                    BOOST_TEST(std::stod(m[4 + k]) >= want[std::size_t(k)] - 0.0005 - 1e-4 * std::abs(want[std::size_t(k)]),
                               name << " bones after axis " << k);
            } else if (view != "weights after") {  // the weights view is the same mesh, coloured
                const auto& want = sizes.at(view);
                for (int k = 0; k < 3; ++k) {
                    const double got = std::stod(m[4 + k]);
                    BOOST_TEST(std::abs(got - want[std::size_t(k)]) <= 0.0005 + 1e-4 * std::abs(want[std::size_t(k)]),
                               name << " " << view << " axis " << k << ": model-viewer " << got << ", box table " << want[std::size_t(k)]);
                }
            }
            const auto requests = page_requests(run / "net.json");
            BOOST_TEST_INFO((requests.empty() ? std::string() : requests.front()));
            BOOST_TEST(requests.empty());
            ++checked;
        }
    }
    BOOST_TEST(checked == 6u);
}

BOOST_AUTO_TEST_SUITE_END()
