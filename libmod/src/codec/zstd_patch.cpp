// zstd patches: the MZPT header around a zstd frame compressed against the source as a prefix
// (doc/formats/zstd-patch.md).
#include "libmod/codec/zstd_patch.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/page_buffer.hpp"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader, ZSTD_createCCtx_advanced
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>

namespace mod::zpatch {

namespace {

constexpr unsigned min_window_log = 10;  // ZSTD_WINDOWLOG_MIN
constexpr unsigned max_window_log_64 = 31;

struct CCtxFree { void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); } };
struct DCtxFree { void operator()(ZSTD_DCtx* d) const noexcept { ZSTD_freeDCtx(d); } };

// libzstd's allocations through page_alloc (core/page_buffer.hpp).
const ZSTD_customMem mapped_pages = {[](void*, std::size_t size) { return page_alloc(size); },
                                     [](void*, void* block) { page_free(block); }, nullptr};

void check_zstd(std::size_t code, const char* what) {
    if (ZSTD_isError(code))
        throw Error(ErrorKind::format, std::string(what) + ": " + ZSTD_getErrorName(code));
}

// The window must reach from the end of the target back to the start of the source, because
// the source is the prefix the target's matches refer to.
unsigned window_log_for(std::uint64_t source_size, std::uint64_t target_size) {
    const std::uint64_t span = std::max<std::uint64_t>(source_size + target_size, 1);
    const auto log = static_cast<unsigned>(std::bit_width(span - 1));
    return std::max(log, min_window_log);
}

std::uint64_t u64_at(ByteReader r, std::size_t pos) {
    r.seek(pos);
    return r.u64();
}

std::string describe_file(std::uint64_t size, std::uint32_t crc, const Sha1Digest& sha) {
    return std::to_string(size) + " bytes, CRC-32 " + hex(crc, 8) + ", SHA-1 " + to_hex(sha);
}

}  // namespace

bool has_magic(ByteView data) noexcept { return data.size() >= 4 && std::memcmp(data.data(), magic, 4) == 0; }

Header read_header(const ByteReader& patch_in) {
    const ByteReader patch = patch_in.with_endian(Endian::little);
    const ByteReader head = patch.sub(0, std::min(patch.size(), header_size), ".header");
    head.require_at(0, header_size);
    if (!has_magic(head.data())) head.fail_at(0, "bad magic: expected \"MZPT\"");
    if (head.u16_at(4) != version)
        head.fail_at(4, "version " + std::to_string(head.u16_at(4)) + " (this modkit reads version " +
                            std::to_string(version) + ")");
    if (head.u16_at(6) != header_size)
        head.fail_at(6, "header size " + hex(head.u16_at(6)) + ", expected " + hex(header_size));
    const std::uint32_t stored_crc = head.u32_at(0x54);
    const std::uint32_t actual_crc = crc32(head.data().first(0x54));
    if (stored_crc != actual_crc)
        head.fail_at(0x54, "header CRC-32 is " + hex(actual_crc, 8) + ", stored " + hex(stored_crc, 8) +
                               ": the patch file is damaged");
    Header h;
    h.source_size = u64_at(head, 0x08);
    h.source_crc32 = head.u32_at(0x10);
    std::copy_n(head.bytes_at(0x14, 20).begin(), 20, h.source_sha1.begin());
    h.target_size = u64_at(head, 0x28);
    h.target_crc32 = head.u32_at(0x30);
    std::copy_n(head.bytes_at(0x34, 20).begin(), 20, h.target_sha1.begin());
    h.window_log = head.u8_at(0x48);
    h.level = head.u8_at(0x49);
    h.frame_size = head.u32_at(0x4C);
    if (h.window_log < min_window_log || h.window_log > max_window_log_64)
        head.fail_at(0x48, "window log " + std::to_string(h.window_log) + " outside [10, 31]");
    if (patch.size() - header_size != h.frame_size)
        head.fail_at(0x4C, "frame size " + std::to_string(h.frame_size) + ", but " +
                               std::to_string(patch.size() - header_size) + " bytes follow the header");
    return h;
}

