// Seeded random property tests of GridSample (ranks 1-4, every mode x padding, float32 and
// float64), each run through both gridsample::GridSample and gridsample::ReferenceGridSample, in
// both layouts (channels-last: X transposed in, Y transposed back):
//   (a) an identity grid with align_corners=1 reproduces X;
//   (b) mirroring: GS(flip_a(X), grid with coordinate a negated) == GS(X, grid);
//   (c) linear and nearest never leave [min X, max X] with border (and reflection) padding,
//       nor [min(X, 0), max(X, 0)] with zeros padding;
//   (d) far-outside coordinates (|g| up to 1e30 for float32 grids, 1e300 for float64) give, with
//       reflection, exactly the value at the reflected coordinate computed here with exact
//       integer arithmetic; with border the edge value; with zeros 0; and return promptly.
// Semantics: docs/semantics.md. The seed of every failing iteration is printed; set
// GRIDSAMPLE_TEST_SEED to change the base seed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <future>
#include <limits>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "gridsample/gridsample.h"
#include "reference.h"

namespace gridsample {
namespace {

constexpr Mode kModes[] = {Mode::kLinear, Mode::kNearest, Mode::kCubic};
constexpr Padding kPaddings[] = {Padding::kZeros, Padding::kBorder, Padding::kReflection};

uint64_t BaseSeed() {
  const char* env = std::getenv("GRIDSAMPLE_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 0) : 0x6A1D5A3Du;
}

enum class Impl { kFast, kReference, kFastChannelsLast, kReferenceChannelsLast };
constexpr Impl kImpls[] = {Impl::kFast, Impl::kReference, Impl::kFastChannelsLast,
                           Impl::kReferenceChannelsLast};
const char* ImplName(Impl impl) {
  switch (impl) {
    case Impl::kFast:
      return "GridSample";
    case Impl::kReference:
      return "ReferenceGridSample";
    case Impl::kFastChannelsLast:
      return "GridSample, channels-last";
    case Impl::kReferenceChannelsLast:
      return "ReferenceGridSample, channels-last";
  }
  return "?";
}

// A dense tensor of T.
template <typename T>
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<T> data;
};

int64_t Count(const std::vector<int64_t>& shape, size_t from = 0) {
  int64_t count = 1;
  for (size_t i = from; i < shape.size(); ++i) count *= shape[i];
  return count;
}

// (N, C, D1..Dr) to (N, D1..Dr, C), or back with `back`.
template <typename T>
Tensor<T> Transposed(const Tensor<T>& t, bool back) {
  Tensor<T> out;
  out.shape = t.shape;
  const size_t channel_axis = back ? t.shape.size() - 1 : 1;
  const int64_t batch = t.shape[0], channels = t.shape[channel_axis];
  const int64_t plane = Count(t.shape, 1) / std::max<int64_t>(channels, 1);
  out.shape.erase(out.shape.begin() + static_cast<int64_t>(channel_axis));
  out.shape.insert(back ? out.shape.begin() + 1 : out.shape.end(), channels);
  out.data.resize(t.data.size());
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t p = 0; p < plane; ++p) {
        const int64_t first = (n * channels + c) * plane + p, last = (n * plane + p) * channels + c;
        out.data[static_cast<size_t>(back ? first : last)] =
            t.data[static_cast<size_t>(back ? last : first)];
      }
    }
  }
  return out;
}

// Runs one implementation; Y (with its shape, channels-first) goes to *y.
template <typename T>
Status Run(Impl impl, const Tensor<T>& x, const Tensor<T>& grid, const Options& options,
           Tensor<T>* y) {
  if (impl == Impl::kFastChannelsLast || impl == Impl::kReferenceChannelsLast) {
    Options last = options;
    last.layout = Layout::kChannelsLast;
    Tensor<T> y_last;
    const Status status = Run(impl == Impl::kFastChannelsLast ? Impl::kFast : Impl::kReference,
                              Transposed(x, false), grid, last, &y_last);
    if (status.ok()) *y = Transposed(y_last, true);
    return status;
  }
  Status status = OutputShape(x.shape.data(), x.shape.size(), grid.shape.data(), grid.shape.size(),
                              &y->shape, options.layout);
  if (!status.ok()) return status;
  y->data.assign(static_cast<size_t>(Count(y->shape)), static_cast<T>(-777));
  const TensorView x_view{DTypeOf<T>::value, x.data.data(), x.shape.data(), x.shape.size()};
  const TensorView grid_view{DTypeOf<T>::value, grid.data.data(), grid.shape.data(),
                             grid.shape.size()};
  const MutableTensorView y_view{DTypeOf<T>::value, y->data.data(), y->shape.data(),
                                 y->shape.size()};
  return impl == Impl::kFast ? GridSample(x_view, grid_view, y_view, options)
                             : ReferenceGridSample(x_view, grid_view, y_view, options);
}

