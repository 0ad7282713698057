// How tile-run --backend gpu judges the GPU's arrays against the interpreter's: the tolerance
// of each array (its dtype's, scaled by the array's RMS) and the element-by-element comparison.
#pragma once

#include "tools/tile-run/ArraySpec.h"

#include <cstdint>
#include <utility>

namespace tile::run {

/// The default (rtol, atol) of a dtype: two units in the last place for 16-bit floats and tf32,
/// 1e-5 for f32 (sums in another order, approximate transcendentals), exact for integers.
std::pair<double, double> defaultTolerance(interp::DType dtype);

/// The (rtol, atol) an array is compared with: the dtype's, with atol raised to rtol times the
/// array's RMS (the interpreter's result, finite elements). A sum's rounding scales with its
/// terms, not with its result: an output of a K = 777 product whose terms cancel to near zero
/// keeps errors of the order of its neighbours', which a tolerance relative to the element
/// alone would call a failure. A wrong element is off by the size of a term, far outside.
std::pair<double, double> toleranceFor(const ArrayArg &interpreted);

/// The comparison of one array: elements compared, how many differ beyond the tolerance
/// (NaN against a number counts; NaN against NaN does not), the largest errors, the first bad one.
struct Comparison {
  int64_t compared = 0, mismatches = 0, firstBad = -1;
  double maxAbs = 0, maxRel = 0, firstGpu = 0, firstInterp = 0;
};

/// Compares `a`'s elements (row-major order through its view) with the same elements of
/// `gpuBytes`, a copy of `a.bytes`' allocation: |gpu - interpreter| <= atol + rtol |interpreter|.
Comparison compare(const ArrayArg &a, const char *gpuBytes, double rtol, double atol);

} // namespace tile::run
