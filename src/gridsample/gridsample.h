// gridsample: the ONNX GridSample operator (opsets 16, 20, 22) for every rank, mode, padding
// and tensor type, and AffineGrid (opset 20), which makes grids for it.
//
// Contract
// - Memory: every tensor is a view over caller-owned, dense, row-major memory. GridSample
//   allocates only internal scratch and never keeps a pointer to a tensor after it returns.
//   The scratch is freed before it returns, but for one buffer: sampling float images with
//   many channels, and channels-last float images whose channels are not a multiple of 8,
//   reads a float32 copy of X with the channels innermost (at most 32 MB, a few batch items at
//   a time), which the calling thread keeps for its next call, as allocating it afresh costs
//   as much as the copy saves. It is freed when the thread exits.
// - Aliasing: y must not overlap x or grid.
// - Threads: GridSample may use up to Options::num_threads worker threads (at most the
//   hardware's thread count) from a persistent pool shared by all calls; it returns only when
//   all work is done. Concurrent calls from several threads are safe (they share the pool).
//   Results do not depend on the thread count.
// - Errors: nothing throws across this API (but the typed overload's std::vector, when memory
//   runs out) and no input aborts the process. A bad argument yields a Status whose message
//   names the argument and the offending value; y is then left untouched.
// - Semantics: docs/semantics.md; in short, grid[..., 0] indexes the innermost
//   (width) axis, nearest rounds half to even, cubic uses A = -0.75, non-finite grid
//   coordinates give NaN (0 for integer/bool outputs, "" for strings).
// - Integer and bool outputs are exact: the truncation (then saturation, like ONNX Cast) of
//   the exact sum of the integer taps times fixed-point weights, multiples of 2^-16 (8-bit,
//   bool), 2^-24 (16-bit) or 2^-52 (32/64-bit) split from the float weights axis by axis and
//   summing to exactly one where every tap is inside. So no float rounding moves a result
//   across an integer: a flat region returns its value in every mode, padding and rank, and a
//   result that is an integer in exact arithmetic is that integer (docs/semantics.md: Types).
#ifndef GRIDSAMPLE_GRIDSAMPLE_H_
#define GRIDSAMPLE_GRIDSAMPLE_H_

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "gridsample/version.h"  // GRIDSAMPLE_VERSION_MAJOR/MINOR/PATCH and _STRING

namespace gridsample {

// Element type of a tensor. float16/bfloat16 are stored as uint16_t bits, bool as one byte
// (nonzero is true), complex64/complex128 as std::complex<float/double>, string as std::string.
enum class DType {
#define GRIDSAMPLE_DTYPE(Enum, ...) k##Enum,
#include "gridsample/dtypes.inc"
};

// Interpolation mode (the registry modes.inc). The opset-16 names bilinear/bicubic map to
// kLinear/kCubic.
enum class Mode {
#define GRIDSAMPLE_MODE(Enum, name, alias, taps) k##Enum,
#include "gridsample/modes.inc"
};

// How taps outside the input are resolved (the registry paddings.inc).
enum class Padding {
#define GRIDSAMPLE_PADDING(Enum, name) k##Enum,
#include "gridsample/paddings.inc"
};

// Where the channels sit in X and Y (the grid is the same in both layouts).
enum class Layout {
  kChannelsFirst,  // X (N, C, D1..Dr), Y (N, C, D1_out..Dr_out): ONNX's layout
  kChannelsLast,   // X (N, D1..Dr, C), Y (N, D1_out..Dr_out, C): interleaved pixels (RGBA)
};

// The ONNX attributes plus the tensors' layout and the degree of parallelism.
struct Options {
  Mode mode = Mode::kLinear;
  Padding padding = Padding::kZeros;
  bool align_corners = false;
  int num_threads = 0;  // 0 = all hardware threads; 1 = only the calling thread.
  Layout layout = Layout::kChannelsFirst;
};

// A read-only view of a dense row-major tensor. `shape` points at `rank` extents.
struct TensorView {
  DType dtype;
  const void* data;
  const int64_t* shape;
  size_t rank;
};

// A writable view of a dense row-major tensor (the output).
struct MutableTensorView {
  DType dtype;
  void* data;
  const int64_t* shape;
  size_t rank;
};

// What went wrong, so that bindings can map it to their own error classes (e.g. JS TypeError
// for a type mismatch, RangeError for a bad shape or value).
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // a bad shape, rank, attribute value or null pointer
  kTypeMismatch,     // a dtype that is not allowed where it was given
  kUnsupported,      // a valid combination the operator does not define (string with linear)
  kOutOfRange,       // a size that overflows int64/size_t or memory that cannot be allocated
};

