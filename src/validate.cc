#include "validate.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <initializer_list>
#include <utility>

#include "coords.h"
#include "dispatch.h"

namespace gridsample {
namespace {

std::string ShapeString(const int64_t* shape, size_t rank) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < rank; ++i) out << (i ? ", " : "") << shape[i];
  out << ']';
  return out.str();
}

Status Invalid(const std::string& message) { return Status(StatusCode::kInvalidArgument, message); }

// The largest element count any tensor may have: its byte size must fit in ptrdiff_t (so
// that pointer arithmetic over it is defined) on this platform, wasm32 included.
constexpr uint64_t kMaxBytes = static_cast<uint64_t>(std::numeric_limits<ptrdiff_t>::max());

// *product = a * b, or true if that overflows. Factors below 2^32 (every call's, in practice)
// multiply plainly: wasm32 has no 64x64 multiply with overflow, and its 128-bit helper cost a
// few percent of a small call.
bool MulOverflows(uint64_t a, uint64_t b, uint64_t* product) {
  if (((a | b) >> 32) == 0) {
    *product = a * b;
    return false;
  }
  return __builtin_mul_overflow(a, b, product);
}

// Checks a shape's pointer, extents and element count; `name` is the argument's name.
Status CheckShape(const char* name, const int64_t* shape, size_t rank, int64_t* count) {
  if (shape == nullptr && rank > 0) {
    return Invalid(std::string(name) + ": shape is null but rank is " + std::to_string(rank));
  }
  uint64_t product = 1;
  bool overflow = false, empty = false;
  for (size_t i = 0; i < rank; ++i) {
    if (shape[i] < 0) {
      return Invalid(std::string(name) + ": extent " + std::to_string(shape[i]) + " of axis " +
                     std::to_string(i) + " in shape " + ShapeString(shape, rank) + " is negative");
    }
    empty = empty || shape[i] == 0;
    overflow = overflow || MulOverflows(product, static_cast<uint64_t>(shape[i]), &product);
  }
  // A zero extent anywhere makes the count 0 even if a partial product overflowed. (The
  // wrapped product itself can be 0 without any zero extent: 2^40 * 2^40.)
  if (empty) {
    *count = 0;
    return Status::Ok();
  }
  if (overflow || product > kMaxBytes) {
    return Status(StatusCode::kOutOfRange, std::string(name) + ": the element count of shape " +
                                               ShapeString(shape, rank) + " overflows");
  }
  *count = static_cast<int64_t>(product);
  return Status::Ok();
}

// The byte size of `count` elements of `dtype` must also fit.
Status CheckBytes(const char* name, DType dtype, int64_t count) {
  const uint64_t size = DTypeSize(dtype);
  if (count > 0 && static_cast<uint64_t>(count) > kMaxBytes / size) {
    return Status(StatusCode::kOutOfRange, std::string(name) + ": " + std::to_string(count) +
                                               " elements of " + DTypeName(dtype) +
                                               " overflow the address space");
  }
  return Status::Ok();
}

Status CheckData(const char* name, const void* data, int64_t count) {
  if (data == nullptr && count > 0) {
    return Invalid(std::string(name) + ": data is null for a tensor of " + std::to_string(count) +
                   " elements");
  }
  return Status::Ok();
}

Status CheckDType(const char* name, DType dtype) {
  if (DTypeSize(dtype) == 0) {
    return Status(StatusCode::kTypeMismatch, std::string(name) + ": dtype value " +
                                                 std::to_string(static_cast<int>(dtype)) +
                                                 " is not a gridsample::DType");
  }
  return Status::Ok();
}

// An output's dtype must be its input's.
Status CheckSameDType(const char* name, DType dtype, const char* input, DType input_dtype) {
  if (dtype != input_dtype) {
    return Status(StatusCode::kTypeMismatch, std::string(name) + ": dtype " + DTypeName(dtype) +
                                                 " must equal " + input + "'s dtype " +
                                                 DTypeName(input_dtype));
  }
  return Status::Ok();
}

// " (channels-last)" after a shape of X whose axes the message counts, "" for ONNX's layout.
std::string LayoutNote(Layout layout) {
  return layout == Layout::kChannelsLast ? " (channels-last)" : "";
}

