// The fast path behind GridSample, after validation.
#ifndef GRIDSAMPLE_SRC_SAMPLER_H_
#define GRIDSAMPLE_SRC_SAMPLER_H_

#include "gridsample/gridsample.h"
#include "validate.h"

namespace gridsample {

// Computes y for a validated problem. Fails only when memory or threads cannot be had.
Status RunSampler(const Problem& problem, const TensorView& x, const TensorView& grid,
                  const MutableTensorView& y, const Options& options);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_SAMPLER_H_
