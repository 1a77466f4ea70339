// Checks an installed gridsample: computes the first example of the ONNX GridSample spec
// (opset 16, "gridsample": bilinear, zeros, align_corners=0) through the public header and
// compares it with the spec's Y. Exits nonzero on any mismatch.
#include <gridsample/gridsample.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  // X: 1x1x4x4 holding 0..15.
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);

  // Grid: 1x6x6x2, (x, y) pairs; both axes step through these values.
  const float kSteps[6] = {-1.0f, -0.6f, -0.2f, 0.2f, 0.6f, 1.0f};
  std::vector<float> grid;
  for (float y : kSteps) {
    for (float x_coord : kSteps) {
      grid.push_back(x_coord);
      grid.push_back(y);
    }
  }

  const float kExpected[36] = {0.0f, 0.15f, 0.55f, 0.95f, 1.35f, 0.75f,  //
                               0.6f, 1.5f,  2.3f,  3.1f,  3.9f,  2.1f,   //
                               2.2f, 4.7f,  5.5f,  6.3f,  7.1f,  3.7f,   //
                               3.8f, 7.9f,  8.7f,  9.5f,  10.3f, 5.3f,   //
                               5.4f, 11.1f, 11.9f, 12.7f, 13.5f, 6.9f,   //
                               3.0f, 6.15f, 6.55f, 6.95f, 7.35f, 3.75f};

  gridsample::Options options;
  options.mode = gridsample::Mode::kLinear;
  options.padding = gridsample::Padding::kZeros;
  options.align_corners = false;

  std::vector<int64_t> y_shape;
  std::vector<float> y;
  const gridsample::Status status = gridsample::GridSample(x.data(), {1, 1, 4, 4}, grid.data(),
                                                           {1, 6, 6, 2}, &y_shape, &y, options);
  if (!status.ok()) {
    std::fprintf(stderr, "find_package test: GridSample failed: %s\n", status.message().c_str());
    return 1;
  }
  if (y_shape != std::vector<int64_t>{1, 1, 6, 6} || y.size() != 36) {
    std::fprintf(stderr, "find_package test: Y has the wrong shape (%zu elements)\n", y.size());
    return 1;
  }
  int mismatches = 0;
  for (int i = 0; i < 36; ++i) {
    if (!(std::fabs(y[i] - kExpected[i]) <= 1e-4f)) {
      std::fprintf(stderr, "find_package test: Y[%d][%d] = %g, expected %g\n", i / 6, i % 6, y[i],
                   kExpected[i]);
      ++mismatches;
    }
  }
  if (mismatches != 0) return 1;
  std::printf("find_package test: the spec's example matches (36 values within 1e-4)\n");
  return 0;
}
