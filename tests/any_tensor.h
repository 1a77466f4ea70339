// A tensor of any registered dtype for the dtype, validation and non-finite suites: owns its
// storage, converts test values in and out, and hands out the views GridSample takes. Its half
// and bfloat16 conversions are written here, independently of src/convert.h, so that the tests
// do not trust the code they test.
#ifndef GRIDSAMPLE_TESTS_ANY_TENSOR_H_
#define GRIDSAMPLE_TESTS_ANY_TENSOR_H_

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "convert.h"  // the Conversion enum only
#include "gridsample/gridsample.h"
#include "reference.h"

namespace gridsample {
namespace test {

// ---------------------------------------------------------------------------------------------
// IEEE binary16 and bfloat16, by the textbook.

inline float HalfBitsToFloat(uint16_t h) {
  const bool negative = (h & 0x8000u) != 0;
  const int exponent = (h >> 10) & 0x1F;
  const int mantissa = h & 0x3FF;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa != 0 ? std::numeric_limits<float>::quiet_NaN()
                              : std::numeric_limits<float>::infinity();
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
  }
  return negative ? -magnitude : magnitude;
}

// Rounds to nearest, ties to even; |f| >= 65520 (the tie above the largest half) is inf.
inline uint16_t FloatToHalfBits(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000u : 0u;
  if (std::isnan(f)) return static_cast<uint16_t>(sign | 0x7E00u);
  const double a = std::fabs(static_cast<double>(f));
  if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7C00u);
  if (a < std::ldexp(1.0, -14)) {  // subnormal: a count of 2^-24 units (1024 becomes normal)
    const double units = std::nearbyint(std::ldexp(a, 24));
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(units));
  }
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  int exponent = e - 1;
  double mantissa = std::nearbyint(std::ldexp(a, 10 - exponent));  // in [1024, 2048]
  if (mantissa == 2048.0) {
    mantissa = 1024.0;
    ++exponent;
  }
  return static_cast<uint16_t>(sign | ((exponent + 15) << 10) |
                               (static_cast<int>(mantissa) - 1024));
}

inline float BFloat16BitsToFloat(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

inline uint16_t FloatToBFloat16Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  const uint32_t low = u & 0xFFFFu;
  uint32_t high = u >> 16;
  if (low > 0x8000u || (low == 0x8000u && (high & 1u) != 0)) ++high;  // carries into exponent
  return static_cast<uint16_t>(high);
}

inline bool HalfBitsAreNaN(uint16_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0; }
inline bool BFloat16BitsAreNaN(uint16_t b) { return (b & 0x7F80u) == 0x7F80u && (b & 0x7Fu) != 0; }

// ---------------------------------------------------------------------------------------------
// The registry, seen from the tests.

// How a dtype converts is convert.h's Conversion (a column of dtypes.inc); a new conversion
// needs test support here.
struct DTypeInfo {
  DType dtype;
  const char* name;
  size_t size;  // sizeof(Storage)
  Conversion kind;
  bool compute_double;  // interpolation runs in float64 (else float32)
  bool is_signed;       // integers only
  int digits;           // integers only: value bits (std::numeric_limits<Storage>::digits)
};

template <typename Storage>
constexpr int IntegerDigits() {
  if constexpr (std::is_integral<Storage>::value) {
    return std::numeric_limits<Storage>::digits;
  } else {
    return 0;
  }
}

inline const std::vector<DTypeInfo>& AllDTypes() {
  static const std::vector<DTypeInfo> all = {
#define GRIDSAMPLE_DTYPE(Enum, name, Storage, Compute, ConversionV, ...) \
  {DType::k##Enum,                                                       \
   name,                                                                 \
   sizeof(Storage),                                                      \
   Conversion::ConversionV,                                              \
   std::is_same<Compute, double>::value,                                 \
   std::is_signed<Storage>::value,                                       \
   IntegerDigits<Storage>()},
#include "gridsample/dtypes.inc"
  };
  return all;
}

inline const DTypeInfo& InfoOf(DType dtype) {
  for (const DTypeInfo& info : AllDTypes()) {
    if (info.dtype == dtype) return info;
  }
  static const DTypeInfo unknown = {dtype, "unknown", 0, Conversion::kFloat, false, false, 0};
  return unknown;
}

