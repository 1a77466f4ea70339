// Runtime dtype → compile-time dtype, expanded from the registry, for the sampler and the
// reference alike.
#ifndef GRIDSAMPLE_SRC_DISPATCH_H_
#define GRIDSAMPLE_SRC_DISPATCH_H_

#include <type_traits>

#include "gridsample/gridsample.h"

namespace gridsample {

template <DType D>
using DTypeConstant = std::integral_constant<DType, D>;

// Calls f(DTypeConstant<dtype>{}) for any registered dtype. Validation has rejected every
// other value before this runs.
template <typename F>
void VisitDType(DType dtype, F&& f) {
  switch (dtype) {
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Kind) \
  case DType::k##Enum:                                       \
    f(DTypeConstant<DType::k##Enum>{});                      \
    return;
#include "gridsample/dtypes.inc"
  }
}

// The dtypes a grid may have (VisitGridDType instantiates exactly these).
inline bool IsGridDType(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat64 || dtype == DType::kFloat16 ||
         dtype == DType::kBFloat16;
}

// Calls f(DTypeConstant<dtype>{}) for a grid dtype: only these four are instantiated.
template <typename F>
void VisitGridDType(DType dtype, F&& f) {
  switch (dtype) {
    case DType::kFloat32:
      return f(DTypeConstant<DType::kFloat32>{});
    case DType::kFloat64:
      return f(DTypeConstant<DType::kFloat64>{});
    case DType::kFloat16:
      return f(DTypeConstant<DType::kFloat16>{});
    case DType::kBFloat16:
      return f(DTypeConstant<DType::kBFloat16>{});
    default:
      return;
  }
}

// Calls f(DTypeConstant<x_dtype>{}, DTypeConstant<grid_dtype>{}): the one switch over the
// pairs the sampler and the reference are instantiated for.
template <typename F>
void VisitDTypes(DType x_dtype, DType grid_dtype, F&& f) {
  VisitDType(x_dtype, [&](auto x) { VisitGridDType(grid_dtype, [&](auto g) { f(x, g); }); });
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_DISPATCH_H_
