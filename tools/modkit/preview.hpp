#pragma once
// The shared part of the `preview` commands (cmd_preview.cpp): options and writing the picture.
// Each game group's `preview` subcommand builds a mod::scene::Scene its own way and hands it here.
#include "cli.hpp"

#include "libmod/scene/model.hpp"

#include <filesystem>
#include <span>

namespace modkit {

// --view front|side|top, --size N, --untextured.
void declare_preview_options(po::options_description& o);

// Renders `scene` as the options say (without --view: front and side next to each other),
// writes the PNG to `out` with mod::write_file_atomic (refusing to overwrite an input) and
// prints a summary (--json: one object). Scene warnings go to stderr.
// With `before`: both scenes drawn at one scale (the union of their boxes), before on the left.
int write_preview(const mod::scene::Scene& scene, const std::filesystem::path& out,
                  std::span<const std::filesystem::path> inputs, const po::variables_map& vm, const Global& g,
                  const mod::scene::Scene* before = nullptr);

}  // namespace modkit