// The grid dtypes: the floating-point kinds of the registry.
inline std::vector<DType> GridDTypes() {
  std::vector<DType> out;
  for (const DTypeInfo& info : AllDTypes()) {
    if (info.kind == Conversion::kFloat || info.kind == Conversion::kHalf ||
        info.kind == Conversion::kBFloat16) {
      out.push_back(info.dtype);
    }
  }
  return out;
}

inline bool IsFloatingKind(Conversion kind) {
  return kind == Conversion::kFloat || kind == Conversion::kHalf || kind == Conversion::kBFloat16 ||
         kind == Conversion::kComplex;
}

// Integer range of an integer dtype.
inline int64_t IntMin(const DTypeInfo& info) {
  if (!info.is_signed) return 0;
  return info.digits == 63 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << info.digits);
}
inline uint64_t IntMax(const DTypeInfo& info) {
  return info.digits == 64 ? std::numeric_limits<uint64_t>::max()
                           : (uint64_t{1} << info.digits) - 1;
}

// ---------------------------------------------------------------------------------------------
// The tensor.

class AnyTensor {
 public:
  AnyTensor(DType dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
    count_ = 1;
    for (int64_t extent : shape_) count_ *= static_cast<size_t>(extent);
    if (dtype_ == DType::kString) {
      strings_.assign(count_, std::string());
    } else {
      const size_t bytes = count_ * InfoOf(dtype_).size;
      words_.assign((bytes + 7) / 8 + 1, 0);  // never empty, so data() is never null
    }
  }

  DType dtype() const { return dtype_; }
  const DTypeInfo& info() const { return InfoOf(dtype_); }
  const std::vector<int64_t>& shape() const { return shape_; }
  size_t size() const { return count_; }

  TensorView view() const { return TensorView{dtype_, data(), shape_.data(), shape_.size()}; }
  MutableTensorView mutable_view() {
    return MutableTensorView{dtype_, data(), shape_.data(), shape_.size()};
  }
  void* data() { return dtype_ == DType::kString ? static_cast<void*>(strings_.data()) : bytes(); }
  const void* data() const {
    return dtype_ == DType::kString ? static_cast<const void*>(strings_.data()) : bytes();
  }

  // The raw element (kinds stored as integers: half/bfloat16 bits, bool bytes, integers),
  // zero-extended; for wider elements (complex) their first 8 bytes.
  uint64_t Bits(size_t i) const {
    uint64_t v = 0;
    std::memcpy(&v, bytes() + i * info().size, std::min<size_t>(info().size, 8));
    return v;
  }
  void SetBits(size_t i, uint64_t v) {
    std::memcpy(bytes() + i * info().size, &v, std::min<size_t>(info().size, 8));
  }

  // Every byte of the storage, spare bytes included (not strings: they stay as they are).
  void FillBytes(unsigned char byte) {
    if (dtype_ != DType::kString) std::memset(bytes(), byte, words_.size() * 8);
  }

  // Integers, exactly.
  int64_t Int(size_t i) const {
    const int bits = static_cast<int>(info().size * 8);
    uint64_t v = Bits(i);
    if (info().is_signed && bits < 64 && (v >> (bits - 1)) != 0) v |= ~uint64_t{0} << bits;
    return static_cast<int64_t>(v);
  }
  uint64_t UInt(size_t i) const { return Bits(i); }
  void SetInt(size_t i, int64_t v) { SetBits(i, static_cast<uint64_t>(v)); }

