#include "libmod/core/page_buffer.hpp"

#include "libmod/core/error.hpp"

#include <cstdlib>
#include <sys/mman.h>
#include <utility>

namespace mod {

namespace {
// Blocks from this size on come from mmap (glibc's own threshold is 128 KiB; above it malloc
// maps too, but a std::vector then zero-fills every page).
constexpr std::size_t map_threshold = std::size_t(1) << 20;
}  // namespace

PageBuffer::PageBuffer(std::size_t size) {
    if (size == 0) return;
    if (size > SIZE_MAX - 2 * map_threshold) throw Error(ErrorKind::limit, "buffer of " + std::to_string(size) + " bytes");
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw Error(ErrorKind::limit, "cannot allocate a buffer of " + std::to_string(size) + " bytes");
    base_ = p;
    mapped_ = size;
    data_ = static_cast<std::uint8_t*>(p);
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
// Every page_alloc block is preceded by this header (16 bytes, keeping malloc's alignment).
struct BlockHeader {
    void* base;          // what to give back: the mapping, or the malloc block
    std::size_t mapped;  // bytes mapped; 0 for a malloc block
};
static_assert(sizeof(BlockHeader) == 16);
}  // namespace

void* page_alloc(std::size_t size) noexcept {
    if (size < map_threshold) {
        if (size > SIZE_MAX - sizeof(BlockHeader)) return nullptr;
        void* base = std::malloc(size + sizeof(BlockHeader));
        if (!base) return nullptr;
        auto* h = static_cast<BlockHeader*>(base);
        *h = {base, 0};
        return h + 1;
    }
    if (size > SIZE_MAX - 2 * map_threshold) return nullptr;
    // The header takes the first 16 bytes of the mapping (the block stays 16-byte aligned).
    const std::size_t mapped = size + sizeof(BlockHeader);
    void* base = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return nullptr;
    auto* h = static_cast<BlockHeader*>(base);
    *h = {base, mapped};
    return h + 1;
}

void page_free(void* block) noexcept {
    if (!block) return;
    const BlockHeader h = *(static_cast<BlockHeader*>(block) - 1);
    if (h.mapped) ::munmap(h.base, h.mapped);
    else std::free(h.base);
}

}  // namespace mod
