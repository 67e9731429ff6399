// Fuzz target: the manifest reader (JSON syntax, positions, schema validation with message
// rewriting, the rules beside the schema) on arbitrary bytes must return a manifest or throw
// mod::Error; every diagnostic it reports has a position inside the text or none, and a
// manifest that reads has the structure the schema promises.
#include "libmod/manifest/manifest.hpp"

#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    std::size_t lines = 1;
    for (char c : text) lines += c == '\n';
    try {
        const auto m = mod::manifest::parse_manifest(text, "fuzz.json", "fuzz-dir");
        if (m.inputs.empty()) std::abort();  // the schema requires at least one input
        for (const auto& e : m.edits)
            if (e.op.empty() || e.input.empty() || !m.input(e.input)) std::abort();
    } catch (const mod::manifest::ManifestError& e) {
        if (e.diagnostics().empty()) std::abort();
        for (const auto& d : e.diagnostics())
            if (d.line > lines || d.message.empty()) std::abort();
    } catch (const mod::Error&) {
    }
    return 0;
}
