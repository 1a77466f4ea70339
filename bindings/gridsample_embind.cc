// The embind glue of the npm package: marshalling only. The JS wrapper (bindings/js/) checks
// JS types, owns the heap buffers and maps a StatusCode to a JS error class; every rule about
// shapes, types and attributes stays in the core.
//
// A call costs the wrapper a few microseconds, so numbers cross as numbers: pointers into the
// heap, dims as float64 arrays on the heap (safe integers, checked by the wrapper), dtypes as
// their DType value, mode and padding as their enum value (parsed once per spelling by the
// core's own parsers). Each function returns the core's StatusCode; after a failure
// lastMessage() holds the core's message. Strings (X of dtype string) cross as JS arrays.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gridsample/gridsample.h"

namespace gridsample {
namespace {

using emscripten::val;

// The last failure's message, in static storage: an error leaves the heap as it was.
char last_message[4096];

int Report(const Status& status) {
  if (!status.ok()) {
    const std::string& message = status.message();
    const size_t length = std::min(message.size(), sizeof(last_message) - 1);
    message.copy(last_message, length);
    last_message[length] = '\0';
  }
  return static_cast<int>(status.code());
}

std::string LastMessage() { return last_message; }

// `rank` float64 dims at heap address `at` → int64 extents.
std::vector<int64_t> DimsAt(uintptr_t at, int rank) {
  const double* dims = reinterpret_cast<const double*>(at);
  return std::vector<int64_t>(dims, dims + (rank > 0 ? rank : 0));
}

// The registry, for the wrapper and the package's tests: [{ name, id, size, computeSize, kind }]
// in dtypes.inc's order (id: the DType value; size: bytes per element; computeSize: bytes of
// the type interpolation runs in; kind: the registry's Kind token, e.g. "kComplex").
val DTypes() {
  val list = val::array();
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Kind)           \
  {                                                                    \
    val entry = val::object();                                         \
    entry.set("name", std::string(name));                              \
    entry.set("id", static_cast<int>(DType::k##Enum));                 \
    entry.set("size", static_cast<double>(DTypeSize(DType::k##Enum))); \
    entry.set("computeSize", static_cast<double>(sizeof(Compute)));    \
    entry.set("kind", std::string(#Kind));                             \
    list.call<void>("push", entry);                                    \
  }
#include "gridsample/dtypes.inc"
  return list;
}

// X's, the grid's and Y's shapes of a call whose dims the wrapper wrote to the heap.
struct Shapes {
  std::vector<int64_t> x, grid, y;
};
Status ReadShapes(uintptr_t x_dims, int x_rank, uintptr_t grid_dims, int grid_rank,
                  Shapes* shapes) {
  shapes->x = DimsAt(x_dims, x_rank);
  shapes->grid = DimsAt(grid_dims, grid_rank);
  return OutputShape(shapes->x.data(), shapes->x.size(), shapes->grid.data(),
                     shapes->grid.size(), &shapes->y);
}

// The Mode / Padding value of an ONNX spelling, or -1 (lastMessage() says why).
int ParseModeJs(const std::string& name) {
  Mode mode;
  const Status status = ParseMode(name, &mode);
  return status.ok() ? static_cast<int>(mode) : (Report(status), -1);
}
int ParsePaddingJs(const std::string& name) {
  Padding padding;
  const Status status = ParsePadding(name, &padding);
  return status.ok() ? static_cast<int>(padding) : (Report(status), -1);
}

// Writes Y's dims (x_rank of them, as float64) to y_dims.
int OutputShapeJs(uintptr_t x_dims, int x_rank, uintptr_t grid_dims, int grid_rank,
                  uintptr_t y_dims) {
  Shapes shapes;
  const Status status = ReadShapes(x_dims, x_rank, grid_dims, grid_rank, &shapes);
  if (status.ok()) {
    double* out = reinterpret_cast<double*>(y_dims);
    for (size_t i = 0; i < shapes.y.size(); ++i) out[i] = static_cast<double>(shapes.y[i]);
  }
  return Report(status);
}

Options MakeOptions(int mode, int padding, bool align_corners) {
  Options options;
  options.mode = static_cast<Mode>(mode);
  options.padding = static_cast<Padding>(padding);
  options.align_corners = align_corners;
  options.num_threads = 1;  // this build has no threads
  return options;
}

// Y = GridSample(X, grid) over heap buffers the wrapper allocated (y: OutputShape's size).
int GridSampleJs(uintptr_t x, int x_dtype, uintptr_t x_dims, int x_rank, uintptr_t grid,
                 int grid_dtype, uintptr_t grid_dims, int grid_rank, uintptr_t y, int mode,
                 int padding, bool align_corners) {
  Shapes shapes;
  Status status = ReadShapes(x_dims, x_rank, grid_dims, grid_rank, &shapes);
  if (!status.ok()) return Report(status);
  const DType x_type = static_cast<DType>(x_dtype);
  status = GridSample(
      TensorView{x_type, reinterpret_cast<const void*>(x), shapes.x.data(), shapes.x.size()},
      TensorView{static_cast<DType>(grid_dtype), reinterpret_cast<const void*>(grid),
                 shapes.grid.data(), shapes.grid.size()},
      MutableTensorView{x_type, reinterpret_cast<void*>(y), shapes.y.data(), shapes.y.size()},
      MakeOptions(mode, padding, align_corners));
  return Report(status);
}

// The same for X of dtype string: x_strings is a JS array of strings; Y's strings are pushed
// onto the JS array y_strings.
int GridSampleStringsJs(const val& x_strings, uintptr_t x_dims, int x_rank, uintptr_t grid,
                        int grid_dtype, uintptr_t grid_dims, int grid_rank, val y_strings,
                        int mode, int padding, bool align_corners) {
  Shapes shapes;
  Status status = ReadShapes(x_dims, x_rank, grid_dims, grid_rank, &shapes);
  if (!status.ok()) return Report(status);
  const std::vector<std::string> x_data = emscripten::vecFromJSArray<std::string>(x_strings);
  size_t count = 1;
  for (int64_t extent : shapes.y) count *= static_cast<size_t>(extent);  // checked above
  std::vector<std::string> y_data(count);
  status = GridSample(
      TensorView{DType::kString, x_data.data(), shapes.x.data(), shapes.x.size()},
      TensorView{static_cast<DType>(grid_dtype), reinterpret_cast<const void*>(grid),
                 shapes.grid.data(), shapes.grid.size()},
      MutableTensorView{DType::kString, y_data.data(), shapes.y.data(), shapes.y.size()},
      MakeOptions(mode, padding, align_corners));
  if (status.ok()) {
    for (const std::string& s : y_data) y_strings.call<void>("push", s);
  }
  return Report(status);
}

// Bytes malloc has handed out and not taken back: the tests' probe for leaks.
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace
}  // namespace gridsample

EMSCRIPTEN_BINDINGS(gridsample) {
  emscripten::enum_<gridsample::StatusCode>("StatusCode")
      .value("kOk", gridsample::StatusCode::kOk)
      .value("kInvalidArgument", gridsample::StatusCode::kInvalidArgument)
      .value("kTypeMismatch", gridsample::StatusCode::kTypeMismatch)
      .value("kUnsupported", gridsample::StatusCode::kUnsupported)
      .value("kOutOfRange", gridsample::StatusCode::kOutOfRange);
  emscripten::function("dtypes", &gridsample::DTypes);
  emscripten::function("parseMode", &gridsample::ParseModeJs);
  emscripten::function("parsePadding", &gridsample::ParsePaddingJs);
  emscripten::function("outputShape", &gridsample::OutputShapeJs);
  emscripten::function("gridSample", &gridsample::GridSampleJs);
  emscripten::function("gridSampleStrings", &gridsample::GridSampleStringsJs);
  emscripten::function("lastMessage", &gridsample::LastMessage);
  emscripten::function("heapInUse", &gridsample::HeapInUse);
}
