// The oracle. Written straight from docs/semantics.md, one output element at a time, with its
// own coordinate code (a triangle-wave reflection, the cubic kernel as NOTES writes it) so that
// it does not inherit a mistake of coords.h. Coordinates carry in long double once
// unnormalised, which holds every float32/float64 value exactly. Integer outputs are summed
// exactly, in 128-bit integers, from fixed-point weights split as docs/semantics.md words the rule.
#include "reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "convert.h"
#include "coords.h"
#include "dispatch.h"
#include "validate.h"

namespace gridsample {
namespace {

using Long = long double;

struct Tap {
  int64_t index;  // along the axis; -1 when the tap falls outside under zeros padding
  Long weight;    // rounded to X's compute type, in which interpolation runs
};

// Folds p into [lo, hi] as a mirror at each end would, repeatedly (a triangle wave of period
// 2 * (hi - lo)). The period is removed from p before lo is subtracted: for huge p, p - lo
// would round.
Long MirrorInto(Long p, Long lo, Long hi) {
  const Long width = hi - lo;
  if (width == 0) return lo;
  Long d = std::fmod(std::fmod(p, 2 * width) - lo, 2 * width);
  if (d < 0) d += 2 * width;
  return lo + (width - std::fabs(d - width));
}

// docs/semantics.md's cubic convolution kernel with A = -0.75.
Long CubicKernel(Long t) {
  const Long a = -0.75L;
  t = std::fabs(t);
  if (t <= 1) return (a + 2) * t * t * t - (a + 3) * t * t + 1;
  if (t < 2) return a * t * t * t - 5 * a * t * t + 8 * a * t - 4 * a;
  return 0;
}

// The taps of one axis for finite grid value g. G is the grid's compute type (coordinates),
// C is X's (weights).
template <typename G, typename C>
std::vector<Tap> AxisTaps(G g, int64_t size, const Options& options) {
  const G s = static_cast<G>(size);
  // Unnormalise in G, in the operation order of docs/semantics.md; only if that overflows, in long
  // double.
  const G in_g =
      options.align_corners ? (g + G(1)) / G(2) * (s - G(1)) : ((g + G(1)) * s - G(1)) / G(2);
  const Long ls = static_cast<Long>(size);
  const Long p = std::isfinite(in_g)     ? static_cast<Long>(in_g)
                 : options.align_corners ? (Long(g) + 1) / 2 * (ls - 1)
                                         : ((Long(g) + 1) * ls - 1) / 2;
  const Long last = ls - 1;
  const Long lo = options.align_corners ? 0 : -0.5L;
  const Long hi = options.align_corners ? last : ls - 0.5L;
  auto clamp = [&](Long q) { return std::min(std::max(q, Long(0)), last); };
  auto inside = [&](Long i) { return i >= 0 && i <= last; };
  auto as_index = [&](Long i) { return inside(i) ? static_cast<int64_t>(i) : int64_t{-1}; };
  // Padding of an integer tap position.
  auto pad_index = [&](Long i) -> int64_t {
    if (options.padding == Padding::kBorder) return static_cast<int64_t>(clamp(i));
    if (options.padding == Padding::kReflection) {
      return static_cast<int64_t>(clamp(MirrorInto(i, lo, hi)));
    }
    return as_index(i);
  };
  auto weight = [](Long w) { return static_cast<Long>(static_cast<C>(w)); };

  if (options.mode == Mode::kNearest) return {{pad_index(std::nearbyint(p)), 1}};
  if (options.mode == Mode::kLinear) {
    Long q = p;
    if (options.padding == Padding::kBorder) q = clamp(p);
    if (options.padding == Padding::kReflection) q = clamp(MirrorInto(p, lo, hi));
    const Long x0 = std::floor(q);
    const C t = static_cast<C>(q - x0);
    return {{as_index(x0), weight(C(1) - t)}, {as_index(x0 + 1), weight(t)}};
  }
  Long x0 = std::floor(p);
  const C t = static_cast<C>(p - x0);
  // Reflection repeats with period 2 * (hi - lo) in the tap position: take x0 to its
  // representative near 0 so that x0 - 1 .. x0 + 2 are exact.
  if (options.padding == Padding::kReflection && hi > lo) x0 = std::fmod(x0, 2 * (hi - lo));
  std::vector<Tap> taps;
  for (int k = -1; k <= 2; ++k) {
    taps.push_back({pad_index(x0 + k), weight(CubicKernel(Long(t) - k))});
  }
  return taps;
}

// Integer outputs truncate an exact sum of the PLANNED weights (docs/semantics.md, Types): the
// float weights the fast path's coordinate code gives (coords.h), to the last bit, since a last-bit
// difference can move an exact sum across an integer. So for them the reference takes its taps from
// coords.h; the float outputs check that code against this file's AxisTaps, and the fixed-point
// split and the exact sum below are the reference's own.
template <typename G, typename C>
std::vector<Tap> PlannedTaps(G g, int64_t size, const Options& options) {
  int64_t offsets[4];
  C weights[4];
  GridValueTaps(g, size, /*stride=*/1, options, offsets, weights);
  std::vector<Tap> taps(static_cast<size_t>(TapsPerAxis(options.mode)));
  for (size_t j = 0; j < taps.size(); ++j) {
    taps[j] = {offsets[j] >= 0 ? offsets[j] : int64_t{-1}, static_cast<Long>(weights[j])};
  }
  return taps;
}

// docs/semantics.md's fixed-point weights of integer outputs, as the rule reads: the whole,
// 2^kFixedBits<XD>, split among the taps of axis a, each part among those of axis a + 1, and
// so on; a tap gets round(part * weight) (in C, ties to even), except that where every tap of
// the axis is inside or weighs 0, tap x0 (the last tap at or below the coordinate) gets what the
// others leave. Appends the leaves in odometer order.
template <typename C>
void FixedWeights(const std::vector<std::vector<Tap>>& taps, size_t a, int64_t part,
                  std::vector<int64_t>* leaves) {
  if (a == taps.size()) {
    leaves->push_back(part);
    return;
  }
  const std::vector<Tap>& axis = taps[a];
  const size_t x0 = axis.size() == 4 ? 1 : 0;  // cubic taps start at x0 - 1
  bool complete = true;
  for (const Tap& tap : axis) complete = complete && (tap.index >= 0 || tap.weight == 0);
  std::vector<int64_t> shares(axis.size());
  int64_t given = 0;
  for (size_t j = 0; j < axis.size(); ++j) {
    const C product = static_cast<C>(part) * static_cast<C>(axis[j].weight);
    shares[j] = static_cast<int64_t>(std::nearbyint(product));
    if (j != x0) given += shares[j];
  }
  if (complete) shares[x0] = part - given;
  for (int64_t share : shares) FixedWeights<C>(taps, a + 1, share, leaves);
}

// The taps of every axis of one location (grid values `coords`, as stored) in *taps, and for
// integer outputs their fixed-point weights in odometer order in *fixed; false where a grid
// value is not finite.
template <DType XD, DType GD>
bool LocationTaps(const Problem& pr, const typename Traits<GD>::Storage* coords,
                  const Options& options, std::vector<std::vector<Tap>>* taps,
                  std::vector<int64_t>* fixed) {
  using G = typename Traits<GD>::Compute;
  using C = typename Traits<XD>::Compute;
  constexpr bool kExact = kExactOutputs<XD>;
  const size_t r = pr.rank;
  taps->assign(r, {});
  fixed->clear();
  for (size_t a = 0; a < r; ++a) {
    // grid[..., 0] is the innermost axis: spatial axis a reads component r-1-a.
    const G g = ToCompute<GD>(coords[r - 1 - a]);
    if (!std::isfinite(g)) return false;
    (*taps)[a] = kExact && options.mode != Mode::kNearest ? PlannedTaps<G, C>(g, pr.in[a], options)
                                                          : AxisTaps<G, C>(g, pr.in[a], options);
  }
  if (kExact && options.mode != Mode::kNearest) {
    FixedWeights<C>(*taps, 0, int64_t{1} << kFixedBits<XD>, fixed);
  }
  return true;
}

// One output element from the taps of its location: every combination of one tap per axis, in
// odometer order (last axis fastest), reading X's element of pixel p as x[at(p)].
template <DType XD, class At>
typename Traits<XD>::Storage SampleElement(const Problem& pr, const Options& options,
                                           const std::vector<std::vector<Tap>>& taps,
                                           const std::vector<int64_t>& fixed,
                                           const typename Traits<XD>::Storage* x, At at) {
  using XT = Traits<XD>;
  using C = typename XT::Compute;
  using Storage = typename XT::Storage;
  const size_t r = pr.rank;
  Storage out{};
  Int128 exact = 0;  // integer outputs: the fixed-point weights times the taps
  size_t leaf = 0;
  std::vector<size_t> pick(r, 0);
  C sums[XT::kParts] = {};
  for (bool done = false; !done;) {
    int64_t offset = 0;
    bool outside = false;
    C w = C(1);
    for (size_t a = 0; a < r; ++a) {
      const Tap& tap = taps[a][pick[a]];
      outside = outside || tap.index < 0;
      offset += tap.index * pr.stride[a];
      w *= static_cast<C>(tap.weight);
    }
    if (options.mode == Mode::kNearest) {
      out = outside ? Storage{} : CopyValue<XD>(x[at(offset)]);
    } else if constexpr (kExactOutputs<XD>) {
      if (!outside) exact += fixed[leaf] * ExactTap<XD>(x[at(offset)]);
      ++leaf;
    } else if constexpr (XT::kConversion != Conversion::kString) {
      if (!outside) {
        const auto* parts = reinterpret_cast<const typename XT::Scalar*>(&x[at(offset)]);
        for (int part = 0; part < XT::kParts; ++part) sums[part] += w * ToCompute<XD>(parts[part]);
      }
    }
    done = true;
    for (size_t a = r; a-- > 0;) {
      if (++pick[a] < taps[a].size()) {
        done = false;
        break;
      }
      pick[a] = 0;
    }
  }
  if (options.mode == Mode::kNearest) return out;
  if constexpr (kExactOutputs<XD>) {
    out = FromExact<XD>(exact);
  } else if constexpr (XT::kConversion != Conversion::kString) {
    auto* parts = reinterpret_cast<typename XT::Scalar*>(&out);
    for (int part = 0; part < XT::kParts; ++part) parts[part] = FromCompute<XD>(sums[part]);
  }
  return out;
}

template <DType XD, DType GD>
void ReferenceCall(const Problem& pr, const TensorView& x, const TensorView& grid,
                   const MutableTensorView& y, const Options& options) {
  using Storage = typename Traits<XD>::Storage;
  const auto* x_data = static_cast<const Storage*>(x.data);
  const auto* grid_data = static_cast<const typename Traits<GD>::Storage*>(grid.data);
  auto* y_data = static_cast<Storage*>(y.data);
  const bool last = pr.layout == Layout::kChannelsLast;
  if (pr.y_count == 0) return;  // N may still be huge: do not walk it
  std::vector<std::vector<Tap>> taps;
  std::vector<int64_t> fixed;
  for (int64_t n = 0; n < pr.batch; ++n) {
    for (int64_t l = 0; l < pr.out_plane; ++l) {
      const auto* coords = grid_data + (n * pr.out_plane + l) * static_cast<int64_t>(pr.rank);
      const bool finite = LocationTaps<XD, GD>(pr, coords, options, &taps, &fixed);
      for (int64_t c = 0; c < pr.channels; ++c) {
        // Channel c of pixel p of batch item n: in its plane (channels-first) or among its
        // pixel's channels (channels-last).
        const auto at = [&](int64_t p, int64_t plane_size) {
          return last ? (n * plane_size + p) * pr.channels + c
                      : (n * pr.channels + c) * plane_size + p;
        };
        y_data[at(l, pr.out_plane)] =
            finite ? SampleElement<XD>(pr, options, taps, fixed, x_data,
                                       [&](int64_t p) { return at(p, pr.in_plane); })
                   : NonFiniteValue<XD>();
      }
    }
  }
}

}  // namespace

Status ReferenceGridSample(const TensorView& x, const TensorView& grid, const MutableTensorView& y,
                           const Options& options) {
  Problem problem;
  Status status = Validate(x, grid, y, options, &problem);
  if (!status.ok()) return status;
  VisitDTypes(x.dtype, grid.dtype, [&](auto xd, auto gd) {
    ReferenceCall<decltype(xd)::value, decltype(gd)::value>(problem, x, grid, y, options);
  });
  return Status::Ok();
}

}  // namespace gridsample
