// The embind glue of the npm package: marshalling only. The JS wrapper (bindings/js/) checks
// JS types, owns the heap buffers and maps a StatusCode to a JS error class; every rule about
// shapes, types and attributes stays in the core.
//
// A call costs the wrapper a few microseconds, so numbers cross as numbers: pointers into the
// heap, dims as float64 arrays on the heap (safe integers, checked by the wrapper), dtypes as
// their DType value, mode, padding and layout as their enum value (parsed once per spelling by
// the core's own parsers, from UTF-8 the wrapper wrote to the heap). Each function returns the
// core's StatusCode; after a failure lastMessageAt() locates the core's message.
//
// Nothing here allocates through embind's JS side (its std::string arguments take heap memory
// without checking that malloc succeeded), and nothing throws into JS: an allocation that fails
// in C++ (the module is built with WebAssembly exceptions) becomes kOutOfRange.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "call_thread.h"
#include "gridsample/gridsample.h"
#include "output_progress.h"
#include "string_tags.h"
#include "thread_pool.h"

// The wrapper's copier of the parts finished so far (PartsCopier.step in grid_sample.js): 1 if
// it found work (a part to copy, or a page of a fresh output to map). Runs on the thread that
// called the core, whose JavaScript has set Module.copyFinishedParts. (EM_JS: at file scope.)
EM_JS(int, CopyFinishedPartsInJs, (), {
  const copy = Module["copyFinishedParts"];
  return copy && copy() ? 1 : 0;
});

