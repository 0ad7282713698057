#include "tools/tile-run/Compare.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tile::run {

using interp::DType;

std::pair<double, double> defaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return {1e-12, 1e-12};
  case DType::Float32:
    // f32 results are mostly sums, which the GPU adds in another order: measured 9e-7 of the
    // value on a K = 70 product, 2.9e-6 absolute where terms cancel.
    return {1e-5, 1e-5};
  case DType::TFloat32:
    return {2e-3, 2e-3}; // two tf32 ulps (2^-9)
  case DType::Float16:
    return {2e-3, 2e-3}; // two f16 ulps (2^-9)
  case DType::BFloat16:
    return {1.6e-2, 1.6e-2}; // two bf16 ulps (2^-6)
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return {0.25, 0.25};
  default:
    return {0, 0}; // integers and bool: exact
  }
}

std::pair<double, double> toleranceFor(const ArrayArg &interpreted) {
  auto [rtol, atol] = defaultTolerance(interpreted.dtype);
  if (!interp::isFloat(interpreted.dtype) || rtol == 0)
    return {rtol, atol};
  // The array's scale: its RMS over finite elements.
  double sumSq = 0;
  int64_t finite = 0;
  const char *base = static_cast<const char *>(interpreted.view.data);
  const int64_t size = interp::dtypeSize(interpreted.dtype);
  forEachElement(interpreted.view, [&](int64_t, int64_t offset) {
    const double v = interp::readFloat(base + offset * size, interpreted.dtype);
    if (std::isfinite(v))
      sumSq += v * v, ++finite;
  });
  const double rms = finite ? std::sqrt(sumSq / double(finite)) : 0.0;
  return {rtol, std::max(atol, rtol * rms)};
}

namespace {

double elementValue(const char *p, DType dtype) {
  return interp::isFloat(dtype) ? interp::readFloat(p, dtype) : double(interp::readInt(p, dtype));
}

} // namespace

Comparison compare(const ArrayArg &a, const char *gpuBytes, double rtol, double atol) {
  Comparison c;
  const interp::HostArray &v = a.view;
  const char *base = static_cast<const char *>(v.data);
  const char *interpAlloc = a.bytes.data();
  const int64_t esize = interp::dtypeSize(v.dtype);
  forEachElement(v, [&](int64_t k, int64_t offset) {
    std::ptrdiff_t at = (base - interpAlloc) + offset * esize;
    double want = elementValue(interpAlloc + at, v.dtype), got = elementValue(gpuBytes + at, v.dtype);
    ++c.compared;
    bool same = (std::isnan(want) && std::isnan(got)) || want == got;
    if (!same) {
      double abs = std::fabs(got - want);
      double rel = want != 0 ? abs / std::fabs(want) : (abs > 0 ? INFINITY : 0);
      if (std::isnan(abs))
        abs = rel = INFINITY;
      c.maxAbs = std::max(c.maxAbs, abs);
      c.maxRel = std::max(c.maxRel, rel);
      if (!(abs <= atol + rtol * std::fabs(want))) {
        if (c.mismatches++ == 0)
          c.firstBad = k, c.firstGpu = got, c.firstInterp = want;
      }
    }
  });
  return c;
}

} // namespace tile::run
