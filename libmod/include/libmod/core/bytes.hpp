#pragma once
// Bounds-checked binary reading and writing.
//
// ByteReader is a cursor over an immutable byte range with one endianness. Every read checks
// the range first and throws mod::Error (kind format) naming the file, the absolute offset and
// the structure path; nothing reads outside the range. sub() returns a child reader confined
// to a sub-range, so a container entry cannot read its neighbours. Absolute offsets are kept
// across sub(): errors always name the position in the buffer the top reader was built on.
//
// ByteWriter grows a byte vector with the same endianness rules, plus alignment and
// back-patching of offsets written before their targets are known.

#include "libmod/core/endian.hpp"
#include "libmod/core/error.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mod {

using Bytes = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

class ByteReader {
public:
    ByteReader() = default;
    // `file` names the source in errors; `path` is the structure path of this range.
    ByteReader(ByteView data, Endian endian, std::string file = {}, std::string path = {});

    // A reader over [offset, offset + size) of this reader's range (relative offsets), with
    // the structure path extended by `child_path` (".name" / "[i]" / "name").
    ByteReader sub(std::size_t offset, std::size_t size, std::string_view child_path = {}) const;
    // The same range with another structure path or endianness.
    ByteReader with_path(std::string_view path) const;
    ByteReader with_endian(Endian endian) const;
    // The same range, reporting offsets as if it started at `base` in the top-level buffer
    // (for a copy of bytes that came from offset `base` of a file).
    ByteReader with_base(std::uint64_t base) const;

    std::size_t size() const noexcept { return data_.size(); }
    std::size_t tell() const noexcept { return pos_; }
    std::size_t remaining() const noexcept { return data_.size() - pos_; }
    bool at_end() const noexcept { return pos_ == data_.size(); }
    Endian endian() const noexcept { return endian_; }
    ByteView data() const noexcept { return data_; }
    const std::string& path() const noexcept { return path_; }
    const std::string& file() const noexcept;
    // Absolute offset (in the top-level buffer) of relative position `pos`.
    std::uint64_t absolute(std::size_t pos) const noexcept { return base_ + pos; }

    void seek(std::size_t pos);
    void skip(std::size_t n) { require(n); pos_ += n; }
    // True when n more bytes can be read.
    bool has(std::size_t n) const noexcept { return n <= data_.size() - pos_; }
    void require(std::size_t n) const {
        if (!has(n)) fail_truncated(pos_, n);
    }
    void require_at(std::size_t pos, std::size_t n) const {
        if (pos > data_.size() || n > data_.size() - pos) fail_truncated(pos, n);
    }

    std::uint8_t u8() { require(1); return data_[pos_++]; }
    std::uint16_t u16() { require(2); auto v = endian::load16(&data_[pos_], endian_); pos_ += 2; return v; }
    std::uint32_t u32() { require(4); auto v = endian::load32(&data_[pos_], endian_); pos_ += 4; return v; }
    std::uint64_t u64() { require(8); auto v = endian::load64(&data_[pos_], endian_); pos_ += 8; return v; }
    std::int8_t i8() { return static_cast<std::int8_t>(u8()); }
    std::int16_t i16() { return static_cast<std::int16_t>(u16()); }
    std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
    // IEEE single read through its bits (no arithmetic, NaN payloads survive).
    float f32() { return std::bit_cast<float>(u32()); }
    ByteView bytes(std::size_t n) { require(n); auto s = data_.subspan(pos_, n); pos_ += n; return s; }
    std::string fixed_string(std::size_t n);  // exactly n bytes, as-is

    std::uint8_t u8_at(std::size_t pos) const { require_at(pos, 1); return data_[pos]; }
    std::uint16_t u16_at(std::size_t pos) const { require_at(pos, 2); return endian::load16(&data_[pos], endian_); }
    std::uint32_t u32_at(std::size_t pos) const { require_at(pos, 4); return endian::load32(&data_[pos], endian_); }
    ByteView bytes_at(std::size_t pos, std::size_t n) const { require_at(pos, n); return data_.subspan(pos, n); }

    // Checked count × element size for array reads: fails (format) when the array cannot fit
    // in the remaining bytes, before anything is allocated.
    std::size_t require_array(std::uint64_t count, std::size_t element_size) const;

    // Throw a format error at relative position `pos` (default: the cursor).
    [[noreturn]] void fail(std::string_view message) const { fail_at(pos_, message); }
    [[noreturn]] void fail_at(std::size_t pos, std::string_view message,
                              ErrorKind kind = ErrorKind::format) const;
    [[noreturn]] void fail_at_path(std::size_t pos, std::string_view child_path,
                                   std::string_view message, ErrorKind kind = ErrorKind::format) const;
    // Throw unless the whole range was consumed.
    void expect_end() const;

private:
    [[noreturn]] void fail_truncated(std::size_t pos, std::size_t n) const;

    ByteView data_;
    std::size_t pos_ = 0;
    std::uint64_t base_ = 0;
    Endian endian_ = Endian::big;
    std::shared_ptr<const std::string> file_;
    std::string path_;
};

class ByteWriter {
public:
    explicit ByteWriter(Endian endian = Endian::big) : endian_(endian) {}

    Endian endian() const noexcept { return endian_; }
    std::size_t size() const noexcept { return data_.size(); }
    const Bytes& data() const noexcept { return data_; }
    Bytes take() noexcept { return std::move(data_); }
    void reserve(std::size_t n) { data_.reserve(n); }

    void u8(std::uint8_t v) { data_.push_back(v); }
    void u16(std::uint16_t v) { auto p = grow(2); endian::store16(p, v, endian_); }
    void u32(std::uint32_t v) { auto p = grow(4); endian::store32(p, v, endian_); }
    void u64(std::uint64_t v) { auto p = grow(8); endian::store64(p, v, endian_); }
    void i16(std::int16_t v) { u16(static_cast<std::uint16_t>(v)); }
    void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
    void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
    void bytes(ByteView v) { data_.insert(data_.end(), v.begin(), v.end()); }
    void string(std::string_view s) { data_.insert(data_.end(), s.begin(), s.end()); }
    void fill(std::size_t n, std::uint8_t value = 0) { data_.insert(data_.end(), n, value); }
    // Pad with `value` until size() is a multiple of `alignment` (a power of two or any n > 0).
    void align(std::size_t alignment, std::uint8_t value = 0);

    // Write a zero placeholder and return its position for patch_u32 later.
    std::size_t placeholder_u32() { auto at = size(); u32(0); return at; }
    void patch_u16(std::size_t at, std::uint16_t v);
    void patch_u32(std::size_t at, std::uint32_t v);

private:
    std::uint8_t* grow(std::size_t n) {
        data_.resize(data_.size() + n);
        return data_.data() + data_.size() - n;
    }

    Bytes data_;
    Endian endian_;
};

// Round v up to a multiple of `alignment` (> 0). Throws limit on overflow.
std::uint64_t align_up(std::uint64_t v, std::uint64_t alignment);

// "0x1A2B" formatting used in messages.
std::string hex(std::uint64_t v, int min_digits = 0);

}  // namespace mod
