// Rows of scratch for the kernels: their length unit and alignment, and an allocator that keeps
// them.
#ifndef GRIDSAMPLE_SRC_ALIGNED_ROW_H_
#define GRIDSAMPLE_SRC_ALIGNED_ROW_H_

#include <cstddef>
#include <memory>
#include <new>

namespace gridsample {

// Row lengths passed to the kernels are multiples of this (and rows are aligned to it), so
// the kernels need no remainder loop on any target, SVE's widest vectors included.
inline constexpr size_t kRowBlock = 64;

// Rows handed to the kernels start at this alignment (the widest vector: SVE's 2048 bits).
inline constexpr size_t kRowAlignment = 256;

// n rounded up to a multiple of `block`.
constexpr size_t RoundUp(size_t n, size_t block) { return (n + block - 1) / block * block; }

struct AlignedDelete {
  void operator()(void* p) const { ::operator delete[](p, std::align_val_t(kRowAlignment)); }
};

// An uninitialised row of n elements aligned for the kernels; throws std::bad_alloc. (Not
// Highway's allocator: it lives in libhwy, which the header-only WebAssembly build lacks.)
template <typename T>
using AlignedRow = std::unique_ptr<T[], AlignedDelete>;
template <typename T>
AlignedRow<T> AllocateRow(size_t n) {
  return AlignedRow<T>(
      static_cast<T*>(::operator new[](n * sizeof(T), std::align_val_t(kRowAlignment))));
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_ALIGNED_ROW_H_
