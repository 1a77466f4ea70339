// The oracle: a plain scalar implementation of the full N-D GridSample semantics of
// docs/semantics.md, written for clarity rather than speed. Every fast path is tested against
// it. It shares the argument validation with the fast path (so both return the same errors) but
// none of its coordinate or interpolation code.
#ifndef GRIDSAMPLE_SRC_REFERENCE_H_
#define GRIDSAMPLE_SRC_REFERENCE_H_

#include "gridsample/gridsample.h"

namespace gridsample {

// Same contract as GridSample; always single-threaded (options.num_threads is ignored).
Status ReferenceGridSample(const TensorView& x, const TensorView& grid, const MutableTensorView& y,
                           const Options& options = {});

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_REFERENCE_H_
