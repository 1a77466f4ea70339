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
  // Any rank: the identity warp (each output location on its own place in X, as
  // align_corners spaces them) moved by a smooth displacement of up to `scale` input pixels on
  // each axis, as an optical flow, a page's unwarping map or a motion field moves it.
  kFlow,
  // (N, Q, P, 2), deformable attention's sampling locations: query q's reference point is the
  // centre of X's pixel q * max(1, pixels / Q) (mod pixels), so an encoder's every-pixel queries
  // sweep the level in raster order and a decoder's few hundred spread over it, and each of its
  // P points lies uniformly within `scale` pixels of it on each axis.
  kQueries,
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
  // Where a real model's workload comes from (its code's call and the shapes it gives), or
  // empty for the synthetic ones.
  const char* source = "";
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
      // Real models' calls, each row's source its code's call and the shapes it gives.
      {"R1",
       D::kFloat32,
       {8, 32, 80, 80},
       {8, 8500, 4, 2},
       M::kLinear,
       P::kZeros,
       false,
       G::kQueries,
       4.0,
       0,
       201,
       Layout::kChannelsFirst,
       "Deformable-DETR encoder, 80² level: ms_deform_attn_core_pytorch (models/ops/functions/"
       "ms_deform_attn_func.py) samples value (N·8 heads, 32, H, W) per level at (N·8, Lq, 4 "
       "points, 2); a 640² image's levels 80², 40², 20², 10² make Lq = 8500 queries"},
      {"R2",
       D::kFloat32,
       {8, 32, 40, 40},
       {8, 8500, 4, 2},
       M::kLinear,
       P::kZeros,
       false,
       G::kQueries,
       4.0,
       0,
       202,
       Layout::kChannelsFirst,
       "Deformable-DETR encoder, 40² level: as R1, the next level"},
      {"R3",
       D::kFloat32,
       {8, 32, 80, 80},
       {8, 300, 4, 2},
       M::kLinear,
       P::kZeros,
       false,
       G::kQueries,
       4.0,
       0,
       203,
       Layout::kChannelsFirst,
       "RT-DETR decoder, 80² level: deformable_attention_core_func (src/zoo/rtdetr/"
       "rtdetr_decoder.py), 300 queries × 4 points, 8 heads of 32 channels, a 640² image"},
      {"R4",
       D::kFloat32,
       {22, 4, 16, 64, 64},
       {22, 16, 64, 64, 3},
       M::kLinear,
       P::kZeros,
       false,
       G::kFlow,
       3.0,
       0,
       204,
       Layout::kChannelsFirst,
       "LivePortrait dense motion: create_deformed_feature (src/modules/dense_motion.py) warps "
       "the 4-channel compressed 16×64×64 feature once per keypoint, 21 + 1 volumes"},
      {"R5",
       D::kFloat32,
       {1, 32, 16, 64, 64},
       {1, 16, 64, 64, 3},
       M::kLinear,
       P::kZeros,
       false,
       G::kFlow,
       3.0,
       0,
       205,
       Layout::kChannelsFirst,
       "LivePortrait warping: WarpingNetwork (src/modules/warping_network.py) warps the "
       "32-channel 16×64×64 appearance feature by the dense motion"},
      {"R6",
       D::kFloat32,
       {1, 256, 96, 128},
       {1, 1, 1024, 2},
       M::kLinear,
       P::kZeros,
       true,
       G::kUniform,
       1.0,
       0,
       206,
       Layout::kChannelsFirst,
       "LightGlue's SuperPoint: sample_descriptors (lightglue/superpoint.py) samples the "
       "256-channel descriptors of a 1024×768 image (1/8 scale) at 1024 keypoints"},
      {"R7",
       D::kFloat32,
       {1, 3, 720, 1280},
       {1, 720, 1280, 2},
       M::kLinear,
       P::kZeros,
       true,
       G::kFlow,
       8.0,
       0,
       207,
       Layout::kChannelsFirst,
       "720p frame warped by its optical flow: flow_warp of BasicVSR (mmagic) and RAFT's "
       "bilinear_sampler, zeros, align_corners"},
      {"R8",
       D::kUInt8,
       {1, 3, 720, 1280},
       {1, 720, 1280, 2},
       M::kLinear,
       P::kBorder,
       true,
       G::kFlow,
       8.0,
       0,
       207,
       Layout::kChannelsFirst,
       "R7's warp on a decoded frame's bytes, border padding as DCVC's flow_warp "
       "(src/models/video_net.py) pads"},
      {"R9",
       D::kFloat32,
       {1, 3, 1280, 960},
       {1, 1280, 960, 2},
       M::kLinear,
       P::kZeros,
       true,
       G::kFlow,
       24.0,
       0,
       209,
       Layout::kChannelsFirst,
       "A photographed page unwarped: DocTr's F.grid_sample(x, bm, align_corners=True) with "
       "its backward map at the photo's 1280×960"},
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

