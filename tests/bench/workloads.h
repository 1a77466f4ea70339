// The benchmark workloads, defined once: the C++ benchmark runs them, and gridsample_workloads
// prints them as JSON (and writes their data) for the JavaScript side, which never restates
// them. Inputs are drawn from a fixed-seed generator with no library behind it, so every build
// (native or WebAssembly, any standard library) gets the same bytes.
#ifndef GRIDSAMPLE_TESTS_BENCH_WORKLOADS_H_
#define GRIDSAMPLE_TESTS_BENCH_WORKLOADS_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "convert.h"
#include "gridsample/gridsample.h"

namespace gridsample {
namespace bench {

// How a workload's grid is made.
enum class GridKind {
  kUniform,  // every coordinate uniform in [-scale, scale)
  kAffine,   // 2-D only: the identity grid rotated by `degrees` and zoomed by `scale`
};

struct Workload {
  const char* id;
  DType x_dtype;
  std::vector<int64_t> x_shape;     // (N, C, D1..Dr), or (N, D1..Dr, C) channels-last
  std::vector<int64_t> grid_shape;  // (N, D1_out..Dr_out, r); the grid is float32
  Mode mode;
  Padding padding;
  bool align_corners;
  GridKind grid_kind;
  double scale;    // kUniform: half-width of the range; kAffine: zoom
  double degrees;  // kAffine: rotation
  // Seeds the grid; X uses seed + 1. Workloads that share a seed and shape share their data.
  uint64_t seed;
  Layout layout = Layout::kChannelsFirst;  // of X and Y
};

// The table. Each row states only its own settings; W7 and W9 reuse W2's and W1's grids by
// sharing their grid settings and seed, and W10, the image workload (a canvas's RGBA bytes as
// they come), W2's too.
inline const std::vector<Workload>& Workloads() {
  using D = DType;
  using M = Mode;
  using P = Padding;
  using G = GridKind;
  static const std::vector<Workload> kWorkloads = {
      {"W0",
       D::kFloat32,
       {1, 1, 4, 4},
       {1, 4, 4, 2},
       M::kLinear,
       P::kZeros,
       false,
       G::kUniform,
       1.0,
       0,
       100},
      {"W1",
       D::kFloat32,
       {1, 32, 128, 128},
       {1, 128, 128, 2},
       M::kLinear,
       P::kZeros,
       false,
       G::kUniform,
       1.1,
       0,
       101},
      {"W2",
       D::kFloat32,
       {1, 3, 1024, 1024},
       {1, 1024, 1024, 2},
       M::kLinear,
       P::kBorder,
       false,
       G::kAffine,
       0.9,
       10,
       102},
      {"W3",
       D::kFloat32,
       {4, 16, 64, 64},
       {4, 64, 64, 2},
       M::kCubic,
       P::kReflection,
       true,
       G::kUniform,
       1.2,
       0,
       103},
      {"W4",
       D::kFloat32,
       {1, 8, 32, 32, 32},
       {1, 32, 32, 32, 3},
       M::kLinear,
       P::kZeros,
       false,
       G::kUniform,
       1.1,
       0,
       104},
      {"W5",
       D::kFloat32,
       {1, 64, 96, 96},
       {1, 96, 96, 2},
       M::kNearest,
       P::kBorder,
       false,
       G::kUniform,
       1.1,
       0,
       105},
      {"W6",
       D::kFloat32,
       {1, 256, 32, 32},
       {1, 64, 64, 2},
       M::kLinear,
       P::kZeros,
       false,
       G::kUniform,
       1.0,
       0,
       106},
      {"W7",
       D::kUInt8,
       {1, 3, 1024, 1024},
       {1, 1024, 1024, 2},
       M::kLinear,
       P::kBorder,
       false,
       G::kAffine,
       0.9,
       10,
       102},
      {"W8",
       D::kFloat32,
       {1, 4, 32, 32, 32},
       {1, 32, 32, 32, 3},
       M::kCubic,
       P::kZeros,
       false,
       G::kUniform,
       1.1,
       0,
       108},
      {"W9",
       D::kFloat16,
       {1, 32, 128, 128},
       {1, 128, 128, 2},
       M::kLinear,
       P::kZeros,
       false,
       G::kUniform,
       1.1,
       0,
       101},
      {"W10",
       D::kUInt8,
       {1, 1024, 1024, 4},
       {1, 1024, 1024, 2},
       M::kLinear,
       P::kBorder,
       false,
       G::kAffine,
       0.9,
       10,
       102,
       Layout::kChannelsLast},
  };
  return kWorkloads;
}

inline std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s;
  for (int64_t extent : shape) s += (s.empty() ? "" : "x") + std::to_string(extent);
  return s;
}

inline std::vector<int64_t> OutputShapeOf(const Workload& w) {
  const bool last = w.layout == Layout::kChannelsLast;
  std::vector<int64_t> y_shape = {w.x_shape[0]};
  if (!last) y_shape.push_back(w.x_shape[1]);
  y_shape.insert(y_shape.end(), w.grid_shape.begin() + 1, w.grid_shape.end() - 1);
  if (last) y_shape.push_back(w.x_shape.back());
  return y_shape;
}

inline int64_t ElementCount(const std::vector<int64_t>& shape) {
  int64_t count = 1;
  for (int64_t extent : shape) count *= extent;
  return count;
}

// "±1.1" or "rotate 10°, zoom 0.9".
inline std::string GridDescription(const Workload& w) {
  char text[64];
  if (w.grid_kind == GridKind::kAffine) {
    std::snprintf(text, sizeof(text), "rotate %g°, zoom %g", w.degrees, w.scale);
  } else {
    std::snprintf(text, sizeof(text), "±%g", w.scale);
  }
  return text;
}

// One line for tables: "float32 1x3x1024x1024, grid 1x1024x1024x2 (rotate 10°, zoom 0.9),
// linear/border/ac0"; "uint8 1x1024x1024x4 channels-last, ..." in that layout.
inline std::string Description(const Workload& w) {
  return std::string(DTypeName(w.x_dtype)) + " " + ShapeString(w.x_shape) +
         (w.layout == Layout::kChannelsLast ? " channels-last" : "") + ", grid " +
         ShapeString(w.grid_shape) + " (" + GridDescription(w) + "), " + ModeName(w.mode) + "/" +
         PaddingName(w.padding) + "/ac" + (w.align_corners ? "1" : "0");
}

// SplitMix64: tiny, and fully specified, unlike <random>'s distributions.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi), from 24 random bits (exact in float32).
  float Uniform(float lo, float hi) {
    const float unit = static_cast<float>(Next() >> 40) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * unit;
  }

