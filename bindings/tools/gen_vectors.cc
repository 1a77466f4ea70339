// Writes tests/data/reference_vectors.txt: GridSample cases for every dtype of the registry,
// ranks 1-4, every mode x padding x align_corners (strings: nearest only), with the grid's dtype
// taking turns over the four grid types. X and grid are drawn from a fixed seed; Y is what the
// native scalar reference (src/reference.h) makes of them. The package's JS suite
// (tests/js/vectors.test.mjs) runs every case through the WebAssembly build and compares.
// Format: tests/data/README.md. Usage (scripts/gen_vectors.sh builds and runs it):
//
//   gridsample_gen_vectors [--seed N] > tests/data/reference_vectors.txt
#include <charconv>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "convert.h"
#include "dispatch.h"
#include "gridsample/gridsample.h"
#include "reference.h"

namespace gridsample {
namespace {

constexpr uint64_t kDefaultSeed = 20240601;

// A dense tensor of any registered dtype: raw bytes, or strings for kString.
struct Tensor {
  DType dtype;
  std::vector<int64_t> shape;
  size_t count = 1;
  std::vector<unsigned char> bytes;
  std::vector<std::string> strings;

  Tensor(DType d, std::vector<int64_t> s) : dtype(d), shape(std::move(s)) {
    for (int64_t extent : shape) count *= static_cast<size_t>(extent);
    if (dtype == DType::kString) {
      strings.resize(count);
    } else {
      bytes.resize(count * DTypeSize(dtype) + 16);  // never empty: data() is never null
    }
  }
  const void* data() const {
    return dtype == DType::kString ? static_cast<const void*>(strings.data()) : bytes.data();
  }
  void* data() {
    return dtype == DType::kString ? static_cast<void*>(strings.data()) : bytes.data();
  }
  TensorView view() const { return TensorView{dtype, data(), shape.data(), shape.size()}; }
  MutableTensorView mutable_view() {
    return MutableTensorView{dtype, data(), shape.data(), shape.size()};
  }
  template <typename T>
  T Get(size_t i) const {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    return v;
  }
  template <typename T>
  void Put(size_t i, T v) {
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
};

using Rng = std::mt19937_64;

double Uniform(Rng* rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(*rng);
}

// Strings that exercise the JS <-> UTF-8 marshalling: empty, ASCII, escapes, non-ASCII (two-,
// three- and four-byte UTF-8) and a space.
const char* const kStrings[] = {"",
                                "a",
                                "grid",
                                "with space",
                                "quote\"",
                                "back\\slash",
                                "tab\t",
                                "\xce\xb1\xce\xb2",
                                "\xe2\x82\xac",
                                "\xf0\x9f\x98\x80"};

// Random X values, per kind: a band of floats, the whole range of narrow integers, a band of
// wide ones (their full range in nearest mode, which copies bits: int64 beyond 2^53 must survive
// the trip through JS), bool bytes 0/1/2 (2 must read as true), strings from kStrings.
template <DType D>
void FillX(Tensor* x, Mode mode, Rng* rng) {
  using T = Traits<D>;
  using S = typename T::Storage;
  for (size_t i = 0; i < x->count; ++i) {
    if constexpr (T::kConversion == Conversion::kString) {
      x->strings[i] = kStrings[(*rng)() % std::size(kStrings)];
    } else if constexpr (T::kConversion == Conversion::kComplex) {
      using C = typename T::Compute;
      x->Put<S>(i, S(static_cast<C>(Uniform(rng, -10, 10)), static_cast<C>(Uniform(rng, -10, 10))));
    } else if constexpr (T::kConversion == Conversion::kBool) {
      x->Put<S>(i, static_cast<S>((*rng)() % 3));
    } else if constexpr (T::kConversion == Conversion::kInt) {
      if (sizeof(S) <= 2 || mode == Mode::kNearest) {
        x->Put<S>(i, static_cast<S>((*rng)()));  // uniform over every bit pattern
      } else {
        x->Put<S>(
            i, static_cast<S>(std::floor(Uniform(rng, std::is_signed<S>::value ? -1e6 : 0, 1e6))));
      }
    } else {
      x->Put<S>(i, FromCompute<D>(static_cast<typename T::Compute>(Uniform(rng, -10, 10))));
    }
  }
}

// Grid values: uniform in [-1.3, 1.3], one in five replaced by a special value (non-finite,
// huge, the corners, or a coordinate that puts nearest on a tie for even axis sizes).
template <DType D>
void FillGrid(Tensor* grid, Rng* rng) {
  using T = Traits<D>;
  const double inf = std::numeric_limits<double>::infinity();
  const double specials[] = {std::nan(""), inf, -inf, 1e30, -1e30, 0.0,  1.0,
                             -1.0,         0.5, -0.5, 0.25, 1.5,   -1.5, 3.0};
  for (size_t i = 0; i < grid->count; ++i) {
    double v = Uniform(rng, -1.3, 1.3);
    if ((*rng)() % 5 == 0) v = specials[(*rng)() % std::size(specials)];
    if constexpr (T::kConversion == Conversion::kFloat || T::kConversion == Conversion::kHalf ||
                  T::kConversion == Conversion::kBFloat16) {
      grid->Put<typename T::Storage>(i, FromCompute<D>(static_cast<typename T::Compute>(v)));
    }
  }
}

template <typename F>
std::string Shortest(F v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buffer[64];
  const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, r.ptr);
}

// A JSON string literal, ASCII only, with no literal space (so it stays one token).
std::string JsonString(const std::string& s) {
  std::string out = "\"";
  std::u32string code_points;
  for (size_t i = 0; i < s.size();) {  // decode UTF-8 (the strings above are valid)
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const int length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t cp = length == 1 ? c : c & (0x7F >> length);
    for (int k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    code_points.push_back(cp);
    i += static_cast<size_t>(length);
  }
  char buffer[16];
  auto unit = [&](unsigned u) {
    std::snprintf(buffer, sizeof(buffer), "\\u%04x", u);
    out += buffer;
  };
  for (char32_t cp : code_points) {
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp > 0x20 && cp < 0x7F) {
      out += static_cast<char>(cp);
    } else if (cp < 0x10000) {
      unit(static_cast<unsigned>(cp));
    } else {
      const unsigned v = static_cast<unsigned>(cp) - 0x10000u;
      unit(0xD800u + (v >> 10));
      unit(0xDC00u + (v & 0x3FFu));
    }
  }
  return out + "\"";
}

template <DType D>
std::string Element(const Tensor& t, size_t i) {
  using T = Traits<D>;
  using S = typename T::Storage;
  if constexpr (T::kConversion == Conversion::kString) {
    return JsonString(t.strings[i]);
  } else if constexpr (T::kConversion == Conversion::kComplex) {
    const S v = t.Get<S>(i);
    return Shortest(v.real()) + "," + Shortest(v.imag());
  } else if constexpr (T::kConversion == Conversion::kHalf ||
                       T::kConversion == Conversion::kBFloat16) {
    char buffer[8];
    std::snprintf(buffer, sizeof(buffer), "0x%04x", static_cast<unsigned>(t.Get<S>(i)));
    return buffer;
  } else if constexpr (T::kConversion == Conversion::kFloat) {
    return Shortest(t.Get<S>(i));
  } else if constexpr (std::is_signed<S>::value) {
    return std::to_string(static_cast<long long>(t.Get<S>(i)));
  } else {
    return std::to_string(static_cast<unsigned long long>(t.Get<S>(i)));
  }
}

void WriteTensor(std::ostream& out, const char* name, const Tensor& t) {
  out << name << ' ' << DTypeName(t.dtype) << ' ' << t.shape.size();
  for (int64_t extent : t.shape) out << ' ' << extent;
  out << " :";
  for (size_t i = 0; i < t.count; ++i) {
    switch (t.dtype) {
#define GRIDSAMPLE_DTYPE(Enum, ...)              \
  case DType::k##Enum:                           \
    out << ' ' << Element<DType::k##Enum>(t, i); \
    break;
#include "gridsample/dtypes.inc"
    }
  }
  out << '\n';
}

// The extents cases draw from, per rank: small enough that the file stays under 1 MB.
const std::vector<int64_t>& InputExtents(size_t rank) {
  static const std::vector<int64_t> kExtents[] = {
      {}, {1, 2, 3, 5}, {1, 2, 3, 4}, {1, 2, 3}, {1, 2}};
  return kExtents[rank];
}
const std::vector<int64_t>& OutputExtents(size_t rank) {
  static const std::vector<int64_t> kExtents[] = {{}, {1, 2, 3, 4}, {1, 2, 3}, {1, 2}, {1, 2}};
  return kExtents[rank];
}

int64_t Pick(const std::vector<int64_t>& from, Rng* rng) { return from[(*rng)() % from.size()]; }

int WriteVectors(uint64_t seed) {
  std::vector<DType> x_types, grid_types;
#define GRIDSAMPLE_DTYPE(Enum, ...) x_types.push_back(DType::k##Enum);
#include "gridsample/dtypes.inc"
  for (DType dtype : x_types) {
    if (IsGridDType(dtype)) grid_types.push_back(dtype);
  }
  const Mode modes[] = {Mode::kLinear, Mode::kNearest, Mode::kCubic};
  const Padding paddings[] = {Padding::kZeros, Padding::kBorder, Padding::kReflection};

  Rng rng(seed);
  std::ostream& out = std::cout;
  out << "# GridSample reference vectors: generated, do not edit. Format: tests/data/README.md.\n"
      << "# scripts/gen_vectors.sh (bindings/tools/gen_vectors.cc --seed " << seed
      << "): Y is the native scalar reference's output.\n";
  size_t cases = 0;
  for (DType x_type : x_types) {
    for (size_t rank = 1; rank <= 4; ++rank) {
      for (Mode mode : modes) {
        if (x_type == DType::kString && mode != Mode::kNearest) continue;
        for (Padding padding : paddings) {
          for (bool align_corners : {false, true}) {
            const DType grid_type = grid_types[cases % grid_types.size()];
            std::vector<int64_t> x_shape = {1 + static_cast<int64_t>(rng() % 2),
                                            1 + static_cast<int64_t>(rng() % 2)};
            std::vector<int64_t> grid_shape = {x_shape[0]};
            for (size_t axis = 0; axis < rank; ++axis) {
              x_shape.push_back(Pick(InputExtents(rank), &rng));
              grid_shape.push_back(Pick(OutputExtents(rank), &rng));
            }
            grid_shape.push_back(static_cast<int64_t>(rank));
            Tensor x(x_type, x_shape), grid(grid_type, grid_shape);
            switch (x_type) {
#define GRIDSAMPLE_DTYPE(Enum, ...)        \
  case DType::k##Enum:                     \
    FillX<DType::k##Enum>(&x, mode, &rng); \
    break;
#include "gridsample/dtypes.inc"
            }
            switch (grid_type) {
#define GRIDSAMPLE_DTYPE(Enum, ...)        \
  case DType::k##Enum:                     \
    FillGrid<DType::k##Enum>(&grid, &rng); \
    break;
#include "gridsample/dtypes.inc"
            }
            std::vector<int64_t> y_shape;
            Status status = OutputShape(x_shape.data(), x_shape.size(), grid_shape.data(),
                                        grid_shape.size(), &y_shape);
            Tensor y(x_type, status.ok() ? y_shape : std::vector<int64_t>{});
            Options options;
            options.mode = mode;
            options.padding = padding;
            options.align_corners = align_corners;
            if (status.ok()) {
              status = ReferenceGridSample(x.view(), grid.view(), y.mutable_view(), options);
            }
            const std::string name = std::string(DTypeName(x_type)) + "_r" + std::to_string(rank) +
                                     "_" + ModeName(mode) + "_" + PaddingName(padding) + "_ac" +
                                     (align_corners ? "1" : "0") + "_g" + DTypeName(grid_type);
            if (!status.ok()) {
              std::cerr << "gen_vectors: " << name << ": " << status.message() << "\n";
              return 1;
            }
            out << "case " << name << "\nattrs mode=" << ModeName(mode)
                << " padding=" << PaddingName(padding)
                << " align_corners=" << (align_corners ? 1 : 0) << "\n";
            WriteTensor(out, "x", x);
            WriteTensor(out, "grid", grid);
            WriteTensor(out, "y", y);
            out << "end\n";
            ++cases;
          }
        }
      }
    }
  }
  std::cerr << "gen_vectors: " << cases << " cases\n";
  return 0;
}

}  // namespace
}  // namespace gridsample

int main(int argc, char** argv) {
  uint64_t seed = gridsample::kDefaultSeed;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: gridsample_gen_vectors [--seed N] > reference_vectors.txt\n");
      return 2;
    }
  }
  return gridsample::WriteVectors(seed);
}
