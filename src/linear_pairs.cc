// The linear pair path's per-target entry points (linear_pairs.h) over its plan and kernels
// (linear_pairs-inl.h). Compiled once per target by foreach_target.h; the HWY_ONCE block at the
// end owns the dispatch and the path's conditions (path_choice.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "linear_pairs.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "aligned_row.h"
#include "hwy/highway.h"
#include "linear_pairs.h"
#include "linear_pairs-inl.h"
#include "path_choice.h"
#include "timed_choice.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {

void PlanLinearPairs(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                     const Options& options, int fixed_bits, size_t count, size_t pitch,
                     int32_t* base_offsets, float* row_weights) {
  VisitRank<kMaxPairRank>(rank, [&](auto r) {
    PlanWindowsForRank<decltype(r)::value, PairAxis>(grid, sizes, strides, options, fixed_bits,
                                                     count, pitch, base_offsets, row_weights);
  });
}

bool SampleLinearPairs(ElementKind kind, const void* plane, const WindowPlanView& plan,
                       PairFlags flags, size_t next_plane, float* out, void* dst) {
  switch (kind) {
#define GRIDSAMPLE_PAIR_KIND(Kind) \
  case ElementKind::Kind:          \
    return SampleLinearPairsForKind<ElementKind::Kind>(plane, plan, flags, next_plane, out, dst);
    GRIDSAMPLE_PAIR_KIND(kF32)
    GRIDSAMPLE_PAIR_KIND(kF16)
    GRIDSAMPLE_PAIR_KIND(kBF16)
    GRIDSAMPLE_PAIR_KIND(kI8)
    GRIDSAMPLE_PAIR_KIND(kU8)
    GRIDSAMPLE_PAIR_KIND(kI16)
    GRIDSAMPLE_PAIR_KIND(kU16)
    GRIDSAMPLE_PAIR_KIND(kBool)
#undef GRIDSAMPLE_PAIR_KIND
    case ElementKind::kNone:  // never planned for the pair path
      break;
  }
  return false;
}

#if GRIDSAMPLE_X86_BITS == 512
// Whether the float32 pair kernel runs faster on this CPU with the hardware's gathers
// (SecondWayFaster): it samples a plane in L1 both ways. Where the two tie, loads one by one are
// what every other target runs.
bool TimeGathers() {
  constexpr size_t kSide = 64;              // a plane of 16 KiB: in L1 on every x86 core
  constexpr size_t kCount = 4 * kRowBlock;  // locations, scattered over the plane
  alignas(64) float plane[kSide * kSide];
  alignas(64) float grid[2 * kCount];
  alignas(64) float weights[4 * kCount];
  alignas(64) float out[kCount];
  alignas(64) int32_t offsets[kCount];
  ProbeNumbers numbers;
  for (float& value : plane) value = numbers.Next();
  for (float& value : grid) value = 2.0f * numbers.Next() - 1.0f;
  const int64_t sizes[2] = {kSide, kSide}, strides[2] = {kSide, 1};
  int32_t row_deltas[2];
  WindowRowDeltas(2, 2, sizes, strides, row_deltas);
  // Qualified: lookup by the arguments' namespace would find the dispatching overload too.
  HWY_NAMESPACE::PlanLinearPairs(grid, 2, sizes, strides, Options{}, 0, kCount, kCount, offsets,
                                 weights);
  const WindowPlanView plan{offsets, row_deltas, weights, 2, 2, kCount, kCount};
  return SecondWayFaster(
      [&](bool gathers) {
        PairFlags flags;
        flags.hardware_gathers = gathers;
        SampleLinearPairsForKind<ElementKind::kF32>(plane, plan, flags, 0, out, out);
      },
      16);
}
#endif

int64_t KernelTarget() { return HWY_TARGET; }

bool GathersPay() {
#if GRIDSAMPLE_X86_BITS == 512
  static const bool pays = TimeGathers();
  return pays;
#else
  return false;
#endif
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gridsample {

namespace {
// The pair path writes float32 outputs of more than this many bytes (per call) with
// non-temporal stores (PairFlags::stream_output): each of their lines is otherwise read from
// memory before it is overwritten, and evicts the input and grid the call still reads; a
// smaller output may stay in the caches for the caller (docs/benchmarks.md).
constexpr size_t kStreamOutput = size_t{4} << 20;
}  // namespace

bool LinearPairsFit(const PathQuery& q) {
  const Problem& p = q.problem;
  return q.options.mode == Mode::kLinear && q.types.windows && p.rank <= kMaxPairRank &&
         p.in[p.rank - 1] >= 2 && q.small_plane;
}

bool PairsPathFits(const PathQuery& q) { return LinearPairsFit(q) && !q.channels_last; }

void SetUpPairs(const PathQuery& q, PathChoice* choice) {
  choice->pair_flags.hardware_gathers = HardwareGathersPay();
  choice->pair_flags.stream_output =
      static_cast<double>(q.problem.y_count) * static_cast<double>(q.types.x_bytes) >
      static_cast<double>(kStreamOutput);
}

HWY_EXPORT(GathersPay);
HWY_EXPORT(KernelTarget);

bool HardwareGathersPay() { return HWY_DYNAMIC_DISPATCH(GathersPay)(); }

int64_t DispatchedTarget() { return HWY_DYNAMIC_DISPATCH(KernelTarget)(); }

HWY_EXPORT(PlanLinearPairs);
HWY_EXPORT(SampleLinearPairs);

void PlanLinearPairs(const float* grid, size_t rank, const int64_t* sizes, const int64_t* strides,
                     const Options& options, int fixed_bits, size_t count, size_t pitch,
                     int32_t* base_offsets, float* row_weights) {
  HWY_DYNAMIC_DISPATCH(PlanLinearPairs)
  (grid, rank, sizes, strides, options, fixed_bits, count, pitch, base_offsets, row_weights);
}
bool SampleLinearPairs(ElementKind kind, const void* plane, const WindowPlanView& plan,
                       PairFlags flags, size_t next_plane, float* out, void* dst) {
  return HWY_DYNAMIC_DISPATCH(SampleLinearPairs)(kind, plane, plan, flags, next_plane, out, dst);
}

}  // namespace gridsample
#endif  // HWY_ONCE
