// The pixel-pair path's per-target entry point (pixel_pairs.h) over pixel_pairs-inl.h. Compiled
// once per target by foreach_target.h; the HWY_ONCE block at the end owns the dispatch and the
// path's condition (path_choice.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "pixel_pairs.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "pixel_pairs.h"
#include "pixel_pairs-inl.h"
#include "path_choice.h"

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {

bool SamplePixelPairs(ElementKind kind, size_t channels, const void* pixels,
                      const WindowPlanView& plan, void* out) {
  const bool bytes = kind == ElementKind::kU8;
  if (channels == 3) {
    return bytes ? SamplePixelPairsForPixels<ElementKind::kU8, 3>(pixels, plan, out)
                 : SamplePixelPairsForPixels<ElementKind::kF32, 3>(pixels, plan, out);
  }
  return bytes ? SamplePixelPairsForPixels<ElementKind::kU8, 4>(pixels, plan, out)
               : SamplePixelPairsForPixels<ElementKind::kF32, 4>(pixels, plan, out);
}

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gridsample {

bool PixelPairsFit(const PathQuery& q) {
  return q.channels_last && LinearPairsFit(q) && PixelPairsTake(q.types.element_kind, q.channels);
}

HWY_EXPORT(SamplePixelPairs);

bool SamplePixelPairs(ElementKind kind, size_t channels, const void* pixels,
                      const WindowPlanView& plan, void* out) {
  return HWY_DYNAMIC_DISPATCH(SamplePixelPairs)(kind, channels, pixels, plan, out);
}

}  // namespace gridsample
#endif  // HWY_ONCE
