// The SIMD kernels of the sampler, dispatched at run time to the best target Highway compiled
// (SSE4, AVX2, AVX-512 natively; WASM SIMD128 under Emscripten). Plain pointers in and out:
// no Highway type crosses this header.
#ifndef GRIDSAMPLE_SRC_KERNEL_H_
#define GRIDSAMPLE_SRC_KERNEL_H_

#include <cstddef>

namespace gridsample {

// Row lengths passed to the kernels are multiples of this (and rows are aligned to it), so
// the kernels need no remainder loop on any target, SVE's widest vectors included.
inline constexpr size_t kRowBlock = 64;

// acc[i] += values[i] * weights[i] for i < count.
void MulAddRow(const float* values, const float* weights, float* acc, size_t count);
void MulAddRow(const double* values, const double* weights, double* acc, size_t count);

// out[i] = a[i] * b[i] for i < count (out may alias a).
void MulRow(const float* a, const float* b, float* out, size_t count);
void MulRow(const double* a, const double* b, double* out, size_t count);

// The name of the target the kernels dispatch to now ("AVX3", "AVX2", "SSE4", "WASM", ...).
const char* KernelTargetName();

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_KERNEL_H_