  // A real value; the value must be representable (half/bfloat16 round to nearest even).
  // Complex sets the real part (imaginary 0), bool stores v != 0 as 1, string its decimal.
  void Set(size_t i, double v) {
    switch (info().kind) {
      case Conversion::kFloat:
        if (info().size == 4) {
          StoreAs<float>(i, static_cast<float>(v));
        } else {
          StoreAs<double>(i, v);
        }
        return;
      case Conversion::kHalf:
        SetBits(i, FloatToHalfBits(static_cast<float>(v)));
        return;
      case Conversion::kBFloat16:
        SetBits(i, FloatToBFloat16Bits(static_cast<float>(v)));
        return;
      case Conversion::kInt:
        if (info().is_signed) {
          SetInt(i, static_cast<int64_t>(v));
        } else {
          // A negative value wraps as it would through int64_t (converting it to an unsigned
          // type directly is undefined).
          SetBits(
              i, v < 0 ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v));
        }
        return;
      case Conversion::kBool:
        SetBits(i, v != 0 ? 1 : 0);
        return;
      case Conversion::kComplex:
        SetComplex(i, {v, 0.0});
        return;
      case Conversion::kString:
        strings_[i] = std::to_string(static_cast<long long>(v));
        return;
    }
  }

  // ONNX Cast of an exact real value into the element: integers truncate toward zero and
  // saturate (NaN → 0), bool is v != 0, everything else as Set.
  void SetCast(size_t i, double v) {
    if (info().kind == Conversion::kBool) return Set(i, std::isnan(v) ? 0.0 : v);
    if (info().kind != Conversion::kInt) return Set(i, v);
    const double t = std::trunc(v);
    if (std::isnan(v)) {
      SetBits(i, 0);
    } else if (t <= static_cast<double>(IntMin(info()))) {
      SetInt(i, IntMin(info()));
    } else if (t >= std::ldexp(1.0, info().digits)) {
      SetBits(i, IntMax(info()));
    } else if (info().is_signed) {
      SetInt(i, static_cast<int64_t>(t));
    } else {
      SetBits(i, static_cast<uint64_t>(t));
    }
  }

  // The element as a real value (complex: the real part; bool: 0/1 of the raw byte's
  // truth; string: NaN).
  double Get(size_t i) const {
    switch (info().kind) {
      case Conversion::kFloat:
        return info().size == 4 ? static_cast<double>(LoadAs<float>(i)) : LoadAs<double>(i);
      case Conversion::kHalf:
        return HalfBitsToFloat(static_cast<uint16_t>(Bits(i)));
      case Conversion::kBFloat16:
        return BFloat16BitsToFloat(static_cast<uint16_t>(Bits(i)));
      case Conversion::kInt:
        return info().is_signed ? static_cast<double>(Int(i)) : static_cast<double>(UInt(i));
      case Conversion::kBool:
        return Bits(i) != 0 ? 1.0 : 0.0;
      case Conversion::kComplex:
        return Complex(i).real();
      case Conversion::kString:
        break;
    }
    return std::numeric_limits<double>::quiet_NaN();
  }

  std::complex<double> Complex(size_t i) const {
    if (info().size == sizeof(std::complex<float>)) {
      const std::complex<float> c = LoadAs<std::complex<float>>(i);
      return {c.real(), c.imag()};
    }
    return LoadAs<std::complex<double>>(i);
  }
  void SetComplex(size_t i, std::complex<double> c) {
    if (info().size == sizeof(std::complex<float>)) {
      StoreAs(i, std::complex<float>(static_cast<float>(c.real()), static_cast<float>(c.imag())));
    } else {
      StoreAs(i, c);
    }
  }

  const std::string& String(size_t i) const { return strings_[i]; }
  void SetString(size_t i, std::string s) { strings_[i] = std::move(s); }

  // Same element, where NaN equals NaN (any payload) and strings compare by value.
  bool SameElement(size_t i, const AnyTensor& other, size_t j) const {
    switch (info().kind) {
      case Conversion::kString:
        return String(i) == other.String(j);
      case Conversion::kComplex: {
        const std::complex<double> a = Complex(i), b = other.Complex(j);
        return SameReal(a.real(), b.real()) && SameReal(a.imag(), b.imag());
      }
      case Conversion::kFloat:
      case Conversion::kHalf:
      case Conversion::kBFloat16:
        return SameReal(Get(i), other.Get(j));
      case Conversion::kInt:
      case Conversion::kBool:
        return Bits(i) == other.Bits(j);
    }
    return false;
  }

  // The same bits (strings: the same value): NaN payloads and the sign of zero included.
  bool SameBits(size_t i, const AnyTensor& other, size_t j) const {
    if (dtype_ == DType::kString) return String(i) == other.String(j);
    return std::memcmp(bytes() + i * info().size, other.bytes() + j * info().size, info().size) ==
           0;
  }

  // Element i becomes element j of `other`, a tensor of the same dtype.
  void CopyElement(size_t i, const AnyTensor& other, size_t j) {
    if (dtype_ == DType::kString) {
      strings_[i] = other.strings_[j];
    } else {
      std::memcpy(bytes() + i * info().size, other.bytes() + j * info().size, info().size);
    }
  }

  // The whole content, bit for bit (strings by value).
  bool Identical(const AnyTensor& other) const {
    if (dtype_ != other.dtype_ || count_ != other.count_) return false;
    if (dtype_ == DType::kString) return strings_ == other.strings_;
    return words_ == other.words_;
  }

  // Printable element, for failure messages.
  std::string Describe(size_t i) const {
    switch (info().kind) {
      case Conversion::kString:
        return "\"" + String(i) + "\"";
      case Conversion::kComplex: {
        const std::complex<double> c = Complex(i);
        return "(" + Number(c.real()) + ", " + Number(c.imag()) + ")";
      }
      case Conversion::kHalf:
      case Conversion::kBFloat16:
        return Number(Get(i)) + " [0x" + Hex(Bits(i)) + "]";
      case Conversion::kInt:
        return info().is_signed ? std::to_string(Int(i)) : std::to_string(UInt(i));
      case Conversion::kBool:
        return "bool byte " + std::to_string(Bits(i));
      case Conversion::kFloat:
        return Number(Get(i));
    }
    return "?";
  }

 private:
  static bool SameReal(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }
  static std::string Number(double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "%.17g", v);
    return buffer;
  }
  static std::string Hex(uint64_t v) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%llx", static_cast<unsigned long long>(v));
    return buffer;
  }

  unsigned char* bytes() { return reinterpret_cast<unsigned char*>(words_.data()); }
  const unsigned char* bytes() const {
    return reinterpret_cast<const unsigned char*>(words_.data());
  }
  template <typename T>
  T LoadAs(size_t i) const {
    T v;
    std::memcpy(&v, bytes() + i * sizeof(T), sizeof(T));
    return v;
  }
  template <typename T>
  void StoreAs(size_t i, const T& v) {
    std::memcpy(bytes() + i * sizeof(T), &v, sizeof(T));
  }

  DType dtype_;
  std::vector<int64_t> shape_;
  size_t count_ = 0;
  std::vector<uint64_t> words_;  // every dtype but string; 8-byte aligned
  std::vector<std::string> strings_;
};

