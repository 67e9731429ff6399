#pragma once
// RapidJSON, configured for modkit. Every file that uses RapidJSON includes this header instead
// of <rapidjson/...> (it includes the parts modkit uses: document, writer, pretty writer, string
// buffer, pointer, English error messages).
//
// Why: RapidJSON 1.1.0's internal::Stack (internal/stack.h) checks for room with
// `stackTop_ + sizeof(T) * count > stackEnd_` while its buffer is still unallocated, i.e. it
// adds a non-zero offset to a null pointer on the first Push of every Document, Reader, Writer
// and StringBuffer. That is undefined behaviour, and clang's -fsanitize=undefined
// (pointer-overflow) stops every JSON read and write on it. No RapidJSON macro configures that
// code, so this header provides internal::Stack itself, with the same interface, before
// RapidJSON's headers would define it (their include guard is set here, so internal/stack.h is
// skipped): sizes are kept as counts and a pointer is only offset once the buffer exists.
//
// RapidJSON is then compiled into the namespace modkit_rapidjson (RAPIDJSON_NAMESPACE, its own
// configuration macro; `rapidjson` is an alias of it), so a file that includes <rapidjson/...>
// directly gets the original classes under their original names and the two Stack classes can
// never be mixed up by the linker (one definition per name). Including <rapidjson/...> before
// this header in one file gives that file the original (and this header adds nothing).

#if !defined(RAPIDJSON_RAPIDJSON_H_)
#define RAPIDJSON_NAMESPACE modkit_rapidjson
#define RAPIDJSON_NAMESPACE_BEGIN namespace modkit_rapidjson {
#define RAPIDJSON_NAMESPACE_END }
#include <rapidjson/rapidjson.h>

#if RAPIDJSON_MAJOR_VERSION == 1 && RAPIDJSON_MINOR_VERSION == 1 && !defined(RAPIDJSON_INTERNAL_STACK_H_)
#define RAPIDJSON_INTERNAL_STACK_H_
#define MODKIT_RAPIDJSON_STACK 1

#include <rapidjson/allocators.h>
#include <rapidjson/internal/swap.h>

#include <cstddef>
#include <utility>

RAPIDJSON_NAMESPACE_BEGIN
namespace internal {

// The growable byte stack RapidJSON's reader, writer, document and string buffer build on.
// Allocation is lazy (the first push allocates `initial_capacity`, or more), growth is by half
// the capacity, as in RapidJSON's own.
template <typename Allocator>
class Stack {
public:
    Stack(Allocator* allocator, size_t stackCapacity) : allocator_(allocator), initial_(stackCapacity) {}
    Stack(Stack&& rhs) noexcept { Swap(rhs); }
    ~Stack() { Destroy(); }
    Stack& operator=(Stack&& rhs) noexcept {
        if (&rhs != this) {
            Destroy();
            allocator_ = own_ = nullptr;
            base_ = nullptr;
            size_ = capacity_ = initial_ = 0;
            Swap(rhs);
        }
        return *this;
    }
    Stack(const Stack&) = delete;
    Stack& operator=(const Stack&) = delete;

    void Swap(Stack& rhs) noexcept {
        std::swap(allocator_, rhs.allocator_);
        std::swap(own_, rhs.own_);
        std::swap(base_, rhs.base_);
        std::swap(size_, rhs.size_);
        std::swap(capacity_, rhs.capacity_);
        std::swap(initial_, rhs.initial_);
    }

    void Clear() { size_ = 0; }

    void ShrinkToFit() {
        if (size_ == 0) {
            Allocator::Free(base_);
            base_ = nullptr;
            capacity_ = 0;
        } else {
            Resize(size_);
        }
    }

    template <typename T>
    RAPIDJSON_FORCEINLINE void Reserve(size_t count = 1) {
        if (RAPIDJSON_UNLIKELY(sizeof(T) * count > capacity_ - size_)) Expand(sizeof(T) * count);
    }

    template <typename T>
    RAPIDJSON_FORCEINLINE T* Push(size_t count = 1) {
        Reserve<T>(count);
        return PushUnsafe<T>(count);
    }

    template <typename T>
    RAPIDJSON_FORCEINLINE T* PushUnsafe(size_t count = 1) {
        RAPIDJSON_ASSERT(sizeof(T) * count <= capacity_ - size_);
        T* ret = reinterpret_cast<T*>(At(size_));
        size_ += sizeof(T) * count;
        return ret;
    }

    template <typename T>
    T* Pop(size_t count) {
        RAPIDJSON_ASSERT(size_ >= sizeof(T) * count);
        size_ -= sizeof(T) * count;
        return reinterpret_cast<T*>(At(size_));
    }

    template <typename T>
    T* Top() {
        RAPIDJSON_ASSERT(size_ >= sizeof(T));
        return reinterpret_cast<T*>(At(size_ - sizeof(T)));
    }
    template <typename T>
    const T* Top() const {
        RAPIDJSON_ASSERT(size_ >= sizeof(T));
        return reinterpret_cast<const T*>(At(size_ - sizeof(T)));
    }
    template <typename T>
    T* End() { return reinterpret_cast<T*>(At(size_)); }
    template <typename T>
    const T* End() const { return reinterpret_cast<const T*>(At(size_)); }
    template <typename T>
    T* Bottom() { return reinterpret_cast<T*>(base_); }
    template <typename T>
    const T* Bottom() const { return reinterpret_cast<const T*>(base_); }

    bool HasAllocator() const { return allocator_ != nullptr; }
    Allocator& GetAllocator() {
        RAPIDJSON_ASSERT(allocator_);
        return *allocator_;
    }
    bool Empty() const { return size_ == 0; }
    size_t GetSize() const { return size_; }
    size_t GetCapacity() const { return capacity_; }

private:
    // The byte at `offset`; null (and offset 0) while nothing is allocated.
    char* At(size_t offset) const { return base_ ? base_ + offset : nullptr; }

    void Expand(size_t more) {
        size_t capacity;
        if (base_ == nullptr) {
            if (!allocator_) own_ = allocator_ = RAPIDJSON_NEW(Allocator());
            capacity = initial_;
        } else {
            capacity = capacity_ + (capacity_ + 1) / 2;
        }
        if (capacity < size_ + more) capacity = size_ + more;
        Resize(capacity);
    }

    void Resize(size_t capacity) {
        base_ = static_cast<char*>(allocator_->Realloc(base_, capacity_, capacity));
        capacity_ = capacity;
    }

    void Destroy() {
        Allocator::Free(base_);
        RAPIDJSON_DELETE(own_);  // only an allocator the stack made itself
    }

    Allocator* allocator_ = nullptr;
    Allocator* own_ = nullptr;
    char* base_ = nullptr;
    size_t size_ = 0;
    size_t capacity_ = 0;
    size_t initial_ = 0;
};

}  // namespace internal
RAPIDJSON_NAMESPACE_END

#endif  // the stack

namespace rapidjson = modkit_rapidjson;
#endif  // first RapidJSON include of the file

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/pointer.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