// The form of X's or Y's shape in `layout`, for messages: "(N, C, D1, ..., Dr)" or
// "(N, D1, ..., Dr, C) (channels-last)".
std::string LayoutForm(Layout layout, const char* spatial) {
  const std::string axes = std::string("D1") + spatial + ", ..., Dr" + spatial;
  return layout == Layout::kChannelsLast ? "(N, " + axes + ", C)" + LayoutNote(layout)
                                         : "(N, C, " + axes + ")";
}

// A dtype a grid may have (the registry's Grid column), for `name`, which must be `what`.
Status CheckGridDType(const char* name, DType dtype, const char* what) {
  if (IsGridDType(dtype)) return Status::Ok();
  return Status(StatusCode::kTypeMismatch, std::string(name) + ": dtype " + DTypeName(dtype) +
                                               " is not " + what + " (" + GridDTypeNames() + ")");
}

// An output view of exactly the computed shape; `form` names its axes in the message (made only
// for the message: a call's validation costs as much as sampling the smallest inputs).
template <class Form>
Status CheckOutputShape(const char* name, const MutableTensorView& view,
                        const std::vector<int64_t>& shape, Form form) {
  int64_t count = 0;
  Status status = CheckShape(name, view.shape, view.rank, &count);
  if (!status.ok()) return status;
  if (!std::equal(shape.begin(), shape.end(), view.shape, view.shape + view.rank)) {
    return Invalid(std::string(name) + ": shape " + ShapeString(view.shape, view.rank) +
                   " must be " + ShapeString(shape.data(), shape.size()) + " " + form());
  }
  return Status::Ok();
}

// Every buffer's byte count within the address space, and its data present when it has any.
struct Buffer {
  const char* name;
  DType dtype;
  const void* data;
  int64_t count;
};
Status CheckBuffers(std::initializer_list<Buffer> buffers) {
  for (const Buffer& b : buffers) {
    Status status = CheckBytes(b.name, b.dtype, b.count);
    if (!status.ok()) return status;
    status = CheckData(b.name, b.data, b.count);
    if (!status.ok()) return status;
  }
  return Status::Ok();
}

// The shape checks OutputShape and Validate share; fills every field of *p.
Status CheckShapes(const int64_t* x_shape, size_t x_rank, const int64_t* grid_shape,
                   size_t grid_rank, Layout layout, Problem* p) {
  Status status = CheckShape("x", x_shape, x_rank, &p->x_count);
  if (!status.ok()) return status;
  status = CheckShape("grid", grid_shape, grid_rank, &p->grid_count);
  if (!status.ok()) return status;
  if (x_rank < 3) {
    return Invalid("x: rank " + std::to_string(x_rank) + " (shape " + ShapeString(x_shape, x_rank) +
                   ") is below 3; X must be " + LayoutForm(layout, "") + " with r >= 1");
  }
  if (grid_rank != x_rank) {
    return Invalid("grid: rank " + std::to_string(grid_rank) + " (shape " +
                   ShapeString(grid_shape, grid_rank) + ") must equal x's rank " +
                   std::to_string(x_rank) + "; grid must be (N, D1_out, ..., Dr_out, r)");
  }
  const size_t r = x_rank - 2;
  if (grid_shape[grid_rank - 1] != static_cast<int64_t>(r)) {
    return Invalid("grid: last extent " + std::to_string(grid_shape[grid_rank - 1]) + " (shape " +
                   ShapeString(grid_shape, grid_rank) +
                   ") must equal the number of spatial axes of x, " + std::to_string(r));
  }
  if (grid_shape[0] != x_shape[0]) {
    return Invalid("grid: batch " + std::to_string(grid_shape[0]) + " must equal x's batch " +
                   std::to_string(x_shape[0]));
  }
  const bool last = layout == Layout::kChannelsLast;
  p->layout = layout;
  p->rank = r;
  p->batch = x_shape[0];
  p->channels = last ? x_shape[x_rank - 1] : x_shape[1];
  p->in.assign(x_shape + (last ? 1 : 2), x_shape + x_rank - (last ? 1 : 0));
  p->out.assign(grid_shape + 1, grid_shape + grid_rank - 1);
  // The planes are checked on their own: with N or C of 0, x's and grid's counts bound nothing.
  status = CheckShape("x (spatial extents)", p->in.data(), r, &p->in_plane);
  if (!status.ok()) return status;
  status = CheckShape("grid (spatial extents)", p->out.data(), r, &p->out_plane);
  if (!status.ok()) return status;
  // The strides are products of trailing extents: an empty axis before them makes the plane
  // empty, not them small (x of shape [1, 1, 0, 2^40, 2^40]).
  p->stride.assign(r, 1);
  for (size_t a = r; a-- > 1;) {
    uint64_t stride = 0;
    if (MulOverflows(static_cast<uint64_t>(p->stride[a]), static_cast<uint64_t>(p->in[a]),
                     &stride) ||
        stride > kMaxBytes) {
      return Status(StatusCode::kOutOfRange,
                    "x: the spatial extents " + ShapeString(p->in.data(), r) + " of shape " +
                        ShapeString(x_shape, x_rank) + LayoutNote(layout) +
                        " overflow the element stride of spatial axis " + std::to_string(a - 1));
    }
    p->stride[a - 1] = static_cast<int64_t>(stride);
  }
  p->y_shape = {p->batch};
  if (!last) p->y_shape.push_back(p->channels);
  p->y_shape.insert(p->y_shape.end(), p->out.begin(), p->out.end());
  if (last) p->y_shape.push_back(p->channels);
  status = CheckShape("y", p->y_shape.data(), p->y_shape.size(), &p->y_count);
  if (!status.ok()) return status;
  if (p->y_count > 0) {
    for (size_t a = 0; a < r; ++a) {
      if (p->in[a] == 0) {
        return Invalid("x: spatial axis " + std::to_string(a) + " of shape " +
                       ShapeString(x_shape, x_rank) + LayoutNote(layout) +
                       " is empty, but the output samples " + std::to_string(p->y_count) +
                       " elements from it");
      }
    }
  }
  return Status::Ok();
}

