#include "libmod/core/page_buffer.hpp"

#include "libmod/core/error.hpp"

#include <cstdlib>
#include <sys/mman.h>
#include <utility>

namespace mod {

namespace {
constexpr std::size_t huge_page = std::size_t(2) << 20;  // x86-64 and arm64 (4 KiB base pages)
// Below this, huge pages are not worth their alignment slack and the buffer is page-aligned only.
constexpr std::size_t huge_threshold = huge_page;
}  // namespace

PageBuffer::PageBuffer(std::size_t size) {
    if (size == 0) return;
    const bool huge = size >= huge_threshold;
    // Room to align the start on a huge page, so every 2 MiB of the buffer can be one page.
    const std::size_t slack = huge ? huge_page : 0;
    if (size > SIZE_MAX - 2 * huge_page) throw Error(ErrorKind::limit, "buffer of " + std::to_string(size) + " bytes");
    const std::size_t want = size + slack;
    void* p = ::mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw Error(ErrorKind::limit, "cannot allocate a buffer of " + std::to_string(size) + " bytes");
    base_ = p;
    mapped_ = want;
    auto addr = reinterpret_cast<std::uintptr_t>(p);
    if (huge) {
        addr = (addr + huge_page - 1) & ~(huge_page - 1);
        // Advice only: without transparent huge pages the buffer works the same with small pages.
        ::madvise(reinterpret_cast<void*>(addr), size, MADV_HUGEPAGE);
    }
    data_ = reinterpret_cast<std::uint8_t*>(addr);
    size_ = size;
}

void PageBuffer::release() noexcept {
    if (base_) ::munmap(base_, mapped_);
    base_ = nullptr;
    data_ = nullptr;
    size_ = mapped_ = 0;
}

PageBuffer::~PageBuffer() { release(); }

PageBuffer::PageBuffer(PageBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, 0)),
      base_(std::exchange(other.base_, nullptr)) {}

PageBuffer& PageBuffer::operator=(PageBuffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        mapped_ = std::exchange(other.mapped_, 0);
        base_ = std::exchange(other.base_, nullptr);
    }
    return *this;
}

namespace {
// Every huge_alloc block is preceded by this header (16 bytes, keeping malloc's alignment).
struct BlockHeader {
    void* base;          // what to give back: the mapping, or the malloc block
    std::size_t mapped;  // bytes mapped; 0 for a malloc block
};
static_assert(sizeof(BlockHeader) == 16);
}  // namespace

void* huge_alloc(std::size_t size) noexcept {
    if (size < huge_threshold) {
        if (size > SIZE_MAX - sizeof(BlockHeader)) return nullptr;
        void* base = std::malloc(size + sizeof(BlockHeader));
        if (!base) return nullptr;
        auto* h = static_cast<BlockHeader*>(base);
        *h = {base, 0};
        return h + 1;
    }
    if (size > SIZE_MAX - 2 * huge_page) return nullptr;
    // The block starts on a huge page; its header sits at the end of the page before it.
    const std::size_t mapped = size + 2 * huge_page;
    void* base = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return nullptr;
    const auto start = (reinterpret_cast<std::uintptr_t>(base) + huge_page) & ~(huge_page - 1);
    ::madvise(reinterpret_cast<void*>(start), size, MADV_HUGEPAGE);
    auto* h = reinterpret_cast<BlockHeader*>(start) - 1;
    *h = {base, mapped};
    return h + 1;
}

void huge_free(void* block) noexcept {
    if (!block) return;
    const BlockHeader h = *(static_cast<BlockHeader*>(block) - 1);
    if (h.mapped) ::munmap(h.base, h.mapped);
    else std::free(h.base);
}

}  // namespace mod
