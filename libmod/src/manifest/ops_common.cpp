// Operations for any game: bytes.patch.
#include "operation.hpp"

#include <algorithm>

namespace mod::manifest::detail {

namespace {

// N64 boot checksum: the two CRC words at 0x10 cover ROM bytes [0x1000, 0x101000).
constexpr std::uint64_t crc_words_begin = 0x10, crc_words_end = 0x18;
constexpr std::uint64_t crc_covered_begin = 0x1000, crc_covered_end = 0x101000;

struct BytePatch {
    std::uint64_t offset;
    Bytes expect, bytes;
};

BytePatch read_patch(const EditEnv& env) {
    BytePatch p{env.offset("offset"), env.hex_bytes("expect"), env.hex_bytes("bytes")};
    if (p.expect.size() != p.bytes.size())
        env.fail("bytes", "gives " + std::to_string(p.bytes.size()) + " bytes but \"expect\" gives " +
                              std::to_string(p.expect.size()) + ": a patch replaces bytes one for one");
    return p;
}

void check_range(const EditEnv& env, const BytePatch& p, const Bytes& data) {
    if (p.offset > data.size() || p.bytes.size() > data.size() - p.offset)
        env.fail("offset", "bytes " + hex(p.offset) + "+" + std::to_string(p.bytes.size()) + " lie outside " +
                               env.target.display + " (" + std::to_string(data.size()) + " bytes)",
                 ErrorKind::usage);
    const ByteView there(data.data() + p.offset, p.bytes.size());
    if (!std::equal(there.begin(), there.end(), p.expect.begin()))
        env.fail("expect", "the bytes at " + hex(p.offset) + " are " + hex_text(there) + ", not the expected " +
                               hex_text(p.expect) + " (a different base file, or an earlier edit changed them)",
                 ErrorKind::conflict);
    if (env.target.kind == "rom" && p.offset < crc_words_end && p.offset + p.bytes.size() > crc_words_begin)
        env.fail("offset", "the boot checksum words (0x10-0x17) are recomputed by modkit; patch the covered bytes instead");
}

void plan_bytes_patch(const EditEnv& env, PlannedEdit& out) {
    const BytePatch p = read_patch(env);
    check_range(env, p, env.target.current);
    out.touches.push_back(touch(env.target, "bytes", p.offset, p.offset + p.bytes.size(), true,
                                std::to_string(p.bytes.size()) + " bytes at " + hex(p.offset)));
    if (env.target.kind == "rom") {
        out.summary = "patch " + std::to_string(p.bytes.size()) + " bytes at z64 offset " + hex(p.offset);
        if (p.offset < crc_covered_end && p.offset + p.bytes.size() > crc_covered_begin)
            out.limits.push_back("inside the boot checksum's range: the checksum words are recomputed");
    } else {
        out.summary = "patch " + std::to_string(p.bytes.size()) + " bytes at " + hex(p.offset);
    }
}

void apply_bytes_patch(EditEnv& env, ReportOut& r) {
    const BytePatch p = read_patch(env);
    check_range(env, p, env.target.current);
    std::copy(p.bytes.begin(), p.bytes.end(), env.target.current.begin() + static_cast<std::ptrdiff_t>(p.offset));
    if (env.target.kind == "rom" && p.offset < crc_covered_end && p.offset + p.bytes.size() > crc_covered_begin)
        env.target.fix_checksums = true;
    r.set("offset", p.offset).set("size", std::uint64_t(p.bytes.size())).set("before", hex_text(p.expect, 256))
        .set("after", hex_text(p.bytes, 256));
}

}  // namespace

void register_common_ops(OpTable& ops) {
    add_op(ops, OpInfo{"bytes.patch", std::nullopt, plan_bytes_patch, apply_bytes_patch});
}

}  // namespace mod::manifest::detail
