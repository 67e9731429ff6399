#include "libmod/core/bytes.hpp"

#include <cstdio>

namespace mod {

namespace {
const std::string& empty_string() {
    static const std::string s;
    return s;
}
}  // namespace

ByteReader::ByteReader(ByteView data, Endian endian, std::string file, std::string path)
    : data_(data), endian_(endian),
      file_(std::make_shared<const std::string>(std::move(file))), path_(std::move(path)) {}

const std::string& ByteReader::file() const noexcept { return file_ ? *file_ : empty_string(); }

ByteReader ByteReader::sub(std::size_t offset, std::size_t size, std::string_view child_path) const {
    require_at(offset, size);
    ByteReader child = *this;
    child.data_ = data_.subspan(offset, size);
    child.pos_ = 0;
    child.base_ = base_ + offset;
    child.path_ = join_path(path_, child_path);
    return child;
}

ByteReader ByteReader::with_path(std::string_view path) const {
    ByteReader r = *this;
    r.path_ = path;
    return r;
}

ByteReader ByteReader::with_endian(Endian endian) const {
    ByteReader r = *this;
    r.endian_ = endian;
    return r;
}

ByteReader ByteReader::with_base(std::uint64_t base) const {
    ByteReader r = *this;
    r.base_ = base;
    return r;
}

void ByteReader::seek(std::size_t pos) {
    if (pos > data_.size())
        fail_at(pos, "seek to " + hex(absolute(pos)) + " past the end of a " +
                         std::to_string(data_.size()) + "-byte range");
    pos_ = pos;
}

std::string ByteReader::fixed_string(std::size_t n) {
    auto s = bytes(n);
    return std::string(s.begin(), s.end());
}

std::size_t ByteReader::require_array(std::uint64_t count, std::size_t element_size) const {
    std::uint64_t avail = remaining();
    if (element_size != 0 && count > avail / element_size)
        fail("array of " + std::to_string(count) + " elements of " + std::to_string(element_size) +
             " bytes does not fit in the " + std::to_string(avail) + " bytes left");
    return static_cast<std::size_t>(count * element_size);
}

void ByteReader::fail_at(std::size_t pos, std::string_view message, ErrorKind kind) const {
    throw Error(kind, std::string(message), file(), absolute(pos), path_);
}

void ByteReader::fail_at_path(std::size_t pos, std::string_view child_path, std::string_view message,
                              ErrorKind kind) const {
    throw Error(kind, std::string(message), file(), absolute(pos), join_path(path_, child_path));
}

void ByteReader::expect_end() const {
    if (!at_end())
        fail(std::to_string(remaining()) + " unexpected trailing bytes");
}

void ByteReader::fail_truncated(std::size_t pos, std::size_t n) const {
    std::size_t have = pos <= data_.size() ? data_.size() - pos : 0;
    fail_at(pos, "truncated: need " + std::to_string(n) + " bytes, " + std::to_string(have) +
                     " available");
}

void ByteWriter::align(std::size_t alignment, std::uint8_t value) {
    if (alignment == 0) return;
    std::size_t rem = data_.size() % alignment;
    if (rem) fill(alignment - rem, value);
}

void ByteWriter::patch_u16(std::size_t at, std::uint16_t v) {
    if (at > data_.size() || 2 > data_.size() - at)
        throw Error(ErrorKind::usage, "patch_u16 at " + hex(at) + " outside the written data");
    endian::store16(&data_[at], v, endian_);
}

void ByteWriter::patch_u32(std::size_t at, std::uint32_t v) {
    if (at > data_.size() || 4 > data_.size() - at)
        throw Error(ErrorKind::usage, "patch_u32 at " + hex(at) + " outside the written data");
    endian::store32(&data_[at], v, endian_);
}

std::uint64_t align_up(std::uint64_t v, std::uint64_t alignment) {
    if (alignment == 0) return v;
    std::uint64_t rem = v % alignment;
    if (rem == 0) return v;
    std::uint64_t add = alignment - rem;
    if (v > UINT64_MAX - add) throw Error(ErrorKind::limit, "size overflow while aligning");
    return v + add;
}

std::string hex(std::uint64_t v, int min_digits) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%0*llX", min_digits, static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace mod