template <typename T>
Tensor<T> MustRun(Impl impl, const Tensor<T>& x, const Tensor<T>& grid, const Options& options) {
  Tensor<T> y;
  const Status status = Run(impl, x, grid, options, &y);
  INFO(status.message());
  REQUIRE(status.ok());
  return y;
}

int64_t UniformInt(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}
double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

// X of shape (N, C, spatial...) with values in [-1, 1].
template <typename T>
Tensor<T> RandomX(std::mt19937_64& rng, const std::vector<int64_t>& spatial) {
  Tensor<T> x;
  x.shape.push_back(UniformInt(rng, 1, 2));  // N
  x.shape.push_back(UniformInt(rng, 1, 2));  // C
  x.shape.insert(x.shape.end(), spatial.begin(), spatial.end());
  for (int64_t i = 0; i < Count(x.shape); ++i) {
    x.data.push_back(static_cast<T>(Uniform(rng, -1, 1)));
  }
  return x;
}

std::vector<int64_t> RandomSizes(std::mt19937_64& rng, size_t rank, int64_t lo, int64_t hi) {
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < rank; ++i) sizes.push_back(UniformInt(rng, lo, hi));
  return sizes;
}

// Largest input extent per spatial rank, so that rank 4 stays small.
int64_t MaxExtent(size_t rank) { return rank == 1 ? 7 : rank == 2 ? 5 : rank == 3 ? 4 : 3; }

// p of docs/semantics.md computed in double (only used to keep nearest away from exact halves).
double UnnormaliseDouble(double g, int64_t s, bool align_corners) {
  if (align_corners) return s == 1 ? 0.0 : (g + 1) / 2 * static_cast<double>(s - 1);
  return ((g + 1) * static_cast<double>(s) - 1) / 2;
}

// The grid coordinate that the identity grid gives output index i of an axis of size s.
template <typename T>
T IdentityCoordinate(int64_t i, int64_t s) {
  return s == 1 ? T(0)
                : static_cast<T>(-1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(s - 1));
}

// Tolerances for values of magnitude <= 1 that went through an interpolation.
template <typename T>
double Tolerance() {
  return std::is_same<T, float>::value ? 1e-5 : 1e-12;
}