Status CheckLayout(Layout layout) {
  if (layout != Layout::kChannelsFirst && layout != Layout::kChannelsLast) {
    return Invalid("options.layout: value " + std::to_string(static_cast<int>(layout)) +
                   " is not a gridsample::Layout");
  }
  return Status::Ok();
}

}  // namespace

Status OutputShape(const int64_t* x_shape, size_t x_rank, const int64_t* grid_shape,
                   size_t grid_rank, std::vector<int64_t>* y_shape, Layout layout) {
  if (y_shape == nullptr) return Invalid("y_shape: the output pointer is null");
  Status status = CheckLayout(layout);
  if (!status.ok()) return status;
  Problem p;
  status = CheckShapes(x_shape, x_rank, grid_shape, grid_rank, layout, &p);
  if (!status.ok()) return status;
  *y_shape = std::move(p.y_shape);
  return Status::Ok();
}

Status Validate(const TensorView& x, const TensorView& grid, const MutableTensorView& y,
                const Options& options, Problem* p) {
  bool known_mode = false;
#define GRIDSAMPLE_MODE(Enum, name, alias, taps) known_mode |= options.mode == Mode::k##Enum;
#include "gridsample/modes.inc"
  if (!known_mode) {
    return Invalid("options.mode: value " + std::to_string(static_cast<int>(options.mode)) +
                   " is not a gridsample::Mode");
  }
  bool known_padding = false;
#define GRIDSAMPLE_PADDING(Enum, name) known_padding |= options.padding == Padding::k##Enum;
#include "gridsample/paddings.inc"
  if (!known_padding) {
    return Invalid("options.padding: value " + std::to_string(static_cast<int>(options.padding)) +
                   " is not a gridsample::Padding");
  }
  Status status = CheckLayout(options.layout);
  if (!status.ok()) return status;
  if (options.num_threads < 0) {
    return Invalid("options.num_threads: " + std::to_string(options.num_threads) +
                   " is negative (0 means all hardware threads)");
  }
  status = CheckDType("x", x.dtype);
  if (!status.ok()) return status;
  status = CheckDType("grid", grid.dtype);
  if (!status.ok()) return status;
  status = CheckDType("y", y.dtype);
  if (!status.ok()) return status;
  status = CheckGridDType("grid", grid.dtype, "a grid type");
  if (!status.ok()) return status;
  status = CheckSameDType("y", y.dtype, "x", x.dtype);
  if (!status.ok()) return status;
  status = CheckShapes(x.shape, x.rank, grid.shape, grid.rank, options.layout, p);
  if (!status.ok()) return status;
  status = CheckOutputShape("y", y, p->y_shape,
                            [&options] { return LayoutForm(options.layout, "_out"); });
  if (!status.ok()) return status;
  if (x.dtype == DType::kString && options.mode != Mode::kNearest) {
    return Status(StatusCode::kUnsupported,
                  std::string("options.mode: ") + ModeName(options.mode) +
                      " cannot interpolate string tensors; only nearest is defined for strings");
  }
  // Linear and cubic sum taps^r input elements per output element; past this bound (cubic
  // beyond 7 axes, linear beyond 14) the work per element is out of proportion.
  const int taps = TapsPerAxis(options.mode);
  double combinations = 1;
  for (size_t a = 0; a < p->rank; ++a) combinations *= static_cast<double>(taps);
  if (combinations > kMaxTapCombinations) {
    return Status(StatusCode::kUnsupported,
                  "x: " + std::to_string(p->rank) + " spatial axes need " + std::to_string(taps) +
                      "^" + std::to_string(p->rank) +
                      " taps per output element in this mode, more than the supported " +
                      std::to_string(kMaxTapCombinations));
  }
  return CheckBuffers({{"x", x.dtype, x.data, p->x_count},
                       {"grid", grid.dtype, grid.data, p->grid_count},
                       {"y", y.dtype, y.data, p->y_count}});
}

