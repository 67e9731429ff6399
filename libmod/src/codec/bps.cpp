// BPS: reading, describing and applying patches, and the varint coding (doc/formats/bps.md).
// The encoder is in bps_create.cpp.
#include "libmod/codec/bps.hpp"

#include "libmod/core/endian.hpp"
#include "libmod/core/hash.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

namespace mod::bps {

namespace {

constexpr std::size_t min_patch_size = 4 + 3 + footer_size;  // magic, three 1-byte varints, footer

const char* action_name(std::uint64_t kind) {
    switch (kind) {
        case 0: return "SourceRead";
        case 1: return "TargetRead";
        case 2: return "SourceCopy";
        default: return "TargetCopy";
    }
}

// Moves a relative cursor by a BPS signed offset (bit 0 = negative, the rest = magnitude)
// and checks it stays inside [0, limit]. Returns false when it would leave that range.
bool move_cursor(std::uint64_t& cursor, std::uint64_t encoded, std::uint64_t limit) {
    const std::uint64_t magnitude = encoded >> 1;
    if (encoded & 1) {
        if (magnitude > cursor) return false;
        cursor -= magnitude;
    } else {
        if (cursor > limit || magnitude > limit - cursor) return false;
        cursor += magnitude;
    }
    return true;
}

// Where run_actions puts the bytes: written to `target`; compared with `expected` (whose bytes
// stand for the target written so far while they all match, so TargetCopy reads them), the
// first target offset that differs kept in `mismatch`; or neither (describe()).
struct Output {
    std::uint8_t* target = nullptr;
    const std::uint8_t* expected = nullptr;
    std::uint64_t mismatch = no_mismatch;
    static constexpr std::uint64_t no_mismatch = ~std::uint64_t(0);

