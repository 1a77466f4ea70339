// libFuzzer target over the public C++ API (built and run by scripts/fuzz.sh). Each input
// decodes into one call: any X dtype with any grid dtype (and dtypes that are not allowed or
// not in the enum), spatial ranks 1-5 with extents 0-9 or hostile ones (negative, 2^31, 2^40,
// 2^62, INT64_MAX ...), every mode and padding (through ParseMode/ParsePadding, opset-16 names
// and bad strings included, or as raw enum values), align_corners, num_threads, grid values from
// a palette of edge cases or raw bytes, and views that do not fit (see Mutate). The fast path,
// on one of the SIMD targets compiled and supported here, and the reference must then
//   - both fail, with the same code and message, where the call is certainly invalid, and
//     leave y untouched;
//   - both succeed where it is certainly valid;
//   - agree within the per-dtype tolerance of tests/any_tensor.h (AgreesWithReference) on success,
//     and the fast path must give the same bits on one thread as on several.
// Anything else, and any sanitizer report, is a finding: the input is saved and the run stops.
//
// Input layout, in this order (bytes read front to back; a missing byte reads as 0). The seeds
// in corpus/ are written by make_corpus.py in this layout.
//   x dtype     b % (dtypes + 2): the registry's dtypes in order, then two values outside the enum
//   grid dtype  b % 6: float32, float64, float16, bfloat16, x's dtype, a value outside the enum
//   mode        b >= 0xE0: b & 15 bytes of a name follow, for ParseMode; else b % 8: linear
//               bilinear nearest cubic bicubic (ParseMode), "Linear" (refused by ParseMode), or
//               (6, 7) the raw enum value (b >> 3) % 5
//   padding     the same: zeros border reflection, "reflect" (refused), raw (4-7)
//   options     bit 0 align_corners, bits 1-3 num_threads {0, 1, 2, 3, 4, 8, 64, -1}
//   target      index into the SIMD targets
//   rank        r = 1 + b % 5
//   extents     N, C, D1..Dr, D1_out..Dr_out: b % 10, or kHostile[b & 15] for b >= 0xF0
//   mutation    two bytes, kind and parameter (Mutate)
//   seed        8 bytes for the pseudo-random palette entries
//   values      a selector byte per X element, then per grid element (FillX, GridValue); raw
//               entries are followed by their bytes; once the input is used up the selectors
//               are pseudo-random
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "gridsample/gridsample.h"
#include "hwy/targets.h"
#include "reference.h"
#include "tests/any_tensor.h"

