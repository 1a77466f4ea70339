// Every example of the ONNX GridSample-16 specification (shared/spec/
// onnx-gridsample-16-with-examples.rst), typed in by hand, through GridSample and
// ReferenceGridSample under both spellings of its mode: opset 16's bilinear/bicubic and opset
// 20's linear/cubic.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "gridsample/gridsample.h"
#include "tests/any_tensor.h"
#include "tests/golden_check.h"
#include "tests/golden_file.h"

namespace gridsample {
namespace test {
namespace {

// The spec prints Y with 4 decimals.
constexpr Tolerance kSpecTolerance = {1e-4, 0.0};
constexpr char kSpecFile[] = "onnx-gridsample-16-with-examples.rst";

// ---------------------------------------------------------------------------------------------
// gridsample: X (1, 1, 4, 4), grid (1, 6, 6, 2), Y (1, 1, 6, 6); bilinear, zeros, align 0.

constexpr float kX4x4[] = {
    0.f,  1.f,  2.f,  3.f,   //
    4.f,  5.f,  6.f,  7.f,   //
    8.f,  9.f,  10.f, 11.f,  //
    12.f, 13.f, 14.f, 15.f,
};

constexpr float kGrid6x6[] = {
    -1.0f, -1.0f, -0.6f, -1.0f, -0.2f, -1.0f, 0.2f, -1.0f, 0.6f, -1.0f, 1.0f, -1.0f,  //
    -1.0f, -0.6f, -0.6f, -0.6f, -0.2f, -0.6f, 0.2f, -0.6f, 0.6f, -0.6f, 1.0f, -0.6f,  //
    -1.0f, -0.2f, -0.6f, -0.2f, -0.2f, -0.2f, 0.2f, -0.2f, 0.6f, -0.2f, 1.0f, -0.2f,  //
    -1.0f, 0.2f,  -0.6f, 0.2f,  -0.2f, 0.2f,  0.2f, 0.2f,  0.6f, 0.2f,  1.0f, 0.2f,   //
    -1.0f, 0.6f,  -0.6f, 0.6f,  -0.2f, 0.6f,  0.2f, 0.6f,  0.6f, 0.6f,  1.0f, 0.6f,   //
    -1.0f, 1.0f,  -0.6f, 1.0f,  -0.2f, 1.0f,  0.2f, 1.0f,  0.6f, 1.0f,  1.0f, 1.0f,
};

constexpr float kYGridsample[] = {
    0.0f, 0.15f, 0.55f, 0.95f, 1.35f, 0.75f,  //
    0.6f, 1.5f,  2.3f,  3.1f,  3.9f,  2.1f,   //
    2.2f, 4.7f,  5.5f,  6.3f,  7.1f,  3.7f,   //
    3.8f, 7.9f,  8.7f,  9.5f,  10.3f, 5.3f,   //
    5.4f, 11.1f, 11.9f, 12.7f, 13.5f, 6.9f,   //
    3.0f, 6.15f, 6.55f, 6.95f, 7.35f, 3.75f,
};

// ---------------------------------------------------------------------------------------------
// gridsample_paddingmode: X (1, 1, 3, 2), grid (1, 2, 4, 2), Y (1, 1, 2, 4); bilinear, align 0.

constexpr float kX3x2[] = {
    0.f, 1.f,  //
    2.f, 3.f,  //
    4.f, 5.f,
};

constexpr float kGridPadding[] = {
    -10.0f, -10.0f, -5.0f, -5.0f, -0.2f, -0.2f, 10.0f, 10.0f,  //
    10.0f,  10.0f,  -0.2f, -0.2f, 5.0f,  5.0f,  10.0f, 10.0f,
};

constexpr float kYZeros[] = {
    0.0f, 0.0f, 1.7f, 0.0f,  //
    0.0f, 1.7f, 0.0f, 0.0f,
};

constexpr float kYBorder[] = {
    0.0f, 0.0f, 1.7f, 5.0f,  //
    5.0f, 1.7f, 5.0f, 5.0f,
};

constexpr float kYReflection[] = {
    2.5f, 0.0f, 1.7f, 2.5f,  //
    2.5f, 1.7f, 5.0f, 2.5f,
};

// ---------------------------------------------------------------------------------------------
// gridsample_mode_aligncorners: X (1, 1, 3, 2) as above, grid (1, 2, 4, 2), Y (1, 1, 2, 4);
// zeros padding.

constexpr float kGridModes[] = {
    -1.0f, -1.0f, -0.5f, -0.5f, -0.2f, -0.2f, 0.0f, 0.0f,  //
    0.0f,  0.0f,  -0.2f, -0.2f, 0.5f,  0.5f,  1.0f, 1.0f,
};

constexpr float kYBilinear[] = {
    0.0f, 0.5f, 1.7f, 2.5f,  //
    2.5f, 1.7f, 4.5f, 1.25f,
};

constexpr float kYAlignCorners[] = {
    0.0f, 1.25f, 2.0f,  2.5f,  //
    2.5f, 2.0f,  3.75f, 5.0f,
};

constexpr float kYNearest[] = {
    0.f, 0.f, 2.f, 2.f,  //
    2.f, 2.f, 5.f, 0.f,
};

constexpr float kYBicubic[] = {
    -0.1406f, 0.3828f, 1.7556f, 2.9688f,  //
    2.9688f,  1.7556f, 5.1445f, 1.3906f,
};

// ---------------------------------------------------------------------------------------------

// The typed-in array must fill the shape exactly.
template <size_t kCount>
AnyTensor Float32Tensor(std::vector<int64_t> shape, const float (&values)[kCount]) {
  AnyTensor tensor(DType::kFloat32, std::move(shape));
  REQUIRE(tensor.size() == kCount);
  for (size_t i = 0; i < kCount; ++i) tensor.Set(i, values[i]);
  return tensor;
}

// One example; `mode` is spelled as the spec's node gives it (bilinear is also the opset-16
// default of the nodes that set no mode).
GoldenCase Example(const char* onnx_test, const char* mode, const char* padding, bool align_corners,
                   AnyTensor x, AnyTensor grid, AnyTensor y) {
  GoldenCase c;
  c.name = onnx_test;
  c.where = kSpecFile;
  c.mode = mode;
  c.padding = padding;
  c.align_corners = align_corners;
  c.x = std::move(x);
  c.grid = std::move(grid);
  c.y = std::move(y);
  return c;
}

std::vector<GoldenCase> SpecExamples() {
  const AnyTensor x4x4 = Float32Tensor({1, 1, 4, 4}, kX4x4);
  const AnyTensor x3x2 = Float32Tensor({1, 1, 3, 2}, kX3x2);
  const AnyTensor grid_padding = Float32Tensor({1, 2, 4, 2}, kGridPadding);
  const AnyTensor grid_modes = Float32Tensor({1, 2, 4, 2}, kGridModes);
  const std::vector<int64_t> y2x4 = {1, 1, 2, 4};
  return {
      Example("test_gridsample", "bilinear", "zeros", false, x4x4,
              Float32Tensor({1, 6, 6, 2}, kGrid6x6), Float32Tensor({1, 1, 6, 6}, kYGridsample)),
      Example("test_gridsample_zeros_padding", "bilinear", "zeros", false, x3x2, grid_padding,
              Float32Tensor(y2x4, kYZeros)),
      Example("test_gridsample_border_padding", "bilinear", "border", false, x3x2, grid_padding,
              Float32Tensor(y2x4, kYBorder)),
      Example("test_gridsample_reflection_padding", "bilinear", "reflection", false, x3x2,
              grid_padding, Float32Tensor(y2x4, kYReflection)),
      Example("test_gridsample_bilinear", "bilinear", "zeros", false, x3x2, grid_modes,
              Float32Tensor(y2x4, kYBilinear)),
      Example("test_gridsample_aligncorners_true", "bilinear", "zeros", true, x3x2, grid_modes,
              Float32Tensor(y2x4, kYAlignCorners)),
      Example("test_gridsample_nearest", "nearest", "zeros", false, x3x2, grid_modes,
              Float32Tensor(y2x4, kYNearest)),
      Example("test_gridsample_bicubic", "bicubic", "zeros", false, x3x2, grid_modes,
              Float32Tensor(y2x4, kYBicubic)),
  };
}

// Every spelling of a spec mode: opset 16's name and its opset-20 equivalent.
std::vector<std::string> ModeSpellings(const std::string& spec_mode) {
  if (spec_mode == "bilinear") return {"bilinear", "linear"};
  if (spec_mode == "bicubic") return {"bicubic", "cubic"};
  return {spec_mode};
}

TEST_CASE("ParseMode maps the opset-16 and opset-20 names to the same modes", "[spec]") {
  const std::pair<const char*, Mode> names[] = {
      {"bilinear", Mode::kLinear}, {"linear", Mode::kLinear}, {"nearest", Mode::kNearest},
      {"bicubic", Mode::kCubic},   {"cubic", Mode::kCubic},
  };
  for (const auto& [name, expected] : names) {
    INFO(name);
    Mode mode = expected == Mode::kLinear ? Mode::kCubic : Mode::kLinear;
    REQUIRE(ParseMode(name, &mode).ok());
    CHECK(mode == expected);
  }
}

TEST_CASE("Spec examples give the spec's Y under every spelling of their mode", "[spec]") {
  const std::vector<GoldenCase> examples = SpecExamples();
  REQUIRE(examples.size() == 8);
  Mismatches mismatches;
  for (const GoldenCase& example : examples) {
    for (const std::string& spelling : ModeSpellings(example.mode)) {
      GoldenCase c = example;
      c.name += " with mode=" + spelling;
      c.mode = spelling;
      RunGoldenCase(c, kSpecTolerance, &mismatches);
    }
  }
  INFO(mismatches.Report());
  CHECK(mismatches.count() == 0);
}

}  // namespace
}  // namespace test
}  // namespace gridsample
