// modkit yay0 … and modkit szp …: the compression codecs.
#include "cli.hpp"
#include "codec_batch.hpp"
#include "json.hpp"

#include "libmod/codec/szp.hpp"
#include "libmod/codec/yay0.hpp"
#include "libmod/core/file.hpp"

#include <cstdio>

namespace modkit {
namespace {

namespace fs = std::filesystem;

void declare_mode(po::options_description& o) {
    o.add_options()("mode", po::value<std::string>()->default_value("nintendo"),
                    "nintendo (the parse Nintendo's encoder makes, byte for byte) or best (smallest)");
}

void declare_max(po::options_description& o) {
    o.add_options()("max-size", number<std::uint64_t>()->default_value(mod::yay0::default_max_decoded),
                    "refuse streams declaring more decompressed bytes than this");
}

mod::yay0::DecodeOptions decode_options(const po::variables_map& vm) {
    mod::yay0::DecodeOptions o;
    if (vm.count("max-size")) o.max_decoded = vm["max-size"].as<std::uint64_t>();
    return o;
}

void report_sizes(const Global& g, const char* what, std::size_t in, std::size_t out) {
    if (g.json) {
        Json j;
        j.begin_object().field("operation", what).field("input_bytes", std::uint64_t(in))
            .field("output_bytes", std::uint64_t(out)).end_object();
    } else {
        std::printf("%s: %zu -> %zu bytes\n", what, in, out);
    }
}

int yay0_compress(const po::variables_map& vm, const Global& g) {
    auto mode = mod::yay0::parse_mode(vm["mode"].as<std::string>());
    if (batch_requested(vm))
        return run_batch(vm, g, {"compress", ".yay0", "", "", [mode](const fs::path&, const mod::Bytes& data) {
                                     return mod::yay0::encode(data, mode, nullptr);
                                 }});
    auto [in, out] = single_in_out(vm);
    auto data = mod::read_file(in);
    // The optimal parse takes seconds on large inputs: show where it is (stderr, terminals only).
    mod::Progress progress("yay0 " + std::string(mod::yay0::to_string(mode)), 2 * std::uint64_t(data.size()), g.quiet);
    auto packed = mod::yay0::encode(data, mode, &progress);
    mod::write_file_atomic(out, packed, std::span<const fs::path>(&in, 1));
    report_sizes(g, "compress", data.size(), packed.size());
    return 0;
}

int yay0_decompress(const po::variables_map& vm, const Global& g) {
    const auto options = decode_options(vm);
    if (batch_requested(vm))
        return run_batch(vm, g, {"decompress", "", ".yay0", ".bin", [options](const fs::path& in, const mod::Bytes& data) {
                                     return mod::yay0::decode(mod::ByteReader(data, mod::Endian::big, in.string(), "yay0"),
                                                              options);
                                 }});
    auto [in, out] = single_in_out(vm);
    auto data = mod::read_file(in);
    auto plain = mod::yay0::decode(mod::ByteReader(data, mod::Endian::big, in.string(), "yay0"),
                                   decode_options(vm));
    mod::write_file_atomic(out, plain, std::span<const fs::path>(&in, 1));
    report_sizes(g, "decompress", data.size(), plain.size());
    return 0;
}

int szp_pack(const po::variables_map& vm, const Global& g) {
    auto mode = mod::yay0::parse_mode(vm["mode"].as<std::string>());
    if (batch_requested(vm))
        return run_batch(vm, g, {"pack", ".szp", "", "", [mode](const fs::path&, const mod::Bytes& data) {
                                     return mod::szp::pack(data, mode);
                                 }});
    auto [in, out] = single_in_out(vm);
    auto data = mod::read_file(in);
    auto packed = mod::szp::pack(data, mode);
    mod::write_file_atomic(out, packed, std::span<const fs::path>(&in, 1));
    report_sizes(g, "pack", data.size(), packed.size());
    return 0;
}

void warn_uninitialised(const fs::path& in, std::uint64_t bytes) {
    if (bytes)
        warn(in.string() + ": the Yay0 stream ends " + std::to_string(bytes) +
             " bytes before size1; the game leaves those bytes as they were (written as zero)");
}

int szp_unpack(const po::variables_map& vm, const Global& g) {
    const auto options = decode_options(vm);
    if (batch_requested(vm))
        // Warnings come from worker threads: warn() writes one whole line with one call.
        return run_batch(vm, g, {"unpack", "", ".szp", ".bin", [options](const fs::path& in, const mod::Bytes& data) {
                                     auto u = mod::szp::unpack(mod::ByteReader(data, mod::Endian::big, in.string(), "szp"),
                                                               options);
                                     warn_uninitialised(in, u.uninitialised_bytes);
                                     return std::move(u.data);
                                 }});
    auto [in, out] = single_in_out(vm);
    auto data = mod::read_file(in);
    auto u = mod::szp::unpack(mod::ByteReader(data, mod::Endian::big, in.string(), "szp"), options);
    warn_uninitialised(in, u.uninitialised_bytes);
    mod::write_file_atomic(out, u.data, std::span<const fs::path>(&in, 1));
    report_sizes(g, "unpack", data.size(), u.data.size());
    return 0;
}

int szp_info(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in");
    auto data = mod::read_file(in);
    auto u = mod::szp::unpack(mod::ByteReader(data, mod::Endian::big, in.string(), "szp"), decode_options(vm));
    const auto& h = u.header;
    std::size_t trailing = data.size() - h.header_size - u.yay0.stream_end;
    if (g.json) {
        Json j;
        j.begin_object()
            .field("file", in.string())
            .field("blob_bytes", std::uint64_t(data.size()))
            .field("header_size", h.header_size)
            .field("size1", h.size1)
            .field("size2", h.size2)
            .key("fixups").begin_array();
        for (const auto& f : h.fixups) j.begin_object().field("offset", f.offset).field("value", f.value).end_object();
        j.end_array()
            .field("yay0_decompressed_size", u.yay0.header.decompressed_size)
            .field("yay0_link_offset", u.yay0.header.link_offset)
            .field("yay0_chunk_offset", u.yay0.header.chunk_offset)
            .field("yay0_stream_bytes", std::uint64_t(u.yay0.stream_end))
            .field("trailing_bytes", std::uint64_t(trailing))
            .field("uninitialised_bytes", u.uninitialised_bytes)
            .end_object();
    } else {
        std::printf("file            %s (%zu bytes)\n", in.c_str(), data.size());
        std::printf("header size     0x%X\nsize1           0x%X\nsize2           0x%X\nfix-ups         %zu\n",
                    h.header_size, h.size1, h.size2, h.fixups.size());
        for (const auto& f : h.fixups) std::printf("  [0x%X] = 0x%08X\n", f.offset, f.value);
        std::printf("yay0            size 0x%X, link 0x%X, chunk 0x%X, stream %zu bytes, %zu trailing\n",
                    u.yay0.header.decompressed_size, u.yay0.header.link_offset, u.yay0.header.chunk_offset,
                    u.yay0.stream_end, trailing);
    }
    return 0;
}

// The file-transforming commands take IN OUT, or many inputs with --out-dir (codec_batch.hpp).
const Registrar yay0_group({"yay0", "Yay0 compression (N64/GameCube LZ)", {
    {"compress", "IN OUT | IN... --out-dir DIR | --list FILE --out-dir DIR [--mode nintendo|best] [-j N]",
     "compress files to Yay0 streams (many: DIR/NAME.yay0, on -j threads)",
     [](auto& o, auto& p) { declare_batch_inputs(o, p); declare_mode(o); }, yay0_compress},
    {"decompress", "IN OUT | IN... --out-dir DIR | --list FILE --out-dir DIR [--max-size N] [-j N]",
     "decompress Yay0 streams, strict and bounded (many: NAME.yay0 -> DIR/NAME, else NAME.bin)",
     [](auto& o, auto& p) { declare_batch_inputs(o, p); declare_max(o); }, yay0_decompress},
}});

const Registrar szp_group({"szp", "PERS-SZP containers (Pokémon Stadium)", {
    {"pack", "IN OUT | IN... --out-dir DIR | --list FILE --out-dir DIR [--mode nintendo|best] [-j N]",
     "wrap files as PERS-SZP (header 0x18, no fix-ups; many: DIR/NAME.szp)",
     [](auto& o, auto& p) { declare_batch_inputs(o, p); declare_mode(o); }, szp_pack},
    {"unpack", "IN OUT | IN... --out-dir DIR | --list FILE --out-dir DIR [--max-size N] [-j N]",
     "unpack as the game does (fix-ups applied, size2 bytes; many: NAME.szp -> DIR/NAME)",
     [](auto& o, auto& p) { declare_batch_inputs(o, p); declare_max(o); }, szp_unpack},
    {"info", "IN [--json]", "show the header, fix-ups and Yay0 stream extent",
     [](auto& o, auto& p) { o.add_options()("in", po::value<std::string>(), "input file"); p.add("in", 1); declare_max(o); },
     szp_info},
}});

}  // namespace
}  // namespace modkit
