// The pixel-pair path (pixel_pairs.cc, pixel_pairs-inl.h): linear interpolation of channels-last
// images with few channels, such as a canvas's RGBA bytes. It samples the pair path's plan
// (PlanLinearPairs, made over pixels), whose rows are pairs of adjacent pixels, and loads each
// pixel whole (4 bytes for RGBA) instead of one plane at a time; every channel is then summed
// in the pair kernel's order, so the outputs equal the pair path's on the planes, bit for bit.
#ifndef GRIDSAMPLE_SRC_PIXEL_PAIRS_H_
#define GRIDSAMPLE_SRC_PIXEL_PAIRS_H_

#include <cstddef>
#include <cstdint>

#include "linear_pairs.h"

namespace gridsample {

// Whether the path samples pixels of `channels` channels of `kind`: uint8 and float32 RGB and
// RGBA.
constexpr bool PixelPairsTake(ElementKind kind, size_t channels) {
  return (kind == ElementKind::kU8 || kind == ElementKind::kF32) &&
         (channels == 3 || channels == 4);
}
// Whether the path samples some pixels of `kind`.
constexpr bool PixelPairsKind(ElementKind kind) { return PixelPairsTake(kind, 4); }

// The path's row (path_choice.cc): channels-last X of pixels it takes, where PlanLinearPairs
// plans the call. It beats every other path there.
bool PixelPairsFit(const PathQuery& query);

// SampleLinearPairs(kind, ...) for every channel of one batch item at once, from its
// channels-last pixels (`channels` elements of `kind` each, PixelPairsTake): the output of
// channel c at location i goes to out[i * channels + c] for i < plan.count. The plan's offsets and
// row deltas count pixels. Returns whether some sum is NaN (kF32 only): the caller recomputes
// those, as for the pair path. kU8 takes a plan with fixed_bits = kFixedBits of uint8 and sums
// it exactly, as the pair path does.
bool SamplePixelPairs(ElementKind kind, size_t channels, const void* pixels,
                      const WindowPlanView& plan, void* out);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_PIXEL_PAIRS_H_