Bytes create(ByteView source, ByteView target, const CreateOptions& options) {
    if (options.level < 1 || options.level > ZSTD_maxCLevel())
        throw Error(ErrorKind::usage, "zstd level " + std::to_string(options.level) + " outside [1, " +
                                          std::to_string(ZSTD_maxCLevel()) + "]");
    const unsigned window_log = window_log_for(source.size(), target.size());
    if (window_log > max_window_log_64)
        throw Error(ErrorKind::limit, "source and target together exceed the 2 GiB zstd window");
    // zstd's tables for a window of tens of megabytes are tens of megabytes, mapped and
    // unmapped whole (page_alloc).
    std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx(ZSTD_createCCtx_advanced(mapped_pages));
    if (!cctx) throw Error(ErrorKind::limit, "cannot allocate a zstd compression context");
    ZSTD_CCtx* c = cctx.get();
    check_zstd(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, options.level), "zstd level");
    check_zstd(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, static_cast<int>(window_log)), "zstd window");
    check_zstd(ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1), "zstd long mode");
    check_zstd(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1), "zstd checksum");
    check_zstd(ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1), "zstd content size");
    check_zstd(ZSTD_CCtx_setPledgedSrcSize(c, target.size()), "zstd pledged size");
    check_zstd(ZSTD_CCtx_refPrefix(c, source.data(), source.size()), "zstd prefix");
    // The frame goes to a page buffer of zstd's bound (as large as the target, but only the
    // pages written are ever touched: a patch of kilobytes costs kilobytes), then is copied
    // behind the header. A zero-filled vector of the bound cost a memset of the target's size.
    PageBuffer frame_buffer(ZSTD_compressBound(target.size()));
    const std::size_t frame = ZSTD_compress2(c, frame_buffer.data(), frame_buffer.size(), target.data(), target.size());
    check_zstd(frame, "zstd compression");
    if (frame > 0xFFFFFFFFu) throw Error(ErrorKind::limit, "zstd frame larger than 4 GiB");
    Bytes out(header_size + frame);
    std::memcpy(out.data() + header_size, frame_buffer.data(), frame);

    // The header, written in place in front of the frame.
    std::uint8_t* p = out.data();
    std::memcpy(p, magic, 4);
    endian::store_le16(p + 0x04, version);
    endian::store_le16(p + 0x06, static_cast<std::uint16_t>(header_size));
    endian::store_le64(p + 0x08, source.size());
    endian::store_le32(p + 0x10, crc32(source));
    const Sha1Digest source_sha = sha1(source);
    std::memcpy(p + 0x14, source_sha.data(), 20);
    endian::store_le64(p + 0x28, target.size());
    endian::store_le32(p + 0x30, crc32(target));
    const Sha1Digest target_sha = sha1(target);
    std::memcpy(p + 0x34, target_sha.data(), 20);
    p[0x48] = static_cast<std::uint8_t>(window_log);
    p[0x49] = static_cast<std::uint8_t>(options.level);
    endian::store_le16(p + 0x4A, 0);
    endian::store_le32(p + 0x4C, static_cast<std::uint32_t>(frame));
    endian::store_le32(p + 0x50, 0);
    endian::store_le32(p + 0x54, crc32(ByteView(p, 0x54)));
    return out;
}

namespace {
// The checks on the frame that need no source (see inspect).
void check_frame(const ByteReader& patch, const Header& h) {
    const ByteView frame = patch.data().subspan(header_size);
    auto fail_frame = [&](const std::string& message) { patch.fail_at_path(header_size, ".frame", message); };
    const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN)
        fail_frame("not a zstd frame with a content size");
    if (declared != h.target_size)
        fail_frame("the frame decodes to " + std::to_string(declared) + " bytes, the header says " +
                   std::to_string(h.target_size));
    const std::size_t frame_extent = ZSTD_findFrameCompressedSize(frame.data(), frame.size());
    if (ZSTD_isError(frame_extent) || frame_extent != frame.size())
        fail_frame(ZSTD_isError(frame_extent) ? std::string("damaged zstd frame: ") + ZSTD_getErrorName(frame_extent)
                                              : "bytes after the zstd frame");
}
// The most bytes the frame's blocks can produce, whatever its header claims (libzstd's
// ZSTD_decompressBound returns the claimed content size when there is one): a raw or RLE block
// produces its stated size, a compressed block at most the frame's block size maximum.
// UINT64_MAX when the block headers cannot be walked.
std::uint64_t frame_output_bound(ByteView frame) {
    ZSTD_frameHeader fh;
    if (ZSTD_getFrameHeader(&fh, frame.data(), frame.size()) != 0 || fh.frameType != ZSTD_frame) return UINT64_MAX;
    std::size_t at = fh.headerSize;
    std::uint64_t total = 0;
    for (;;) {
        if (frame.size() - at < 3) return UINT64_MAX;
        const std::uint32_t bh = frame[at] | (std::uint32_t(frame[at + 1]) << 8) | (std::uint32_t(frame[at + 2]) << 16);
        at += 3;
        const std::uint32_t size = bh >> 3, type = (bh >> 1) & 3;
        std::size_t stored = 0;
        switch (type) {
            case 0: stored = size; total += size; break;                      // raw
            case 1: stored = 1; total += size; break;                         // RLE
            case 2: stored = size; total += fh.blockSizeMax; break;           // compressed
            default: return UINT64_MAX;                                       // reserved
        }
        if (frame.size() - at < stored) return UINT64_MAX;
        at += stored;
        if (bh & 1) return total;
    }
}

}  // namespace