// The result of a call: ok(), or a code and a message naming the argument and the value.
class Status {
 public:
  Status() = default;  // ok
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  // Empty when ok().
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// The library's version, "MAJOR.MINOR.PATCH": GRIDSAMPLE_VERSION_STRING as the library was
// compiled. It differs from the macro a program sees only when the program's header and the
// library it links come from different versions.
const char* Version();

// The ONNX/onnxruntime-web name of a dtype ("float32", "bfloat16", "string", ...); "unknown"
// for a value outside the enum.
const char* DTypeName(DType dtype);

// Bytes of one element in memory (sizeof(std::string) for kString); 0 for an unknown value.
size_t DTypeSize(DType dtype);

// The ONNX spelling of a mode ("linear", "nearest", "cubic") or padding ("zeros", "border",
// "reflection"); "unknown" for a value outside the enum.
const char* ModeName(Mode mode);
const char* PaddingName(Padding padding);

// "channels-first" or "channels-last"; "unknown" for a value outside the enum.
const char* LayoutName(Layout layout);

// Parses an ONNX/onnxruntime-web dtype name ("float32", "float16", "bool", ...).
Status ParseDType(std::string_view name, DType* dtype);

// Parses the ONNX `mode` attribute: linear|bilinear|nearest|cubic|bicubic (case-sensitive, as
// ONNX spells them).
Status ParseMode(std::string_view onnx_name, Mode* mode);

// Parses the ONNX `padding_mode` attribute: zeros|border|reflection.
Status ParsePadding(std::string_view onnx_name, Padding* padding);

// Parses a layout name: channels-first|channels-last (LayoutName's spellings).
Status ParseLayout(std::string_view name, Layout* layout);

// Y's shape for X of shape (N, C, D1..Dr) and grid of shape (N, D1_out..Dr_out, r):
// (N, C, D1_out..Dr_out); with Layout::kChannelsLast, X (N, D1..Dr, C) gives
// (N, D1_out..Dr_out, C). Validates ranks, the grid's last extent, N, negative extents, empty
// input axes with a non-empty output, and that the element counts fit in int64 and size_t.
Status OutputShape(const int64_t* x_shape, size_t x_rank, const int64_t* grid_shape,
                   size_t grid_rank, std::vector<int64_t>* y_shape,
                   Layout layout = Layout::kChannelsFirst);

// Computes Y = GridSample(X, grid) into y, which must already have OutputShape's shape (in
// options.layout) and X's dtype. grid must be float32, float64, float16 or bfloat16. kString X
// supports kNearest only (kUnsupported otherwise). Any X dtype goes with any grid dtype. Linear
// and cubic read 2^r and 4^r input elements per output element: beyond 16384 of them (cubic
// with more than 7 spatial axes, linear with more than 14) the call is refused as kUnsupported.
// Both layouts give the same values: a channels-last Y is the channels-first Y of the
// channels-first X, transposed, bit for bit.
Status GridSample(const TensorView& x, const TensorView& grid, const MutableTensorView& y,
                  const Options& options = {});

// AffineGrid (ONNX opset 20): the sampling grid of a batch of affine maps, ready for
// GridSample. Its contract is GridSample's (aliasing: grid must not overlap theta or size;
// errors), but it runs on the calling thread only and its only scratch, the base coordinates of
// each axis, is freed before it returns. Semantics: docs/semantics.md, AffineGrid.

// The ONNX attribute: whether -1 and 1 are the centres of the corner pixels (true) or their
// outer edges (false).
struct AffineGridOptions {
  bool align_corners = false;
};

// The grid's shape for theta of shape (N, 2, 3) or (N, 3, 4) and `size`, the `size_length`
// int64 values (N, C, H, W) or (N, C, D, H, W) of the ONNX input: (N, H, W, 2) or
// (N, D, H, W, 3). Validates the length of `size`, its values (non-negative; C is not used
// otherwise), theta's rank and shape against it, N, and that the grid's element count fits in
// int64 and size_t. Any extent may be 0 (an empty grid).
Status AffineGridShape(const int64_t* theta_shape, size_t theta_rank, const int64_t* size,
                       size_t size_length, std::vector<int64_t>* grid_shape);

// Computes grid = AffineGrid(theta, size) into grid, which must already have AffineGridShape's
// shape and theta's dtype (float32, float64, float16 or bfloat16). Each value is the affine map
// of the base coordinates computed in float64, in a fixed order, and rounded once to the dtype
// (docs/semantics.md, AffineGrid: the order, and how the results compare with onnx.reference).
Status AffineGrid(const TensorView& theta, const int64_t* size, size_t size_length,
                  const MutableTensorView& grid, const AffineGridOptions& options = {});

// The DType whose Storage is T, for the typed overload below. float16/bfloat16 have no C++
// type of their own here (they are uint16_t bits): use the view-based GridSample for them.
template <typename T>
struct DTypeOf;
#define GRIDSAMPLE_DTYPE_OF(T, Enum) \
  template <>                        \
  struct DTypeOf<T> : std::integral_constant<DType, DType::k##Enum> {};
GRIDSAMPLE_DTYPE_OF(float, Float32)
GRIDSAMPLE_DTYPE_OF(double, Float64)
GRIDSAMPLE_DTYPE_OF(int8_t, Int8)
GRIDSAMPLE_DTYPE_OF(int16_t, Int16)
GRIDSAMPLE_DTYPE_OF(int32_t, Int32)
GRIDSAMPLE_DTYPE_OF(int64_t, Int64)
GRIDSAMPLE_DTYPE_OF(uint8_t, UInt8)
GRIDSAMPLE_DTYPE_OF(uint16_t, UInt16)
GRIDSAMPLE_DTYPE_OF(uint32_t, UInt32)
GRIDSAMPLE_DTYPE_OF(uint64_t, UInt64)
GRIDSAMPLE_DTYPE_OF(std::complex<float>, Complex64)
GRIDSAMPLE_DTYPE_OF(std::complex<double>, Complex128)
GRIDSAMPLE_DTYPE_OF(std::string, String)
#undef GRIDSAMPLE_DTYPE_OF

namespace internal {
// For the typed overloads: resizes *out to the element count of `shape`, which the shape
// function has checked against int64 and size_t; the bytes must fit too, checked before
// allocating (kOutOfRange naming `name`).
template <typename T>
Status ResizeToShape(const char* name, const std::vector<int64_t>& shape, std::vector<T>* out) {
  size_t count = 1;
  for (int64_t extent : shape) count *= static_cast<size_t>(extent);
  if (count > out->max_size()) {
    return Status(StatusCode::kOutOfRange, std::string(name) + ": " + std::to_string(count) +
                                               " elements of " + DTypeName(DTypeOf<T>::value) +
                                               " overflow the address space");
  }
  out->resize(count);
  return Status::Ok();
}
}  // namespace internal

// Typed convenience: computes the output shape, resizes *y and runs GridSample. T is X's element
// type (see DTypeOf), G the grid's (float or double). An output whose byte size overflows is
// kOutOfRange; one that merely does not fit in memory throws std::bad_alloc from std::vector,
// the only exception of this API.
template <typename T, typename G>
Status GridSample(const T* x, const std::vector<int64_t>& x_shape, const G* grid,
                  const std::vector<int64_t>& grid_shape, std::vector<int64_t>* y_shape,
                  std::vector<T>* y, const Options& options = {}) {
  static_assert(!std::is_same<T, bool>::value,
                "std::vector<bool> is packed: pass bool tensors as bytes through the view API");
  std::vector<int64_t> shape;
  Status status = OutputShape(x_shape.data(), x_shape.size(), grid_shape.data(), grid_shape.size(),
                              &shape, options.layout);
  if (!status.ok()) return status;
  std::vector<T> out;
  status = internal::ResizeToShape("y", shape, &out);
  if (!status.ok()) return status;
  status = GridSample(TensorView{DTypeOf<T>::value, x, x_shape.data(), x_shape.size()},
                      TensorView{DTypeOf<G>::value, grid, grid_shape.data(), grid_shape.size()},
                      MutableTensorView{DTypeOf<T>::value, out.data(), shape.data(), shape.size()},
                      options);
  if (!status.ok()) return status;
  *y = std::move(out);
  *y_shape = std::move(shape);
  return status;
}

// Typed convenience: computes the grid's shape, resizes *grid and runs AffineGrid. T is theta's
// and the grid's element type, float or double (float16/bfloat16: use the view-based
// AffineGrid). Errors and the one exception as for the typed GridSample.
template <typename T>
Status AffineGrid(const T* theta, const std::vector<int64_t>& theta_shape,
                  const std::vector<int64_t>& size, std::vector<int64_t>* grid_shape,
                  std::vector<T>* grid, const AffineGridOptions& options = {}) {
  static_assert(std::is_floating_point<T>::value, "theta and the grid are float or double");
  std::vector<int64_t> shape;
  Status status =
      AffineGridShape(theta_shape.data(), theta_shape.size(), size.data(), size.size(), &shape);
  if (!status.ok()) return status;
  std::vector<T> out;
  status = internal::ResizeToShape("grid", shape, &out);
  if (!status.ok()) return status;
  status = AffineGrid(TensorView{DTypeOf<T>::value, theta, theta_shape.data(), theta_shape.size()},
                      size.data(), size.size(),
                      MutableTensorView{DTypeOf<T>::value, out.data(), shape.data(), shape.size()},
                      options);
  if (!status.ok()) return status;
  *grid = std::move(out);
  *grid_shape = std::move(shape);
  return status;
}

}  // namespace gridsample

#endif  // GRIDSAMPLE_GRIDSAMPLE_H_
