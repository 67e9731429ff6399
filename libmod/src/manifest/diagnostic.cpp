#include "libmod/manifest/diagnostic.hpp"

#include <algorithm>
#include <cctype>

namespace mod::manifest {

std::string Diagnostic::text() const {
    std::string s = file;
    if (line) {
        s += (s.empty() ? "" : ":") + std::to_string(line) + ":" + std::to_string(column);
    }
    if (!where.empty()) s += (s.empty() ? "" : ": ") + where;
    s += (s.empty() ? "" : ": ") + message;
    return s;
}

namespace {

std::string summary_of(const std::vector<Diagnostic>& d) {
    if (d.empty()) return "invalid manifest";
    std::string s = d.front().text();
    if (d.size() > 1) s += " (and " + std::to_string(d.size() - 1) + " more problem" + (d.size() > 2 ? "s" : "") + ")";
    return s;
}

std::size_t distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace

// The message carries the first diagnostic already; file/offset/path stay empty so what() is
// exactly that text.
ManifestError::ManifestError(ErrorKind kind, std::vector<Diagnostic> diagnostics)
    : Error(kind, summary_of(diagnostics)), diagnostics_(std::move(diagnostics)) {}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_d = SIZE_MAX;
    for (const auto& c : candidates) {
        const std::size_t d = distance(word, c);
        if (d < best_d) best_d = d, best = c;
    }
    // A typo: at most a third of the longer word differs (and at least one letter may).
    const std::size_t longest = std::max(word.size(), best.size());
    if (best.empty() || best == word || best_d > std::max<std::size_t>(1, longest / 3)) return {};
    return best;
}

}  // namespace mod::manifest
