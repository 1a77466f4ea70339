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
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <system_error>
#include <type_traits>
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

// The per-call constants every tile needs.
struct Layout {
  const Problem* problem;
  Options options;
  size_t taps;          // per axis
  size_t combinations;  // taps^rank
  size_t tile;          // locations per tile, a multiple of kRowBlock
  int64_t tiles_per_batch;
  // Linear interpolation of one-component data computed in float32: the two innermost taps
  // of each of the 2^(r-1) rows are adjacent in memory and load as one pair (LinearPairsRow).
  bool pairs;
};

// Scratch of one worker, sized once per call on the calling thread (so that an allocation
// failure is reported, not thrown on a worker) and reused across the worker's tiles. Every
// row is `tile` long, a multiple of kRowBlock, so rows stay aligned for the kernels.
template <typename C>
struct Scratch {
  AlignedRow<int64_t> axis_offsets;   // [axis][tap][location]
  AlignedRow<C> axis_weights;         // [axis][tap][location]
  AlignedRow<int64_t> offsets;        // [combination][location]
  AlignedRow<C> weights;              // [combination][location]
  AlignedRow<C> values;               // [location]
  AlignedRow<C> acc;                  // [location]
  std::vector<size_t> pick;           // one tap per axis: the current combination
  // Pair path only.
  AlignedRow<int64_t> pair_offsets;   // [row][location]: the left tap, 0 at edge locations
  AlignedRow<C> pair_values;          // [row][2 * location]
  std::vector<uint32_t> edges;        // locations with a tap outside the input or NaN

  void Allocate(const Layout& layout) {
    const size_t rank = layout.problem->rank, tile = layout.tile;
    // Uninitialised (no per-call memset): every entry is written before it is read.
    axis_offsets = AllocateRow<int64_t>(rank * layout.taps * tile);
    axis_weights = AllocateRow<C>(rank * layout.taps * tile);
    offsets = AllocateRow<int64_t>(layout.combinations * tile);
    weights = AllocateRow<C>(layout.combinations * tile);
    values = AllocateRow<C>(tile);
    acc = AllocateRow<C>(tile);
    pick.resize(rank);
    if (layout.pairs) {
      const size_t rows = layout.combinations / 2;
      pair_offsets = AllocateRow<int64_t>(rows * tile);
      // Zeroed once: the kernel reads whole rows, tails past a tile's count included.
      pair_values = AllocateRow<C>(rows * 2 * tile);
      std::fill(pair_values.get(), pair_values.get() + rows * 2 * tile, C(0));
      edges.reserve(tile);
    }
  }
};

// The value tap `offset` contributes to an interpolation: the element, 0 outside the input
// (zeros padding), NaN where the grid coordinate was not finite.
template <DType XD>
typename Traits<XD>::Compute TapValue(const typename Traits<XD>::Scalar* in, int64_t offset,
                                      int part) {
  using C = typename Traits<XD>::Compute;
  if (offset >= 0) return ToCompute<XD>(in[offset * Traits<XD>::kParts + part]);
  return offset == kZeroTap ? C(0) : std::numeric_limits<C>::quiet_NaN();
}

// The pair path's part of a plan. Combinations 2j and 2j+1 differ only in the innermost tap,
// x0 and x0+1, so where both are inside the input the second sits right after the first. A
// location all of whose taps are inside reads its pairs from memory; every other location (an
// edge under zeros padding, a clamped border tap, a NaN coordinate) reads a harmless pair at
// offset 0 and is recomputed exactly afterwards from the full plan.
template <typename C>
void PlanPairs(const Layout& layout, size_t count, Scratch<C>* s) {
  const size_t rows = layout.combinations / 2, stride = layout.tile;
  s->edges.clear();
  for (size_t i = 0; i < count; ++i) {
    bool inside = true;
    for (size_t k = 0; k < layout.combinations; ++k) inside &= s->offsets[k * stride + i] >= 0;
    if (!inside) s->edges.push_back(static_cast<uint32_t>(i));
    for (size_t j = 0; j < rows; ++j) {
      s->pair_offsets[j * stride + i] = inside ? s->offsets[2 * j * stride + i] : 0;
    }
  }
}

// Plans one tile: the taps of every axis at every location, then (for linear and cubic) the
// weight and offset of every combination of one tap per axis, in odometer order (last axis
// fastest, as the reference sums them).
template <DType GD, typename C>
void PlanTile(const Layout& layout, const void* grid, int64_t n, int64_t l0, size_t count,
              Scratch<C>* s) {
  const Problem& p = *layout.problem;
  const size_t r = p.rank, taps = layout.taps, stride = layout.tile;
  const bool weighted = layout.options.mode != Mode::kNearest;  // nearest copies: no weights
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
  for (size_t row = 0; weighted && row < r * taps; ++row) {  // the kernels read tails: 0
    std::fill(&s->axis_weights[row * stride + count], &s->axis_weights[(row + 1) * stride], C(0));
  }

  std::fill(s->pick.begin(), s->pick.end(), 0);
  for (size_t k = 0; k < layout.combinations; ++k) {
    int64_t* offset_row = s->offsets.get() + k * stride;
    C* weight_row = s->weights.get() + k * stride;
    std::fill(offset_row, offset_row + count, 0);
    if (weighted) std::fill(weight_row, weight_row + stride, C(1));
    for (size_t a = 0; a < r; ++a) {
      const size_t row = (a * taps + s->pick[a]) * stride;
      const int64_t* axis_offset = s->axis_offsets.get() + row;
      // A negative tap marker wins over offsets; kNaNTap (the smaller) wins over kZeroTap.
      for (size_t i = 0; i < count; ++i) {
        const int64_t sum = offset_row[i], add = axis_offset[i];
        offset_row[i] = (sum < 0 || add < 0) ? std::min(sum, add) : sum + add;
      }
      if (weighted) MulRow(weight_row, s->axis_weights.get() + row, weight_row, stride);
    }
    for (size_t a = r; a-- > 0;) {
      if (++s->pick[a] < taps) break;
      s->pick[a] = 0;
    }
  }
  if (layout.pairs) PlanPairs(layout, count, s);
}

