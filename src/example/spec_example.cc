// The first example of the ONNX GridSample spec (opset 16, "gridsample"), computed through the
// public API: a 4x4 image holding 0..15, sampled bilinearly at a 6x6 grid of points spread
// evenly over [-1, 1] x [-1, 1], with zeros padding and align_corners=0.
//
// Build and run it with `npm start` (or scripts/start.sh).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gridsample/gridsample.h"

int main() {
  // X has shape (N, C, H, W) = (1, 1, 4, 4).
  const std::vector<int64_t> x_shape = {1, 1, 4, 4};
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);

  // The grid has shape (N, H_out, W_out, 2) = (1, 6, 6, 2). Each entry is an (x, y) pair in
  // [-1, 1]: x picks the column (width), y the row (height); -1 and 1 are the outer edges of
  // the image when align_corners is false.
  const std::vector<int64_t> grid_shape = {1, 6, 6, 2};
  const float kSteps[6] = {-1.0f, -0.6f, -0.2f, 0.2f, 0.6f, 1.0f};
  std::vector<float> grid;
  for (float y : kSteps) {
    for (float x_coord : kSteps) {
      grid.push_back(x_coord);
      grid.push_back(y);
    }
  }

  // The ONNX attributes: mode="bilinear", padding_mode="zeros", align_corners=0.
  gridsample::Options options;
  options.mode = gridsample::Mode::kLinear;
  options.padding = gridsample::Padding::kZeros;
  options.align_corners = false;

  // Y gets shape (N, C, H_out, W_out) = (1, 1, 6, 6).
  std::vector<int64_t> y_shape;
  std::vector<float> y;
  const gridsample::Status status =
      gridsample::GridSample(x.data(), x_shape, grid.data(), grid_shape, &y_shape, &y, options);
  if (!status.ok()) {
    std::fprintf(stderr, "GridSample failed: %s\n", status.message().c_str());
    return 1;
  }

  std::printf("X (1x1x4x4):\n");
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) std::printf("%7.2f", x[row * 4 + col]);
    std::printf("\n");
  }
  std::printf("\ngrid (1x6x6x2): grid[0][i][j] = (x = s[j], y = s[i]) with s =");
  for (float step : kSteps) std::printf(" %.1f", step);
  std::printf("\n");
  std::printf("\nY (%lldx%lldx%lldx%lld), bilinear, zeros padding, align_corners=0:\n",
              static_cast<long long>(y_shape[0]), static_cast<long long>(y_shape[1]),
              static_cast<long long>(y_shape[2]), static_cast<long long>(y_shape[3]));
  for (int row = 0; row < 6; ++row) {
    for (int col = 0; col < 6; ++col) std::printf("%7.2f", y[row * 6 + col]);
    std::printf("\n");
  }
  return 0;
}