namespace gridsample {
namespace {

using test::AnyTensor;
using test::DTypeInfo;

// Keeps one execution to a few milliseconds under the sanitizers: elements of each tensor and
// weighted taps (output elements times taps per element) of one call.
constexpr int64_t kMaxElements = 1 << 12;
constexpr int64_t kMaxTaps = 1 << 17;

constexpr int64_t kHostile[16] = {-1,
                                  -7,
                                  std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max(),
                                  (int64_t{1} << 31) - 1,
                                  int64_t{1} << 31,
                                  int64_t{1} << 32,
                                  int64_t{1} << 40,
                                  (int64_t{1} << 53) + 1,
                                  int64_t{1} << 62,
                                  int64_t{3} << 61,
                                  int64_t{1} << 21,
                                  (int64_t{1} << 16) + 1,
                                  int64_t{1} << 44,
                                  int64_t{1} << 30,
                                  std::numeric_limits<int64_t>::max() - 1};

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t Byte() { return at_ < size_ ? data_[at_++] : 0; }
  // n <= 8 bytes, little-endian.
  uint64_t Bits(size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(Byte()) << (8 * i);
    return v;
  }
  std::string Text(size_t n) {
    std::string s;
    for (size_t i = 0; i < n && !empty(); ++i) s += static_cast<char>(Byte());
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

// The palette's random entries, seeded from the input. The engine's output is specified by
// the standard, and the values are derived from it here rather than by <random>'s
// distributions, which are not: a finding replays the same on every standard library.
class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  uint64_t Next() { return engine_(); }
  double Uniform(double lo, double hi) {
    const double unit = static_cast<double>(Next() >> 11) * 0x1p-53;  // in [0, 1)
    return lo + (hi - lo) * unit;
  }
  int64_t Int(int64_t lo, int64_t hi) {  // in [lo, hi]
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  std::mt19937_64 engine_;
};

std::string ShapeText(const std::vector<int64_t>& shape, bool null) {
  if (null) return "null";
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Element count of a shape, or nothing for a negative extent or a byte size beyond
// PTRDIFF_MAX (an extent of 0 makes it 0 whatever the others are, as in validation).
std::optional<int64_t> Count(const std::vector<int64_t>& shape, size_t element_size) {
  uint64_t product = 1;
  bool overflow = false, empty = false;
  for (int64_t extent : shape) {
    if (extent < 0) return std::nullopt;
    empty = empty || extent == 0;
    overflow = overflow || __builtin_mul_overflow(product, static_cast<uint64_t>(extent), &product);
  }
  if (empty) return 0;
  const uint64_t max_bytes = static_cast<uint64_t>(std::numeric_limits<ptrdiff_t>::max());
  if (overflow || product > max_bytes / std::max<size_t>(element_size, 1)) return std::nullopt;
  return static_cast<int64_t>(product);
}

bool IsGridType(DType dtype) {
  const std::vector<DType> grid_types = test::GridDTypes();
  return std::find(grid_types.begin(), grid_types.end(), dtype) != grid_types.end();
}

// One tensor argument: its view's fields and the storage behind it. Storage is exact when the
// view's own shape has at most kMaxElements elements, otherwise a small stand-in that only a
// call validation must refuse (or that reads nothing) may see.
struct Arg {
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;
  bool null_shape = false;
  bool null_data = false;
  std::optional<AnyTensor> storage;
  bool exact = false;

  void Allocate() {
    const DTypeInfo& info = test::InfoOf(dtype);
    const DType storage_dtype = info.size == 0 ? DType::kComplex128 : dtype;
    const std::optional<int64_t> count = null_shape ? std::nullopt : Count(shape, info.size);
    exact = count && *count <= kMaxElements;
    storage.emplace(storage_dtype, std::vector<int64_t>{exact ? *count : 8});
  }
  const void* data() const { return null_data ? nullptr : storage->data(); }
  TensorView view() const {
    return TensorView{dtype, data(), null_shape ? nullptr : shape.data(), shape.size()};
  }
  std::string Describe(const char* name) const {
    return std::string(name) + " " + DTypeName(dtype) + " (" +
           std::to_string(static_cast<int>(dtype)) + ") " + ShapeText(shape, null_shape) +
           (null_data ? " null data" : "");
  }
};

MutableTensorView MutableView(const Arg& arg, AnyTensor* out) {
  return MutableTensorView{arg.dtype, arg.null_data ? nullptr : out->data(),
                           arg.null_shape ? nullptr : arg.shape.data(), arg.shape.size()};
}

// The decoded call.
struct Case {
  Arg x, grid, y;
  Options options;
  std::string mode_text, padding_text, mutation = "none";
  int64_t target = 0;
  size_t rank = 1;
  std::vector<int64_t> in, out;  // the spatial extents before any mutation
  bool hostile = false;          // an extent came from kHostile
  bool must_fail = false;        // certainly invalid
  std::string why;               // ... because

  void Fail(const std::string& reason) {
    if (!must_fail) why = reason;
    must_fail = true;
  }
  std::string Describe() const {
    return x.Describe("x") + ", " + grid.Describe("grid") + ", " + y.Describe("y") + ", mode " +
           mode_text + " (" + std::to_string(static_cast<int>(options.mode)) + "), padding " +
           padding_text + " (" + std::to_string(static_cast<int>(options.padding)) +
           "), align_corners " + std::to_string(options.align_corners) + ", num_threads " +
           std::to_string(options.num_threads) + ", target " + hwy::TargetName(target) +
           ", mutation " + mutation;
  }
};

[[noreturn]] void Finding(const Case& c, const std::string& what) {
  std::fprintf(stderr, "\n== gridsample_fuzz finding: %s\n   call: %s\n", what.c_str(),
               c.Describe().c_str());
  std::abort();
}

// The SIMD targets to pick from, asked before any SetSupportedTargetsForTest.
const std::vector<int64_t>& Targets() {
  static const std::vector<int64_t> targets = [] {
    hwy::SetSupportedTargetsForTest(0);
    return hwy::SupportedAndGeneratedTargets();
  }();
  return targets;
}

// Decodes the mode or padding byte: a known spelling, a refused one, a fuzzed string or a raw
// enum value. `parse` is ParseMode or ParsePadding; `word` is what its messages must name.
template <typename E, typename ParseFn>
E DecodeAttribute(Reader* in, const char* const (&names)[6], size_t known, ParseFn parse,
                  const char* word, std::string* text, Case* c) {
  const uint8_t b = in->Byte();
  std::optional<std::string> name;
  if (b >= 0xE0) {
    name = in->Text(b & 15);
  } else if (b % 8 <= known) {
    name = names[b % 8];
  }
  if (!name) {
    *text = "raw";
    return static_cast<E>((b >> 3) % 5);  // 3 and 4 are outside the enum
  }
  *text = "\"" + *name + "\"";
  E value{};
  const Status s = parse(*name, &value);
  if (s.ok()) return value;
  // A refused name must say which attribute and quote the value back.
  if (s.code() != StatusCode::kInvalidArgument || s.message().find(word) == std::string::npos ||
      s.message().find("\"" + *name + "\"") == std::string::npos) {
    Finding(*c, std::string("the refusal of ") + *text + " does not name " + word +
                    " and the value: \"" + s.message() + "\"");
  }
  return static_cast<E>(3 + b % 2);  // outside the enum: GridSample must refuse it too
}

// How the views stop fitting: one of them changes after the consistent shapes are built.
void Mutate(Reader* in, Case* c) {
  const uint8_t kind = in->Byte() % 16, param = in->Byte();
  const size_t r = c->rank;
  const int which = param % 3;
  Arg* args[3] = {&c->x, &c->grid, &c->y};
  const char* names[3] = {"x", "grid", "y"};
  // Another extent than e (which may be hostile).
  auto other = [&](int64_t e) { return e >= 0 && e < 1000 ? e + 1 + param % 3 : 3; };
  switch (kind) {
    case 7: {  // grid's last extent is not r
      const int64_t values[4] = {0, static_cast<int64_t>(r) + 1,
                                 r > 1 ? static_cast<int64_t>(r) - 1 : 2,
                                 2 * static_cast<int64_t>(r)};
      c->grid.shape.back() = values[param % 4];
      c->mutation = "grid last extent " + std::to_string(c->grid.shape.back());
      c->Fail("grid's last extent is not r");
      break;
    }
    case 8:  // grid's N is not x's
      c->grid.shape[0] = other(c->grid.shape[0]);
      c->mutation = "grid N " + std::to_string(c->grid.shape[0]);
      c->Fail("grid's N differs from x's");
      break;
    case 9: {  // one extent of y is off
      const size_t axis = param % c->y.shape.size();
      c->y.shape[axis] = (param & 0x80) && c->y.shape[axis] > 0 ? 0 : other(c->y.shape[axis]);
      c->mutation = "y extent " + std::to_string(axis);
      c->Fail("y's shape is not (N, C, D_out...)");
      break;
    }
    case 10:  // y has another rank
      if (param & 1) {
        c->y.shape.push_back(1);
      } else {
        c->y.shape.pop_back();
      }
      c->mutation = "y rank " + std::to_string(c->y.shape.size());
      c->Fail("y's rank is not x's");
      break;
    case 11: {  // y has another dtype
      const auto& all = test::AllDTypes();
      DType d = all[param % all.size()].dtype;
      if (d == c->x.dtype) d = static_cast<DType>(200);
      c->y.dtype = d;
      c->mutation = std::string("y dtype ") + DTypeName(d);
      c->Fail("y's dtype is not x's");
      break;
    }
    case 12:  // null data
      args[which]->null_data = true;
      c->mutation = std::string("null data of ") + names[which];
      break;  // fails unless that tensor is empty: decided once counts are known
    case 13:  // null shape with the rank kept
      args[which]->null_shape = true;
      c->mutation = std::string("null shape of ") + names[which];
      c->Fail("a shape pointer is null");
      break;
    case 14:  // grid has another rank
      if (param & 1) {
        c->grid.shape.insert(c->grid.shape.begin() + 1, 1);
      } else {
        c->grid.shape.erase(c->grid.shape.begin() + 1);
      }
      c->mutation = "grid rank " + std::to_string(c->grid.shape.size());
      c->Fail("grid's rank is not x's");
      break;
    case 15:  // x of rank 0, 1 or 2
      c->x.shape.resize(param % 3);
      c->mutation = "x rank " + std::to_string(c->x.shape.size());
      c->Fail("x's rank is below 3");
      break;
    default:  // 0-6: the views fit
      break;
  }
}

// Decodes everything but the values.
Case Decode(Reader* in) {
  Case c;
  const auto& all = test::AllDTypes();
  const uint8_t xb = in->Byte() % (all.size() + 2);
  c.x.dtype = xb < all.size() ? all[xb].dtype : static_cast<DType>(xb == all.size() ? 99 : -1);
  const uint8_t gb = in->Byte() % 6;
  const DType grid_dtypes[6] = {DType::kFloat32,  DType::kFloat64, DType::kFloat16,
                                DType::kBFloat16, c.x.dtype,       static_cast<DType>(77)};
  c.grid.dtype = grid_dtypes[gb];
  c.y.dtype = c.x.dtype;

  static const char* const kModeNames[6] = {"linear", "bilinear", "nearest",
                                            "cubic",  "bicubic",  "Linear"};
  static const char* const kPaddingNames[6] = {"zeros", "border", "reflection", "reflect", "", ""};
  c.options.mode = DecodeAttribute<Mode>(in, kModeNames, 5, ParseMode, "mode", &c.mode_text, &c);
  c.options.padding =
      DecodeAttribute<Padding>(in, kPaddingNames, 3, ParsePadding, "padding", &c.padding_text, &c);
  const uint8_t flags = in->Byte();
  c.options.align_corners = flags & 1;
  const int threads[8] = {0, 1, 2, 3, 4, 8, 64, -1};
  c.options.num_threads = threads[(flags >> 1) & 7];
  c.target = Targets()[in->Byte() % Targets().size()];
  c.rank = 1 + in->Byte() % 5;

  auto extent = [&] {
    const uint8_t b = in->Byte();
    if (b >= 0xF0) {
      c.hostile = true;
      return kHostile[b & 15];
    }
    return static_cast<int64_t>(b % 10);
  };
  int64_t n = extent(), channels = extent();
  for (size_t a = 0; a < c.rank; ++a) c.in.push_back(extent());
  for (size_t a = 0; a < c.rank; ++a) c.out.push_back(extent());

  // Shrinks small extents until the call is cheap; hostile shapes are refused or skipped
  // anyway. Cubic reads 4^r taps per output element, linear 2^r, nearest 1.
  if (!c.hostile) {
    const int64_t taps = c.options.mode == Mode::kCubic    ? 4
                         : c.options.mode == Mode::kLinear ? 2
                                                           : 1;
    std::vector<int64_t*> extents = {&n, &channels};
    for (int64_t& e : c.in) extents.push_back(&e);
    for (int64_t& e : c.out) extents.push_back(&e);
    for (;;) {
      int64_t in_plane = 1, out_plane = 1, combinations = 1;
      for (size_t a = 0; a < c.rank; ++a) {
        in_plane *= c.in[a];
        out_plane *= c.out[a];
        combinations *= taps;
      }
      const int64_t y_count = n * channels * out_plane;
      if (n * channels * in_plane <= kMaxElements &&
          n * out_plane * static_cast<int64_t>(c.rank) <= kMaxElements && y_count <= kMaxElements &&
          y_count * combinations <= kMaxTaps) {
        break;
      }
      --**std::max_element(extents.begin(), extents.end(),
                           [](int64_t* a, int64_t* b) { return *a < *b; });
    }
  }

  c.x.shape = {n, channels};
  c.x.shape.insert(c.x.shape.end(), c.in.begin(), c.in.end());
  c.grid.shape = {n};
  c.grid.shape.insert(c.grid.shape.end(), c.out.begin(), c.out.end());
  c.grid.shape.push_back(static_cast<int64_t>(c.rank));
  c.y.shape = {n, channels};
  c.y.shape.insert(c.y.shape.end(), c.out.begin(), c.out.end());
  Mutate(in, &c);

  // What certainly makes the call invalid, decided here independently of src/validate.cc.
  auto known = [](DType d) { return test::InfoOf(d).size != 0; };
  const auto grid_types = test::GridDTypes();
  if (!known(c.x.dtype)) c.Fail("x's dtype is not a DType");
  if (!known(c.grid.dtype) ||
      std::find(grid_types.begin(), grid_types.end(), c.grid.dtype) == grid_types.end()) {
    c.Fail("grid's dtype is not a grid type");
  }
  if (static_cast<unsigned>(c.options.mode) > 2) c.Fail("mode is not a Mode");
  if (static_cast<unsigned>(c.options.padding) > 2) c.Fail("padding is not a Padding");
  if (c.options.num_threads < 0) c.Fail("num_threads is negative");
  if (c.x.dtype == DType::kString && c.options.mode != Mode::kNearest) {
    c.Fail("strings only sample with nearest");
  }
  if (!c.hostile) {
    int64_t y_count = n * channels;
    for (int64_t e : c.out) y_count *= e;
    for (int64_t e : c.in) {
      if (e == 0 && y_count > 0) c.Fail("an empty input axis is sampled");
    }
  }
  for (Arg* arg : {&c.x, &c.grid, &c.y}) {
    arg->Allocate();
    if (arg->null_shape) continue;
    const std::optional<int64_t> count = Count(arg->shape, test::InfoOf(arg->dtype).size);
    if (!count) {
      c.Fail("a shape has a negative extent or too many bytes");
    } else if (arg->null_data && *count > 0) {
      c.Fail("data is null for a non-empty tensor");
    }
  }
  return c;
}

// One grid value from the palette of edge cases, for component `component` of a coordinate
// (along spatial axis r - 1 - component, of size `size`).
double GridValue(uint8_t selector, int64_t size, bool align_corners, Random* random) {
  switch (selector % 16) {
    case 0:
      return random->Uniform(-1.2, 1.2);
    case 1:
      return random->Uniform(-3, 3);
    case 2:
      return 0.0;
    case 3:
      return 1.0;
    case 4:
      return -1.0;
    case 5: {  // lands on a pixel centre or exactly between two (a nearest tie)
      const double p = 0.5 * static_cast<double>(random->Int(-2 * size - 4, 2 * size + 4));
      const double s = static_cast<double>(size);
      if (!align_corners) return (2 * p + 1) / s - 1;
      return size > 1 ? 2 * p / (s - 1) - 1 : p;
    }
    case 6:
      return std::numeric_limits<double>::quiet_NaN();
    case 7:
      return std::numeric_limits<double>::infinity();
    case 8:
      return -std::numeric_limits<double>::infinity();
    case 9:
      return 1e30;
    case 10:
      return -1e30;
    case 11:  // a denormal (or 0 in the narrower grid types)
      return (random->Next() & 1 ? 1 : -1) * std::ldexp(1.0, -random->Int(130, 1074));
    case 12:
      return random->Uniform(-1e6, 1e6);
    case 13:
      return 0.5 * static_cast<double>(random->Int(-4, 4));
    case 14:
      return -0.0;
  }
  return std::numeric_limits<double>::quiet_NaN();  // 15: raw, handled by the caller
}

// X values: for floating-point types the same kinds of edge cases (NaN, denormals, huge) but
// bounded so that a sum of taps neither overflows nor sits on the float16 overflow threshold
// (where the last bits of the two implementations legitimately round to 65504 and to inf).
// No infinities: the fast path's float32 cubic weights are only accurate to an ulp of 1, so a
// weight of -3e-8 may come out as 0 or +3e-8 there, and inf times it NaN or -inf instead of
// +inf (reported; the finite results stay within tolerance).
double FloatBound(DType dtype) {
  if (dtype == DType::kFloat16) return 2000.0;
  return dtype == DType::kFloat64 || dtype == DType::kComplex128 ? 1e300 : 1e36;
}

double RealValue(uint8_t selector, DType dtype, Random* random) {
  const double bound = FloatBound(dtype);
  switch (selector % 12) {
    case 0:
      return random->Uniform(-10, 10);
    case 1:
      return static_cast<double>(random->Int(-4, 4));
    case 2:
      return 0.0;
    case 3:
      return std::numeric_limits<double>::quiet_NaN();
    case 4:
      return bound;
    case 5:
      return -bound;
    case 6:
      return random->Uniform(-1, 1);
    case 7:
      return (random->Next() & 1 ? 1 : -1) * std::ldexp(1.0, -random->Int(130, 1074));
    case 8:
      return random->Uniform(-bound, bound);
    default:
      return random->Uniform(-100, 100);
  }
}

// Fills X element i from its selector; returns its magnitude for the tolerance (0 if not
// finite).
double FillX(AnyTensor* x, size_t i, Reader* in, Random* random) {
  const DTypeInfo& info = x->info();
  const uint8_t selector = in->empty() ? static_cast<uint8_t>(random->Next()) : in->Byte();
  const bool raw = selector % 16 == 15;
  switch (info.kind) {
    case Conversion::kString: {
      const char* kinds[4] = {"", "s", "a string long enough to live on the heap, not inline",
                              nullptr};
      const char* k = kinds[selector % 4];
      x->SetString(
          i, k ? std::string(k) + std::to_string(random->Next() % 100) : in->Text(selector >> 5));
      return 0;
    }
    case Conversion::kBool:
      x->SetBits(i, raw ? in->Byte() : random->Next() % 3);  // 2 must read as true
      return 1;
    case Conversion::kInt:
      if (raw) {
        x->SetBits(i, in->Bits(info.size));
      } else {
        switch (selector % 4) {
          case 0:
            x->SetBits(i, random->Next());  // anywhere in the range (the high bits ignored)
            break;
          case 1:
            x->SetInt(i, test::IntMin(info));
            break;
          case 2:
            x->SetBits(i, test::IntMax(info));
            break;
          default:
            x->Set(i, static_cast<double>(random->Int(info.is_signed ? -4 : 0, 8)));
        }
      }
      // Back through Get: wider than the type, SetBits keeps only the type's bytes.
      return std::fabs(x->Get(i));
    default:
      break;
  }
  // Floating point, complex with an independent imaginary part.
  const double bound = FloatBound(info.dtype);
  auto bounded = [&](double v) { return std::fabs(v) > bound ? std::copysign(bound, v) : v; };
  if (raw) {
    x->SetBits(i, in->Bits(std::min<size_t>(info.size, 8)));
    if (info.kind == Conversion::kComplex) {
      const std::complex<double> v = x->Complex(i);
      x->SetComplex(i, {bounded(v.real()), bounded(v.imag())});
    } else if (std::fabs(x->Get(i)) > bound) {
      x->Set(i, bounded(x->Get(i)));
    }
  } else if (info.kind == Conversion::kComplex) {
    x->SetComplex(
        i, {RealValue(selector, info.dtype, random), RealValue(selector >> 4, info.dtype, random)});
  } else {
    x->Set(i, RealValue(selector, info.dtype, random));
  }
  if (info.kind == Conversion::kComplex) {
    const std::complex<double> v = x->Complex(i);
    return std::max(std::isfinite(v.real()) ? std::fabs(v.real()) : 0.0,
                    std::isfinite(v.imag()) ? std::fabs(v.imag()) : 0.0);
  }
  return std::isfinite(x->Get(i)) ? std::fabs(x->Get(i)) : 0.0;
}

// GRIDSAMPLE_FUZZ_VERBOSE=1 prints what each input decodes to (to read a reproducer or a seed).
bool Verbose() {
  static const bool verbose = std::getenv("GRIDSAMPLE_FUZZ_VERBOSE") != nullptr;
  return verbose;
}

void Run(const uint8_t* data, size_t size) {
  Reader in(data, size);
  Case c = Decode(&in);
  Random random(in.Bits(8));

  // Values, into exact storage only (a stand-in is never read by a correct implementation).
  double largest = 0;
  if (c.x.exact) {
    for (size_t i = 0; i < c.x.storage->size(); ++i) {
      largest = std::max(largest, FillX(&*c.x.storage, i, &in, &random));
    }
  }
  if (c.grid.exact && IsGridType(c.grid.dtype)) {
    AnyTensor& grid = *c.grid.storage;
    for (size_t i = 0; i < grid.size(); ++i) {
      const uint8_t selector = in.empty() ? static_cast<uint8_t>(random.Next()) : in.Byte();
      if (selector % 16 == 15) {
        grid.SetBits(i, in.Bits(std::min<size_t>(grid.info().size, 8)));
        continue;
      }
      const size_t component = i % c.rank;
      // A hostile extent only shifts the palette's pixel-exact values.
      const int64_t axis_size = std::clamp<int64_t>(c.in[c.rank - 1 - component], 1, 1 << 20);
      grid.Set(i, GridValue(selector, axis_size, c.options.align_corners, &random));
    }
  }

  // Is the call safe with these buffers? Certainly invalid calls are (a correct validation
  // reads nothing); otherwise every view needs exact storage, or an output of no elements.
  if (!c.must_fail && !(c.x.exact && c.grid.exact && c.y.exact)) {
    std::vector<int64_t> y_shape;
    const Status shape = OutputShape(c.x.null_shape ? nullptr : c.x.shape.data(), c.x.shape.size(),
                                     c.grid.null_shape ? nullptr : c.grid.shape.data(),
                                     c.grid.shape.size(), &y_shape);
    if (!shape.ok()) {
      c.Fail("OutputShape refuses x's and grid's shapes: " + shape.message());
    } else if (Count(y_shape, 1) != 0) {
      if (Verbose()) std::fprintf(stderr, "%s: too big to run here\n", c.Describe().c_str());
      return;
    }
  }
  const bool must_succeed = !c.must_fail && !c.hostile && c.mutation == "none";

  AnyTensor sentinel = *c.y.storage;
  sentinel.FillBytes(0xA5);
  for (size_t i = 0; i < sentinel.size() && sentinel.dtype() == DType::kString; ++i) {
    sentinel.SetString(i, "sentinel");
  }
  AnyTensor y_fast = sentinel, y_ref = sentinel;

  hwy::SetSupportedTargetsForTest(c.target);
  const Status fast = GridSample(c.x.view(), c.grid.view(), MutableView(c.y, &y_fast), c.options);
  hwy::SetSupportedTargetsForTest(0);
  const Status ref =
      ReferenceGridSample(c.x.view(), c.grid.view(), MutableView(c.y, &y_ref), c.options);

  if (Verbose()) {
    std::fprintf(stderr, "%s: %s\n", c.Describe().c_str(),
                 fast.ok() ? "ok" : fast.message().c_str());
  }
  if (fast.code() != ref.code() || fast.message() != ref.message()) {
    Finding(c, "GridSample and ReferenceGridSample disagree: \"" + fast.message() + "\" vs \"" +
                   ref.message() + "\"");
  }
  if (c.must_fail && fast.ok()) Finding(c, "accepted, but " + c.why);
  if (must_succeed && !fast.ok()) Finding(c, "refused a valid call: \"" + fast.message() + "\"");
  if (!fast.ok()) {
    if (fast.message().empty()) Finding(c, "an error without a message");
    if (!y_fast.Identical(sentinel) || !y_ref.Identical(sentinel)) {
      Finding(c, "y was written by a call that failed: \"" + fast.message() + "\"");
    }
    return;
  }

  // Agreement within the tolerance; the cubic kernel's |weights| sum to at most 1.375 per axis.
  const double kernel_sum =
      c.options.mode == Mode::kCubic ? std::pow(1.375, static_cast<double>(c.rank)) : 1.0;
  const double scale = largest * kernel_sum;
  // Integer and bool outputs agree exactly: both truncate the same exact sum.
  auto close = [&](size_t i) { return test::AgreesWithReference(y_fast, y_ref, i, scale); };
  test::Mismatches mismatches;
  for (size_t i = 0; i < y_fast.size(); ++i) {
    if (!close(i)) {
      // The grid coordinate of the element (x, y, ... as the grid holds them), to replay it.
      const size_t channels = static_cast<size_t>(c.y.shape[1]);
      const size_t out_plane = y_fast.size() / static_cast<size_t>(c.y.shape[0]) / channels;
      const size_t n = i / out_plane / channels;
      const size_t location = n * out_plane + i % out_plane;
      std::string coordinate;
      for (size_t k = 0; k < c.rank; ++k) {
        coordinate += (k ? ", " : "") + c.grid.storage->Describe(location * c.rank + k);
      }
      mismatches.Add("element " + std::to_string(i) + " (grid " + coordinate + "): fast " +
                     y_fast.Describe(i) + ", reference " + y_ref.Describe(i));
    }
  }
  if (mismatches.count() > 0) Finding(c, "fast path vs reference: " + mismatches.Report());

  // The thread count does not change a bit.
  if (c.options.num_threads != 1) {
    AnyTensor y_one = sentinel;
    Options one = c.options;
    one.num_threads = 1;
    hwy::SetSupportedTargetsForTest(c.target);
    const Status again = GridSample(c.x.view(), c.grid.view(), MutableView(c.y, &y_one), one);
    hwy::SetSupportedTargetsForTest(0);
    if (!again.ok() || !y_one.Identical(y_fast)) {
      Finding(c,
              "num_threads 1 gives another result than " + std::to_string(c.options.num_threads));
    }
  }
}

}  // namespace
}  // namespace gridsample

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gridsample::Run(data, size);
  return 0;
}