Header inspect(const ByteReader& patch_in) {
    const ByteReader patch = patch_in.with_endian(Endian::little);
    const Header h = read_header(patch);
    check_frame(patch, h);
    return h;
}

Header apply_into(const ByteReader& patch_in, ByteView source, const TargetBuffer& target_buffer,
                  const ApplyOptions& options) {
    const ByteReader patch = patch_in.with_endian(Endian::little);
    const Header h = read_header(patch);
    // The size refuses most wrong sources at no cost; SHA-1 makes the identity certain (on the
    // SHA extensions it is faster than our CRC-32, so the CRC is computed only to describe a
    // refused source: a source with the recorded SHA-1 is the recorded source).
    const bool same_size = source.size() == h.source_size;
    const Sha1Digest source_sha = same_size ? sha1(source) : Sha1Digest{};
    if (!same_size || source_sha != h.source_sha1) {
        const std::uint32_t source_crc = crc32(source);
        const bool same_size_and_crc = same_size && source_crc == h.source_crc32;
        std::string message = "wrong source: the patch was made for " +
                              describe_file(h.source_size, h.source_crc32, h.source_sha1) + "; this file has " +
                              std::to_string(source.size()) + " bytes, CRC-32 " + hex(source_crc, 8) +
                              (same_size_and_crc ? ", SHA-1 " + to_hex(source_sha) : std::string());
        if (source.size() == h.target_size && source_crc == h.target_crc32) message += " (it is already the patched result)";
        throw Error(ErrorKind::conflict, message, patch.file(), no_offset, join_path(patch.path(), "header"));
    }
    if (h.target_size > options.max_target)
        patch.fail_at_path(0x28, ".header", "target size " + std::to_string(h.target_size) + " exceeds the limit of " +
                                                std::to_string(options.max_target) + " bytes (raise it with --max-size)",
                           ErrorKind::limit);
    if (h.window_log > options.max_window_log)
        patch.fail_at_path(0x48, ".header", "window log " + std::to_string(h.window_log) + " exceeds the limit of " +
                                                std::to_string(options.max_window_log), ErrorKind::limit);
    check_frame(patch, h);
    const ByteView frame = patch.data().subspan(header_size);
    auto fail_frame = [&](const std::string& message) { patch.fail_at_path(header_size, ".frame", message); };
    // The frame's blocks bound what it can produce (at most 128 KiB each): a small frame whose
    // header claims gigabytes is refused before the target is allocated.
    const std::uint64_t bound = frame_output_bound(frame);
    if (bound == UINT64_MAX) fail_frame("damaged zstd frame (its blocks cannot be walked)");
    if (h.target_size > bound)
        fail_frame("the frame's blocks produce at most " + std::to_string(bound) + " bytes, the header claims " +
                   std::to_string(h.target_size));
    std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx(ZSTD_createDCtx_advanced(mapped_pages));
    if (!dctx) throw Error(ErrorKind::limit, "cannot allocate a zstd decompression context");
    check_zstd(ZSTD_DCtx_refPrefix(dctx.get(), source.data(), source.size()), "zstd prefix");
    const std::span<std::uint8_t> target = target_buffer(h.target_size);
    if (target.size() != h.target_size)
        throw Error(ErrorKind::usage, "zpatch::apply_into: the target buffer has " + std::to_string(target.size()) +
                                          " bytes, not " + std::to_string(h.target_size));
    // One-shot decoding into the whole target: no window buffer beyond the output is needed.
    const std::size_t written = ZSTD_decompressDCtx(dctx.get(), target.data(), target.size(), frame.data(), frame.size());
    if (ZSTD_isError(written)) fail_frame(std::string("zstd decoding failed: ") + ZSTD_getErrorName(written));
    if (written != target.size())
        fail_frame("the frame produced " + std::to_string(written) + " of " + std::to_string(target.size()) + " bytes");
    // The frame's own XXH64 content checksum was verified by zstd; the CRC-32 ties the result
    // to the header (SHA-1 of the result is recorded for users but not recomputed: it would
    // double the time of a large apply for no added safety).
    const std::uint32_t target_crc = crc32(target);
    if (target_crc != h.target_crc32)
        patch.fail_at_path(0x30, ".header", "the result's CRC-32 is " + hex(target_crc, 8) + ", the patch records " +
                                                hex(h.target_crc32, 8));
    return h;
}

Bytes apply(const ByteReader& patch, ByteView source, const ApplyOptions& options, Header* header_out) {
    Bytes target;
    const Header h = apply_into(
        patch, source,
        [&](std::uint64_t size) {
            target.resize(static_cast<std::size_t>(size));
            return std::span<std::uint8_t>(target);
        },
        options);
    if (header_out) *header_out = h;
    return target;
}

Bytes apply(ByteView patch, ByteView source, const ApplyOptions& options, Header* header) {
    return apply(ByteReader(patch, Endian::little, {}, "zpatch"), source, options, header);
}

}  // namespace mod::zpatch