template <typename Fn>
void ForEachConfig(Fn fn) {
  for (size_t rank = 1; rank <= 4; ++rank) {
    for (Mode mode : kModes) {
      for (Padding padding : kPaddings) {
        INFO("rank " << rank << ", mode " << ModeName(mode) << ", padding "
                     << PaddingName(padding));
        fn(rank, mode, padding);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// (a) identity grid, align_corners=1

template <typename T>
void CheckIdentity() {
  uint64_t iteration = 0;
  ForEachConfig([&](size_t rank, Mode mode, Padding padding) {
    for (int trial = 0; trial < 3; ++trial) {
      const uint64_t seed = BaseSeed() + 1000003u * (iteration++);
      CAPTURE(seed);
      std::mt19937_64 rng(seed);
      const std::vector<int64_t> spatial = RandomSizes(rng, rank, 1, MaxExtent(rank));
      const Tensor<T> x = RandomX<T>(rng, spatial);
      Tensor<T> grid;
      grid.shape.push_back(x.shape[0]);
      grid.shape.insert(grid.shape.end(), spatial.begin(), spatial.end());
      grid.shape.push_back(static_cast<int64_t>(rank));
      const int64_t points = Count(spatial);
      for (int64_t n = 0; n < x.shape[0]; ++n) {
        for (int64_t flat = 0; flat < points; ++flat) {
          // Index of this output location along spatial axis a (row-major).
          std::vector<int64_t> index(rank);
          int64_t rest = flat;
          for (size_t a = rank; a-- > 0;) {
            index[a] = rest % spatial[a];
            rest /= spatial[a];
          }
          // Coordinate k (innermost first) belongs to spatial axis rank-1-k.
          for (size_t k = 0; k < rank; ++k) {
            const size_t a = rank - 1 - k;
            grid.data.push_back(IdentityCoordinate<T>(index[a], spatial[a]));
          }
        }
      }
      Options options;
      options.mode = mode;
      options.padding = padding;
      options.align_corners = true;
      for (Impl impl : kImpls) {
        INFO(ImplName(impl));
        const Tensor<T> y = MustRun(impl, x, grid, options);
        REQUIRE(y.shape == x.shape);
        for (size_t i = 0; i < x.data.size(); ++i) {
          INFO("element " << i);
          CHECK(std::abs(static_cast<double>(y.data[i]) - static_cast<double>(x.data[i])) <=
                Tolerance<T>());
        }
      }
    }
  });
}

TEST_CASE("properties: identity grid with align_corners=1 reproduces X", "[properties]") {
  SECTION("float32") { CheckIdentity<float>(); }
  SECTION("float64") { CheckIdentity<double>(); }
}

// ---------------------------------------------------------------------------------------------
// (b) mirroring

// X flipped along spatial axis a (index a among the spatial axes, outermost first).
template <typename T>
Tensor<T> Flip(const Tensor<T>& x, size_t a) {
  Tensor<T> y = x;
  const int64_t extent = x.shape[2 + a];
  const int64_t inner = Count(x.shape, 3 + a);
  const int64_t outer = Count(x.shape) / (extent * inner);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < extent; ++i) {
      for (int64_t j = 0; j < inner; ++j) {
        y.data[(o * extent + i) * inner + j] = x.data[(o * extent + (extent - 1 - i)) * inner + j];
      }
    }
  }
  return y;
}

template <typename T>
void CheckMirror() {
  uint64_t iteration = 0;
  ForEachConfig([&](size_t rank, Mode mode, Padding padding) {
    for (bool align_corners : {false, true}) {
      for (int trial = 0; trial < 2; ++trial) {
        const uint64_t seed = BaseSeed() + 7777u + 1000003u * (iteration++);
        CAPTURE(seed, align_corners);
        std::mt19937_64 rng(seed);
        const std::vector<int64_t> spatial = RandomSizes(rng, rank, 1, MaxExtent(rank));
        const Tensor<T> x = RandomX<T>(rng, spatial);
        Tensor<T> grid;
        grid.shape.push_back(x.shape[0]);
        const std::vector<int64_t> out = RandomSizes(rng, rank, 1, 3);
        grid.shape.insert(grid.shape.end(), out.begin(), out.end());
        grid.shape.push_back(static_cast<int64_t>(rank));
        const int64_t count = Count(grid.shape) / static_cast<int64_t>(rank);
        for (int64_t point = 0; point < count; ++point) {
          for (size_t k = 0; k < rank; ++k) {
            const int64_t s = spatial[rank - 1 - k];
            T g;
            // Nearest rounds half to even, which is not mirror-symmetric (p = k + 0.5 and its
            // mirror s - 1 - p round to indices that are not mirrors of each other when s is
            // even), so keep p away from exact halves.
            do {
              g = static_cast<T>(Uniform(rng, -2.5, 2.5));
              const double p = UnnormaliseDouble(static_cast<double>(g), s, align_corners);
              if (mode != Mode::kNearest || std::abs(p - std::floor(p) - 0.5) > 1e-3) break;
            } while (true);
            grid.data.push_back(g);
          }
        }
        const size_t a = static_cast<size_t>(UniformInt(rng, 0, static_cast<int64_t>(rank) - 1));
        CAPTURE(a);
        const Tensor<T> flipped = Flip(x, a);
        Tensor<T> mirrored = grid;
        for (int64_t point = 0; point < count; ++point) {
          T& g = mirrored.data[static_cast<size_t>(point) * rank + (rank - 1 - a)];
          g = -g;
        }
        Options options;
        options.mode = mode;
        options.padding = padding;
        options.align_corners = align_corners;
        for (Impl impl : kImpls) {
          INFO(ImplName(impl));
          const Tensor<T> want = MustRun(impl, x, grid, options);
          const Tensor<T> got = MustRun(impl, flipped, mirrored, options);
          REQUIRE(got.shape == want.shape);
          for (size_t i = 0; i < want.data.size(); ++i) {
            INFO("element " << i);
            CHECK(std::abs(static_cast<double>(got.data[i]) - static_cast<double>(want.data[i])) <=
                  10 * Tolerance<T>());
          }
        }
      }
    }
  });
}

TEST_CASE("properties: mirroring the grid mirrors the sampled image", "[properties]") {
  SECTION("float32") { CheckMirror<float>(); }
  SECTION("float64") { CheckMirror<double>(); }
}

// ---------------------------------------------------------------------------------------------
// (c) bounds of linear and nearest

template <typename T>
void CheckBounds() {
  uint64_t iteration = 0;
  ForEachConfig([&](size_t rank, Mode mode, Padding padding) {
    if (mode == Mode::kCubic) return;  // cubic overshoots by design
    for (bool align_corners : {false, true}) {
      for (int trial = 0; trial < 3; ++trial) {
        const uint64_t seed = BaseSeed() + 4242u + 1000003u * (iteration++);
        CAPTURE(seed, align_corners);
        std::mt19937_64 rng(seed);
        const std::vector<int64_t> spatial = RandomSizes(rng, rank, 1, MaxExtent(rank));
        const Tensor<T> x = RandomX<T>(rng, spatial);
        Tensor<T> grid;
        grid.shape.push_back(x.shape[0]);
        const std::vector<int64_t> out = RandomSizes(rng, rank, 1, 4);
        grid.shape.insert(grid.shape.end(), out.begin(), out.end());
        grid.shape.push_back(static_cast<int64_t>(rank));
        for (int64_t i = 0; i < Count(grid.shape); ++i) {
          // Mostly near the image, sometimes far away.
          const double g =
              UniformInt(rng, 0, 9) == 0 ? Uniform(rng, -1e4, 1e4) : Uniform(rng, -3, 3);
          grid.data.push_back(static_cast<T>(g));
        }
        Options options;
        options.mode = mode;
        options.padding = padding;
        options.align_corners = align_corners;
        const int64_t image = Count(x.shape, 2);
        const int64_t out_image = Count(out);
        for (Impl impl : kImpls) {
          INFO(ImplName(impl));
          const Tensor<T> y = MustRun(impl, x, grid, options);
          for (int64_t nc = 0; nc < x.shape[0] * x.shape[1]; ++nc) {
            const auto first = x.data.begin() + nc * image;
            double lo = static_cast<double>(*std::min_element(first, first + image));
            double hi = static_cast<double>(*std::max_element(first, first + image));
            if (padding == Padding::kZeros) {
              lo = std::min(lo, 0.0);
              hi = std::max(hi, 0.0);
            }
            for (int64_t i = 0; i < out_image; ++i) {
              const double v = static_cast<double>(y.data[nc * out_image + i]);
              INFO("image " << nc << ", element " << i << ": " << v << " not in [" << lo << ", "
                            << hi << "]");
              CHECK(v >= lo - Tolerance<T>());
              CHECK(v <= hi + Tolerance<T>());
            }
          }
        }
      }
    }
  });
}

TEST_CASE("properties: linear and nearest stay within the range of X", "[properties]") {
  SECTION("float32") { CheckBounds<float>(); }
  SECTION("float64") { CheckBounds<double>(); }
}

// ---------------------------------------------------------------------------------------------
// (d) far-outside coordinates

// docs/semantics.md's unnormalisation in the grid's float type, one rounding per step (no FMA).
template <typename T>
T Unnormalise(T g, int64_t s, bool align_corners) {
  if (align_corners) {
    if (s == 1) return T(0);
    T p = g + T(1);
    p = p / T(2);
    p = p * static_cast<T>(s - 1);
    return p;
  }
  T p = g + T(1);
  p = p * static_cast<T>(s);
  p = p - T(1);
  p = p / T(2);
  return p;
}

// x mod period in [0, period), exactly, for any finite x, with integer arithmetic.
double ExactMod(double x, int64_t period) {
  if (std::abs(x) < 0x1p52) {  // an int64 integer part and an exact fraction
    const double whole = std::floor(x);
    const double fraction = x - whole;
    int64_t m = static_cast<int64_t>(whole) % period;
    if (m < 0) m += period;
    return static_cast<double>(m) + fraction;
  }
  // |x| >= 2^52: x = mantissa * 2^shift with an integer mantissa and shift >= 0.
  int exponent;
  const double fraction = std::frexp(x, &exponent);  // 0.5 <= |fraction| < 1
  const int64_t mantissa = static_cast<int64_t>(std::ldexp(fraction, 53));
  const int shift = exponent - 53;
  int64_t m = mantissa % period;
  if (m < 0) m += period;
  int64_t power = 1 % period;
  for (int i = 0; i < shift; ++i) power = power * 2 % period;
  return static_cast<double>(m * power % period);
}

// The coordinate p reflected (repeatedly) into [0, s-1] (align_corners=1) or [-0.5, s-0.5]
// (align_corners=0), exactly; before the final clamp.
double ReflectExact(double p, int64_t s, bool align_corners) {
  if (align_corners) {
    if (s == 1) return 0;
    const int64_t period = 2 * (s - 1);
    double t = ExactMod(p, period);
    if (t > static_cast<double>(s - 1)) t = static_cast<double>(period) - t;
    return t;
  }
  // (p + 0.5) mod 2s == ((p mod 2s) + 0.5) mod 2s; the right side is exact.
  const int64_t period = 2 * s;
  double t = ExactMod(p, period) + 0.5;
  if (t >= static_cast<double>(period)) t -= static_cast<double>(period);
  if (t > static_cast<double>(s)) t = static_cast<double>(period) - t;
  return t - 0.5;
}

// An in-range grid coordinate whose unnormalised value is exactly p. Exact because the far axis
// has s-1 (align_corners=1) or s (align_corners=0) a power of two.
double CoordinateOf(double p, int64_t s, bool align_corners) {
  if (align_corners) return s == 1 ? 0.0 : p * 2 / static_cast<double>(s - 1) - 1;
  return (2 * p + 1) / static_cast<double>(s) - 1;
}

// Runs fn on a thread of its own; false if it has not finished after `seconds` (the thread is
// then abandoned, still owning everything it uses).
template <typename Fn>
bool FinishesWithin(double seconds, Fn fn) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([done, fn]() mutable {
    fn();
    done->set_value();
  }).detach();
  return finished.wait_for(std::chrono::duration<double>(seconds)) == std::future_status::ready;
}

constexpr double kDeadlineSeconds = 30;

template <typename T>
std::vector<double> FarValues(std::mt19937_64& rng) {
  std::vector<double> values;
  if (std::is_same<T, float>::value) {
    values = {1e6, -1e6, 1e30, -1e30, 1234567.25, -7654321.5};
    for (int i = 0; i < 4; ++i) {
      const double v = std::ldexp(Uniform(rng, 1, 2), static_cast<int>(UniformInt(rng, 20, 100)));
      values.push_back(i % 2 ? -v : v);
    }
  } else {
    values = {1e6, -1e6, 1e300, -1e300, 1e30, -1e30, 123456789.125, -1e15 - 0.5};
    for (int i = 0; i < 4; ++i) {
      const double v = std::ldexp(Uniform(rng, 1, 2), static_cast<int>(UniformInt(rng, 20, 1000)));
      values.push_back(i % 2 ? -v : v);
    }
  }
  // Moderately far values with a fraction of k/8: their p often lands exactly on a half after
  // an odd number of reflections, where rounding before reflecting matters (align_corners=0).
  const int max_exponent = std::is_same<T, float>::value ? 20 : 40;
  for (int i = 0; i < 6; ++i) {
    const double whole = std::ldexp(1.0, max_exponent) +
                         static_cast<double>(UniformInt(rng, 0, (int64_t{1} << 20) - 1));
    const double v = whole + static_cast<double>(UniformInt(rng, 0, 7)) / 8;
    values.push_back(i % 2 ? -v : v);
  }
  for (double& v : values) v = static_cast<double>(static_cast<T>(v));
  return values;
}

template <typename T>
void CheckFar() {
  uint64_t iteration = 0;
  ForEachConfig([&](size_t rank, Mode mode, Padding padding) {
    for (bool align_corners : {false, true}) {
      for (int trial = 0; trial < 3; ++trial) {
        const uint64_t seed = BaseSeed() + 99991u + 1000003u * (iteration++);
        CAPTURE(seed, align_corners);
        std::mt19937_64 rng(seed);
        // Spatial axis a gets the far coordinates; its extent keeps CoordinateOf exact.
        const size_t a = static_cast<size_t>(UniformInt(rng, 0, static_cast<int64_t>(rank) - 1));
        std::vector<int64_t> spatial = RandomSizes(rng, rank, 1, 3);
        const std::vector<int64_t> extents =
            align_corners ? std::vector<int64_t>{1, 2, 3, 5, 9} : std::vector<int64_t>{1, 2, 4, 8};
        const int64_t s = extents[static_cast<size_t>(
            UniformInt(rng, 0, static_cast<int64_t>(extents.size()) - 1))];
        spatial[a] = s;
        CAPTURE(a, s);
        const Tensor<T> x = RandomX<T>(rng, spatial);
        const std::vector<double> far = FarValues<T>(rng);
        Tensor<T> grid;
        grid.shape.push_back(x.shape[0]);
        const std::vector<int64_t> out = RandomSizes(rng, rank, 1, 3);
        grid.shape.insert(grid.shape.end(), out.begin(), out.end());
        grid.shape.push_back(static_cast<int64_t>(rank));
        const int64_t count = Count(grid.shape) / static_cast<int64_t>(rank);
        // `expected_grid` puts on axis a the in-range coordinate that must give the same value.
        Tensor<T> expected_grid = grid;
        const size_t k_far = rank - 1 - a;  // grid coordinate index of axis a
        for (int64_t point = 0; point < count; ++point) {
          for (size_t k = 0; k < rank; ++k) {
            if (k != k_far) {
              const T g = static_cast<T>(Uniform(rng, -1.2, 1.2));
              grid.data.push_back(g);
              expected_grid.data.push_back(g);
              continue;
            }
            const T g = static_cast<T>(
                far[static_cast<size_t>(UniformInt(rng, 0, static_cast<int64_t>(far.size()) - 1))]);
            const double p = static_cast<double>(Unnormalise<T>(g, s, align_corners));
            REQUIRE(std::isfinite(p));
            double target;  // the unnormalised coordinate the far one must behave like
            if (align_corners && s == 1) {
              target = 0;  // NOTES: every finite coordinate is the single pixel
            } else if (padding == Padding::kBorder) {
              target = p < 0 ? 0.0 : static_cast<double>(s - 1);
            } else if (mode == Mode::kNearest) {
              // Round half to even first (exact: p is a float of the grid type), then reflect.
              target = ReflectExact(std::nearbyint(p), s, align_corners);
            } else {
              target = ReflectExact(p, s, align_corners);
            }
            const T g2 = static_cast<T>(CoordinateOf(target, s, align_corners));
            INFO("far coordinate " << static_cast<double>(g) << ", p " << p << ", target "
                                   << target);
            REQUIRE(static_cast<double>(Unnormalise<T>(g2, s, align_corners)) == target);
            grid.data.push_back(g);
            expected_grid.data.push_back(g2);
          }
        }
        const bool all_zero = padding == Padding::kZeros && !(align_corners && s == 1);
        Options options;
        options.mode = mode;
        options.padding = padding;
        options.align_corners = align_corners;
        options.num_threads = 1;  // a hang stays on the abandoned thread, not in the pool
        for (Impl impl : kImpls) {
          INFO(ImplName(impl));
          auto result = std::make_shared<Tensor<T>>();
          auto status = std::make_shared<Status>();
          const bool prompt = FinishesWithin(
              kDeadlineSeconds, [=]() { *status = Run(impl, x, grid, options, result.get()); });
          INFO("a far coordinate took more than " << kDeadlineSeconds
                                                  << " s: reflection is not O(1)?");
          REQUIRE(prompt);
          INFO(status->message());
          REQUIRE(status->ok());
          const Tensor<T> want = MustRun(impl, x, expected_grid, options);
          REQUIRE(result->shape == want.shape);
          for (size_t i = 0; i < want.data.size(); ++i) {
            const double got = static_cast<double>(result->data[i]);
            const double expected = all_zero ? 0.0 : static_cast<double>(want.data[i]);
            INFO("element " << i << ": got " << got << ", expected " << expected);
            if (all_zero || mode == Mode::kNearest) {
              CHECK(got == expected);
            } else {
              CHECK(std::abs(got - expected) <= Tolerance<T>());
            }
          }
        }
      }
    }
  });
}

TEST_CASE("properties: far-outside coordinates follow the padding exactly", "[properties]") {
  SECTION("float32") { CheckFar<float>(); }
  SECTION("float64") { CheckFar<double>(); }
}

// Finite grid values whose unnormalised coordinate overflows the grid's float type (e.g.
// ((g+1)*s-1)/2 for g = FLT_MAX). docs/semantics.md does not say which reflected value these give
// (the exact p is not representable), but they are finite grid values, so: ok, prompt, zeros -> 0,
// border -> the edge value, reflection -> some value of X (finite; within [min X, max X] for linear
// and nearest), never NaN.
template <typename T>
void CheckOverflow() {
  const T max = std::numeric_limits<T>::max();
  const std::vector<T> values = {max, -max, static_cast<T>(max * 0.75), static_cast<T>(-max / 2)};
  uint64_t iteration = 0;
  for (Mode mode : kModes) {
    for (Padding padding : kPaddings) {
      for (bool align_corners : {false, true}) {
        for (int64_t s : {2, 3, 4, 5, 8}) {
          const uint64_t seed = BaseSeed() + 31337u + 1000003u * (iteration++);
          CAPTURE(seed, ModeName(mode), PaddingName(padding), align_corners, s);
          std::mt19937_64 rng(seed);
          const Tensor<T> x = RandomX<T>(rng, {s});
          Tensor<T> grid;
          grid.shape = std::vector<int64_t>{x.shape[0], static_cast<int64_t>(values.size()), 1};
          for (int64_t n = 0; n < x.shape[0]; ++n) {
            grid.data.insert(grid.data.end(), values.begin(), values.end());
          }
          Options options;
          options.mode = mode;
          options.padding = padding;
          options.align_corners = align_corners;
          options.num_threads = 1;
          for (Impl impl : kImpls) {
            INFO(ImplName(impl));
            auto result = std::make_shared<Tensor<T>>();
            auto status = std::make_shared<Status>();
            const bool prompt = FinishesWithin(
                kDeadlineSeconds, [=]() { *status = Run(impl, x, grid, options, result.get()); });
            REQUIRE(prompt);
            INFO(status->message());
            REQUIRE(status->ok());
            const size_t count = values.size();
            for (size_t i = 0; i < result->data.size(); ++i) {
              const T g = values[i % count];
              const size_t nc = i / count;
              const T* image = x.data.data() + nc * static_cast<size_t>(s);
              const double got = static_cast<double>(result->data[i]);
              const double lo = static_cast<double>(*std::min_element(image, image + s));
              const double hi = static_cast<double>(*std::max_element(image, image + s));
              INFO("g " << static_cast<double>(g) << ", got " << got);
              if (padding == Padding::kZeros) {
                CHECK(got == 0.0);
              } else if (padding == Padding::kBorder) {
                CHECK(std::abs(got - static_cast<double>(g > 0 ? image[s - 1] : image[0])) <=
                      Tolerance<T>());
              } else {
                CHECK(std::isfinite(got));
                if (mode != Mode::kCubic) {
                  CHECK(got >= lo - Tolerance<T>());
                  CHECK(got <= hi + Tolerance<T>());
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("properties: coordinates that overflow when unnormalised", "[properties]") {
  SECTION("float32") { CheckOverflow<float>(); }
  SECTION("float64") { CheckOverflow<double>(); }
}

}  // namespace
}  // namespace gridsample