// The pair path for one channel of a planned tile, into s->acc. Inside locations copy their
// pairs straight from memory; edge locations get theirs tap by tap (0 outside, NaN for a
// non-finite coordinate), and then one kernel pass weighs them all.
template <DType XD>
void SamplePairs(const Layout& layout, const typename Traits<XD>::Scalar* in, size_t count,
                 Scratch<float>* s) {
  const size_t rows = layout.combinations / 2, stride = layout.tile;
  for (size_t j = 0; j < rows; ++j) {
    const int64_t* offsets = s->pair_offsets.get() + j * stride;
    float* pairs = s->pair_values.get() + j * 2 * stride;
    for (size_t i = 0; i < count; ++i) {
      const auto* pair = in + offsets[i];
      if constexpr (std::is_same<typename Traits<XD>::Scalar, float>::value) {
        std::memcpy(pairs + 2 * i, pair, 2 * sizeof(float));  // one 64-bit load and store
      } else {
        pairs[2 * i] = ToCompute<XD>(pair[0]);
        pairs[2 * i + 1] = ToCompute<XD>(pair[1]);
      }
    }
    const int64_t* left = s->offsets.get() + 2 * j * stride;
    const int64_t* right = left + stride;
    for (uint32_t i : s->edges) {
      pairs[2 * i] = TapValue<XD>(in, left[i], 0);
      pairs[2 * i + 1] = TapValue<XD>(in, right[i], 0);
    }
  }
  LinearPairsRow(s->pair_values.get(), 2 * stride, s->weights.get(), stride, rows,
                 s->acc.get(), stride);
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
      const int64_t* offsets = s->offsets.get();
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
      C* acc = s->acc.get();
      if constexpr (std::is_same<C, float>::value && XT::kParts == 1) {
        if (layout.pairs) {
          SamplePairs<XD>(layout, in, count, s);
          for (size_t i = 0; i < count; ++i) dst[i] = FromCompute<XD>(acc[i]);
          continue;
        }
      }
      C* values = s->values.get();
      for (int part = 0; part < XT::kParts; ++part) {
        std::fill(acc, acc + stride, C(0));
        std::fill(values + count, values + stride, C(0));
        for (size_t k = 0; k < layout.combinations; ++k) {
          const int64_t* offsets = s->offsets.get() + k * stride;
          for (size_t i = 0; i < count; ++i) values[i] = TapValue<XD>(in, offsets[i], part);
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
  layout.pairs = options.mode == Mode::kLinear && std::is_same<C, float>::value &&
                 Traits<XD>::kParts == 1 && p.in[p.rank - 1] >= 2;

  const double work = static_cast<double>(p.y_count) * static_cast<double>(layout.combinations);
  size_t threads = options.num_threads == 0 ? HardwareThreads()
                                            : static_cast<size_t>(options.num_threads);
  if (work < kParallelThreshold) threads = 1;
  // Tiles as large as the plan budget allows, but small enough that every thread gets a few
  // (a batch of one image must still spread over the threads).
  size_t tile = std::max<size_t>(kPlanBudget / layout.combinations, 1);
  const size_t per_batch = static_cast<size_t>(p.out_plane);
  const size_t wanted_items = 4 * threads;
  if (threads > 1 && static_cast<size_t>(p.batch) < wanted_items) {
    const size_t per_item =
        (static_cast<size_t>(p.batch) * per_batch + wanted_items - 1) / wanted_items;
    tile = std::min(tile, std::max<size_t>(per_item, kRowBlock));
  }
  layout.tile = RoundUp(std::min(tile, per_batch), kRowBlock);
  layout.tiles_per_batch =
      (p.out_plane + static_cast<int64_t>(layout.tile) - 1) / static_cast<int64_t>(layout.tile);
  const size_t items = static_cast<size_t>(p.batch * layout.tiles_per_batch);
  threads = std::min(threads, items);

  std::vector<Scratch<C>> scratch(threads);
  for (Scratch<C>& worker : scratch) worker.Allocate(layout);

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
    VisitDTypes(x.dtype, grid.dtype, [&](auto xd, auto gd) {
      Run<decltype(xd)::value, decltype(gd)::value>(problem, x, grid, y, options);
    });
  } catch (const std::bad_alloc&) {
    return Status(StatusCode::kOutOfRange, "y: out of memory for the sampling plan");
  } catch (const std::system_error& e) {  // the thread pool could not start its threads
    return Status(StatusCode::kOutOfRange, std::string("options.num_threads: ") + e.what());
  }
  return Status::Ok();
}

}  // namespace gridsample
