// The float64 reference backward against central finite differences of the reference forward:
// every element of every input's gradient, on small problems that hold every option between
// them (dt bias and softplus, dt limits that clamp some steps, D per head and per channel, the
// z gate, initial states, packed sequences, groups).
#include "kernels/mamba2/ReferenceBackward.h"
#include "kernels/mamba2/ErrorMetrics.h"
#include "test/unit/mamba2/Mamba2TestUtil.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>

using namespace tile::mamba2;
using tile::mamba2::test::Problem;
using tile::mamba2::test::ProblemSpec;

namespace {

struct Case {
  const char *name;
  ProblemSpec spec;
  bool packed = false; // seq_idx with sequences starting at t = 3 and 7 (row 0) and 5 (row 1)
};

// loss = sum(dy * y) + sum(dFinal * final_states) of reference(p).
double loss(const Problem &p, const std::optional<Tensor> &seqIdx, const Tensor &dy, const Tensor &dFinal) {
  SsdInputs in = p.inputs();
  if (seqIdx)
    in.seqIdx = seqIdx->view();
  const SsdResult r = reference(in, p.spec.options);
  double l = 0;
  for (size_t i = 0; i < dy.data.size(); ++i)
    l += dy.data[i] * r.y.data[i];
  for (size_t i = 0; i < dFinal.data.size(); ++i)
    l += dFinal.data[i] * r.finalStates.data[i];
  return l;
}

void run(const Case &c) {
  INFO("case " << c.name << ": " << c.spec.str());
  Problem p(c.spec, 3);
  const ProblemSpec &s = c.spec;
  std::optional<Tensor> seqIdx;
  if (c.packed) {
    seqIdx = Tensor({s.b, s.T});
    for (int64_t t = 0; t < s.T; ++t) {
      (*seqIdx)({0, t}) = t >= 7 ? 2 : t >= 3 ? 1 : 0;
      if (s.b > 1)
        (*seqIdx)({1, t}) = t >= 5 ? 1 : 0;
    }
  }
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> dist(-1, 1);
  Tensor dy({s.b, s.T, s.H, s.P}), dFinal({s.b, s.H, s.P, s.N});
  for (double &v : dy.data)
    v = dist(rng);
  for (double &v : dFinal.data)
    v = dist(rng);

  SsdInputs in = p.inputs();
  if (seqIdx)
    in.seqIdx = seqIdx->view();
  const SsdGradients g = referenceBackward(in, dy, dFinal.view(), s.options);

  // Each input's gradient against (L(v + e) - L(v - e)) / 2e, element by element.
  auto check = [&](const std::string &name, Tensor &input, const Tensor &grad) {
    REQUIRE(grad.shape == input.shape);
    double worst = 0, scale = 0;
    for (double v : grad.data)
      scale = std::max(scale, std::abs(v));
    for (size_t i = 0; i < input.data.size(); ++i) {
      const double v = input.data[i], e = 1e-6 * std::max(1.0, std::abs(v));
      input.data[i] = v + e;
      const double up = loss(p, seqIdx, dy, dFinal);
      input.data[i] = v - e;
      const double down = loss(p, seqIdx, dy, dFinal);
      input.data[i] = v;
      worst = std::max(worst, std::abs((up - down) / (2 * e) - grad.data[i]));
    }
    std::printf("reference backward %-34s d%-15s max |fd - grad| %.3g (max |grad| %.3g, %zu values)\n", c.name,
                name.c_str(), worst, scale, input.data.size());
    CHECK(scale > 0);
    CHECK(worst <= 1e-6 * std::max(1.0, scale));
  };
  for (const auto &[name, grad] : namedGradients(g))
    check(name, p.input(name), *grad);
  CHECK(namedGradients(g).size() == 5u + (s.dRank != 0) + s.z + s.dtBias + s.initialStates);
}

} // namespace

TEST_CASE("mamba2 reference backward matches finite differences", "[mamba2][reference][backward]") {
  const auto spec = ProblemSpec::of;
  std::vector<Case> cases;
  {
    Case c{"D(H) z bias softplus init groups2", spec(2, 9, 4, 3, 2, 4)};
    c.spec.dRank = 1, c.spec.z = true, c.spec.dtBias = true, c.spec.initialStates = true;
    c.spec.options.dtSoftplus = true;
    cases.push_back(c);
  }
  {
    // dt limits that clamp some steps (their gradient is zero), D per channel.
    Case c{"D(H,P) dt limits", spec(1, 11, 2, 4, 1, 3)};
    c.spec.dRank = 2;
    c.spec.options.dtMin = 0.05, c.spec.options.dtMax = 0.3;
    cases.push_back(c);
  }
  {
    // Packed sequences: nothing flows back past a sequence's first position, and the initial
    // state is sequence 0's.
    Case c{"packed init z softplus", spec(2, 10, 2, 3, 2, 4), true};
    c.spec.z = true, c.spec.initialStates = true, c.spec.dtBias = true, c.spec.options.dtSoftplus = true;
    cases.push_back(c);
  }
  for (const Case &c : cases)
    run(c);
}

TEST_CASE("mamba2 reference backward checks the output gradients' shapes", "[mamba2][reference][backward]") {
  ProblemSpec s;
  s.b = 1, s.T = 4, s.H = 2, s.P = 2, s.G = 1, s.N = 2;
  const Problem p(s);
  CHECK_THROWS_WITH(referenceBackward(p.inputs(), Tensor({1, 4, 2, 3})),
                    "ssd backward: dy has shape (1, 4, 2, 3) but expected (1, 4, 2, 2)");
  CHECK_THROWS_WITH(referenceBackward(p.inputs(), Tensor({1, 4, 2, 2}), Tensor({1, 2, 2, 3}).view()),
                    "ssd backward: dfinal_states has shape (1, 2, 2, 3) but expected (1, 2, 2, 2)");
}
