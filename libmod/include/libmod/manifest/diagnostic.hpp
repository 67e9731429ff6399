#pragma once
// Problems found in a manifest, each with where it is (file:line:column and the JSON path) and
// a plain-English message. Validation collects every problem of every manifest in one run and
// throws them together as one ManifestError.

#include "libmod/core/error.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace mod::manifest {

struct Diagnostic {
    std::string file;        // the manifest (as given on the command line)
    std::size_t line = 0;    // 1-based; 0 when the problem has no place in the text
    std::size_t column = 0;  // 1-based, in bytes
    std::string where;       // JSON path: "edits[1].mode" ("" for the whole document)
    std::string message;

    // "mod.json:14:22: edits[1].mode: message" (absent parts omitted).
    std::string text() const;
};

// Thrown with every diagnostic found. kind() is format for an invalid manifest, conflict for
// edits that touch the same bytes, usage/io/limit when the first diagnostic came from an edit's
// own check. what() is the first diagnostic plus a count of the others.
class ManifestError : public Error {
public:
    ManifestError(ErrorKind kind, std::vector<Diagnostic> diagnostics);
    const std::vector<Diagnostic>& diagnostics() const noexcept { return diagnostics_; }

private:
    std::vector<Diagnostic> diagnostics_;
};

// "did you mean" helper: the candidate closest to `word` by edit distance (case-insensitive),
// when it is close enough to be a likely typo; empty otherwise.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace mod::manifest
