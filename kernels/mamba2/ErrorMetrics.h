// How a result is compared with the float64 reference, as docs/mamba2.md asks every test to
// report: the max abs error, that error relative to the reference's RMS (scale-free, so one
// figure reads the same for every shape), and the count outside atol + rtol*|ref| — figures,
// not just pass/fail.
#pragma once

#include "kernels/mamba2/HostTensor.h"

#include <cstdint>
#include <string>

namespace tile::mamba2 {

/// max |actual - ref|; NaN if any difference is NaN (a NaN never hides behind a max).
/// Throws tile::rt::Error(InvalidArgument) when the shapes differ.
double maxAbsError(const TensorView &actual, const TensorView &ref);
/// sqrt(mean(ref^2)); 0 for an empty tensor.
double rms(const TensorView &ref);
/// How many elements have |actual - ref| > atol + rtol*|ref| (NaN counts as outside).
std::int64_t countOutside(const TensorView &actual, const TensorView &ref, double atol, double rtol);

struct ErrorStats {
  double maxAbsError = 0;
  double refRms = 0;
  double relToRms = 0;          // maxAbsError / refRms (maxAbsError itself when refRms is 0)
  std::int64_t outside = 0;     // count outside atol + rtol*|ref|
  std::int64_t count = 0;       // elements compared
  std::int64_t worstIndex = -1; // row-major index of the largest error (-1 when empty)
  double atol = 0, rtol = 0;

  /// "max abs err 1.2e-03, /rms 4.5e-03, 0 of 4096 outside atol 3e-03 + rtol 1e-02*|ref|
  ///  (worst at (1, 17, 3, 5))", for test logs.
  std::string str(const Shape &shape = {}) const;
};

ErrorStats compare(const TensorView &actual, const TensorView &ref, double atol = 0, double rtol = 0);

} // namespace tile::mamba2
