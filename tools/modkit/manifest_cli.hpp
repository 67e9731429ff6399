#pragma once
// What `apply` (cmd_apply.cpp, in both executables) and `manifest` (cmd_manifest.cpp, in
// modkit-scene) share: the manifest arguments, the options apply and check parse alike, and the
// printing of manifest problems.
#include "cli.hpp"

#include "libmod/core/folder.hpp"
#include "libmod/manifest/apply.hpp"
#include "libmod/manifest/manifest.hpp"

#include <filesystem>
#include <optional>
#include <vector>

namespace modkit {

// The positional MANIFEST... of apply and manifest check.
void declare_manifests(po::options_description& o, po::positional_options_description& p);
std::vector<std::filesystem::path> manifest_paths(const po::variables_map& vm);
// --dry-run, --out, --input NAME=PATH, --bases (and $MODKIT_BASES), the global -j/-q/--json.
mod::manifest::ApplyOptions apply_options(const po::variables_map& vm, const Global& g);
// Every diagnostic on its own line (stderr; --json: one object on stdout too), then the usual
// one-line error; returns the exit code.
int report_problems(const mod::manifest::ManifestError& e, const Global& g);

// apply PACK.zip: unpacks the pack into `scratch` and returns its manifest, setting o.out_dir
// (by default a folder beside the zip named after it). Set by cmd_manifest.cpp (modkit-scene);
// null in the lean front, which hands packs over.
using PackUnpacker = std::vector<std::filesystem::path> (*)(const std::filesystem::path& zip,
                                                            mod::manifest::ApplyOptions& o,
                                                            std::optional<mod::ScratchFolder>& scratch, const Global& g);
extern PackUnpacker pack_unpacker;

}  // namespace modkit
