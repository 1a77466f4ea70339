// The SIMD kernels of the sampler, dispatched at run time to the best target Highway compiled
// (SSE4, AVX2, AVX-512 natively; WASM SIMD128 under Emscripten). Plain pointers in and out:
// no Highway type crosses this header.
#ifndef GRIDSAMPLE_SRC_KERNEL_H_
#define GRIDSAMPLE_SRC_KERNEL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "gridsample/gridsample.h"

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

// The linear pair path (linear_pairs-inl.h): linear interpolation of one-component data
// computed in float32, 1 to kMaxPairRank spatial axes, innermost axis of size >= 2, input
// planes of at most kMaxWindowPlane elements.
inline constexpr size_t kMaxPairRank = 4;
// The pair, quad and nearest plans compute offsets and coordinates in int32, with room to spare.
inline constexpr int64_t kMaxWindowPlane = int64_t{1} << 30;
inline constexpr size_t kMaxPairRows = size_t{1} << (kMaxPairRank - 1);

// Plans `count` output locations from their float32 grid values (`rank` per location, as in
// the grid tensor). Per location i:
//   base_offsets[i]                          the element offset of its neighbourhood's corner
//   row_weights[(2 * row + e) * stride + i]  the weight of element e (0 or 1) of row `row`'s
//                                            pair, which starts at base + row_deltas[row]
// with rows in odometer order over the outer axes (row < 2^(rank-1)) and
// row_deltas = WindowRowDeltas(rank, 2, ...). Every pair lies inside the input; padding lives
// in the weights, and a non-finite grid value makes them NaN. Entries past `count` up to the next
// multiple of the vector length are written as for a grid value of 0 (so the kernels may read
// whole vectors), and up to the next multiple of kRowBlock may be. `sizes` and `strides` are the
// input's spatial axes. With `fixed_bits` > 0 (integer outputs) the weights are instead the
// fixed-point weights of convert.h's SplitFixedWeights with that many fraction bits, exact in
// float32 (all 0 for a non-finite grid value).
void PlanLinearPairs(const float* grid, size_t rank, const int64_t* sizes,
                     const int64_t* strides, const Options& options, int fixed_bits,
                     size_t count, size_t stride, int32_t* base_offsets, float* row_weights);

// Element types the pair path reads, each converted to float32 as convert.h does.
enum class PairKind { kF32, kF16, kBF16, kI8, kU8, kI16, kU16, kBool };

// One channel of a planned tile: the sum over rows of each row's pair weighed by its two
// weights, for i < count, reading `plane` (elements of `kind`). The sums go to out[i] as
// float32 (unless out is null: for kinds other than kF32 the float sums are only needed to find
// the NaN ones) and, converted to `kind` as convert.h converts, to dst[i] (for kF32, out and dst
// are the same and written once). Returns whether some sum is NaN: the caller recomputes those
// exactly (a NaN weight, or a non-finite element weighed by 0, which the exact sum skips).
// The integer and bool kinds take a plan with fixed_bits = kFixedBits of their dtype (whose
// non-finite locations weigh 0) and sum it exactly, so their outputs are convert.h's FromExact
// of the exact sum, and they never return true.
bool SampleLinearPairs(PairKind kind, const void* plane, const int32_t* base_offsets,
                       const int32_t* row_deltas, const float* row_weights, size_t rows,
                       size_t stride, size_t count, float* out, void* dst);

// The channels-last linear path (channels_last-inl.h): the pair path's kernel for images with
// many channels, of the float kinds (kF32, kF16, kBF16), reading a float32 copy of the input
// whose pixels hold their channels side by side, `padded` floats each (channels rounded up to
// kChannelPad; the copy has kRowBlock floats of slack at its end, as the last vector may run
// past a pixel).
inline constexpr size_t kChannelPad = 16;

