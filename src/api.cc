// The public entry points: the version, names, parsing, and GridSample = validate → sampler.
#include <string>
#include <string_view>
#include <vector>

#include "convert.h"
#include "gridsample/gridsample.h"
#include "sampler.h"
#include "validate.h"

namespace gridsample {

const char* Version() { return GRIDSAMPLE_VERSION_STRING; }

const char* DTypeName(DType dtype) {
  switch (dtype) {
#define GRIDSAMPLE_DTYPE(Enum, name, ...) \
  case DType::k##Enum:                    \
    return name;
#include "gridsample/dtypes.inc"
  }
  return "unknown";
}

size_t DTypeSize(DType dtype) {
  switch (dtype) {
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, ...) \
  case DType::k##Enum:                             \
    return sizeof(Storage);
#include "gridsample/dtypes.inc"
  }
  return 0;
}

namespace {

// "a, b or c": the names an error message expects.
std::string OneOf(const std::vector<std::string>& names) {
  std::string text = names[0];
  for (size_t i = 1; i < names.size(); ++i) {
    text += (i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return text;
}

}  // namespace

const char* ModeName(Mode mode) {
  switch (mode) {
#define GRIDSAMPLE_MODE(Enum, name, alias, taps) \
  case Mode::k##Enum:                            \
    return name;
#include "gridsample/modes.inc"
  }
  return "unknown";
}

const char* PaddingName(Padding padding) {
  switch (padding) {
#define GRIDSAMPLE_PADDING(Enum, name) \
  case Padding::k##Enum:               \
    return name;
#include "gridsample/paddings.inc"
  }
  return "unknown";
}

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kChannelsFirst:
      return "channels-first";
    case Layout::kChannelsLast:
      return "channels-last";
  }
  return "unknown";
}

Status ParseDType(std::string_view name, DType* dtype) {
#define GRIDSAMPLE_DTYPE(Enum, spelling, ...) \
  if (name == spelling) {                     \
    *dtype = DType::k##Enum;                  \
    return Status::Ok();                      \
  }
#include "gridsample/dtypes.inc"
  std::string known;
#define GRIDSAMPLE_DTYPE(Enum, spelling, ...) \
  known += known.empty() ? spelling : std::string(", ") + spelling;
#include "gridsample/dtypes.inc"
  return Status(StatusCode::kInvalidArgument,
                "dtype: unknown name \"" + std::string(name) + "\"; expected one of " + known);
}

Status ParseMode(std::string_view onnx_name, Mode* mode) {
#define GRIDSAMPLE_MODE(Enum, name, alias, taps)                     \
  if (onnx_name == name || (*alias != '\0' && onnx_name == alias)) { \
    *mode = Mode::k##Enum;                                           \
    return Status::Ok();                                             \
  }
#include "gridsample/modes.inc"
  // "expected linear, nearest, cubic, bilinear or bicubic": the names, then the aliases.
  std::vector<std::string> known;
#define GRIDSAMPLE_MODE(Enum, name, alias, taps) known.push_back(name);
#include "gridsample/modes.inc"
#define GRIDSAMPLE_MODE(Enum, name, alias, taps) \
  if (*alias != '\0') known.push_back(alias);
#include "gridsample/modes.inc"
  return Status(StatusCode::kInvalidArgument,
                "mode: unknown value \"" + std::string(onnx_name) + "\"; expected " + OneOf(known));
}

Status ParsePadding(std::string_view onnx_name, Padding* padding) {
#define GRIDSAMPLE_PADDING(Enum, name) \
  if (onnx_name == name) {             \
    *padding = Padding::k##Enum;       \
    return Status::Ok();               \
  }
#include "gridsample/paddings.inc"
  std::vector<std::string> known;
#define GRIDSAMPLE_PADDING(Enum, name) known.push_back(name);
#include "gridsample/paddings.inc"
  return Status(
      StatusCode::kInvalidArgument,
      "padding_mode: unknown value \"" + std::string(onnx_name) + "\"; expected " + OneOf(known));
}

Status ParseLayout(std::string_view name, Layout* layout) {
  for (Layout known : {Layout::kChannelsFirst, Layout::kChannelsLast}) {
    if (name == LayoutName(known)) {
      *layout = known;
      return Status::Ok();
    }
  }
  return Status(StatusCode::kInvalidArgument, "layout: unknown value \"" + std::string(name) +
                                                  "\"; expected channels-first or channels-last");
}

Status GridSample(const TensorView& x, const TensorView& grid, const MutableTensorView& y,
                  const Options& options) {
  Problem problem;
  Status status = Validate(x, grid, y, options, &problem);
  if (!status.ok()) return status;
  return RunSampler(problem, x, grid, y, options);
}

}  // namespace gridsample
