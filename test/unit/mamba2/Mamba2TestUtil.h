// Random Mamba-2 problems on tiny shapes for the reference tests: every input owned here, the
// optional ones present as asked, and SsdInputs views over them.
#pragma once

#include "kernels/mamba2/Reference.h"

#include <random>
#include <string>

namespace tile::mamba2::test {

struct ProblemSpec {
  std::int64_t b = 1, T = 1, H = 1, P = 1, G = 1, N = 1;
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

} // namespace tile::mamba2::test
