// AffineGrid = validate → one pass over the grid in float64, each value rounded once to the
// grid's dtype (docs/semantics.md, AffineGrid). A plain loop: the op writes its output once and
// the compiler vectorises the inner one, so Highway would add dispatch and no speed.
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

#include "convert.h"
#include "dispatch.h"
#include "gridsample/gridsample.h"
#include "validate.h"

namespace gridsample {
namespace {

// Base coordinate i of an axis of n: the float64 nearest the exact value, from one division of
// integers (exact below 2^53). align_corners: -1 and 1 are the corner pixels' centres, and a
// single pixel sits at -1 as in onnx.reference and ONNX's function body (PyTorch puts it at 0);
// otherwise they are the outer edges, and pixel i's centre is (2i + 1 - n) / n, 0 for n = 1.
double BaseCoordinate(int64_t i, int64_t n, bool align_corners) {
  if (align_corners) {
    if (n == 1) return -1.0;
    return static_cast<double>(2 * i - (n - 1)) / static_cast<double>(n - 1);
  }
  return static_cast<double>(2 * i + 1 - n) / static_cast<double>(n);
}

std::vector<double> BaseCoordinates(int64_t n, bool align_corners) {
  std::vector<double> base(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    base[static_cast<size_t>(i)] = BaseCoordinate(i, n, align_corners);
  }
  return base;
}

// A float64 result in D's storage, rounded once to nearest even.
template <DType D>
typename Traits<D>::Storage RoundOnce(double v) {
  if constexpr (Traits<D>::kConversion == Conversion::kHalf) {
    return F16BitsFromF64(v);
  } else if constexpr (Traits<D>::kConversion == Conversion::kBFloat16) {
    return BF16BitsFromF64(v);
  } else {
    return static_cast<typename Traits<D>::Storage>(v);
  }
}

// Each output value is ((t0 * x + t1 * y) + t2) in 2-D and (((t0 * x + t1 * y) + t2 * z) + t3)
// in 3-D, the order of onnx.reference's matrix product, with no fused multiply-add. The
// products with y and z are taken once per row: the same rounded values as per element.
template <DType D>
void FillAffineGrid(const AffineProblem& p, const TensorView& theta, const MutableTensorView& grid,
                    bool align_corners) {
  using Storage = typename Traits<D>::Storage;
  const Storage* matrices = static_cast<const Storage*>(theta.data);
  Storage* out = static_cast<Storage*>(grid.data);
  const size_t r = p.rank;
  const int64_t depth = r == 3 ? p.out[0] : 1;
  const int64_t height = p.out[r - 2];
  const int64_t width = p.out[r - 1];
  const std::vector<double> xs = BaseCoordinates(width, align_corners);
  const std::vector<double> ys = BaseCoordinates(height, align_corners);
  const std::vector<double> zs = BaseCoordinates(depth, align_corners);
  for (int64_t n = 0; n < p.batch; ++n) {
    double t[3][4];  // row k, column j: exact in float64 for every grid dtype
    for (size_t k = 0; k < r; ++k) {
      for (size_t j = 0; j <= r; ++j) {
        t[k][j] = static_cast<double>(ToCompute<D>(*matrices++));
      }
    }
    for (int64_t d = 0; d < depth; ++d) {
      for (int64_t h = 0; h < height; ++h) {
        const double y = ys[static_cast<size_t>(h)];
        if (r == 2) {
          const double a0 = t[0][1] * y, a1 = t[1][1] * y;
          for (int64_t w = 0; w < width; ++w) {
            const double x = xs[static_cast<size_t>(w)];
            out[2 * w] = RoundOnce<D>((t[0][0] * x + a0) + t[0][2]);
            out[2 * w + 1] = RoundOnce<D>((t[1][0] * x + a1) + t[1][2]);
          }
          out += 2 * width;
        } else {
          const double z = zs[static_cast<size_t>(d)];
          const double a0 = t[0][1] * y, a1 = t[1][1] * y, a2 = t[2][1] * y;
          const double b0 = t[0][2] * z, b1 = t[1][2] * z, b2 = t[2][2] * z;
          for (int64_t w = 0; w < width; ++w) {
            const double x = xs[static_cast<size_t>(w)];
            out[3 * w] = RoundOnce<D>(((t[0][0] * x + a0) + b0) + t[0][3]);
            out[3 * w + 1] = RoundOnce<D>(((t[1][0] * x + a1) + b1) + t[1][3]);
            out[3 * w + 2] = RoundOnce<D>(((t[2][0] * x + a2) + b2) + t[2][3]);
          }
          out += 3 * width;
        }
      }
    }
  }
}

}  // namespace

Status AffineGridShape(const int64_t* theta_shape, size_t theta_rank, const int64_t* size,
                       size_t size_length, std::vector<int64_t>* grid_shape) {
  if (grid_shape == nullptr) {
    return Status(StatusCode::kInvalidArgument, "grid_shape: the output pointer is null");
  }
  AffineProblem problem;
  Status status = CheckAffineShapes(theta_shape, theta_rank, size, size_length, &problem);
  if (!status.ok()) return status;
  *grid_shape = std::move(problem.grid_shape);
  return Status::Ok();
}

Status AffineGrid(const TensorView& theta, const int64_t* size, size_t size_length,
                  const MutableTensorView& grid, const AffineGridOptions& options) {
  AffineProblem problem;
  Status status = ValidateAffineGrid(theta, size, size_length, grid, &problem);
  if (!status.ok()) return status;
  // An empty grid may still have a huge axis (size [0, 1, 1, 2^62]): nothing to allocate.
  if (problem.grid_count == 0) return Status::Ok();
  try {
    VisitGridDType(theta.dtype, [&](auto dtype) {
      FillAffineGrid<decltype(dtype)::value>(problem, theta, grid, options.align_corners);
    });
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfRange, "grid: out of memory for the base coordinates");
  }
  return Status::Ok();
}

}  // namespace gridsample