// "linear, zeros" or "cubic, reflection, align_corners", for failure messages.
inline std::string OptionsText(const Options& o) {
  return std::string(ModeName(o.mode)) + ", " + PaddingName(o.padding) +
         (o.align_corners ? ", align_corners" : "");
}

// A tensor of `dtype` and `shape` holding `values` (see AnyTensor::Set).
inline AnyTensor MakeTensor(DType dtype, std::vector<int64_t> shape,
                            const std::vector<double>& values) {
  AnyTensor t(dtype, std::move(shape));
  for (size_t i = 0; i < values.size() && i < t.size(); ++i) t.Set(i, values[i]);
  return t;
}

// What both implementations made of one call.
struct Results {
  Status fast_status;
  Status ref_status;
  AnyTensor fast;
  AnyTensor ref;
};

// A channels-first tensor (N, C, D1..Dr) transposed to channels-last, (N, D1..Dr, C).
inline AnyTensor ToChannelsLast(const AnyTensor& t) {
  std::vector<int64_t> shape = t.shape();
  if (shape.size() < 3) return t;
  const size_t batch = static_cast<size_t>(shape[0]), channels = static_cast<size_t>(shape[1]);
  size_t plane = 1;
  for (size_t a = 2; a < shape.size(); ++a) plane *= static_cast<size_t>(shape[a]);
  shape.erase(shape.begin() + 1);
  shape.push_back(static_cast<int64_t>(channels));
  AnyTensor last(t.dtype(), shape);
  for (size_t n = 0; n < batch; ++n) {
    for (size_t c = 0; c < channels; ++c) {
      for (size_t p = 0; p < plane; ++p) {
        last.CopyElement((n * plane + p) * channels + c, t, (n * channels + c) * plane + p);
      }
    }
  }
  return last;
}

// Runs GridSample and ReferenceGridSample into fresh outputs of OutputShape's shape (outputs
// of shape {0} when OutputShape fails).
inline Results RunBoth(const AnyTensor& x, const AnyTensor& grid, const Options& options) {
  std::vector<int64_t> y_shape;
  const Status shape_status = OutputShape(x.shape().data(), x.shape().size(), grid.shape().data(),
                                          grid.shape().size(), &y_shape, options.layout);
  if (!shape_status.ok()) {
    return {shape_status, shape_status, AnyTensor(x.dtype(), {0}), AnyTensor(x.dtype(), {0})};
  }
  Results r{Status(), Status(), AnyTensor(x.dtype(), y_shape), AnyTensor(x.dtype(), y_shape)};
  r.fast_status = GridSample(x.view(), grid.view(), r.fast.mutable_view(), options);
  r.ref_status = ReferenceGridSample(x.view(), grid.view(), r.ref.mutable_view(), options);
  return r;
}

