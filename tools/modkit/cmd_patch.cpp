// modkit patch …: distributable patches (BPS and zstd "MZPT").
#include "cli.hpp"
#include "json.hpp"

#include "libmod/codec/bps.hpp"
#include "libmod/codec/vcdiff.hpp"
#include "libmod/codec/zstd_patch.hpp"
#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/n64/rom.hpp"

#include <cstdio>
#include <optional>
#include <utility>

namespace modkit {
namespace {

namespace fs = std::filesystem;

enum class Format { bps, zpatch, vcdiff };

const char* name_of(Format f) { return f == Format::bps ? "bps" : f == Format::vcdiff ? "vcdiff" : "zpatch"; }

// --format wins; otherwise the output's extension (.bps / .zpatch / .vcdiff or .xdelta) decides.
Format creation_format(const po::variables_map& vm, const fs::path& out) {
    if (vm.count("format")) {
        const auto f = vm["format"].as<std::string>();
        if (f == "bps") return Format::bps;
        if (f == "zpatch" || f == "zstd") return Format::zpatch;
        if (f == "vcdiff" || f == "xdelta") return Format::vcdiff;
        usage_error("unknown patch format '" + f + "' (bps, zpatch or vcdiff)");
    }
    const auto ext = out.extension().string();
    if (ext == ".bps") return Format::bps;
    if (ext == ".zpatch") return Format::zpatch;
    if (ext == ".vcdiff" || ext == ".xdelta") return Format::vcdiff;
    usage_error("cannot tell the patch format from '" + out.filename().string() +
                "': name it .bps, .zpatch or .vcdiff, or pass --format");
}

// Patches say what they are: "BPS1", "MZPT" or VCDIFF's D6 C3 C4 00.
Format detected_format(const mod::Bytes& patch, const fs::path& path) {
    if (mod::bps::has_magic(patch)) return Format::bps;
    if (mod::zpatch::has_magic(patch)) return Format::zpatch;
    if (mod::vcdiff::has_magic(patch)) return Format::vcdiff;
    throw mod::Error(mod::ErrorKind::format, "not a patch: expected \"BPS1\", \"MZPT\" or VCDIFF (D6 C3 C4 00)",
                     path.string(), 0);
}

int patch_create(const po::variables_map& vm, const Global& g) {
    fs::path source_path = required(vm, "source"), target_path = required(vm, "target"), out = required(vm, "out");
    const Format format = creation_format(vm, out);
    // Read only: page buffers, no zero-filling pass over the two files.
    const mod::PageBuffer source = mod::read_file_pages(source_path);
    const mod::PageBuffer target = mod::read_file_pages(target_path);
    mod::Bytes patch;
    if (format != Format::vcdiff && vm["no-secondary"].as<bool>()) usage_error("--no-secondary is a VCDIFF option");
    if (format == Format::bps) {
        mod::bps::CreateOptions o;
        if (vm.count("metadata")) o.metadata = vm["metadata"].as<std::string>();
        patch = mod::bps::create(source, target, o);
    } else if (format == Format::vcdiff) {
        if (vm.count("metadata")) usage_error("--metadata is a BPS feature");
        mod::vcdiff::CreateOptions o;
        o.secondary = !vm["no-secondary"].as<bool>();
        patch = mod::vcdiff::create(source, target, o);
    } else {
        if (vm.count("metadata")) usage_error("--metadata is a BPS feature");
        mod::zpatch::CreateOptions o;
        o.level = vm["level"].as<int>();
        patch = mod::zpatch::create(source, target, o);
    }
    const fs::path inputs[] = {source_path, target_path};
    mod::write_file_atomic(out, patch, inputs);
    if (g.json) {
        Json j;
        j.begin_object()
            .field("format", name_of(format))
            .field("source_bytes", std::uint64_t(source.size()))
            .field("target_bytes", std::uint64_t(target.size()))
            .field("patch_bytes", std::uint64_t(patch.size()))
            .field("output", out.string())
            .end_object();
    } else {
        std::printf("%s patch: %zu bytes (source %zu, target %zu)\n", name_of(format), patch.size(), source.size(),
                    target.size());
    }
    return 0;
}

// The CRC-32 of the source the patch was made for.
std::uint32_t expected_source_crc(const mod::Bytes& patch, const fs::path& path, Format format) {
    if (format == Format::bps) {
        mod::bps::ApplyOptions o;
        o.ignore_source_crc = true;
        return mod::bps::describe(mod::ByteReader(patch, mod::Endian::little, path.string(), "bps"), o).source_crc32;
    }
    return mod::zpatch::inspect(mod::ByteReader(patch, mod::Endian::little, path.string(), "zpatch")).source_crc32;
}

// When `source` is an N64 ROM in another byte order whose conversion is the patch's source:
// {the order it is in, the order the patch wants}.
std::optional<std::pair<std::string, std::string>> swapped_dump_of_source(mod::ByteView source, std::uint32_t want_crc) {
    try {
        const auto order = mod::n64::detect_order(mod::ByteReader(source, mod::Endian::big));
        for (auto to : {mod::n64::ByteOrder::z64, mod::n64::ByteOrder::v64, mod::n64::ByteOrder::n64}) {
            if (to == order) continue;
            const mod::Bytes other = mod::n64::from_z64(mod::n64::to_z64(source, order), to);
            if (mod::crc32(other) == want_crc) return std::pair{std::string(mod::n64::to_string(order)), std::string(mod::n64::to_string(to))};
        }
    } catch (const mod::Error&) {
    }
    return std::nullopt;
}

int patch_apply(const po::variables_map& vm, const Global& g) {
    fs::path patch_path = required(vm, "patch"), source_path = required(vm, "source");
    // Without OUT, as Flips does: beside the source, named after the patch, with the source's extension.
    fs::path out = vm.count("out") ? fs::path(vm["out"].as<std::string>())
                                   : source_path.parent_path() / (patch_path.stem().string() + source_path.extension().string());
    const auto patch = mod::read_file(patch_path);
    // The source is only read, and the result is decoded in one go (zstd) or built (BPS): both
    // live in page buffers (no zero-filling pass over tens of megabytes; huge pages).
    const mod::PageBuffer source = mod::read_file_pages(source_path);
    const Format format = detected_format(patch, patch_path);
    const std::uint64_t max_size = vm["max-size"].as<std::uint64_t>();
    mod::Bytes bps_target;
    mod::PageBuffer zstd_target;
    try {
        if (format == Format::bps) {
            mod::bps::ApplyOptions o;
            o.max_target = max_size;
            o.ignore_source_crc = vm.count("ignore-source-crc") > 0;
            bps_target = mod::bps::apply(mod::ByteReader(patch, mod::Endian::little, patch_path.string(), "bps"), source, o);
        } else if (format == Format::vcdiff) {
            if (vm.count("ignore-source-crc")) usage_error("--ignore-source-crc is a BPS option");
            mod::vcdiff::ApplyOptions o;
            o.max_target = max_size;
            bps_target = mod::vcdiff::apply(mod::ByteReader(patch, mod::Endian::big, patch_path.string(), "vcdiff"), source, o);
        } else {
            if (vm.count("ignore-source-crc")) usage_error("--ignore-source-crc is a BPS option");
            mod::zpatch::ApplyOptions o;
            o.max_target = max_size;
            // Called only after the size passed --max-size and the frame's own bound.
            mod::zpatch::apply_into(mod::ByteReader(patch, mod::Endian::little, patch_path.string(), "zpatch"), source,
                                    [&](std::uint64_t size) {
                                        zstd_target = mod::PageBuffer(static_cast<std::size_t>(size));
                                        return zstd_target.span();
                                    },
                                    o);
        }
    } catch (mod::Error& e) {
        // A refused source: say which file was refused, and name a byte-swapped dump of the
        // right ROM as such (it is the right game, only in another byte order).
        if (e.kind() == mod::ErrorKind::conflict) {
            // VCDIFF names no source checksum to compare a byte-swapped dump with.
            if (auto swapped = format == Format::vcdiff
                                   ? std::nullopt
                                   : swapped_dump_of_source(source, expected_source_crc(patch, patch_path, format))) {
                fs::path fixed = source_path;
                fixed.replace_extension("." + swapped->second);
                throw mod::Error(e.kind(), source_path.string() + " is a byte-swapped (" + swapped->first +
                                               ") dump of the ROM this patch was made for (" + swapped->second +
                                               "): convert it first with 'modkit rom normalize " + source_path.string() +
                                               " " + fixed.string() + " --order " + swapped->second +
                                               "' and apply the patch to " + fixed.string());
            }
            throw mod::Error(e.kind(), source_path.string() + ": " + e.message(), e.file(),
                             e.offset(), e.path());
        }
        throw;
    }
    const mod::ByteView target = format == Format::zpatch ? zstd_target.view() : mod::ByteView(bps_target);
    const fs::path inputs[] = {patch_path, source_path};
    // Written only now that the whole result is decoded and checked; 4 KiB blocks of zeros are
    // left as holes (ROM padding), as zstd's own tool does.
    mod::PendingOutput pending(out, inputs);
    pending.write_sparse(target);
    pending.commit();
    if (g.json) {
        Json j;
        j.begin_object()
            .field("format", name_of(format))
            .field("output", out.string())
            .field("target_bytes", std::uint64_t(target.size()))
            .field("target_sha1", mod::to_hex(mod::sha1(target)))
            .end_object();
    } else {
        std::printf("applied %s patch: %zu bytes written to %s\n", name_of(format), target.size(), out.c_str());
    }
    return 0;
}

void info_bps(const mod::Bytes& patch, const fs::path& path, const Global& g) {
    const auto info = mod::bps::describe(mod::ByteReader(patch, mod::Endian::little, path.string(), "bps"));
    static const char* kinds[] = {"source_read", "target_read", "source_copy", "target_copy"};
    if (g.json) {
        Json j;
        j.begin_object()
            .field("format", "bps")
            .field("patch_bytes", std::uint64_t(patch.size()))
            .field("source_size", info.source_size)
            .field("source_crc32", mod::hex(info.source_crc32, 8))
            .field("target_size", info.target_size)
            .field("target_crc32", mod::hex(info.target_crc32, 8))
            .field("patch_crc32", mod::hex(info.patch_crc32, 8))
            .field("metadata", info.metadata)
            .key("actions").begin_object();
        for (int k = 0; k < 4; ++k)
            j.key(kinds[k]).begin_object().field("count", info.action_count[k]).field("bytes", info.action_bytes[k]).end_object();
        j.end_object().end_object();
    } else {
        std::printf("format       BPS1 (%zu bytes)\n", patch.size());
        std::printf("source       %llu bytes, CRC-32 %08X\n", static_cast<unsigned long long>(info.source_size), info.source_crc32);
        std::printf("target       %llu bytes, CRC-32 %08X\n", static_cast<unsigned long long>(info.target_size), info.target_crc32);
        if (info.metadata.empty()) std::printf("metadata     none\n");
        else std::printf("metadata     %zu bytes: %s\n", info.metadata.size(), mod::escape_controls(info.metadata).c_str());
        for (int k = 0; k < 4; ++k)
            std::printf("%-12s %llu actions, %llu bytes\n", kinds[k], static_cast<unsigned long long>(info.action_count[k]),
                        static_cast<unsigned long long>(info.action_bytes[k]));
    }
}

void info_zpatch(const mod::Bytes& patch, const fs::path& path, const Global& g) {
    // Header and frame structure: a damaged frame is a format error (exit 2), not a report.
    const auto h = mod::zpatch::inspect(mod::ByteReader(patch, mod::Endian::little, path.string(), "zpatch"));
    if (g.json) {
        Json j;
        j.begin_object()
            .field("format", "zpatch")
            .field("patch_bytes", std::uint64_t(patch.size()))
            .field("source_size", h.source_size)
            .field("source_crc32", mod::hex(h.source_crc32, 8))
            .field("source_sha1", mod::to_hex(h.source_sha1))
            .field("target_size", h.target_size)
            .field("target_crc32", mod::hex(h.target_crc32, 8))
            .field("target_sha1", mod::to_hex(h.target_sha1))
            .field("window_log", unsigned(h.window_log))
            .field("level", unsigned(h.level))
            .field("frame_bytes", h.frame_size)
            .end_object();
    } else {
        std::printf("format       MZPT zstd patch (%zu bytes, frame %u bytes, level %u, window 2^%u)\n", patch.size(),
                    h.frame_size, unsigned(h.level), unsigned(h.window_log));
        std::printf("source       %llu bytes, CRC-32 %08X, SHA-1 %s\n", static_cast<unsigned long long>(h.source_size),
                    h.source_crc32, mod::to_hex(h.source_sha1).c_str());
        std::printf("target       %llu bytes, CRC-32 %08X, SHA-1 %s\n", static_cast<unsigned long long>(h.target_size),
                    h.target_crc32, mod::to_hex(h.target_sha1).c_str());
    }
}

void info_vcdiff(const mod::Bytes& patch, const fs::path& path, const Global& g) {
    const auto info = mod::vcdiff::describe(mod::ByteReader(patch, mod::Endian::big, path.string(), "vcdiff"));
    const char* secondary = info.secondary == 0 ? "none" : info.secondary == mod::vcdiff::lzma_id ? "lzma" : "other";
    if (g.json) {
        Json j;
        j.begin_object()
            .field("format", "vcdiff")
            .field("patch_bytes", std::uint64_t(patch.size()))
            .field("target_size", info.target_size)
            .field("source_bytes_named", info.source_end)
            .field("windows", info.windows)
            .field("checksummed_windows", info.checksummed_windows)
            .field("secondary", secondary)
            .field("app_header", info.app_header)
            .field("instructions", info.instructions)
            .field("add_bytes", info.add_bytes)
            .field("run_bytes", info.run_bytes)
            .field("copy_bytes", info.copy_bytes)
            .end_object();
    } else {
        std::printf("format       VCDIFF (RFC 3284, %zu bytes, secondary compression %s)\n", patch.size(), secondary);
        std::printf("source       at least %llu bytes (VCDIFF names no source checksum)\n",
                    static_cast<unsigned long long>(info.source_end));
        std::printf("target       %llu bytes in %llu windows, %llu with an Adler-32\n",
                    static_cast<unsigned long long>(info.target_size), static_cast<unsigned long long>(info.windows),
                    static_cast<unsigned long long>(info.checksummed_windows));
        if (!info.app_header.empty()) std::printf("app header   %s\n", mod::escape_controls(info.app_header).c_str());
        std::printf("instructions %llu: %llu bytes added, %llu run, %llu copied\n",
                    static_cast<unsigned long long>(info.instructions), static_cast<unsigned long long>(info.add_bytes),
                    static_cast<unsigned long long>(info.run_bytes), static_cast<unsigned long long>(info.copy_bytes));
    }
}

int patch_info(const po::variables_map& vm, const Global& g) {
    fs::path patch_path = required(vm, "patch");
    const auto patch = mod::read_file(patch_path);
    const Format format = detected_format(patch, patch_path);
    if (format == Format::bps) info_bps(patch, patch_path, g);
    else if (format == Format::vcdiff) info_vcdiff(patch, patch_path, g);
    else info_zpatch(patch, patch_path, g);
    return 0;
}

const Registrar patch_group({"patch", "distributable patches: BPS (ROMs), VCDIFF (what xdelta3 reads) and zstd MZPT", {
    {"create", "SOURCE TARGET OUT [--format bps|zpatch|vcdiff] [--level N] [--metadata TEXT] [--no-secondary]",
     "make a patch turning SOURCE into TARGET (format from --format or OUT's .bps/.zpatch/.vcdiff extension)",
     [](auto& o, auto& p) {
         o.add_options()("source", po::value<std::string>(), "original file")(
             "target", po::value<std::string>(), "modified file")("out", po::value<std::string>(), "patch to write")(
             "format", po::value<std::string>(), "bps, zpatch or vcdiff")(
             "level", number<int>()->default_value(mod::zpatch::default_level), "zstd level (zpatch)")(
             "metadata", po::value<std::string>(), "text stored in the BPS header")(
             "no-secondary", po::bool_switch(), "vcdiff without LZMA sections (for decoders built without LZMA)");
         p.add("source", 1).add("target", 1).add("out", 1);
     },
     patch_create},
    {"apply", "PATCH SOURCE [OUT] [--max-size N] [--ignore-source-crc]",
     "apply a patch; a source that is not the one the patch was made for is refused",
     [](auto& o, auto& p) {
         o.add_options()("patch", po::value<std::string>(), "patch file (.bps, .zpatch or .vcdiff/.xdelta)")(
             "source", po::value<std::string>(), "original file")("out", po::value<std::string>(), "result to write (default: beside SOURCE, named after PATCH)")(
             "max-size", number<std::uint64_t>()->default_value(mod::zpatch::default_max_target),
             "refuse patches declaring a larger result")(
             "ignore-source-crc", "BPS only: apply even when the source CRC differs (the result CRC is still checked)");
         p.add("patch", 1).add("source", 1).add("out", 1);
     },
     patch_apply},
    {"info", "PATCH [--json]", "show what a patch was made from and for (BPS: action statistics)",
     [](auto& o, auto& p) {
         o.add_options()("patch", po::value<std::string>(), "patch file");
         p.add("patch", 1);
     },
     patch_info},
}});

}  // namespace
}  // namespace modkit
