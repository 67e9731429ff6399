#pragma once
// The files the manifests in examples/ read besides themselves, made from the sample games:
// base/ (the sample games, as `modkit sample` writes them) and assets/ (a PNG for the Stadium
// texture replacement, an FBX of a SHRED skater mesh whose two top bones carry other names, so
// the bone map has work to do, a glb of Stadium model 1 whose bones are named Joint<i> for
// examples/stadium-mesh, and a glb of the TotemTech hero with even weights). Written
// into `dir`, the copy of an example folder; deterministic.
#include <filesystem>
#include <string>
#include <vector>

namespace mod::sample {

// Returns the files written (base/… then assets/…).
std::vector<std::filesystem::path> write_example_inputs(const std::filesystem::path& dir);

// What an example's expected.txt says: "manifests: A.json B.json", "exit: N", then optionally
// "stderr:" followed by the exact messages (paths relative to the example folder).
struct ExampleExpectation {
    std::vector<std::string> manifests;
    int exit = 0;
    bool has_stderr = false;
    std::string stderr_text;
};
ExampleExpectation read_example_expectation(const std::filesystem::path& file);

}  // namespace mod::sample
