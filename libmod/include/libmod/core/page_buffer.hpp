#pragma once
// A large byte buffer taken straight from the kernel (anonymous mmap), for whole files of tens
// of megabytes: unlike Bytes (std::vector) it is not zero-filled by a memset over every page
// (the kernel already gives zeroed pages), and pages never written are never touched (a
// buffer of zstd's output bound for a patch of kilobytes costs kilobytes). Its bytes read as
// zero until written, so contents never depend on earlier allocations. Transparent huge pages
// were tried and left out: on this project's VMs clearing fresh 2 MiB pages made a patch apply
// up to 2.4x slower at random (doc/benchmarks.md, issue 20).

#include "libmod/core/bytes.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

namespace mod {

class PageBuffer {
public:
    PageBuffer() = default;
    // Throws limit when the memory cannot be had. A size of 0 maps nothing.
    explicit PageBuffer(std::size_t size);
    ~PageBuffer();
    PageBuffer(PageBuffer&& other) noexcept;
    PageBuffer& operator=(PageBuffer&& other) noexcept;
    PageBuffer(const PageBuffer&) = delete;
    PageBuffer& operator=(const PageBuffer&) = delete;

    std::uint8_t* data() noexcept { return data_; }
    const std::uint8_t* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    std::span<std::uint8_t> span() noexcept { return {data_, size_}; }
    ByteView view() const noexcept { return {data_, size_}; }
    operator ByteView() const noexcept { return view(); }

private:
    void release() noexcept;
    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t mapped_ = 0;  // bytes mapped
    void* base_ = nullptr;    // the mapping
};

// malloc/free for libraries that take an allocator (libzstd's ZSTD_customMem): blocks of 1 MiB
// or more are mapped from the kernel like a PageBuffer and given back at once when freed,
// smaller ones come from malloc. Null when the memory cannot be had. page_free(nullptr) does
// nothing.
void* page_alloc(std::size_t size) noexcept;
void page_free(void* block) noexcept;

}  // namespace mod
