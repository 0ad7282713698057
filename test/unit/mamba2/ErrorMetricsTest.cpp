// The figures every accuracy test reports: max abs error, error / RMS, count outside tolerance.
#include "kernels/mamba2/ErrorMetrics.h"
#include "runtime/Error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace tile::mamba2;

TEST_CASE("mamba2 error metrics", "[mamba2][reference]") {
  Tensor ref({2, 2}), actual({2, 2});
  ref.data = {3, -4, 0, 0}; // rms = sqrt(25/4) = 2.5
  actual.data = {3.1, -4, 0.001, -0.5};
  ErrorStats s = compare(actual, ref, 0.01, 0.05);
  CHECK(s.maxAbsError == Approx(0.5));
  CHECK(s.refRms == Approx(2.5));
  CHECK(s.relToRms == Approx(0.2));
  CHECK(s.outside == 1); // 0.1 <= 0.01 + 0.05*3 passes; 0.5 > 0.01 fails
  CHECK(s.count == 4);
  CHECK(s.worstIndex == 3);
  CHECK(s.str(ref.shape) == "max abs err 0.5, /rms 0.2 (rms 2.5), 1 of 4 outside atol 0.01 + "
                            "rtol 0.05*|ref| (worst at (1, 1))");
  CHECK(maxAbsError(actual, ref) == Approx(0.5));
  CHECK(rms(ref) == Approx(2.5));
  CHECK(countOutside(actual, ref, 0.0, 0.0) == 3);
  CHECK(countOutside(actual, ref, 1.0, 0.0) == 0);

  // A strided view compares by logical index: the transpose of `actual` against ref^T.
  Tensor refT({2, 2});
  refT.data = {3, 0, -4, 0};
  CHECK(maxAbsError(TensorView(actual.data.data(), {2, 2}, {1, 2}), refT) == Approx(0.5));

  // NaN is never hidden by the max and always counts as outside.
  actual.data[1] = std::nan("");
  s = compare(actual, ref, 1e9, 0);
  CHECK(std::isnan(s.maxAbsError));
  CHECK(s.worstIndex == 1);
  CHECK(s.outside == 1);

  Tensor other({4});
  CHECK_THROWS_WITH(compare(other, ref), "comparing a result of shape (4,) with a reference of shape (2, 2)");
}

TEST_CASE("mamba2 error metrics: an infinity matches only itself", "[mamba2][reference]") {
  const double inf = std::numeric_limits<double>::infinity();
  Tensor ref({4}), actual({4});
  // A finite result against an infinite reference was inside (the relative tolerance of an
  // infinite reference is infinite); the same infinity is a match, the other sign is not.
  ref.data = {inf, inf, -inf, 1.0};
  actual.data = {1e30, inf, inf, inf};
  ErrorStats s = compare(actual, ref, 1e-2, 1e-2);
  CHECK(s.outside == 3);
  CHECK(countOutside(actual, ref, 1e9, 1e9) == 3);
  actual.data = {inf, inf, -inf, 1.0};
  CHECK(countOutside(actual, ref, 0.0, 0.0) == 0);
}
