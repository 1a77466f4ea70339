// The fast path: plan → kernel → convert, over tiles of output locations.
//
// A tile is up to `tile` output locations of one batch item. Its plan (the integer taps and
// weights of every axis, then their combinations) is computed once and reused by every
// channel, so coordinate math and padding never run per channel. Tiles are the unit of
// parallel work: results do not depend on how they are spread over threads.
#include "sampler.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "convert.h"
#include "coords.h"
#include "dispatch.h"
#include "kernel.h"
#include "thread_pool.h"

namespace gridsample {
namespace {

// Tap combinations held per tile: bounds the plan's memory (about 16 bytes each) so that it
// stays in L2 while all channels reuse it.
constexpr size_t kPlanBudget = 16384;
// Below this many weighted taps a call stays on the calling thread.
constexpr int64_t kParallelThreshold = 1 << 16;

size_t RoundUp(size_t n, size_t block) { return (n + block - 1) / block * block; }

// Scratch of one worker, sized once per call on the calling thread (so that an allocation
// failure is reported, not thrown on a worker) and reused across the worker's tiles. Every
// row is `tile` long, a multiple of kRowBlock, so rows stay aligned for the kernels.
template <typename C>
struct Scratch {
  std::vector<int64_t> axis_offsets;  // [axis][tap][location]
  AlignedRow<C> axis_weights;         // [axis][tap][location]
  std::vector<int64_t> offsets;       // [combination][location]
  AlignedRow<C> weights;              // [combination][location]
  AlignedRow<C> values;               // [location]
  AlignedRow<C> acc;                  // [location]
  std::vector<size_t> pick;           // one tap per axis: the current combination

