// The SIMD kernels of the sampler, dispatched at run time to the best target Highway compiled
// (SSE4, AVX2, AVX-512 natively; WASM SIMD128 under Emscripten). Plain pointers in and out:
// no Highway type crosses this header.
#ifndef GRIDSAMPLE_SRC_KERNEL_H_
#define GRIDSAMPLE_SRC_KERNEL_H_

#include <cstddef>
#include <memory>
#include <new>

namespace gridsample {

// Row lengths passed to the kernels are multiples of this (and rows are aligned to it), so
// the kernels need no remainder loop on any target, SVE's widest vectors included.
inline constexpr size_t kRowBlock = 64;

// Rows handed to the kernels start at this alignment (the widest vector: SVE's 2048 bits).
inline constexpr size_t kRowAlignment = 256;

struct AlignedDelete {
  void operator()(void* p) const { ::operator delete[](p, std::align_val_t(kRowAlignment)); }
};

// An uninitialised row of n elements aligned for the kernels; throws std::bad_alloc. (Not
// Highway's allocator: it lives in libhwy, which the header-only WebAssembly build lacks.)
template <typename T>
using AlignedRow = std::unique_ptr<T[], AlignedDelete>;
template <typename T>
AlignedRow<T> AllocateRow(size_t n) {
  return AlignedRow<T>(static_cast<T*>(
      ::operator new[](n * sizeof(T), std::align_val_t(kRowAlignment))));
}

// acc[i] += values[i] * weights[i] for i < count.
void MulAddRow(const float* values, const float* weights, float* acc, size_t count);
void MulAddRow(const double* values, const double* weights, double* acc, size_t count);

// out[i] = a[i] * b[i] for i < count (out may alias a).
void MulRow(const float* a, const float* b, float* out, size_t count);
void MulRow(const double* a, const double* b, double* out, size_t count);

// Linear interpolation from adjacent pairs. For i < count:
//   out[i] = sum over j < rows of  pair_j[2i] * weight_{2j}[i] + pair_j[2i+1] * weight_{2j+1}[i]
// with pair_j = pairs + j * pair_stride and weight_k = weights + k * weight_stride. Each pair
// holds the two innermost-axis taps (x0, x0+1) of one row of the 2^r neighbourhood, loaded
// together; the weights are the planned products per tap.
void LinearPairsRow(const float* pairs, size_t pair_stride, const float* weights,
                    size_t weight_stride, size_t rows, float* out, size_t count);

// The name of the target the kernels dispatch to now ("AVX3", "AVX2", "SSE4", "WASM", ...).
const char* KernelTargetName();

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_KERNEL_H_
