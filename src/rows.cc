// The row kernels of the generic path (rows.h), compiled once per target by foreach_target.h;
// the HWY_ONCE block at the end owns the dispatch. Each window path has its own translation
// unit (linear_pairs.cc, channels_last.cc, cubic_quads.cc, nearest.cc), which keeps each compile
// small enough for a 2-core build.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "rows.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "rows.h"

#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace gridsample {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Targets without float64 vectors (Highway 1.0.3's WASM) run the double rows as plain loops.
template <typename T>
constexpr bool kVectorized = !std::is_same<T, double>::value || HWY_HAVE_FLOAT64;

template <typename T>
void MulAddRowT(const T* HWY_RESTRICT values, const T* HWY_RESTRICT weights, T* HWY_RESTRICT acc,
                size_t count) {
  if constexpr (kVectorized<T>) {
    const hn::ScalableTag<T> d;
    for (size_t i = 0; i < count; i += hn::Lanes(d)) {
      hn::Store(hn::MulAdd(hn::Load(d, values + i), hn::Load(d, weights + i), hn::Load(d, acc + i)),
                d, acc + i);
    }
  } else {
    for (size_t i = 0; i < count; ++i) acc[i] += values[i] * weights[i];
  }
}

template <typename T>
void MulRowT(const T* a, const T* HWY_RESTRICT b, T* out, size_t count) {
  if constexpr (kVectorized<T>) {
    const hn::ScalableTag<T> d;
    for (size_t i = 0; i < count; i += hn::Lanes(d)) {
      hn::Store(hn::Mul(hn::Load(d, a + i), hn::Load(d, b + i)), d, out + i);
    }
  } else {
    for (size_t i = 0; i < count; ++i) out[i] = a[i] * b[i];
  }
}

void MulAddRowF32(const float* values, const float* weights, float* acc, size_t count) {
  MulAddRowT(values, weights, acc, count);
}
void MulAddRowF64(const double* values, const double* weights, double* acc, size_t count) {
  MulAddRowT(values, weights, acc, count);
}
void MulRowF32(const float* a, const float* b, float* out, size_t count) {
  MulRowT(a, b, out, count);
}
void MulRowF64(const double* a, const double* b, double* out, size_t count) {
  MulRowT(a, b, out, count);
}
const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

// NOLINTNEXTLINE(google-readability-namespace-comments)
}  // namespace HWY_NAMESPACE
}  // namespace gridsample
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gridsample {

HWY_EXPORT(MulAddRowF32);
HWY_EXPORT(MulAddRowF64);
HWY_EXPORT(MulRowF32);
HWY_EXPORT(MulRowF64);
HWY_EXPORT(TargetName);

void MulAddRow(const float* values, const float* weights, float* acc, size_t count) {
  HWY_DYNAMIC_DISPATCH(MulAddRowF32)(values, weights, acc, count);
}
void MulAddRow(const double* values, const double* weights, double* acc, size_t count) {
  HWY_DYNAMIC_DISPATCH(MulAddRowF64)(values, weights, acc, count);
}
void MulRow(const float* a, const float* b, float* out, size_t count) {
  HWY_DYNAMIC_DISPATCH(MulRowF32)(a, b, out, count);
}
void MulRow(const double* a, const double* b, double* out, size_t count) {
  HWY_DYNAMIC_DISPATCH(MulRowF64)(a, b, out, count);
}
const char* KernelTargetName() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace gridsample
#endif  // HWY_ONCE