  void Allocate(size_t rank, size_t taps, size_t combinations, size_t tile) {
    axis_offsets.resize(rank * taps * tile);
    axis_weights = AllocateRow<C>(rank * taps * tile);
    offsets.resize(combinations * tile);
    weights = AllocateRow<C>(combinations * tile);
    values = AllocateRow<C>(tile);
    acc = AllocateRow<C>(tile);
    pick.resize(rank);
  }
};

// The per-call constants every tile needs.
struct Layout {
  const Problem* problem;
  Options options;
  size_t taps;          // per axis
  size_t combinations;  // taps^rank
  size_t tile;          // locations per tile, a multiple of kRowBlock
  int64_t tiles_per_batch;
};

// Plans one tile: the taps of every axis at every location, then (for linear and cubic) the
// weight and offset of every combination of one tap per axis, in odometer order (last axis
// fastest, as the reference sums them).
template <DType GD, typename C>
void PlanTile(const Layout& layout, const void* grid, int64_t n, int64_t l0, size_t count,
              Scratch<C>* s) {
  const Problem& p = *layout.problem;
  const size_t r = p.rank, taps = layout.taps, stride = layout.tile;
  const auto* coords = static_cast<const typename Traits<GD>::Storage*>(grid) +
                       (n * p.out_plane + l0) * static_cast<int64_t>(r);
  for (size_t i = 0; i < count; ++i, coords += r) {
    for (size_t a = 0; a < r; ++a) {
      int64_t offsets[4];
      C weights[4];
      // grid[..., 0] is the innermost axis: spatial axis a reads component r-1-a.
      GridValueTaps(ToCompute<GD>(coords[r - 1 - a]), p.in[a], p.stride[a], layout.options,
                    offsets, weights);
      for (size_t j = 0; j < taps; ++j) {
        s->axis_offsets[(a * taps + j) * stride + i] = offsets[j];
        s->axis_weights[(a * taps + j) * stride + i] = weights[j];
      }
    }
  }
  for (size_t row = 0; row < r * taps; ++row) {  // tails are read by the kernels: keep them 0
    std::fill(&s->axis_weights[row * stride + count], &s->axis_weights[(row + 1) * stride], C(0));
  }

  std::fill(s->pick.begin(), s->pick.end(), 0);
  for (size_t k = 0; k < layout.combinations; ++k) {
    int64_t* offset_row = s->offsets.data() + k * stride;
    C* weight_row = s->weights.get() + k * stride;
    std::fill(offset_row, offset_row + count, 0);
    std::fill(weight_row, weight_row + stride, C(1));
    for (size_t a = 0; a < r; ++a) {
      const size_t row = (a * taps + s->pick[a]) * stride;
      const int64_t* axis_offset = s->axis_offsets.data() + row;
      // A negative tap marker wins over offsets; kNaNTap (the smaller) wins over kZeroTap.
      for (size_t i = 0; i < count; ++i) {
        const int64_t sum = offset_row[i], add = axis_offset[i];
        offset_row[i] = (sum < 0 || add < 0) ? std::min(sum, add) : sum + add;
      }
      if (layout.options.mode != Mode::kNearest) {
        MulRow(weight_row, s->axis_weights.get() + row, weight_row, stride);
      }
    }
    for (size_t a = r; a-- > 0;) {
      if (++s->pick[a] < taps) break;
      s->pick[a] = 0;
    }
  }
}

// Samples every channel of one planned tile.
template <DType XD, typename C>
void SampleTile(const Layout& layout, const void* x, void* y, int64_t n, int64_t l0,
                size_t count, Scratch<C>* s) {
  using XT = Traits<XD>;
  using Storage = typename XT::Storage;
  const Problem& p = *layout.problem;
  const size_t stride = layout.tile;
  for (int64_t c = 0; c < p.channels; ++c) {
    const int64_t plane_index = n * p.channels + c;
    const Storage* plane = static_cast<const Storage*>(x) + plane_index * p.in_plane;
    Storage* out = static_cast<Storage*>(y) + plane_index * p.out_plane + l0;
    if (layout.options.mode == Mode::kNearest) {
      // A copy: exact for every type, strings included.
      const int64_t* offsets = s->offsets.data();
      for (size_t i = 0; i < count; ++i) {
        const int64_t offset = offsets[i];
        out[i] = offset >= 0            ? CopyValue<XD>(plane[offset])
                 : offset == kZeroTap ? Storage{}
                                        : NonFiniteValue<XD>();
      }
      continue;
    }
    if constexpr (XT::kKind != Kind::kString) {
      using Scalar = typename XT::Scalar;
      const auto* in = reinterpret_cast<const Scalar*>(plane);
      auto* dst = reinterpret_cast<Scalar*>(out);
      C* values = s->values.get();
      C* acc = s->acc.get();
      for (int part = 0; part < XT::kParts; ++part) {
        std::fill(acc, acc + stride, C(0));
        std::fill(values + count, values + stride, C(0));
        for (size_t k = 0; k < layout.combinations; ++k) {
          const int64_t* offsets = s->offsets.data() + k * stride;
          for (size_t i = 0; i < count; ++i) {
            const int64_t offset = offsets[i];
            values[i] = offset >= 0 ? ToCompute<XD>(in[offset * XT::kParts + part])
                        : offset == kZeroTap ? C(0)
                                             : std::numeric_limits<C>::quiet_NaN();
          }
          MulAddRow(values, s->weights.get() + k * stride, acc, stride);
        }
        for (size_t i = 0; i < count; ++i) dst[i * XT::kParts + part] = FromCompute<XD>(acc[i]);
      }
    }
  }
}

template <DType XD, DType GD>
void Run(const Problem& p, const TensorView& x, const TensorView& grid,
         const MutableTensorView& y, const Options& options) {
  using C = typename Traits<XD>::Compute;
  if (p.y_count == 0) return;
  Layout layout;
  layout.problem = &p;
  layout.options = options;
  layout.taps = static_cast<size_t>(TapsPerAxis(options.mode));
  layout.combinations = 1;
  for (size_t a = 0; a < p.rank; ++a) layout.combinations *= layout.taps;
  const size_t wanted = std::max<size_t>(kPlanBudget / layout.combinations, 1);
  layout.tile = RoundUp(std::min<size_t>(wanted, static_cast<size_t>(p.out_plane)), kRowBlock);
  layout.tiles_per_batch =
      (p.out_plane + static_cast<int64_t>(layout.tile) - 1) / static_cast<int64_t>(layout.tile);

  const size_t items = static_cast<size_t>(p.batch * layout.tiles_per_batch);
  const double work = static_cast<double>(p.y_count) * static_cast<double>(layout.combinations);
  size_t threads = options.num_threads == 0 ? HardwareThreads()
                                            : static_cast<size_t>(options.num_threads);
  if (work < kParallelThreshold) threads = 1;
  threads = std::min(threads, items);
  std::vector<Scratch<C>> scratch(threads);
  for (Scratch<C>& worker : scratch) {
    worker.Allocate(p.rank, layout.taps, layout.combinations, layout.tile);
  }

  ParallelFor(items, threads, [&](size_t item, size_t worker) {
    const int64_t n = static_cast<int64_t>(item) / layout.tiles_per_batch;
    const int64_t l0 =
        static_cast<int64_t>(item) % layout.tiles_per_batch * static_cast<int64_t>(layout.tile);
    const size_t count = static_cast<size_t>(
        std::min<int64_t>(static_cast<int64_t>(layout.tile), p.out_plane - l0));
    PlanTile<GD>(layout, grid.data, n, l0, count, &scratch[worker]);
    SampleTile<XD>(layout, x.data, y.data, n, l0, count, &scratch[worker]);
  });
}

}  // namespace

Status RunSampler(const Problem& problem, const TensorView& x, const TensorView& grid,
                  const MutableTensorView& y, const Options& options) {
  try {
    VisitDType(x.dtype, [&](auto xd) {
      VisitGridDType(grid.dtype, [&](auto gd) {
        Run<decltype(xd)::value, decltype(gd)::value>(problem, x, grid, y, options);
      });
    });
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfRange, "y: out of memory for the sampling plan");
  } catch (const std::system_error& e) {  // the thread pool could not start its threads
    return Status(StatusCode::kOutOfRange, std::string("options.num_threads: ") + e.what());
  }
  return Status::Ok();
}

}  // namespace gridsample