 private:
  uint64_t state_;
};

// The grid, float32, in the grid's row-major layout.
inline std::vector<float> MakeGrid(const Workload& w) {
  const size_t r = w.grid_shape.size() - 2;
  std::vector<float> grid(static_cast<size_t>(ElementCount(w.grid_shape)));
  if (w.grid_kind == GridKind::kUniform) {
    Rng rng(w.seed);
    const float s = static_cast<float>(w.scale);
    for (float& v : grid) v = rng.Uniform(-s, s);
    return grid;
  }
  // kAffine (r == 2): the normalised centre of every output pixel (align_corners = 0 spacing),
  // rotated and zoomed; grid[..., 0] is the width coordinate.
  const int64_t n = w.grid_shape[0], h = w.grid_shape[1], wd = w.grid_shape[2];
  const double radians = w.degrees * 3.14159265358979323846 / 180.0;
  const double c = w.scale * std::cos(radians), s = w.scale * std::sin(radians);
  size_t i = 0;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t row = 0; row < h; ++row) {
      const double yn = (2.0 * static_cast<double>(row) + 1.0) / static_cast<double>(h) - 1.0;
      for (int64_t col = 0; col < wd; ++col, i += r) {
        const double xn = (2.0 * static_cast<double>(col) + 1.0) / static_cast<double>(wd) - 1.0;
        grid[i] = static_cast<float>(c * xn - s * yn);
        grid[i + 1] = static_cast<float>(s * xn + c * yn);
      }
    }
  }
  return grid;
}

// X as raw bytes of its dtype: floats uniform in [-1, 1), integers over their whole range
// (only the dtypes the table uses are filled; others stay zero).
inline std::vector<unsigned char> MakeInput(const Workload& w) {
  const size_t count = static_cast<size_t>(ElementCount(w.x_shape));
  std::vector<unsigned char> bytes(count * DTypeSize(w.x_dtype));
  Rng rng(w.seed + 1);
  for (size_t i = 0; i < count; ++i) {
    switch (w.x_dtype) {
      case DType::kFloat32: {
        const float v = rng.Uniform(-1.0f, 1.0f);
        std::memcpy(&bytes[i * sizeof(v)], &v, sizeof(v));
        break;
      }
      case DType::kFloat16: {
        const uint16_t v = F16BitsFromF32(rng.Uniform(-1.0f, 1.0f));
        std::memcpy(&bytes[i * sizeof(v)], &v, sizeof(v));
        break;
      }
      case DType::kUInt8:
        bytes[i] = static_cast<unsigned char>(rng.Next() >> 56);
        break;
      default:
        break;
    }
  }
  return bytes;
}

inline Options OptionsOf(const Workload& w, int num_threads) {
  Options options;
  options.mode = w.mode;
  options.padding = w.padding;
  options.align_corners = w.align_corners;
  options.num_threads = num_threads;
  options.layout = w.layout;
  return options;
}

// A workload's tensors, built once and reused by every run.
struct Tensors {
  std::vector<unsigned char> x;
  std::vector<float> grid;
  std::vector<unsigned char> y;
  std::vector<int64_t> y_shape;

  explicit Tensors(const Workload& w)
      : x(MakeInput(w)), grid(MakeGrid(w)), y_shape(OutputShapeOf(w)) {
    y.resize(static_cast<size_t>(ElementCount(y_shape)) * DTypeSize(w.x_dtype));
  }

  Status Run(const Workload& w, int num_threads) {
    return GridSample(
        TensorView{w.x_dtype, x.data(), w.x_shape.data(), w.x_shape.size()},
        TensorView{DType::kFloat32, grid.data(), w.grid_shape.data(), w.grid_shape.size()},
        MutableTensorView{w.x_dtype, y.data(), y_shape.data(), y_shape.size()},
        OptionsOf(w, num_threads));
  }
};

}  // namespace bench
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_BENCH_WORKLOADS_H_
