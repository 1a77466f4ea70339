// The npm package's native backend for Node.js: the C++ core over Node-API (node-addon-api),
// marshalling only, as gridsample_embind.cc is for WebAssembly. The JS wrapper
// (bindings/js/native.js) checks every argument with the same code as the WebAssembly backend
// (bindings/js/arguments.js) and allocates the outputs; typed arrays are read and written in
// place, where they are, with no copy.
//
// Every function returns what the wrapper needs or a StatusCode, and keeps the message of the
// last failure for lastMessage(): nothing throws into JS, so the wrapper turns failures into the
// same error classes as the WebAssembly backend.
#include <napi.h>
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gridsample/gridsample.h"
#include "rows.h"
#include "string_tags.h"
#include "thread_pool.h"

namespace gridsample {
namespace {

// Of the last failure on this thread: each worker_threads Worker that loads the package calls
// on a thread of its own.
thread_local std::string last_message;

int Report(const Status& status) {
  if (!status.ok()) last_message = status.message();
  return static_cast<int>(status.code());
}

// Report(body()), where the glue itself may run out of memory (a vector of dims, the strings).
template <typename Body>
int Guarded(Body&& body) {
  try {
    return Report(body());
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  return Report(Status(StatusCode::kOutOfRange, "the call needs more memory than there is"));
}

// A JS array of whole numbers (the wrapper checked them) → int64 extents.
std::vector<int64_t> Dims(const Napi::Value& value) {
  const Napi::Array array = value.As<Napi::Array>();
  std::vector<int64_t> dims(array.Length());
  for (uint32_t i = 0; i < dims.size(); ++i) {
    dims[i] = static_cast<int64_t>(array.Get(i).As<Napi::Number>().DoubleValue());
  }
  return dims;
}

// The dims a shape function of the core computes, as a JS array, or its StatusCode.
template <typename Shape>
Napi::Value DimsOrCode(Napi::Env env, Shape&& shape) {
  std::vector<int64_t> dims;
  const int code = Guarded([&] { return shape(&dims); });
  if (code != 0) return Napi::Number::New(env, code);
  Napi::Array array = Napi::Array::New(env, dims.size());
  for (uint32_t i = 0; i < dims.size(); ++i) array.Set(i, static_cast<double>(dims[i]));
  return array;
}

// The bytes of a typed array, where they are. Node-API gives them for a view of any buffer; the
// view's ArrayBuffer() would refuse a SharedArrayBuffer.
void* DataOf(const Napi::Value& value) {
  void* data = nullptr;
  const napi_status status =
      napi_get_typedarray_info(value.Env(), value, nullptr, nullptr, &data, nullptr, nullptr);
  return status == napi_ok ? data : nullptr;
}

int IntOf(const Napi::Value& value) { return value.As<Napi::Number>().Int32Value(); }

// Y's memory, where it is 32 MiB or more, asked for in 2 MiB pages (transparent huge pages,
// where the system gives them on request). So large a fresh output is memory glibc maps for it
// alone (past its largest mmap threshold, 32 MiB on 64 bits), which the kernel otherwise maps
// 4 KiB at a time as the core first writes it: on a virtual machine about 3 us a page, 28 ms
// of a 35 MB output's 36 against 8 for the sampling (docs/benchmarks.md, "Fresh outputs in
// 2 MiB pages"). Smaller outputs come from glibc's heap, pages it reuses: the advice would
// change memory that is not Y's alone, and has nothing to save there. Only the 2 MiB pages
// wholly inside Y are advised; a system without THP, or where it is always on, ignores it.
void AdviseHugePages(void* y, size_t bytes) {
  constexpr size_t kHugePage = size_t{2} << 20;
  constexpr size_t kLeast = size_t{32} << 20;
  if (bytes < kLeast) return;
  const uintptr_t start = reinterpret_cast<uintptr_t>(y);
  const uintptr_t begin = (start + kHugePage - 1) & ~uintptr_t{kHugePage - 1};
  const uintptr_t end = (start + bytes) & ~uintptr_t{kHugePage - 1};
  // Advice, not a requirement: a refusal leaves the call as it was.
  if (start != 0 && end > begin) {
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
}

Options MakeOptions(const Napi::CallbackInfo& info, size_t at) {
  Options options;
  options.mode = static_cast<Mode>(IntOf(info[at]));
  options.padding = static_cast<Padding>(IntOf(info[at + 1]));
  options.align_corners = info[at + 2].As<Napi::Boolean>().Value();
  options.layout = static_cast<Layout>(IntOf(info[at + 3]));
  options.num_threads = IntOf(info[at + 4]);
  return options;
}

Napi::Value VersionJs(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), Version());
}

// The registry, as gridsample_embind.cc's dtypes() gives it.
Napi::Value DTypesJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array list = Napi::Array::New(env);
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, Conversion, ...) \
  {                                                                     \
    Napi::Object entry = Napi::Object::New(env);                        \
    entry.Set("name", name);                                            \
    entry.Set("id", static_cast<double>(DType::k##Enum));               \
    entry.Set("size", static_cast<double>(DTypeSize(DType::k##Enum)));  \
    entry.Set("computeSize", static_cast<double>(sizeof(Compute)));     \
    entry.Set("kind", #Conversion);                                     \
    list.Set(list.Length(), entry);                                     \
  }
#include "gridsample/dtypes.inc"
  return list;
}

// The Mode / Padding / Layout value of a spelling, or -1 (lastMessage() says why).
template <typename T, Status (*kParse)(std::string_view, T*)>
Napi::Value ParseJs(const Napi::CallbackInfo& info) {
  const std::string spelling = info[0].As<Napi::String>().Utf8Value();
  T value{};
  const int code = Guarded([&] { return kParse(spelling, &value); });
  return Napi::Number::New(info.Env(), code == 0 ? static_cast<int>(value) : -1);
}

// (xDims, gridDims, layout) → Y's dims, or the StatusCode.
Napi::Value OutputShapeJs(const Napi::CallbackInfo& info) {
  return DimsOrCode(info.Env(), [&](std::vector<int64_t>* y) {
    const std::vector<int64_t> x = Dims(info[0]), grid = Dims(info[1]);
    return OutputShape(x.data(), x.size(), grid.data(), grid.size(), y,
                       static_cast<Layout>(IntOf(info[2])));
  });
}

// (x, xType, xDims, grid, gridType, gridDims, y, yDims, mode, padding, alignCorners, layout,
// numThreads) → the StatusCode; Y written in place.
Napi::Value GridSampleJs(const Napi::CallbackInfo& info) {
  const int code = Guarded([&] {
    const std::vector<int64_t> x = Dims(info[2]), grid = Dims(info[5]), y = Dims(info[7]);
    const DType x_type = static_cast<DType>(IntOf(info[1]));
    void* const y_data = DataOf(info[6]);
    AdviseHugePages(y_data, info[6].As<Napi::TypedArray>().ByteLength());
    return GridSample(
        TensorView{x_type, DataOf(info[0]), x.data(), x.size()},
        TensorView{static_cast<DType>(IntOf(info[4])), DataOf(info[3]), grid.data(), grid.size()},
        MutableTensorView{x_type, y_data, y.data(), y.size()}, MakeOptions(info, 8));
  });
  return Napi::Number::New(info.Env(), code);
}

// X of strings: (xDims, grid, gridType, gridDims, yDims, yTags, mode, padding, alignCorners,
// layout, numThreads) → the StatusCode; Y's tags (string_tags.h) written into the Uint32Array
// yTags, which the wrapper maps back to X's strings.
Napi::Value GridSampleStringsJs(const Napi::CallbackInfo& info) {
  const int code = Guarded([&] {
    const std::vector<int64_t> x = Dims(info[0]), grid = Dims(info[3]), y = Dims(info[4]);
    return GridSampleStringTags(
        x,
        TensorView{static_cast<DType>(IntOf(info[2])), DataOf(info[1]), grid.data(), grid.size()},
        y, MakeOptions(info, 6), static_cast<uint32_t*>(DataOf(info[5])));
  });
  return Napi::Number::New(info.Env(), code);
}

// (thetaDims, size) → the grid's dims, or the StatusCode.
Napi::Value AffineGridShapeJs(const Napi::CallbackInfo& info) {
  return DimsOrCode(info.Env(), [&](std::vector<int64_t>* shape) {
    const std::vector<int64_t> theta = Dims(info[0]), size = Dims(info[1]);
    return AffineGridShape(theta.data(), theta.size(), size.data(), size.size(), shape);
  });
}

// (theta, type, thetaDims, size, grid, gridDims, alignCorners) → the StatusCode.
Napi::Value AffineGridJs(const Napi::CallbackInfo& info) {
  const int code = Guarded([&] {
    const std::vector<int64_t> theta = Dims(info[2]), size = Dims(info[3]), grid = Dims(info[5]);
    const DType type = static_cast<DType>(IntOf(info[1]));
    AffineGridOptions options;
    options.align_corners = info[6].As<Napi::Boolean>().Value();
    return AffineGrid(TensorView{type, DataOf(info[0]), theta.data(), theta.size()}, size.data(),
                      size.size(),
                      MutableTensorView{type, DataOf(info[4]), grid.data(), grid.size()}, options);
  });
  return Napi::Number::New(info.Env(), code);
}

Napi::Value LastMessageJs(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), last_message);
}

Napi::Value HardwareThreadsJs(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(HardwareThreads()));
}

// The SIMD target Highway dispatches the kernels to on this CPU ("AVX3", "NEON", "SVE2", ...),
// for the package's tests: that a cross-built addon runs the target its emulated CPU has.
Napi::Value KernelTargetJs(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), KernelTargetName());
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  Napi::Object codes = Napi::Object::New(env);
  codes.Set("kOk", static_cast<double>(StatusCode::kOk));
  codes.Set("kInvalidArgument", static_cast<double>(StatusCode::kInvalidArgument));
  codes.Set("kTypeMismatch", static_cast<double>(StatusCode::kTypeMismatch));
  codes.Set("kUnsupported", static_cast<double>(StatusCode::kUnsupported));
  codes.Set("kOutOfRange", static_cast<double>(StatusCode::kOutOfRange));
  exports.Set("StatusCode", codes);
  exports.Set("version", Napi::Function::New(env, VersionJs));
  exports.Set("dtypes", Napi::Function::New(env, DTypesJs));
  exports.Set("parseMode", Napi::Function::New(env, ParseJs<Mode, &ParseMode>));
  exports.Set("parsePadding", Napi::Function::New(env, ParseJs<Padding, &ParsePadding>));
  exports.Set("parseLayout", Napi::Function::New(env, ParseJs<Layout, &ParseLayout>));
  exports.Set("outputShape", Napi::Function::New(env, OutputShapeJs));
  exports.Set("gridSample", Napi::Function::New(env, GridSampleJs));
  exports.Set("gridSampleStrings", Napi::Function::New(env, GridSampleStringsJs));
  exports.Set("affineGridShape", Napi::Function::New(env, AffineGridShapeJs));
  exports.Set("affineGrid", Napi::Function::New(env, AffineGridJs));
  exports.Set("lastMessage", Napi::Function::New(env, LastMessageJs));
  exports.Set("hardwareThreads", Napi::Function::New(env, HardwareThreadsJs));
  exports.Set("kernelTarget", Napi::Function::New(env, KernelTargetJs));
  return exports;
}

}  // namespace
}  // namespace gridsample

// NODE_API_MODULE names its function by pasting, so it takes an unqualified one.
static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) {
  return gridsample::Init(env, exports);
}
NODE_API_MODULE(gridsample, InitAddon)