namespace gridsample {
namespace {

using emscripten::val;

// The last failure's message, in static storage: an error leaves the heap as it was.
char last_message[4096];

int Report(StatusCode code, std::string_view message) {
  if (code != StatusCode::kOk) {
    const size_t length = std::min(message.size(), sizeof(last_message) - 1);
    message.copy(last_message, length);
    last_message[length] = '\0';
  }
  return static_cast<int>(code);
}
int Report(const Status& status) { return Report(status.code(), status.message()); }

// Report(body()), where body may run out of heap outside the core's own catch (a vector of the
// glue, a message the core builds): that is kOutOfRange too, never an exception into JS.
template <typename Body>
int Guarded(Body&& body) {
  try {
    return Report(body());
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {  // a vector longer than wasm32's size_t can count
  }
  return Report(StatusCode::kOutOfRange,
                "the call needs more memory than the WebAssembly heap can give");
}

// The version the module's C++ was compiled as (GRIDSAMPLE_VERSION_STRING, package.json's), for
// the package's tests to compare with the wrapper's `version`. A JS string made from the C
// string in place: nothing allocated.
val VersionJs() { return val(Version()); }

// The heap address of the last failure's message (NUL-terminated UTF-8), which the wrapper
// decodes itself: nothing to allocate, even when the failure was running out of heap.
uintptr_t LastMessageAt() { return reinterpret_cast<uintptr_t>(last_message); }

// `rank` float64 dims at heap address `at` → int64 extents.
std::vector<int64_t> DimsAt(uintptr_t at, int rank) {
  const double* dims = reinterpret_cast<const double*>(at);
  return std::vector<int64_t>(dims, dims + (rank > 0 ? rank : 0));
}

// The registry, for the wrapper and the package's tests: [{ name, id, size, computeSize, kind }]
// in dtypes.inc's order (id: the DType value; size: bytes per element; computeSize: bytes of
// the type interpolation runs in; kind: the registry's Conversion token, e.g. "kComplex").
val DTypes() {
  val list = val::array();
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Conversion, ...) \
  {                                                                     \
    val entry = val::object();                                          \
    entry.set("name", std::string(name));                               \
    entry.set("id", static_cast<int>(DType::k##Enum));                  \
    entry.set("size", static_cast<double>(DTypeSize(DType::k##Enum)));  \
    entry.set("computeSize", static_cast<double>(sizeof(Compute)));     \
    entry.set("kind", std::string(#Conversion));                        \
    list.call<void>("push", entry);                                     \
  }
#include "gridsample/dtypes.inc"
  return list;
}

// X's, the grid's and Y's shapes of a call whose dims the wrapper wrote to the heap.
struct Shapes {
  std::vector<int64_t> x, grid, y;
};
// With Y's computed (and all checked) by OutputShape for X in `layout`.
Status ReadShapes(uintptr_t x_dims, int x_rank, uintptr_t grid_dims, int grid_rank, int layout,
                  Shapes* shapes) {
  shapes->x = DimsAt(x_dims, x_rank);
  shapes->grid = DimsAt(grid_dims, grid_rank);
  return OutputShape(shapes->x.data(), shapes->x.size(), shapes->grid.data(), shapes->grid.size(),
                     &shapes->y, static_cast<Layout>(layout));
}
// With Y's (x_rank of them) as the wrapper had them from outputShape: for a call that hands
// the shapes straight to GridSample, which checks them all, so a wrong one is an error, never a
// stray write. Asking OutputShape again cost a small call a tenth of its time.
Shapes ShapesAt(uintptr_t x_dims, int x_rank, uintptr_t grid_dims, int grid_rank,
                uintptr_t y_dims) {
  return Shapes{DimsAt(x_dims, x_rank), DimsAt(grid_dims, grid_rank), DimsAt(y_dims, x_rank)};
}

// The Mode / Padding / Layout value of the spelling in `length` UTF-8 bytes at heap address `text`,
// or -1 (lastMessageAt() says why).
template <typename T>
int ParseJs(Status (*parse)(std::string_view, T*), uintptr_t text, int length) {
  T value{};
  const std::string_view spelling(reinterpret_cast<const char*>(text),
                                  static_cast<size_t>(std::max(length, 0)));
  const int code = Guarded([&] { return parse(spelling, &value); });
  return code == static_cast<int>(StatusCode::kOk) ? static_cast<int>(value) : -1;
}
int ParseModeJs(uintptr_t text, int length) { return ParseJs(&ParseMode, text, length); }
int ParsePaddingJs(uintptr_t text, int length) { return ParseJs(&ParsePadding, text, length); }
int ParseLayoutJs(uintptr_t text, int length) { return ParseJs(&ParseLayout, text, length); }

// Writes Y's dims (x_rank of them, as float64) to y_dims.
int OutputShapeJs(uintptr_t x_dims, int x_rank, uintptr_t grid_dims, int grid_rank, int layout,
                  uintptr_t y_dims) {
  return Guarded([&] {
    Shapes shapes;
    const Status status = ReadShapes(x_dims, x_rank, grid_dims, grid_rank, layout, &shapes);
    if (status.ok()) {
      double* out = reinterpret_cast<double*>(y_dims);
      for (size_t i = 0; i < shapes.y.size(); ++i) out[i] = static_cast<double>(shapes.y[i]);
    }
    return status;
  });
}

// num_threads: 0 for all the pool's threads (the wrapper checked the value).
Options MakeOptions(int mode, int padding, bool align_corners, int layout, int num_threads) {
  Options options;
  options.mode = static_cast<Mode>(mode);
  options.padding = static_cast<Padding>(padding);
  options.align_corners = align_corners;
  options.layout = static_cast<Layout>(layout);
  options.num_threads = num_threads;
  return options;
}

// Starts the core's thread pool with `threads` threads (the caller's included) once Emscripten
// has loaded a worker for each of the others; returns the threads calls may use (1 if the pool
// could not start).
int StartThreads(int threads) {
  return static_cast<int>(StartPool(static_cast<size_t>(std::max(threads, 1))));
}

// Starts the call thread (call_thread.h) on the worker Emscripten loaded for it; false if it
// cannot start.
bool StartCallThreadJs() { return StartCallThread(); }

// Y = GridSample(X, grid) over heap buffers the wrapper allocated (y: of dims y_dims).
int GridSampleJs(uintptr_t x, int x_dtype, uintptr_t x_dims, int x_rank, uintptr_t grid,
                 int grid_dtype, uintptr_t grid_dims, int grid_rank, uintptr_t y, uintptr_t y_dims,
                 int mode, int padding, bool align_corners, int layout, int num_threads) {
  return Guarded([&] {
    const Shapes shapes = ShapesAt(x_dims, x_rank, grid_dims, grid_rank, y_dims);
    const DType x_type = static_cast<DType>(x_dtype);
    return GridSample(
        TensorView{x_type, reinterpret_cast<const void*>(x), shapes.x.data(), shapes.x.size()},
        TensorView{static_cast<DType>(grid_dtype), reinterpret_cast<const void*>(grid),
                   shapes.grid.data(), shapes.grid.size()},
        MutableTensorView{x_type, reinterpret_cast<void*>(y), shapes.y.data(), shapes.y.size()},
        MakeOptions(mode, padding, align_corners, layout, num_threads));
  });
}

// kCall on the call thread (call_thread.h): Start takes kCall's arguments and returns at once;
// FinishOnCallThread waits for the call and returns its code. Meanwhile the wrapper copies the
// grid of a batch's next piece in, or allocates a fresh output and copies Y's finished parts
// into it (Reporting). Without the call thread, Start runs the call itself.
template <auto kCall, class = decltype(kCall)>
struct OnCallThread;
template <auto kCall, class... Args>
struct OnCallThread<kCall, int (*)(Args...)> {
  static inline std::tuple<Args...> args;  // the call Start handed over
  static int Call(void*) { return std::apply(kCall, args); }
  static void Start(Args... a) {
    args = std::tuple<Args...>(a...);
    SubmitCall(&Call, nullptr);
  }
};
int FinishOnCallThread() { return CollectCall(); }

// The finished parts of Y (output_progress.h) of a call, which the wrapper copies into the
// caller's output while the call samples the rest (grid_sample.js, PartsCopier): written by the
// call's threads, read by the wrapper through Atomics on the shared heap, so its layout is the
// wrapper's too: kHeaderWords words, then `slots` records of kRecordWords words (Y's byte
// address, bytes, runs, stride: OutputProgress::Finished's; then the record's number + 1 once
// it is whole, as the call's threads take numbers in one order and finish in another).
struct FinishedParts {
  static constexpr uint32_t kSlots = 512;
  static constexpr uint32_t kHeaderWords = 5;
  static constexpr uint32_t kRecordWords = 5;
  struct Record {
    uint32_t address, bytes, runs, stride;
    std::atomic<uint32_t> published;  // number + 1, written last
  };
  std::atomic<uint32_t> written;  // records numbered (a number may still be being written)
  std::atomic<uint32_t> read;     // records the wrapper has copied: it writes this one
  std::atomic<uint32_t> lost;     // 1 once a record found no free slot: the wrapper copies all
  std::atomic<uint32_t> done;     // 1 once the call has returned
  uint32_t slots = kSlots;
  Record records[kSlots];
};
static_assert(offsetof(FinishedParts, records) == FinishedParts::kHeaderWords * 4 &&
                  sizeof(FinishedParts::Record) == FinishedParts::kRecordWords * 4 &&
                  sizeof(std::atomic<uint32_t>) == 4,
              "the wrapper's layout");
FinishedParts finished_parts;

class RecordFinishedParts : public OutputProgress {
 public:
  void Finished(const void* first, size_t bytes, size_t runs, size_t stride) override {
    FinishedParts& parts = finished_parts;
    if (parts.lost.load(std::memory_order_relaxed) != 0) return;
    const uint32_t number = parts.written.fetch_add(1, std::memory_order_relaxed);
    // The wrapper copies parts as they come; it falls behind only on calls of many tiny tiles.
    // (`slots`, kSlots but where a test has lowered it to force this, is read from the header.)
    const uint32_t slots = std::min(parts.slots, FinishedParts::kSlots);
    if (number - parts.read.load(std::memory_order_acquire) >= slots) {
      parts.lost.store(1, std::memory_order_release);
      return;
    }
    FinishedParts::Record& record = parts.records[number % slots];
    record.address = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(first));
    record.bytes = static_cast<uint32_t>(bytes);
    record.runs = static_cast<uint32_t>(runs);
    record.stride = static_cast<uint32_t>(stride);
    record.published.store(number + 1, std::memory_order_release);
  }
};

// The same, on a call whose calling thread is the wrapper's own: that thread also copies the
// parts finished so far after each part of its own and while it waits for the call's other
// threads, so that Y's copy out of the heap runs beside their sampling.
class CopyFinishedParts final : public RecordFinishedParts {
 public:
  void Finished(const void* first, size_t bytes, size_t runs, size_t stride) override {
    RecordFinishedParts::Finished(first, bytes, runs, stride);
    if (std::this_thread::get_id() == caller_) CopyFinishedPartsInJs();
  }
  bool Waiting() override { return CopyFinishedPartsInJs() != 0; }

 private:
  const std::thread::id caller_ = std::this_thread::get_id();
};

// kCall (GridSampleJs) telling finished_parts of Y's parts as they are finished (through
// Sink: RecordFinishedParts on the call thread, CopyFinishedParts on the wrapper's), with
// kCall's arguments.
template <auto kCall, class Sink, class = decltype(kCall)>
struct Reporting;
template <auto kCall, class Sink, class... Args>
struct Reporting<kCall, Sink, int (*)(Args...)> {
  static int Call(Args... args) {
    Sink record;
    SetOutputProgress(&record);
    const int code = kCall(args...);
    SetOutputProgress(nullptr);
    finished_parts.done.store(1, std::memory_order_release);
    return code;
  }
};

// Empties finished_parts for the next call and returns its heap address.
double ResetFinishedParts() {
  // A record of an earlier call must not pass for one of this call's.
  const uint32_t used = std::min(finished_parts.written.load(), FinishedParts::kSlots);
  for (uint32_t i = 0; i < used; ++i) {
    finished_parts.records[i].published.store(0, std::memory_order_relaxed);
  }
  finished_parts.written.store(0, std::memory_order_relaxed);
  finished_parts.read.store(0, std::memory_order_relaxed);
  finished_parts.lost.store(0, std::memory_order_relaxed);
  finished_parts.slots = FinishedParts::kSlots;
  finished_parts.done.store(0, std::memory_order_release);
  return static_cast<double>(reinterpret_cast<uintptr_t>(&finished_parts));
}

// The same for X of dtype string: X's strings stay in JS, Y's tags (string_tags.h) are written
// to y_index, and the wrapper maps them back to the caller's strings.
int GridSampleStringsJs(uintptr_t x_dims, int x_rank, uintptr_t grid, int grid_dtype,
                        uintptr_t grid_dims, int grid_rank, uintptr_t y_index, int mode,
                        int padding, bool align_corners, int layout, int num_threads) {
  return Guarded([&] {
    Shapes shapes;  // checked before the stand-ins are sized from them
    Status status = ReadShapes(x_dims, x_rank, grid_dims, grid_rank, layout, &shapes);
    if (!status.ok()) return status;
    return GridSampleStringTags(
        shapes.x,
        TensorView{static_cast<DType>(grid_dtype), reinterpret_cast<const void*>(grid),
                   shapes.grid.data(), shapes.grid.size()},
        shapes.y, MakeOptions(mode, padding, align_corners, layout, num_threads),
        reinterpret_cast<uint32_t*>(y_index));
  });
}

// AffineGrid's shape: writes the grid's dims (size_length of them, as float64) to grid_dims.
// theta's dims and the size values are float64 on the heap, as the other dims.
int AffineGridShapeJs(uintptr_t theta_dims, int theta_rank, uintptr_t size, int size_length,
                      uintptr_t grid_dims) {
  return Guarded([&] {
    const std::vector<int64_t> theta_shape = DimsAt(theta_dims, theta_rank);
    const std::vector<int64_t> values = DimsAt(size, size_length);
    std::vector<int64_t> shape;
    const Status status = AffineGridShape(theta_shape.data(), theta_shape.size(), values.data(),
                                          values.size(), &shape);
    if (status.ok()) {
      double* out = reinterpret_cast<double*>(grid_dims);
      for (size_t i = 0; i < shape.size(); ++i) out[i] = static_cast<double>(shape[i]);
    }
    return status;
  });
}

// grid = AffineGrid(theta, size) over heap buffers the wrapper allocated (the grid: of theta's
// dtype and of the dims AffineGridShapeJs gave, which AffineGrid checks again).
int AffineGridJs(uintptr_t theta, int dtype, uintptr_t theta_dims, int theta_rank, uintptr_t size,
                 int size_length, uintptr_t grid, uintptr_t grid_dims, int grid_rank,
                 bool align_corners) {
  return Guarded([&] {
    const std::vector<int64_t> theta_shape = DimsAt(theta_dims, theta_rank);
    const std::vector<int64_t> values = DimsAt(size, size_length);
    const std::vector<int64_t> grid_shape = DimsAt(grid_dims, grid_rank);
    const DType type = static_cast<DType>(dtype);
    AffineGridOptions options;
    options.align_corners = align_corners;
    return AffineGrid(TensorView{type, reinterpret_cast<const void*>(theta), theta_shape.data(),
                                 theta_shape.size()},
                      values.data(), values.size(),
                      MutableTensorView{type, reinterpret_cast<void*>(grid), grid_shape.data(),
                                        grid_shape.size()},
                      options);
  });
}

// With threads, libc++abi allocates a thread's exception state at its first exception: taken
// when the module starts, so that the first call to run out of memory (a std::bad_alloc inside
// the core) leaves the heap as it was, as every failed call does.
const bool kExceptionStateTaken = [] {
  try {
    throw std::bad_alloc();
  } catch (const std::bad_alloc&) {
  }
  return true;
}();

// Bytes malloc has handed out and not taken back: the tests' probe for leaks.
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

// Work items the pool's threads (not the caller's) have taken: the tests' probe that threads
// ran.
double ItemsTakenByPoolJs() { return static_cast<double>(ItemsTakenByPool()); }

}  // namespace
}  // namespace gridsample

EMSCRIPTEN_BINDINGS(gridsample) {
  emscripten::enum_<gridsample::StatusCode>("StatusCode")
      .value("kOk", gridsample::StatusCode::kOk)
      .value("kInvalidArgument", gridsample::StatusCode::kInvalidArgument)
      .value("kTypeMismatch", gridsample::StatusCode::kTypeMismatch)
      .value("kUnsupported", gridsample::StatusCode::kUnsupported)
      .value("kOutOfRange", gridsample::StatusCode::kOutOfRange);
  emscripten::function("version", &gridsample::VersionJs);
  emscripten::function("dtypes", &gridsample::DTypes);
  emscripten::function("parseMode", &gridsample::ParseModeJs);
  emscripten::function("parsePadding", &gridsample::ParsePaddingJs);
  emscripten::function("parseLayout", &gridsample::ParseLayoutJs);
  emscripten::function("outputShape", &gridsample::OutputShapeJs);
  emscripten::function("gridSample", &gridsample::GridSampleJs);
  emscripten::function("startGridSample",
                       &gridsample::OnCallThread<&gridsample::GridSampleJs>::Start);
  emscripten::function(
      "startGridSampleReporting",
      &gridsample::OnCallThread<&gridsample::Reporting<
          &gridsample::GridSampleJs, gridsample::RecordFinishedParts>::Call>::Start);
  emscripten::function(
      "gridSampleCopying",
      &gridsample::Reporting<&gridsample::GridSampleJs, gridsample::CopyFinishedParts>::Call);
  emscripten::function("finishGridSample", &gridsample::FinishOnCallThread);
  emscripten::function("resetFinishedParts", &gridsample::ResetFinishedParts);
  emscripten::function("gridSampleStrings", &gridsample::GridSampleStringsJs);
  emscripten::function("affineGridShape", &gridsample::AffineGridShapeJs);
  emscripten::function("affineGrid", &gridsample::AffineGridJs);
  emscripten::function("lastMessageAt", &gridsample::LastMessageAt);
  emscripten::function("heapInUse", &gridsample::HeapInUse);
  emscripten::function("startThreads", &gridsample::StartThreads);
  emscripten::function("startCallThread", &gridsample::StartCallThreadJs);
  emscripten::function("itemsTakenByPool", &gridsample::ItemsTakenByPoolJs);
}