Status CheckAffineShapes(const int64_t* theta_shape, size_t theta_rank, const int64_t* size,
                         size_t size_length, AffineProblem* p) {
  // The length first: the values are read only once it is known to be 4 or 5.
  if (size_length != 4 && size_length != 5) {
    return Invalid("size: " + std::to_string(size_length) +
                   " values; expected 4, (N, C, H, W), or 5, (N, C, D, H, W)");
  }
  if (size == nullptr) {
    return Invalid("size: the values are null but their count is " + std::to_string(size_length));
  }
  for (size_t i = 0; i < size_length; ++i) {
    if (size[i] < 0) {
      return Invalid("size: value " + std::to_string(size[i]) + " at index " + std::to_string(i) +
                     " of " + ShapeString(size, size_length) + " is negative");
    }
  }
  Status status = CheckShape("theta", theta_shape, theta_rank, &p->theta_count);
  if (!status.ok()) return status;
  const size_t r = size_length - 2;
  const int64_t rows = static_cast<int64_t>(r);
  if (theta_rank != 3 || theta_shape[1] != rows || theta_shape[2] != rows + 1) {
    return Invalid("theta: shape " + ShapeString(theta_shape, theta_rank) + " must be (N, " +
                   std::to_string(rows) + ", " + std::to_string(rows + 1) + ") for the " +
                   std::to_string(r) + "-D size " + ShapeString(size, size_length));
  }
  if (theta_shape[0] != size[0]) {
    return Invalid("theta: batch " + std::to_string(theta_shape[0]) + " must equal N = " +
                   std::to_string(size[0]) + " of size " + ShapeString(size, size_length));
  }
  p->rank = r;
  p->batch = size[0];
  p->out.assign(size + 2, size + size_length);
  p->grid_shape = {p->batch};
  p->grid_shape.insert(p->grid_shape.end(), p->out.begin(), p->out.end());
  p->grid_shape.push_back(rows);
  return CheckShape("grid", p->grid_shape.data(), p->grid_shape.size(), &p->grid_count);
}

Status ValidateAffineGrid(const TensorView& theta, const int64_t* size, size_t size_length,
                          const MutableTensorView& grid, AffineProblem* p) {
  Status status = CheckDType("theta", theta.dtype);
  if (!status.ok()) return status;
  status = CheckDType("grid", grid.dtype);
  if (!status.ok()) return status;
  status = CheckGridDType("theta", theta.dtype, "a floating-point type");
  if (!status.ok()) return status;
  status = CheckSameDType("grid", grid.dtype, "theta", theta.dtype);
  if (!status.ok()) return status;
  status = CheckAffineShapes(theta.shape, theta.rank, size, size_length, p);
  if (!status.ok()) return status;
  status = CheckOutputShape("grid", grid, p->grid_shape, [p] {
    return std::string(p->rank == 2 ? "(N, H, W, 2)" : "(N, D, H, W, 3)");
  });
  if (!status.ok()) return status;
  return CheckBuffers({{"theta", theta.dtype, theta.data, p->theta_count},
                       {"grid", grid.dtype, grid.data, p->grid_count}});
}

}  // namespace gridsample