// "±1.1", "rotate 10°, zoom 0.9", "flow ≤ 8 px" or "4 points ≤ 4 px of each query".
inline std::string GridDescription(const Workload& w) {
  char text[64];
  switch (w.grid_kind) {
    case GridKind::kUniform:
      std::snprintf(text, sizeof(text), "±%g", w.scale);
      break;
    case GridKind::kAffine:
      std::snprintf(text, sizeof(text), "rotate %g°, zoom %g", w.degrees, w.scale);
      break;
    case GridKind::kFlow:
      std::snprintf(text, sizeof(text), "flow ≤ %g px", w.scale);
      break;
    case GridKind::kQueries:
      std::snprintf(text, sizeof(text), "%lld points ≤ %g px of each query",
                    static_cast<long long>(w.grid_shape[2]), w.scale);
      break;
  }
  return text;
}

// The name of a grid kind, as workloads.json gives it.
inline const char* GridKindName(GridKind kind) {
  switch (kind) {
    case GridKind::kUniform:
      return "uniform";
    case GridKind::kAffine:
      return "affine";
    case GridKind::kFlow:
      return "flow";
    case GridKind::kQueries:
      return "queries";
  }
  return "?";
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

// A normalised coordinate's extent in pixels: 2 / (size - 1) per pixel with align_corners,
// 2 / size without (a size-1 axis with align_corners has every coordinate on its one pixel).
inline double PixelsToNormalised(int64_t size, bool align_corners) {
  const int64_t span = align_corners ? size - 1 : size;
  return span > 0 ? 2.0 / static_cast<double>(span) : 0.0;
}

// kFlow: the output location's own place, normalised as align_corners has it, plus a
// displacement of each axis a: scale * sin(2π (u · f) + a + phase) pixels, u the location's
// place in [0, 1) per axis and f fixed low frequencies, so the field turns smoothly across
// the image (about one wave along it), as flows and unwarping maps do.
inline std::vector<float> MakeFlowGrid(const Workload& w) {
  const size_t r = w.grid_shape.size() - 2;
  const double kFrequencies[] = {1.3, 0.9, 0.7, 0.5};
  const double kTwoPi = 6.283185307179586;
  const double phase = static_cast<double>(w.seed % 97) * 0.1;
  std::vector<float> grid(static_cast<size_t>(ElementCount(w.grid_shape)));
  std::vector<int64_t> index(r, 0);  // the location's index per grid axis, D1_out first
  for (size_t i = 0; i < grid.size(); i += r) {
    double wave = 0;
    for (size_t k = 0; k < r; ++k) {
      const int64_t size = w.grid_shape[1 + k];
      wave += kFrequencies[k % 4] * static_cast<double>(index[k]) / static_cast<double>(size);
    }
    // Coordinate a (0 = innermost, the width) belongs to grid axis r - 1 - a and X axis 2 + that.
    for (size_t a = 0; a < r; ++a) {
      const size_t axis = r - 1 - a;
      const int64_t out_size = w.grid_shape[1 + axis], in_size = w.x_shape[2 + axis];
      const double place =
          w.align_corners
              ? (out_size > 1 ? static_cast<double>(index[axis]) / static_cast<double>(out_size - 1)
                              : 0.5) *
                        2.0 -
                    1.0
              : (2.0 * static_cast<double>(index[axis]) + 1.0) / static_cast<double>(out_size) -
                    1.0;
      const double shift = w.scale * std::sin(kTwoPi * wave + static_cast<double>(a) + phase);
      grid[i + a] =
          static_cast<float>(place + shift * PixelsToNormalised(in_size, w.align_corners));
    }
    for (size_t k = r; k-- > 0;) {  // the next location, the last axis fastest
      if (++index[k] < w.grid_shape[1 + k]) break;
      index[k] = 0;
    }
  }
  return grid;
}

// kQueries: see GridKind. X is (N, C, H, W) and the grid (N, Q, P, 2).
inline std::vector<float> MakeQueriesGrid(const Workload& w) {
  const int64_t n = w.grid_shape[0], queries = w.grid_shape[1], points = w.grid_shape[2];
  const int64_t h = w.x_shape[2], wd = w.x_shape[3], pixels = h * wd;
  const int64_t step = queries < pixels ? pixels / queries : 1;
  const double to_x = PixelsToNormalised(wd, w.align_corners);
  const double to_y = PixelsToNormalised(h, w.align_corners);
  const float s = static_cast<float>(w.scale);
  Rng rng(w.seed);
  std::vector<float> grid(static_cast<size_t>(ElementCount(w.grid_shape)));
  size_t i = 0;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t q = 0; q < queries; ++q) {
      const int64_t pixel = q * step % pixels;
      const double cx = static_cast<double>(pixel % wd) + 0.5;  // in pixels from X's edge
      const double cy = static_cast<double>(pixel / wd) + 0.5;
      for (int64_t p = 0; p < points; ++p, i += 2) {
        const double x = cx + rng.Uniform(-s, s), y = cy + rng.Uniform(-s, s);
        // The pixel-edge coordinate x back to the grid's: align_corners puts pixel centres on
        // -1 and 1, without it pixel edges.
        grid[i] = static_cast<float>((w.align_corners ? x - 0.5 : x) * to_x - 1.0);
        grid[i + 1] = static_cast<float>((w.align_corners ? y - 0.5 : y) * to_y - 1.0);
      }
    }
  }
  return grid;
}

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
  if (w.grid_kind == GridKind::kFlow) return MakeFlowGrid(w);
  if (w.grid_kind == GridKind::kQueries) return MakeQueriesGrid(w);
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
