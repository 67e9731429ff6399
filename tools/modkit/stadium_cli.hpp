#pragma once
// Helpers the Stadium model commands share (cmd_stadium_show.cpp in the lean front,
// cmd_stadium_model.cpp in modkit-scene): the ROM MODEL arguments and number formatting.
#include "cli.hpp"

#include "libmod/image/image.hpp"

#include <cstdio>
#include <string>

namespace modkit::stadium_cli {

inline void declare_rom_model(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("rom", po::value<std::string>(), "ROM image (z64, v64 or n64 byte order)")(
        "model", number<std::size_t>(), "model archive entry index (0-based)");
    p.add("rom", 1).add("model", 1);
}

inline std::size_t model_index(const po::variables_map& vm) {
    if (!vm.count("model")) usage_error("MODEL (archive entry index) is required");
    return vm["model"].as<std::size_t>();
}

inline std::string fixed2(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

inline std::string rgba_hex(mod::image::Rgba8 c) {
    char b[16];
    std::snprintf(b, sizeof b, "%02X%02X%02X%02X", c.r, c.g, c.b, c.a);
    return b;
}

}  // namespace modkit::stadium_cli
