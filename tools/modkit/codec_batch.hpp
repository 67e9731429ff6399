#pragma once
// Many inputs for one codec command (`yay0 compress|decompress`, `szp pack|unpack`):
//   modkit yay0 compress IN OUT                       one file, as before
//   modkit yay0 compress IN... --out-dir DIR [-j N]   each IN to DIR/<name><suffix>
//   modkit yay0 compress --list FILE --out-dir DIR    inputs from FILE, one path a line
// The inputs are transformed on up to --threads threads (mod::parallel_map: results by index,
// so the bytes never depend on the thread count, and the error reported is the first input's
// in command-line order). All or none: outputs are written only when every input succeeded,
// and every output is checked (distinct, not an input, replaceable) before any work.
#include "cli.hpp"

#include "libmod/core/bytes.hpp"

#include <filesystem>
#include <functional>
#include <string>

namespace modkit {

// Declares the positional "in" (one or more), --out-dir and --list.
void declare_batch_inputs(po::options_description& o, po::positional_options_description& p);

// True when the command line asks for the batch form (--out-dir or --list given); a single IN
// OUT pair is the one-file form. Anything else (one path, three paths without --out-dir) is a
// usage error saying what is expected.
bool batch_requested(const po::variables_map& vm);
// The one-file form's IN and OUT.
std::pair<std::filesystem::path, std::filesystem::path> single_in_out(const po::variables_map& vm);

struct BatchStep {
    std::string operation;  // "compress", "decompress", "pack", "unpack"
    // Output file name for an input name: appends `add`, or removes `strip` when the name ends
    // with it (and is longer), else appends `fallback`.
    std::string add, strip, fallback;
    // The work on one input's bytes; `in` names the input for errors and warnings.
    std::function<mod::Bytes(const std::filesystem::path& in, const mod::Bytes& data)> transform;
};

std::filesystem::path batch_output_name(const BatchStep& step, const std::filesystem::path& in);

int run_batch(const po::variables_map& vm, const Global& g, const BatchStep& step);

}  // namespace modkit
