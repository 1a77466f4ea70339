// Runtime dtype → compile-time dtype, expanded from the registry, for the sampler and the
// reference alike.
#ifndef GRIDSAMPLE_SRC_DISPATCH_H_
#define GRIDSAMPLE_SRC_DISPATCH_H_

#include <string>
#include <type_traits>
#include <vector>

#include "gridsample/gridsample.h"

namespace gridsample {

template <DType D>
using DTypeConstant = std::integral_constant<DType, D>;

// Calls f(DTypeConstant<dtype>{}) for any registered dtype. Validation has rejected every
// other value before this runs.
template <typename F>
void VisitDType(DType dtype, F&& f) {
  switch (dtype) {
#define GRIDSAMPLE_DTYPE(Enum, ...)     \
  case DType::k##Enum:                  \
    f(DTypeConstant<DType::k##Enum>{}); \
    return;
#include "gridsample/dtypes.inc"
  }
}

// The dtypes a grid may have (the registry's Grid column; VisitGridDType instantiates exactly
// these).
inline bool IsGridDType(DType dtype) {
  switch (dtype) {
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Conversion, Grid, ...) \
  case DType::k##Enum:                                                        \
    return Grid;
#include "gridsample/dtypes.inc"
  }
  return false;
}

// Calls f(DTypeConstant<dtype>{}) for a grid dtype: only those are instantiated.
template <typename F>
void VisitGridDType(DType dtype, F&& f) {
  switch (dtype) {
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Conversion, Grid, ...) \
  case DType::k##Enum:                                                        \
    if constexpr (Grid) f(DTypeConstant<DType::k##Enum>{});                   \
    return;
#include "gridsample/dtypes.inc"
  }
}

// The grid dtypes' names for messages: "float32, float64, float16 or bfloat16".
inline std::string GridDTypeNames() {
  std::vector<std::string> names;
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Conversion, Grid, ...) \
  if (Grid) names.push_back(name);
#include "gridsample/dtypes.inc"
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return text;
}

// Calls f(DTypeConstant<x_dtype>{}, DTypeConstant<grid_dtype>{}): the one switch over the
// pairs the sampler and the reference are instantiated for.
template <typename F>
void VisitDTypes(DType x_dtype, DType grid_dtype, F&& f) {
  VisitDType(x_dtype, [&](auto x) { VisitGridDType(grid_dtype, [&](auto g) { f(x, g); }); });
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_DISPATCH_H_
