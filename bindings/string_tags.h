// Tensors of strings cross between JS and the core as tags, not as text, for both of the
// package's backends (gridsample_embind.cc, node/gridsample_node.cc): the JS wrapper keeps X's
// strings, the core samples one stand-in per element of X holding that element's 1-based index,
// and Y comes back as those indices, 0 where padding gave "". Nothing is converted to UTF-8 and
// back, which a JS string need not survive (a lone surrogate has no UTF-8 form), and only four
// bytes an element cross, however long the strings.
#ifndef GRIDSAMPLE_BINDINGS_STRING_TAGS_H_
#define GRIDSAMPLE_BINDINGS_STRING_TAGS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gridsample/gridsample.h"

namespace gridsample {

// GridSample of an X of strings of shape `x` (as OutputShape gave `y` from it), writing each
// element of Y's tag to y_tags (as many as `y` has elements). May throw std::bad_alloc.
inline Status GridSampleStringTags(const std::vector<int64_t>& x, const TensorView& grid,
                                   const std::vector<int64_t>& y, const Options& options,
                                   uint32_t* y_tags) {
  size_t x_count = 1, y_count = 1;  // both checked by OutputShape
  for (int64_t extent : x) x_count *= static_cast<size_t>(extent);
  for (int64_t extent : y) y_count *= static_cast<size_t>(extent);
  std::vector<std::string> x_data(x_count), y_data(y_count);
  for (size_t i = 0; i < x_count; ++i) {
    const uint32_t tag = static_cast<uint32_t>(i + 1);
    x_data[i].assign(reinterpret_cast<const char*>(&tag), sizeof(tag));
  }
  const Status status =
      GridSample(TensorView{DType::kString, x_data.data(), x.data(), x.size()}, grid,
                 MutableTensorView{DType::kString, y_data.data(), y.data(), y.size()}, options);
  if (!status.ok()) return status;
  for (size_t j = 0; j < y_count; ++j) {
    uint32_t tag = 0;
    if (y_data[j].size() == sizeof(tag)) std::memcpy(&tag, y_data[j].data(), sizeof(tag));
    y_tags[j] = tag;
  }
  return status;
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_BINDINGS_STRING_TAGS_H_