// Collects failures of a loop over many configurations so that one assertion reports them.
class Mismatches {
 public:
  void Add(const std::string& what) {
    if (shown_.size() < kMaxShown) shown_.push_back(what);
    ++count_;
  }
  size_t count() const { return count_; }
  std::string Report() const {
    std::string out = std::to_string(count_) + " mismatches";
    for (const std::string& line : shown_) out += "\n  " + line;
    if (count_ > shown_.size()) out += "\n  ...";
    return out;
  }

 private:
  static constexpr size_t kMaxShown = 25;
  std::vector<std::string> shown_;
  size_t count_ = 0;
};

// Compares every element of `actual` with `expected`; `what` names the configuration.
inline void CompareTensors(const AnyTensor& actual, const AnyTensor& expected,
                           const std::string& what, Mismatches* mismatches) {
  if (actual.size() != expected.size()) {
    mismatches->Add(what + ": " + std::to_string(actual.size()) + " elements, expected " +
                    std::to_string(expected.size()));
    return;
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    if (!actual.SameElement(i, expected, i)) {
      mismatches->Add(what + ": element " + std::to_string(i) + " is " + actual.Describe(i) +
                      ", expected " + expected.Describe(i));
    }
  }
}

// Both implementations succeeded and match `expected`.
inline void CompareResults(const Results& r, const AnyTensor& expected, const std::string& what,
                           Mismatches* mismatches) {
  if (!r.fast_status.ok() || !r.ref_status.ok()) {
    mismatches->Add(what + ": failed: GridSample \"" + r.fast_status.message() +
                    "\", ReferenceGridSample \"" + r.ref_status.message() + "\"");
    return;
  }
  CompareTensors(r.fast, expected, what + " (GridSample)", mismatches);
  CompareTensors(r.ref, expected, what + " (ReferenceGridSample)", mismatches);
}

// Element i of a fast path's output agrees with the reference's (same dtype). The two sum the
// same taps in the same order, but the fast path may fuse multiply-adds: floating-point results
// differ in the last bits, integers by one where a sum sits on an integer boundary. The last
// bits are those of the largest term summed; `scale` bounds it (the largest |X| read times the
// kernel's sum of |weights|) where terms may cancel, 0 when the results themselves bound it. An
// infinity agrees only with the same infinity (the relative bound would admit any value).
inline bool AgreesWithReference(const AnyTensor& fast, const AnyTensor& ref, size_t i,
                                double scale = 0) {
  if (fast.SameElement(i, ref, i)) return true;
  const DTypeInfo& info = fast.info();
  auto near = [&](double a, double b, double rel) {
    if (a == b) return true;  // infinities included (a complex part may be one)
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b)) return false;
    return std::fabs(a - b) <= rel * (1.0 + std::max({std::fabs(a), std::fabs(b), scale}));
  };
  // The weights' rounding, magnified by the cubic kernel's sum of |weights| (< 2 per axis).
  const double eps = info.compute_double ? 1e-12 : 2e-5;
  switch (info.kind) {
    case Conversion::kFloat:
      return near(fast.Get(i), ref.Get(i), eps);
    case Conversion::kHalf:
      return near(fast.Get(i), ref.Get(i), 1e-3);  // one half ulp
    case Conversion::kBFloat16:
      return near(fast.Get(i), ref.Get(i), 8e-3);  // one bfloat16 ulp
    case Conversion::kComplex:
      return near(fast.Complex(i).real(), ref.Complex(i).real(), eps) &&
             near(fast.Complex(i).imag(), ref.Complex(i).imag(), eps);
    default:
      // Integers, bool and strings agree exactly: integer outputs are the truncation of an
      // exact sum (convert.h), which the fast path and the reference both compute.
      return false;
  }
}

}  // namespace test
}  // namespace gridsample

#endif  // GRIDSAMPLE_TESTS_ANY_TENSOR_H_
