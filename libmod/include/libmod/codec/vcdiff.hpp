#pragma once
// VCDIFF patches (RFC 3284), as xdelta3, Delta Patcher and Rom Patcher JS read them.
// Spec and the choices modkit makes: doc/formats/vcdiff.md.
//
//   header   D6 C3 C4 00, Hdr_Indicator (0x01 secondary compressor id follows, 0x02 code table,
//            0x04 application header), [compressor id], [varint length + application header]
//   windows  Win_Indicator (0x01 VCD_SOURCE, 0x02 VCD_TARGET, 0x04 xdelta3's Adler-32),
//            [varint segment length, varint segment position], varint delta length,
//            varint target window length, Delta_Indicator, varint lengths of the data,
//            instruction and address sections, [u32 BE Adler-32 of the target window],
//            then the three sections.
//   Integers are big-endian base-128 varints (high bit: more bytes follow).
//
// Instructions use the RFC's default code table (§5.6) and address caches (s_near 4, s_same 3).
// Secondary compression: xdelta3's LZMA (compressor id 2: each compressed section is a varint
// of its decoded size and an .xz stream) is written where it makes a section smaller, and read;
// other compressors (DJW, FGK) and custom code tables are refused with a line saying so.

#include "libmod/core/bytes.hpp"

#include <cstdint>
#include <string>

namespace mod::vcdiff {

inline constexpr std::uint8_t magic[4] = {0xD6, 0xC3, 0xC4, 0x00};
inline constexpr std::uint64_t default_max_target = 1ull << 30;  // 1 GiB, as for BPS
// xdelta3's default target window (-W); its decoders before 3.1 refuse windows above 16 MiB.
inline constexpr std::size_t default_window = std::size_t(1) << 23;
inline constexpr std::uint8_t lzma_id = 2;  // xdelta3's VCD_LZMA_ID

struct Info {
    std::uint64_t target_size = 0;   // the sum of the windows
    std::uint64_t windows = 0;
    std::uint8_t secondary = 0;      // 0 none, else the compressor id
    std::uint64_t checksummed_windows = 0;  // windows carrying an Adler-32
    std::string app_header;          // raw bytes (xdelta3 writes file names)
    std::uint64_t add_bytes = 0, run_bytes = 0, copy_bytes = 0;
    std::uint64_t instructions = 0;
    std::uint64_t source_end = 0;    // one past the last source byte a window's segment names
};

struct ApplyOptions {
    // Targets adding up to more bytes are refused (limit) before anything is allocated.
    std::uint64_t max_target = default_max_target;
};

// True when `data` starts with D6 C3 C4 00.
bool has_magic(ByteView data) noexcept;

// Decodes every window without a source: the header, each window's sections (decompressed when
// secondary compressed), every instruction and address checked against the window, and each
// window's length checked against the instructions'. Format errors name the window and
// section (`vcdiff.window[3].inst`), the byte offset in the patch and what is wrong; limit
// error when the windows add up to more than options.max_target; unsupported features
// (code tables, compressors other than LZMA) are refused as format errors naming them.
Info describe(const ByteReader& patch, const ApplyOptions& options = {});

// Applies the patch to `source`: describe()'s checks first (nothing allocated for a target
// that would fail them), then each window, verifying its Adler-32 where the patch carries one.
// A source segment reaching past the source is a conflict error naming both sizes (a wrong or
// shorter source); a checksum mismatch is a format error saying the source is probably not the
// one the patch was made for. VCDIFF carries no checksum of the source itself.
Bytes apply(const ByteReader& patch, ByteView source, const ApplyOptions& options = {}, Info* info = nullptr);
Bytes apply(ByteView patch, ByteView source, const ApplyOptions& options = {}, Info* info = nullptr);

struct CreateOptions {
    std::size_t window = default_window;  // target bytes per window, 4 KiB .. 16 MiB (usage error outside)
    bool secondary = true;  // LZMA per section, only where it is smaller than the section
    std::size_t min_match = 4;  // as bps::CreateOptions
    bool checksums = true;  // xdelta3's Adler-32 per window (what lets it refuse a wrong source)
};

// A patch turning `source` into `target`: bps::create's parse (the same matches), written as
// VCDIFF windows of options.window target bytes whose source segments span the source bytes
// they copy. Target copies reaching into an earlier window become literals (the RFC confines
// a window's target copies to itself). Deterministic. Limit error for a source of 2 GiB or
// more or a target of 4 GiB or more.
Bytes create(ByteView source, ByteView target, const CreateOptions& options = {});

// Adler-32 (RFC 1950) as xdelta3 computes it per window; `previous` chains calls (start: 1).
std::uint32_t adler32(ByteView data, std::uint32_t previous = 1) noexcept;

// VCDIFF varints (exposed for tests): big-endian base-128, the last byte has bit 7 clear.
void write_varint(ByteWriter& out, std::uint64_t value);
// Format error above 2^63-1 or when the reader ends inside the varint.
std::uint64_t read_varint(ByteReader& in);

}  // namespace mod::vcdiff
