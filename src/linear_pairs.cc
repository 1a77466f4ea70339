// The linear pair path's per-target entry points (linear_pairs.h) over its plan and kernels
// (linear_pairs-inl.h). Compiled once per target by foreach_target.h; the HWY_ONCE block at the
// end owns the dispatch and the path's conditions (path_choice.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "linear_pairs.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "linear_pairs.h"
#include "linear_pairs-inl.h"
#include "path_choice.h"

#if HWY_ONCE && HWY_ARCH_X86 && defined(__GNUC__)
#include <cpuid.h>
#endif

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

bool HardwareGathersPay() {
#if HWY_ARCH_X86 && defined(__GNUC__)
  static const bool intel = [] {
    unsigned eax, ebx, ecx, edx;  // leaf 0: the vendor, "GenuineIntel" in ebx, edx, ecx
    return __get_cpuid(0, &eax, &ebx, &ecx, &edx) != 0 && ebx == 0x756e6547u &&
           edx == 0x49656e69u && ecx == 0x6c65746eu;
  }();
  return intel;
#else
  return false;
#endif
}

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
