// Random Mamba-2 problems on tiny shapes for the reference tests (every input owned here, the
// optional ones present as asked, and SsdInputs views over them), and the error bound of
// ssd_forward's outputs that the interpreted and the GPU tests assert.
#pragma once

#include "kernels/mamba2/Reference.h"
#include "runtime/DType.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace tile::mamba2::test {

struct ProblemSpec {
  std::int64_t b = 1, T = 1, H = 1, P = 1, G = 1, N = 1;

  /// A spec of these dimensions, no optional input.
  static ProblemSpec of(std::int64_t b, std::int64_t T, std::int64_t H, std::int64_t P, std::int64_t G,
                        std::int64_t N) {
    ProblemSpec s;
    s.b = b, s.T = T, s.H = H, s.P = P, s.G = G, s.N = N;
    return s;
  }
  int dRank = 0; // 0: no D, 1: (H,), 2: (H, P)
  bool z = false, initialStates = false, dtBias = false;
  SsdOptions options;

  std::string str() const {
    return "b=" + std::to_string(b) + " T=" + std::to_string(T) + " H=" + std::to_string(H) +
           " P=" + std::to_string(P) + " G=" + std::to_string(G) + " N=" + std::to_string(N) + " D" +
           std::to_string(dRank) + (z ? " z" : "") + (initialStates ? " init" : "") + (dtBias ? " bias" : "") +
           (options.dtSoftplus ? " softplus" : "") + " limits (" + std::to_string(options.dtMin) + ", " +
           std::to_string(options.dtMax) + ")";
  }
};

struct Problem {
  ProblemSpec spec;
  Tensor x, dt, A, B, C, D, z, dtBias, initialStates;

  explicit Problem(const ProblemSpec &s, unsigned seed = 1) : spec(s) {
    std::mt19937_64 rng(seed);
    auto fill = [&](Shape shape, double lo, double hi) {
      Tensor t(std::move(shape));
      std::uniform_real_distribution<double> dist(lo, hi);
      for (double &v : t.data)
        v = dist(rng);
      return t;
    };
    x = fill({s.b, s.T, s.H, s.P}, -1, 1);
    // Without softplus dt is the step itself: keep it mostly positive but let some go
    // negative, so the clamp at dt_min is exercised.
    dt = s.options.dtSoftplus ? fill({s.b, s.T, s.H}, -3, 1) : fill({s.b, s.T, s.H}, -0.05, 0.4);
    A = fill({s.H}, -2, -0.2);
    B = fill({s.b, s.T, s.G, s.N}, -1, 1);
    C = fill({s.b, s.T, s.G, s.N}, -1, 1);
    if (s.dRank == 1)
      D = fill({s.H}, -1, 1);
    if (s.dRank == 2)
      D = fill({s.H, s.P}, -1, 1);
    if (s.z)
      z = fill({s.b, s.T, s.H, s.P}, -2, 2);
    if (s.dtBias)
      dtBias = fill({s.H}, -0.5, 0.5);
    if (s.initialStates)
      initialStates = fill({s.b, s.H, s.P, s.N}, -1, 1);
  }

  /// The input named as in SsdGradients' names ("x", "dt_bias", "initial_states", ...).
  Tensor &input(const std::string &name) {
    if (name == "x")
      return x;
    if (name == "dt")
      return dt;
    if (name == "A")
      return A;
    if (name == "B")
      return B;
    if (name == "C")
      return C;
    if (name == "D")
      return D;
    if (name == "z")
      return z;
    if (name == "dt_bias")
      return dtBias;
    return initialStates;
  }

  SsdInputs inputs() const {
    SsdInputs in{x, dt, A, B, C, {}, {}, {}, {}};
    if (spec.dRank)
      in.D = D.view();
    if (spec.z)
      in.z = z.view();
    if (spec.dtBias)
      in.dtBias = dtBias.view();
    if (spec.initialStates)
      in.initialStates = initialStates.view();
    return in;
  }
};

/// Unit roundoff (round to nearest) of a floating dtype: 2^-p for p significant bits.
inline double unitRoundoff(rt::DType dtype) {
  switch (dtype) {
  case rt::DType::BFloat16:
    return std::ldexp(1.0, -8);
  case rt::DType::Float16:
  case rt::DType::TFloat32:
    return std::ldexp(1.0, -11);
  case rt::DType::Float64:
    return std::ldexp(1.0, -53);
  default:
    return std::ldexp(1.0, -24);
  }
}

/// The elementwise bound (atol + rtol*|ref|) of an ssd_forward output against the float64
/// reference, from the precision of the computation (docs/mamba2.md, "How the tests bound the
/// error"). Every output element is a sum of many terms, each carrying the relative rounding
/// error of its factors: u_op, the unit roundoff of the products' operands (16-bit data:
/// bf16 2^-8 or fp16 2^-11 natively, 2^-11 in tf32), or for fp32 data the error the decays
/// exp(s_i - s_j) inherit from cumulative sums s of size up to maxDACumsum (absolute error
/// ~ 2^-24 * |s| in the argument is a relative error of the exponential). With random-sign
/// terms that error is ~u_op * rms(ref), whatever the length of the sums, so atol is a multiple
/// of u_op * rms(ref): 8 for 16-bit data (roundings chain through three products: weighted B,
/// states, masked C.B^T), 16 for fp32 (the exponent error). rtol covers the rounding of the
/// stored result (y in its dtype, bf16 states): 2 * its unit roundoff.
/// Calibrated on the interpreter, which rounds exactly where the GPU does (it reproduces the
/// H200's worst y, 5.7e-2 of its RMS at headdim 128, dstate 256): no element of any
/// configuration of SsdGpuTest or SsdInterpretedTest lies outside; with atol at half the
/// multiple, one element of 65792 would (bf16, dstate 256). The largest errors reach 4 to 15
/// u_op * rms for 16-bit data (beyond 8 only where |y| is large and rtol covers it) and 3 to 8
/// 2^-24 * maxDACumsum * rms for fp32. Not covered: bf16 with the z gate on top of D per
/// channel and initial states at nheads 16 puts one element of 266240 outside (at t = 0).
struct Tolerance {
  double atol = 0, rtol = 0;
};
inline Tolerance ssdTolerance(rt::DType data, bool tf32, rt::DType stored, double refRms, double maxDACumsum) {
  const bool sixteen = data == rt::DType::BFloat16 || data == rt::DType::Float16;
  const double uOp = !sixteen ? std::ldexp(1.0, -24) * std::max(1.0, maxDACumsum)
                     : tf32   ? unitRoundoff(rt::DType::TFloat32)
                              : unitRoundoff(data);
  const double uStored = stored == rt::DType::Float32 ? 0.0 : unitRoundoff(stored);
  return {(sixteen ? 8.0 : 16.0) * uOp * refRms, 2.0 * uStored};
}

/// max |v| over a tensor (0 when empty).
inline double maxAbs(const Tensor &t) {
  double m = 0;
  for (double v : t.data)
    m = std::max(m, std::abs(v));
  return m;
}

} // namespace tile::mamba2::test
