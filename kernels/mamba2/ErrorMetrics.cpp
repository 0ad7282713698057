#include "kernels/mamba2/ErrorMetrics.h"

#include "runtime/Error.h"

#include <cmath>
#include <cstdio>

namespace tile::mamba2 {

namespace {

TensorView withStrides(const TensorView &v) {
  TensorView out = v;
  if (out.strides.empty())
    out.strides = contiguousStrides(out.shape);
  return out;
}

void expectSameShape(const TensorView &actual, const TensorView &ref) {
  if (actual.shape != ref.shape)
    throw rt::Error(rt::Error::Kind::InvalidArgument, "comparing a result of shape " + shapeString(actual.shape) +
                                                          " with a reference of shape " + shapeString(ref.shape));
}

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

} // namespace

ErrorStats compare(const TensorView &actualIn, const TensorView &refIn, double atol, double rtol) {
  expectSameShape(actualIn, refIn);
  const TensorView actual = withStrides(actualIn), ref = withStrides(refIn);
  ErrorStats s;
  s.atol = atol;
  s.rtol = rtol;
  s.count = ref.numElements();
  double sumSq = 0;
  for (std::int64_t i = 0; i < s.count; ++i) {
    const double a = actual.atLinear(i), r = ref.atLinear(i), err = std::fabs(a - r);
    sumSq += r * r;
    // An infinity matches only the same infinity: against an infinite reference the relative
    // tolerance is infinite too, and a finite result would pass. NaN fails every comparison.
    const bool inside = std::isinf(r) || std::isinf(a) ? a == r : err <= atol + rtol * std::fabs(r);
    if (!inside)
      ++s.outside;
    if (std::isnan(err)) {
      if (!std::isnan(s.maxAbsError))
        s.worstIndex = i;
      s.maxAbsError = err;
    } else if (err > s.maxAbsError || s.worstIndex < 0) {
      s.maxAbsError = err;
      s.worstIndex = i;
    }
  }
  s.refRms = s.count ? std::sqrt(sumSq / double(s.count)) : 0.0;
  s.relToRms = s.refRms > 0 ? s.maxAbsError / s.refRms : s.maxAbsError;
  return s;
}

double maxAbsError(const TensorView &actual, const TensorView &ref) { return compare(actual, ref).maxAbsError; }

double rms(const TensorView &ref) { return compare(ref, ref).refRms; }

std::int64_t countOutside(const TensorView &actual, const TensorView &ref, double atol, double rtol) {
  return compare(actual, ref, atol, rtol).outside;
}

std::string ErrorStats::str(const Shape &shape) const {
  std::string s = "max abs err " + sci(maxAbsError) + ", /rms " + sci(relToRms) + " (rms " + sci(refRms) + "), " +
                  std::to_string(outside) + " of " + std::to_string(count) + " outside atol " + sci(atol) + " + rtol " +
                  sci(rtol) + "*|ref|";
  if (worstIndex >= 0 && !shape.empty()) {
    Shape index(shape.size());
    std::int64_t rest = worstIndex;
    for (std::size_t k = shape.size(); k-- > 0;) {
      index[k] = rest % shape[k];
      rest /= shape[k];
    }
    s += " (worst at " + shapeString(index) + ")";
  } else if (worstIndex >= 0) {
    s += " (worst at flat index " + std::to_string(worstIndex) + ")";
  }
  return s;
}

} // namespace tile::mamba2
