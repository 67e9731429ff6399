#pragma once
// The report page: one self-contained HTML file (report.html) built from an apply report
// (report.json) and the files it names, showing each edit the way a modder wants to see it.
// `modkit apply` writes it beside report.json; `modkit report REPORT.json OUT.html` rebuilds it.
//
// Self-contained: no script, no stylesheet or font link, no external URL; every picture is a
// PNG inside the page (data:image/png;base64). Every text that comes from a file (names, paths,
// messages, ids) is HTML-escaped.
//
// What it shows: the warnings first (highlighted); the manifests, base files and written files
// (sizes, SHA-1, CRC-32); then per edit:
//  * palettes (palette.set / palette.hsv): before/after swatches per slot, changed and locked
//    slots marked, and for each changed slot the RGBA5551 value written, its 8-bit expansion
//    (v << 3 | v >> 2) and the rounding ΔE against the colour asked for;
//  * textures (texture.replace): before and after at an integer zoom (nearest neighbour), the
//    PNG asked for, and a ΔE heat map (after against the PNG; against the texture before when
//    the PNG cannot be read or differs in size) with its mean and max over opaque texels;
//  * models (the Stadium model an edit changes, the SHRED mesh of mesh.replace, the TotemTech
//    SKIN of skin.reweight): front and side pictures before and after from modkit's renderer,
//    the bounding boxes with their sizes, vertex/triangle(/batch) counts and the histogram of
//    influences per vertex;
//  * every other operation: the fields of its result.
//
// Before/after pictures compare the base file with the output file the report names: with
// several edits on one file, "after" is the file after all of them (palettes are the exception:
// the report holds each edit's own before/after values).
//
// Files: paths in the report are as apply wrote them, relative to the folder apply ran in. A
// relative path is looked up under `base_dir` (empty: the current folder); a file the PNG of a
// texture edit names is relative to its manifest's folder. Every file must lie inside base_dir
// (see confine_to_base). A file is used only when its SHA-1
// matches the report (inputs, outputs); when a file is missing or changed, the page says so
// where its pictures would be, and everything else is still shown. Never throws for missing or
// undecodable files; throws mod::Error (format) when the text is not a modkit report.
#include "libmod/core/bytes.hpp"

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mod::stadium {
struct Archive;
}

namespace mod::manifest {

struct ReportPageOptions {
    std::filesystem::path base_dir;  // where relative report paths are looked up (empty: cwd)
    // Files already in memory, by the path exactly as the report writes it (apply hands over
    // the base files and the outputs it is about to write, without a copy: the bytes must live
    // until report_page returns); null: read from disk. Bytes handed over are the ones the
    // report describes (their SHA-1 is not checked again).
    std::function<std::shared_ptr<const Bytes>(const std::string& path)> read;
    // Files read from disk must lie inside base_dir (the current folder when empty): a path
    // (absolute, or relative to base_dir) that resolves outside it, by "..", or through a
    // symbolic link, is not read (the page notes it), so a crafted report.json cannot embed any
    // file of the machine.
    // apply turns this off for the page of the report it has just made from its own manifests.
    bool confine_to_base = true;
    unsigned preview_size = 192;  // model pictures are preview_size × preview_size pixels
    unsigned max_texture_zoom = 8;  // textures are shown at the largest zoom <= this whose width <= 256
};

// The page as HTML text (UTF-8).
std::string report_page(const std::string& report_json, const ReportPageOptions& options = {});

// The files the page may read besides the report (base files and outputs as the report writes
// them, resolved against `base_dir`): what a command writing the page must not overwrite.
std::vector<std::filesystem::path> report_page_inputs(const std::string& report_json,
                                                      const std::filesystem::path& base_dir = {});

struct ReportBase {
    std::filesystem::path dir;   // where the report's relative paths resolve ("" = the current folder)
    std::size_t found = 0;       // files of report_page_inputs that exist there
    std::size_t named = 0;       // files the report names
};

// Where the report's relative paths start when the user gave no --base: the first of the
// current folder, then the report file's folder and each folder above it (4 at most), in which
// every file the report names exists; else the one where most exist (the earliest on a tie).
// `modkit report` then works wherever it runs (issue 30 item 5).
ReportBase guess_report_base(const std::string& report_json, const std::filesystem::path& report_file);

}  // namespace mod::manifest
