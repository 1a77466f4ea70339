// The generic path's row kernels (rows.cc), dispatched at run time to the best target Highway
// compiled (SSE4, AVX2, AVX-512 natively; NEON and SVE on ARM64; WASM SIMD128 under
// Emscripten). Rows are kRowBlock-multiples long and aligned (aligned_row.h).
#ifndef GRIDSAMPLE_SRC_ROWS_H_
#define GRIDSAMPLE_SRC_ROWS_H_

#include <cstddef>

namespace gridsample {

// acc[i] += values[i] * weights[i] for i < count.
void MulAddRow(const float* values, const float* weights, float* acc, size_t count);
void MulAddRow(const double* values, const double* weights, double* acc, size_t count);

// out[i] = a[i] * b[i] for i < count (out may alias a).
void MulRow(const float* a, const float* b, float* out, size_t count);
void MulRow(const double* a, const double* b, double* out, size_t count);

// The name of the target every kernel dispatches to now ("AVX3", "AVX2", "SSE4", "NEON",
// "SVE", "WASM", ...): they all dispatch through the same Highway target choice.
const char* KernelTargetName();

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_ROWS_H_
