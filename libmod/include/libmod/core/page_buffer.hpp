#pragma once
// A large byte buffer taken straight from the kernel (anonymous mmap), for whole files of tens
// of megabytes: unlike Bytes (std::vector) it is not zero-filled by a memset over every page,
// and transparent huge pages are requested for it (madvise), so a 32 MiB buffer costs about 16
// page faults instead of 8,192. Its bytes read as zero until written (the kernel's guarantee
// for anonymous memory), so contents never depend on earlier allocations.

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
    std::size_t mapped_ = 0;  // bytes mapped (size_ rounded up to a huge page)
    void* base_ = nullptr;    // the mapping (data_ is its first huge-page-aligned byte)
};

// malloc/free for libraries that take an allocator (libzstd's ZSTD_customMem): blocks of 2 MiB
// or more come from the kernel like a PageBuffer (huge pages, no page-by-page faults), smaller
// ones from malloc. Null when the memory cannot be had. huge_free(nullptr) does nothing.
void* huge_alloc(std::size_t size) noexcept;
void huge_free(void* block) noexcept;

}  // namespace mod