// pixels[p * padded + c] = planes[c * plane + p] (elements of `kind`, as float32) for
// c < channels and locations p in [begin, end) of one batch item's planes; 0 for the padding
// c in [channels, padded).
void ToChannelsLast(PairKind kind, const void* planes, size_t channels, size_t plane,
                    size_t padded, size_t begin, size_t end, float* pixels);

// SampleLinearPairs(kind, ...) for every channel c < channels of one batch item at once, from
// its channels-last copy `pixels` and a plan of PlanLinearPairs: the outputs (elements of
// `kind`) go to out[c * out_stride + i] for i < count, equal bit for bit to the pair path's.
// Returns whether some sum may be NaN: the caller finds those (through the pair path's float
// sums for narrow kinds) and recomputes them, as for the pair path.
bool SampleLinearChannelsLast(PairKind kind, const float* pixels, size_t channels,
                              size_t padded, const int32_t* base_offsets,
                              const int32_t* row_deltas, const float* row_weights, size_t rows,
                              size_t stride, size_t count, void* out, size_t out_stride);

// The cubic quad path (cubic_quads-inl.h): cubic interpolation of float32 data, 1 to
// kMaxQuadRank spatial axes of at least 4 elements each, input planes of at most
// kMaxWindowPlane elements. The same contract as the pair path with windows of four: per
// location one base offset and, for each of its 4^(rank-1) rows, four weights at
// row_weights[(4 * row + e) * stride + i], the row's window starting at base + row_deltas[row]
// (WindowRowDeltas(rank, 4, ...)).
inline constexpr size_t kMaxQuadRank = 3;
void PlanCubicQuads(const float* grid, size_t rank, const int64_t* sizes,
                    const int64_t* strides, const Options& options, size_t count, size_t stride,
                    int32_t* base_offsets, float* row_weights);
bool SampleCubicQuads(const float* plane, const int32_t* base_offsets,
                      const int32_t* row_deltas, const float* row_weights, size_t rows,
                      size_t stride, size_t count, float* out);

// row_deltas[row] for the rows of PlanLinearPairs (taps = 2) and PlanCubicQuads (taps = 4):
// the offset of the row's window from the corner, the row's base-`taps` digits (axis 0 most
// significant) times the outer axes' strides. An outer axis with fewer elements than `taps`
// (linear: size 1) has a single index, so its other taps add nothing (their weight is 0).
inline void WindowRowDeltas(size_t rank, size_t taps, const int64_t* sizes,
                            const int64_t* strides, int32_t* row_deltas) {
  size_t rows = 1;
  for (size_t a = 0; a + 1 < rank; ++a) rows *= taps;
  for (size_t row = 0; row < rows; ++row) {
    int64_t delta = 0;
    size_t place = rows;
    for (size_t a = 0; a + 1 < rank; ++a) {
      place /= taps;
      const size_t digit = row / place % taps;
      if (sizes[a] >= static_cast<int64_t>(taps)) {
        delta += static_cast<int64_t>(digit) * strides[a];
      }
    }
    row_deltas[row] = static_cast<int32_t>(delta);
  }
}

// The most rows a window plan has: linear in kMaxPairRank axes, cubic in kMaxQuadRank.
inline constexpr size_t kMaxWindowRows =
    kMaxPairRows > (size_t{1} << (2 * (kMaxQuadRank - 1))) ? kMaxPairRows
                                                           : size_t{1} << (2 * (kMaxQuadRank - 1));

// The nearest plan (nearest-inl.h): for `count` locations of a float32 grid (`rank` <=
// kMaxPairRank values per location, input planes of at most kMaxWindowPlane elements),
// offsets[i] = the element offset location i copies, or kZeroTap / kNaNTap (coords.h) as the
// generic plan marks them.
void PlanNearest(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                 const Options& options, size_t count, int64_t* offsets);

// The name of the target the kernels dispatch to now ("AVX3", "AVX2", "SSE4", "WASM", ...).
const char* KernelTargetName();

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_KERNEL_H_