    void put(std::uint64_t out, const std::uint8_t* bytes, std::uint64_t length) {
        if (target) std::memcpy(target + out, bytes, length);
        else if (expected && mismatch == no_mismatch && std::memcmp(expected + out, bytes, length) != 0)
            for (std::uint64_t k = 0;; ++k)
                if (expected[out + k] != bytes[k]) {
                    mismatch = out + k;
                    break;
                }
    }
    // Byte by byte: the copy may overlap the bytes it writes (a run).
    void copy_target(std::uint64_t out, std::uint64_t from, std::uint64_t length) {
        if (target)
            for (std::uint64_t k = 0; k < length; ++k) target[out + k] = target[from + k];
        else if (expected && mismatch == no_mismatch)
            for (std::uint64_t k = 0; k < length; ++k)
                if (expected[out + k] != expected[from + k]) {
                    mismatch = out + k;
                    break;
                }
    }
};

// Runs the action stream into `output`. With neither a target nor an expected target nothing is
// written (describe()); the checks are the same, against the declared sizes. `source` may then
// be empty.
void run_actions(ByteReader actions, const Info& head, ByteView source, Output& output, Info& stats) {
    const std::uint64_t target_size = head.target_size;
    const std::uint64_t source_size = head.source_size;
    std::uint64_t out = 0, source_cursor = 0, target_cursor = 0;
    for (std::uint64_t index = 0; !actions.at_end(); ++index) {
        const std::size_t at = actions.tell();
        auto fail = [&](const std::string& message) {
            actions.fail_at_path(at, index_path(".action", index), message);
        };
        const std::uint64_t word = read_varint(actions);
        const std::uint64_t kind = word & 3;
        const std::uint64_t length = (word >> 2) + 1;
        if (length > target_size - out)
            fail(std::string(action_name(kind)) + " of " + std::to_string(length) + " bytes at target offset " +
                 std::to_string(out) + " runs past the declared target size " + std::to_string(target_size));
        switch (static_cast<Action>(kind)) {
            case Action::source_read:
                if (out + length > source_size)
                    fail("SourceRead of " + std::to_string(length) + " bytes at " + std::to_string(out) +
                         " runs past the source's " + std::to_string(source_size) + " bytes");
                output.put(out, source.data() + out, length);
                break;
            case Action::target_read: {
                if (!actions.has(length))
                    fail("TargetRead of " + std::to_string(length) + " bytes, only " +
                         std::to_string(actions.remaining()) + " patch bytes remain before the footer");
                ByteView bytes = actions.bytes(length);
                output.put(out, bytes.data(), length);
                break;
            }
            case Action::source_copy: {
                const std::uint64_t offset = read_varint(actions);
                if (!move_cursor(source_cursor, offset, source_size) || length > source_size - source_cursor)
                    fail("SourceCopy of " + std::to_string(length) + " bytes reaches outside the source (offset " +
                         std::string(offset & 1 ? "-" : "+") + std::to_string(offset >> 1) + ")");
                output.put(out, source.data() + source_cursor, length);
                source_cursor += length;
                break;
            }
            case Action::target_copy: {
                const std::uint64_t offset = read_varint(actions);
                if (!move_cursor(target_cursor, offset, target_size) || target_cursor >= out)
                    fail("TargetCopy must read target bytes already written (cursor " + std::to_string(target_cursor) +
                         ", written " + std::to_string(out) + ")");
                output.copy_target(out, target_cursor, length);
                target_cursor += length;
                break;
            }
        }
        stats.action_count[kind] += 1;
        stats.action_bytes[kind] += length;
        out += length;
    }
    if (out != target_size)
        actions.fail_at(actions.tell(), "the actions write " + std::to_string(out) + " bytes, the header declares " +
                                            std::to_string(target_size));
}

std::string crc_text(std::uint32_t crc) { return hex(crc, 8); }

}  // namespace

void write_varint(ByteWriter& out, std::uint64_t value) {
    for (;;) {
        const auto low = static_cast<std::uint8_t>(value & 0x7F);
        value >>= 7;
        if (value == 0) {
            out.u8(static_cast<std::uint8_t>(0x80 | low));
            return;
        }
        out.u8(low);
        --value;  // bijective: every value has exactly one encoding
    }
}

std::uint64_t read_varint(ByteReader& in) {
    const std::size_t start = in.tell();
    std::uint64_t value = 0, shift = 1;
    for (;;) {
        const std::uint8_t byte = in.u8();
        std::uint64_t part;
        if (__builtin_mul_overflow(std::uint64_t(byte & 0x7F), shift, &part) ||
            __builtin_add_overflow(value, part, &value))
            in.fail_at(start, "varint larger than 2^64-1");
        if (byte & 0x80) return value;
        if (shift > (UINT64_MAX >> 7)) in.fail_at(start, "varint larger than 2^64-1");
        shift <<= 7;
        if (__builtin_add_overflow(value, shift, &value)) in.fail_at(start, "varint larger than 2^64-1");
    }
}

bool has_magic(ByteView data) noexcept { return data.size() >= 4 && std::memcmp(data.data(), magic, 4) == 0; }

Info read_info(const ByteReader& patch_in) {
    const ByteReader patch = patch_in.with_endian(Endian::little);
    if (patch.size() < min_patch_size)
        patch.fail_at(0, "a BPS patch has at least " + std::to_string(min_patch_size) + " bytes, this one has " +
                             std::to_string(patch.size()));
    if (!has_magic(patch.data())) patch.fail_at(0, "bad magic: expected \"BPS1\"");
    const std::size_t footer = patch.size() - footer_size;
    Info info;
    info.source_crc32 = patch.u32_at(footer);
    info.target_crc32 = patch.u32_at(footer + 4);
    info.patch_crc32 = patch.u32_at(footer + 8);
    const std::uint32_t actual = crc32(patch.data().first(patch.size() - 4));
    if (actual != info.patch_crc32)
        patch.fail_at_path(footer + 8, ".footer.patch_crc32",
                           "patch CRC-32 is " + crc_text(actual) + ", the footer says " + crc_text(info.patch_crc32) +
                               ": the patch file is damaged");
    ByteReader head = patch.sub(0, footer, ".header");
    head.skip(4);
    info.source_size = read_varint(head);
    info.target_size = read_varint(head);
    const std::uint64_t metadata_size = read_varint(head);
    head.require_array(metadata_size, 1);
    ByteView metadata = head.bytes(static_cast<std::size_t>(metadata_size));
    info.metadata.assign(metadata.begin(), metadata.end());
    info.actions_offset = head.tell();
    return info;
}

Info describe(const ByteReader& patch_in, const ApplyOptions& options) {
    const ByteReader patch = patch_in.with_endian(Endian::little);
    Info info = read_info(patch);
    if (info.target_size > options.max_target)
        patch.fail_at_path(4, ".header", "target size " + std::to_string(info.target_size) + " exceeds the limit of " +
                                             std::to_string(options.max_target) + " bytes (raise it with --max-size)",
                           ErrorKind::limit);
    Output none;
    run_actions(patch.sub(info.actions_offset, patch.size() - footer_size - info.actions_offset), info, {}, none, info);
    return info;
}

namespace {

// The header checks of apply(): the source's size and CRC, the target size limit.
Info checked_info(const ByteReader& patch, ByteView source, const ApplyOptions& options) {
    Info info = read_info(patch);
    const std::uint32_t source_crc = crc32(source);
    if (source.size() != info.source_size || (!options.ignore_source_crc && source_crc != info.source_crc32)) {
        std::string message = "wrong source: the patch was made for " + std::to_string(info.source_size) +
                              " bytes with CRC-32 " + crc_text(info.source_crc32) + ", this file has " +
                              std::to_string(source.size()) + " bytes with CRC-32 " + crc_text(source_crc);
        if (source.size() == info.target_size && source_crc == info.target_crc32)
            message += " (it is already the patched result)";
        throw Error(ErrorKind::conflict, message, patch.file(), no_offset, join_path(patch.path(), "header"));
    }
    if (info.target_size > options.max_target)
        patch.fail_at_path(4, ".header", "target size " + std::to_string(info.target_size) + " exceeds the limit of " +
                                             std::to_string(options.max_target) + " bytes (raise it with --max-size)",
                           ErrorKind::limit);
    return info;
}

// Format error at the footer when `result`'s CRC-32 is not the one the patch declares.
void check_target_crc(const ByteReader& patch, const Info& info, ByteView result, const ApplyOptions& options) {
    const std::uint32_t target_crc = crc32(result);
    if (target_crc != info.target_crc32)
        patch.fail_at_path(patch.size() - footer_size + 4, ".footer.target_crc32",
                           "the result's CRC-32 is " + crc_text(target_crc) + ", the patch expects " +
                               crc_text(info.target_crc32) +
                               (options.ignore_source_crc ? " (the source CRC check was skipped: wrong source?)" : ""));
}

ByteReader action_stream(const ByteReader& patch, const Info& info) {
    return patch.sub(info.actions_offset, patch.size() - footer_size - info.actions_offset);
}

}  // namespace

Bytes apply(const ByteReader& patch_in, ByteView source, const ApplyOptions& options, Info* info_out) {
    const ByteReader patch = patch_in.with_endian(Endian::little);
    Info info = checked_info(patch, source, options);
    // A dry run first: the actions must write exactly the declared size within the declared
    // bounds before anything is allocated (a 25-byte patch claiming 4 GiB fails here). It costs
    // one walk of the patch, small next to writing the target.
    Info dry = info;
    Output none;
    run_actions(action_stream(patch, info), info, source, none, dry);
    Bytes target(static_cast<std::size_t>(info.target_size));
    Output into{target.data()};
    run_actions(action_stream(patch, info), info, source, into, info);
    check_target_crc(patch, info, target, options);
    if (info_out) *info_out = info;
    return target;
}

std::optional<std::uint64_t> first_difference(const ByteReader& patch_in, ByteView source, ByteView expected,
                                              const ApplyOptions& options) {
    const ByteReader patch = patch_in.with_endian(Endian::little);
    Info info = checked_info(patch, source, options);
    Output compare{nullptr, expected.data()};
    Info stats = info;
    if (expected.size() == info.target_size) run_actions(action_stream(patch, info), info, source, compare, stats);
    else {
        Output none;  // still every check of the actions; the sizes already differ
        run_actions(action_stream(patch, info), info, source, none, stats);
        compare.mismatch = std::min<std::uint64_t>(expected.size(), info.target_size);
    }
    if (compare.mismatch != Output::no_mismatch) return compare.mismatch;
    // Equal bytes: the patch's target CRC must be theirs, as apply() checks the result's.
    check_target_crc(patch, info, expected, options);
    return std::nullopt;
}

Bytes apply(ByteView patch, ByteView source, const ApplyOptions& options, Info* info) {
    return apply(ByteReader(patch, Endian::little, {}, "bps"), source, options, info);
}

}  // namespace mod::bps
