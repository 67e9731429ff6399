// modkit rom …: N64 cartridge images (byte orders, header, CIC, boot checksum).
#include "cli.hpp"
#include "json.hpp"

#include "libmod/core/file.hpp"
#include "libmod/n64/rom.hpp"

#include <cstdio>

namespace modkit {
namespace {

namespace fs = std::filesystem;
namespace n64 = mod::n64;

// Header text fields are raw bytes (Shift-JIS titles exist): printable ASCII is shown as is,
// anything else as \xNN, so the output stays valid UTF-8 and JSON.
std::string printable(const std::string& raw) {
    std::string out;
    for (unsigned char c : raw) {
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            out += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        }
    }
    return out;
}

std::string hex32(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08X", v);
    return buf;
}

std::string version_text(std::uint8_t v) {
    return "1." + std::to_string(v);
}

mod::ByteReader image_reader(const mod::Bytes& data, const fs::path& path) {
    return mod::ByteReader(data, mod::Endian::big, path.string(), "rom");
}

void warn_about(const n64::RomInfo& info, const fs::path& path) {
    const std::string name = path.string();
    if (info.known_revision.empty())
        warn(name + ": not a known revision (normalised md5 " + mod::to_hex(info.md5) +
             "); Pokémon Stadium (USA) 1.0 is " + n64::stadium_us_10_md5 +
             ", the Stadium offsets apply only to that image");
    if (info.cic == n64::Cic::unknown)
        warn(name + ": IPL3 CRC-32 " + hex32(info.ipl3_crc32) +
             " matches no known CIC; the boot checksum cannot be computed");
    else if (!info.checksums_match())
        warn(name + ": stored CRC1/CRC2 " + hex32(info.header.stored.crc1) + "/" + hex32(info.header.stored.crc2) +
             " differ from the computed " + hex32(info.computed->crc1) + "/" + hex32(info.computed->crc2) +
             " ('modkit rom fix-crc' rewrites them)");
    if (info.checksum_zero_padded)
        warn(name + ": the image ends before 0x101000; the checksum assumes zeros up to there");
}

int rom_info(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in");
    const auto data = mod::read_file(in);
    const auto info = n64::inspect(image_reader(data, in));
    const auto& h = info.header;
    if (g.json) {
        Json j;
        j.begin_object()
            .field("file", in.string())
            .field("size", info.size)
            .field("byte_order", n64::to_string(info.order))
            .field("title", printable(h.title))
            .field("game_code", printable(h.game_code))
            .field("version", unsigned(h.version))
            .field("pi_config", hex32(h.pi_config))
            .field("clock_rate", hex32(h.clock_rate))
            .field("entry_point", hex32(h.entry_point))
            .field("release", hex32(h.release))
            .field("cic", n64::to_string(info.cic))
            .field("ipl3_crc32", hex32(info.ipl3_crc32))
            .key("stored").begin_object().field("crc1", hex32(h.stored.crc1)).field("crc2", hex32(h.stored.crc2)).end_object();
        j.key("computed");
        if (info.computed)
            j.begin_object().field("crc1", hex32(info.computed->crc1)).field("crc2", hex32(info.computed->crc2)).end_object();
        else
            j.null();
        j.field("checksums_match", info.checksums_match())
            .field("checksum_zero_padded", info.checksum_zero_padded)
            .field("md5", mod::to_hex(info.md5))
            .field("sha1", mod::to_hex(info.sha1))
            .key("known_revision");
        if (info.known_revision.empty()) j.null();
        else j.value(info.known_revision);
        j.end_object();
    } else {
        std::printf("file         %s (%llu bytes)\n", in.c_str(), static_cast<unsigned long long>(info.size));
        std::printf("byte order   %s\n", n64::to_string(info.order));
        std::printf("title        %s\n", printable(h.title).c_str());
        std::printf("game code    %s, version %s (0x%02X)\n", printable(h.game_code).c_str(),
                    version_text(h.version).c_str(), h.version);
        std::printf("entry point  0x%08X, clock 0x%08X, release 0x%08X\n", h.entry_point, h.clock_rate, h.release);
        std::printf("CIC          %s (IPL3 CRC-32 %08X)\n", n64::to_string(info.cic), info.ipl3_crc32);
        std::printf("stored       CRC1 %08X  CRC2 %08X\n", h.stored.crc1, h.stored.crc2);
        if (info.computed)
            std::printf("computed     CRC1 %08X  CRC2 %08X  (%s)\n", info.computed->crc1, info.computed->crc2,
                        info.checksums_match() ? "match" : "MISMATCH");
        else
            std::printf("computed     n/a (unknown CIC)\n");
        std::printf("md5          %s\nsha1         %s\n", mod::to_hex(info.md5).c_str(), mod::to_hex(info.sha1).c_str());
        std::printf("revision     %s\n", info.known_revision.empty() ? "unknown" : info.known_revision.c_str());
    }
    warn_about(info, in);
    return 0;
}

// The order to write: --order when given, otherwise `fallback`.
n64::ByteOrder output_order(const po::variables_map& vm, n64::ByteOrder fallback) {
    if (vm.count("order")) return n64::parse_byte_order(vm["order"].as<std::string>());
    return fallback;
}

int rom_fix_crc(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in"), out = required(vm, "out");
    const auto data = mod::read_file(in);
    const auto order = n64::detect_order(image_reader(data, in));
    auto z64 = n64::to_z64(data, order);
    const auto before = n64::read_header(z64).stored;
    n64::Checksums after;
    try {
        after = n64::fix_checksums(z64);
    } catch (mod::Error& e) {
        e.set_file_if_empty(in.string());
        throw;
    }
    const auto to = output_order(vm, order);
    mod::write_file_atomic(out, n64::from_z64(z64, to), std::span<const fs::path>(&in, 1));
    const bool changed = !(before == after);
    if (g.json) {
        Json j;
        j.begin_object()
            .field("input", in.string())
            .field("output", out.string())
            .field("byte_order", n64::to_string(to))
            .field("cic", n64::to_string(n64::detect_cic(z64)))
            .key("before").begin_object().field("crc1", hex32(before.crc1)).field("crc2", hex32(before.crc2)).end_object()
            .key("after").begin_object().field("crc1", hex32(after.crc1)).field("crc2", hex32(after.crc2)).end_object()
            .field("changed", changed)
            .end_object();
    } else {
        std::printf("CRC1 %08X -> %08X\nCRC2 %08X -> %08X\n%s (%s)\n", before.crc1, after.crc1, before.crc2,
                    after.crc2, changed ? "fixed" : "already correct", n64::to_string(to));
    }
    if (z64.size() < n64::checksum_end)
        warn(in.string() + ": the image ends before 0x101000; the checksum assumes zeros up to there");
    return 0;
}

int rom_normalize(const po::variables_map& vm, const Global& g) {
    fs::path in = required(vm, "in"), out = required(vm, "out");
    const auto data = mod::read_file(in);
    const auto order = n64::detect_order(image_reader(data, in));
    const auto to = output_order(vm, n64::ByteOrder::z64);
    const auto z64 = n64::to_z64(data, order);
    mod::write_file_atomic(out, n64::from_z64(z64, to), std::span<const fs::path>(&in, 1));
    if (g.json) {
        Json j;
        j.begin_object()
            .field("input", in.string())
            .field("output", out.string())
            .field("from", n64::to_string(order))
            .field("to", n64::to_string(to))
            .field("md5", mod::to_hex(mod::md5(z64)))
            .end_object();
    } else {
        std::printf("%s -> %s (normalised md5 %s)\n", n64::to_string(order), n64::to_string(to),
                    mod::to_hex(mod::md5(z64)).c_str());
    }
    return 0;
}

void declare_in(po::options_description& o, po::positional_options_description& p) {
    o.add_options()("in", po::value<std::string>(), "ROM image (z64, v64 or n64 order)");
    p.add("in", 1);
}

void declare_in_out_order(po::options_description& o, po::positional_options_description& p,
                          const char* order_help) {
    o.add_options()("in", po::value<std::string>(), "ROM image (z64, v64 or n64 order)")(
        "out", po::value<std::string>(), "output image")("order", po::value<std::string>(), order_help);
    p.add("in", 1).add("out", 1);
}

const Registrar rom_group({"rom", "N64 cartridge images: byte order, header, CIC, boot checksum", {
    {"info", "ROM [--json]",
     "title, game code, version, byte order, CIC, stored vs computed CRCs, md5/sha1, known revision",
     declare_in, rom_info},
    {"fix-crc", "IN OUT [--order z64|v64|n64]",
     "recompute CRC1/CRC2 for the detected CIC (boot code untouched; output keeps the input's order)",
     [](auto& o, auto& p) { declare_in_out_order(o, p, "output byte order (default: the input's)"); }, rom_fix_crc},
    {"normalize", "IN OUT [--order z64|v64|n64]", "convert the byte order (default z64, big-endian)",
     [](auto& o, auto& p) { declare_in_out_order(o, p, "output byte order (default z64)"); }, rom_normalize},
}});

}  // namespace
}  // namespace modkit
