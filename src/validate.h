// Argument validation, done once at the operator layer; everything after it (plan, kernels,
// reference) assumes the Problem it returns and checks nothing.
#ifndef GRIDSAMPLE_SRC_VALIDATE_H_
#define GRIDSAMPLE_SRC_VALIDATE_H_

#include <cstdint>
#include <vector>

#include "gridsample/gridsample.h"

namespace gridsample {

// The validated geometry of one call.
struct Problem {
  Layout layout = Layout::kChannelsFirst;  // of X and Y
  size_t rank = 0;                         // r, the number of spatial axes
  int64_t batch = 0;                       // N
  int64_t channels = 0;                    // C
  std::vector<int64_t> in;                 // D1..Dr
  std::vector<int64_t> out;                // D1_out..Dr_out
  std::vector<int64_t> stride;             // pixel stride of each input spatial axis (innermost 1)
  int64_t in_plane = 0;                    // product of `in`
  int64_t out_plane = 0;                   // product of `out`
  int64_t x_count = 0;                     // N * C * in_plane
  int64_t grid_count = 0;                  // N * out_plane * r
  std::vector<int64_t> y_shape;            // (N, C, D1_out..Dr_out) or (N, D1_out..Dr_out, C)
  int64_t y_count = 0;                     // N * C * out_plane
};

// Linear and cubic read taps^r input elements per output element (2 or 4 taps per axis, r
// spatial axes); calls needing more than this many are refused as kUnsupported.
inline constexpr int64_t kMaxTapCombinations = 16384;

// Checks everything GridSample's contract requires of its arguments and fills *problem.
Status Validate(const TensorView& x, const TensorView& grid, const MutableTensorView& y,
                const Options& options, Problem* problem);

// The validated geometry of one AffineGrid call.
struct AffineProblem {
  size_t rank = 0;                  // r: 2 (size is N, C, H, W) or 3 (N, C, D, H, W)
  int64_t batch = 0;                // N
  std::vector<int64_t> out;         // the r spatial extents of size: (H, W) or (D, H, W)
  std::vector<int64_t> grid_shape;  // (N, H, W, 2) or (N, D, H, W, 3)
  int64_t theta_count = 0;          // N * r * (r + 1)
  int64_t grid_count = 0;           // N * product of `out` * r
};

// AffineGridShape's checks: theta's shape against `size` (its length and values); fills
// *problem.
Status CheckAffineShapes(const int64_t* theta_shape, size_t theta_rank, const int64_t* size,
                         size_t size_length, AffineProblem* problem);

// Checks everything AffineGrid's contract requires of its arguments and fills *problem.
Status ValidateAffineGrid(const TensorView& theta, const int64_t* size, size_t size_length,
                          const MutableTensorView& grid, AffineProblem* problem);

}  // namespace gridsample

#endif  // GRIDSAMPLE_SRC_VALIDATE_H_
