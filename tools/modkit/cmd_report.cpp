// modkit report REPORT.json OUT.html: rebuilds the report page (report.html) of an apply from its
// report.json and the files it names. Thin layer over libmod/manifest/report_page.hpp.
#include "cli.hpp"

#include "libmod/core/file.hpp"
#include "libmod/manifest/report_page.hpp"

#include <cstdio>
#include <filesystem>

namespace modkit {
namespace {

namespace fs = std::filesystem;
namespace mf = mod::manifest;

int run_report(const po::variables_map& vm, const Global&) {
    const fs::path report = required(vm, "report");
    const fs::path out = required(vm, "out");
    const mod::Bytes bytes = mod::read_file(report);
    const std::string json(bytes.begin(), bytes.end());
    mf::ReportPageOptions o;
    if (vm.count("base")) {
        o.base_dir = fs::path(vm["base"].as<std::string>());
    } else {
        const mf::ReportBase b = mf::guess_report_base(json, report);
        o.base_dir = b.dir;
        if (!b.dir.empty() && b.found > 0) std::printf("base   %s (where the report's files are)\n", b.dir.c_str());
        if (b.found < b.named)
            warn(std::to_string(b.named - b.found) + " of the " + std::to_string(b.named) +
                 " file(s) the report names are not found (looked in the current folder and above the report): "
                 "their pictures are left out; give the folder apply ran in with --base DIR");
    }
    if (vm.count("preview-size")) o.preview_size = vm["preview-size"].as<unsigned>();
    std::vector<fs::path> inputs = mf::report_page_inputs(json, o.base_dir);
    inputs.push_back(report);
    const std::string page = mf::report_page(json, o);
    mod::write_file_atomic(out, page, inputs);
    std::printf("wrote  %s (report page, %zu bytes)\n", out.c_str(), page.size());
    return 0;
}

const Registrar report_group({"report", "rebuild the report page (report.html) of an apply from its report.json", {
    {"report", "REPORT.json OUT.html [--base DIR] [--preview-size N]",
     "write the self-contained HTML page of a report; the files it names are found as written in the report "
     "(relative paths from the folder apply ran in: found by looking in the current folder and the folders above "
     "the report, or given with --base DIR)",
     [](auto& o, auto& p) {
         o.add_options()("report", po::value<std::string>(), "report.json written by modkit apply")(
             "out", po::value<std::string>(), "the HTML file to write")(
             "base", po::value<std::string>(), "folder the report's relative paths start from (default: the current folder, or the folder above the "
             "report where its files are)")(
             "preview-size", number<unsigned>(), "pixels of each model picture (16-1024, default 192)");
         p.add("report", 1).add("out", 1);
     },
     run_report},
}, true});

}  // namespace
}  // namespace modkit
