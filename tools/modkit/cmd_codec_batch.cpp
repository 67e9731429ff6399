// Many inputs for one codec command (codec_batch.hpp).
#include "codec_batch.hpp"

#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/folder.hpp"
#include "libmod/core/parallel.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

namespace modkit {

namespace fs = std::filesystem;

void declare_batch_inputs(po::options_description& o, po::positional_options_description& p) {
    o.add_options()
        ("in", po::value<std::vector<std::string>>()->multitoken(), "input files (IN OUT, or IN... with --out-dir)")
        ("out-dir", po::value<std::string>(), "write each input to DIR/<its name with the command's suffix>")
        ("list", po::value<std::string>(), "read the inputs from this file, one path a line (with --out-dir)");
    p.add("in", -1);
}

namespace {

std::vector<std::string> positionals(const po::variables_map& vm) {
    return vm.count("in") ? vm["in"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

// One path a line; a trailing '\r' is dropped, empty lines are skipped.
std::vector<fs::path> read_list(const fs::path& list) {
    const auto bytes = mod::read_file(list);
    std::vector<fs::path> out;
    std::string line;
    auto flush = [&] {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) out.emplace_back(line);
        line.clear();
    };
    for (auto b : bytes) {
        if (b == '\n') flush();
        else if (b == 0) throw mod::Error(mod::ErrorKind::usage, "a list of inputs holds one path a line, not binary data", list.string());
        else line.push_back(static_cast<char>(b));
    }
    flush();
    return out;
}

}  // namespace

bool batch_requested(const po::variables_map& vm) {
    if (vm.count("out-dir") || vm.count("list")) {
        if (!vm.count("out-dir")) usage_error("--list needs --out-dir DIR (where the outputs go)");
        return true;
    }
    const auto in = positionals(vm);
    if (in.size() < 2) usage_error(in.empty() ? "missing argument IN" : "missing argument OUT (or give --out-dir DIR)");
    if (in.size() > 2) usage_error("several inputs need --out-dir DIR (their outputs are named after them there)");
    return false;
}

std::pair<fs::path, fs::path> single_in_out(const po::variables_map& vm) {
    const auto in = positionals(vm);
    return {fs::path(in.at(0)), fs::path(in.at(1))};
}

fs::path batch_output_name(const BatchStep& step, const fs::path& in) {
    std::string name = in.filename().string();
    if (!step.strip.empty() && name.size() > step.strip.size() &&
        name.compare(name.size() - step.strip.size(), step.strip.size(), step.strip) == 0)
        return name.substr(0, name.size() - step.strip.size());
    return name + (step.strip.empty() ? step.add : step.fallback);
}

int run_batch(const po::variables_map& vm, const Global& g, const BatchStep& step) {
    std::vector<fs::path> inputs;
    for (const auto& s : positionals(vm)) inputs.emplace_back(s);
    if (vm.count("list")) {
        auto listed = read_list(vm["list"].as<std::string>());
        inputs.insert(inputs.end(), listed.begin(), listed.end());
    }
    if (inputs.empty()) usage_error("no inputs (give IN... or --list FILE)");
    const fs::path dir = vm["out-dir"].as<std::string>();
    std::vector<fs::path> outputs;
    outputs.reserve(inputs.size());
    for (const auto& in : inputs) {
        if (in.filename().empty()) usage_error("'" + in.string() + "' names no file");
        outputs.push_back(dir / batch_output_name(step, in));
    }
    // Before any work: two inputs of one name, an output that is an input, a folder in the way.
    std::map<fs::path, std::size_t> by_name;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        auto [it, fresh] = by_name.emplace(outputs[i].filename(), i);
        if (!fresh)
            throw mod::Error(mod::ErrorKind::conflict, "inputs " + inputs[it->second].string() + " and " +
                                                           inputs[i].string() + " would both write " + outputs[i].string());
    }
    mod::ensure_distinct_outputs(outputs);
    for (const auto& out : outputs) {
        mod::ensure_distinct_output(out, inputs);
        mod::ensure_replaceable_output(out);
    }
    struct Result {
        std::size_t in_bytes = 0;
        mod::Bytes out;
    };
    // Largest inputs first (threads pick the next item as they free up, so a big file started
    // last would leave the other threads idle); results still land by input index.
    std::vector<std::size_t> order(inputs.size());
    std::vector<std::uintmax_t> sizes(inputs.size(), 0);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        order[i] = i;
        std::error_code ec;
        auto n = fs::file_size(inputs[i], ec);
        if (!ec) sizes[i] = n;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
    // The folder (and its missing parents) made once, before the threads; removed again if the batch fails.
    const auto made_folders = mod::create_folder_recording(dir);
    struct Staged {
        std::size_t in_bytes = 0;
        std::size_t out_bytes = 0;
        std::unique_ptr<mod::PendingOutput> file;  // written and closed, renamed when all are
    };
    std::vector<std::optional<mod::Error>> failures(inputs.size());
    std::vector<Staged> staged(inputs.size());
    try {
        // Each thread reads, transforms and stages its outputs (the write is part of the
        // parallel work; a staged file holds no descriptor, so any number of inputs works).
        mod::parallel_for(
            inputs.size(),
            [&](std::size_t k) {
                const std::size_t i = order[k];
                try {
                    auto data = mod::read_file(inputs[i]);
                    staged[i].in_bytes = data.size();
                    auto out = step.transform(inputs[i], data);
                    staged[i].out_bytes = out.size();
                    auto file = std::make_unique<mod::PendingOutput>(outputs[i], std::span<const fs::path>(inputs));
                    file->write(out);
                    file->finish();
                    staged[i].file = std::move(file);
                } catch (mod::Error& e) {
                    e.set_file_if_empty(inputs[i].string());
                    failures[i] = e;
                }
            },
            g.threads);
        // The first failing input in command-line order is reported, whatever the schedule.
        for (auto& f : failures)
            if (f) throw *f;
        for (auto& s : staged) s.file->commit();
    } catch (...) {
        staged.clear();  // removes every temporary file
        mod::remove_made_folders(made_folders);  // those this batch made, when empty
        throw;
    }
    if (g.json) {
        Json j;
        j.begin_object().field("operation", step.operation).key("files").begin_array();
        for (std::size_t i = 0; i < inputs.size(); ++i)
            j.begin_object()
                .field("input", inputs[i].string())
                .field("output", outputs[i].string())
                .field("input_bytes", std::uint64_t(staged[i].in_bytes))
                .field("output_bytes", std::uint64_t(staged[i].out_bytes))
                .end_object();
        j.end_array().end_object();
    } else {
        for (std::size_t i = 0; i < inputs.size(); ++i)
            std::printf("%s: %s -> %s: %zu -> %zu bytes\n", step.operation.c_str(), inputs[i].c_str(),
                        outputs[i].c_str(), staged[i].in_bytes, staged[i].out_bytes);
    }
    return 0;
}

}  // namespace modkit
