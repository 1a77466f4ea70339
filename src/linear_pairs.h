// The linear pair path (linear_pairs.cc, linear_pairs-inl.h): linear interpolation of
// one-component data computed in float32, 1 to kMaxPairRank spatial axes, innermost axis of
// size >= 2, input planes of at most kMaxWindowPlane elements. Plain pointers in and out: no
// Highway type crosses this header.
#ifndef GRIDSAMPLE_SRC_LINEAR_PAIRS_H_
#define GRIDSAMPLE_SRC_LINEAR_PAIRS_H_

#include <cstddef>
#include <cstdint>

#include "gridsample/gridsample.h"
#include "window_plan.h"

namespace gridsample {

struct PathQuery;   // path_choice.h
struct PathChoice;  // path_choice.h

// Plans `count` output locations from their float32 grid values (`rank` per location, as in
// the grid tensor). Per location i:
//   base_offsets[i]                         the element offset of its neighbourhood's corner
//   row_weights[(2 * row + e) * pitch + i]  the weight of element e (0 or 1) of row `row`'s
//                                           pair, which starts at base + row_deltas[row]
// with rows in odometer order over the outer axes (row < 2^(rank-1)) and
// row_deltas = WindowRowDeltas(rank, 2, ...). Every pair lies inside the input; padding lives
// in the weights, and a non-finite grid value makes them NaN. Entries past `count` up to the next
// multiple of the vector length are written as for a grid value of 0 (so the kernels may read
// whole vectors), and up to the next multiple of kRowBlock may be. `sizes` and `strides` are the
// input's spatial axes. With `fixed_bits` > 0 (integer outputs) the weights are instead the
// fixed-point weights of convert.h's SplitFixedWeights with that many fraction bits, exact in
// float32 (all 0 for a non-finite grid value).
void PlanLinearPairs(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                     const Options& options, int fixed_bits, size_t count, size_t pitch,
                     int32_t* base_offsets, float* row_weights);

// One channel of a planned tile (`plan`, a PlanLinearPairs plan): the sum over rows of each
// row's pair weighed by its two weights, for i < plan.count, reading `plane` (elements of
// `kind`). The sums go to out[i] as
// float32 (unless out is null: for kinds other than kF32 the float sums are only needed to find
// the NaN ones) and, converted to `kind` as convert.h converts, to dst[i] (for kF32, out and dst
// are the same and written once). Returns whether some sum is NaN: the caller recomputes those
// exactly (a NaN weight, or a non-finite element weighed by 0, which the exact sum skips).
// The integer and bool kinds take a plan with fixed_bits = kFixedBits of their dtype (whose
// non-finite locations weigh 0) and sum it exactly, so their outputs are convert.h's FromExact
// of the exact sum, and they never return true.
// `flags` say how pairs are loaded and sums stored, and for kF32 a nonzero `next_plane` that the
// windows of the plane that many bytes on are prefetched as these are sampled (the caller
// samples that plane next: ScatteredWindows); the sums are the same either way.
struct PairFlags {
  // AVX-512 targets load float32 pairs with the CPU's gathers (HardwareGathersPay); otherwise,
  // and on every other target, one by one.
  bool hardware_gathers = false;
  // float32 sums are written with non-temporal stores where dst is 16-byte aligned, on x86
  // targets from AVX2 (plain stores elsewhere): for outputs much larger than the caches, whose
  // lines would otherwise each be read from memory before being overwritten whole.
  bool stream_output = false;
};
bool SampleLinearPairs(ElementKind kind, const void* plane, const WindowPlanView& plan,
                       PairFlags flags, size_t next_plane, float* out, void* dst);

// Whether AVX-512's gathers load the pair kernel's float32 pairs faster than loads one by one
// on this CPU, for the target the calls dispatch to (false on every target below 512 bits).
// No vendor or model rule holds: Intel's Sapphire and Emerald Rapids gather faster, AMD's Zen 5
// slower, and Intel's cores with the microcode mitigation of Gather Data Sampling are reported
// several times slower (docs/benchmarks.md). So the first call times the kernel itself both
// ways, on a small plane in L1 (about 0.1 ms, once per process and target), and keeps the answer.
bool HardwareGathersPay();

// The Highway target (its HWY_TARGET bit) the kernels dispatch to: what a choice timed on this
// CPU holds for, as a test may narrow the targets (hwy::SetSupportedTargetsForTest).
int64_t DispatchedTarget();

// Whether PlanLinearPairs can plan the call: linear, an element kind and a float32-computed
// grid, 1 to kMaxPairRank axes, the innermost of at least 2 elements, planes within
// kMaxWindowPlane. The channels-last and pixel-pair paths sample its plans too.
bool LinearPairsFit(const PathQuery& query);

// The pair path's row (path_choice.cc): it fits where the plan does and X is planar (the
// kernels that read pixels take channels-last X), and it sets the pair flags.
bool PairsPathFits(const PathQuery& query);
void SetUpPairs(const PathQuery& query, PathChoice* choice);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_LINEAR_PAIRS_H_
