// ssd_backward's kernels on the interpreter against the float64 reference backward
// (ReferenceBackward.h, itself checked against finite differences): every gradient, on small
// problems that hold every option between them (ragged T, groups, D per head and per channel,
// z, dt bias and softplus, dt limits, initial states, packed sequences, chunks of 16 to 64,
// fp32 and bf16 data). The [gpu] case runs the same on the GPU.
#include "kernels/mamba2/SsdBackward.h"
#include "kernels/mamba2/ErrorMetrics.h"
#include "kernels/mamba2/ReferenceBackward.h"
#include "test/unit/mamba2/Mamba2TestUtil.h"
#include "test/unit/mamba2/StoredTensor.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <memory>
#include <random>

using namespace tile;
using namespace tile::mamba2;
using tile::mamba2::test::Problem;
using tile::mamba2::test::ProblemSpec;
using tile::mamba2::test::Stored;

namespace {

struct Case {
  const char *name;
  ProblemSpec spec;
  int chunk = 16;
  interp::DType dtype = interp::DType::Float32; // x, z, B, C
  bool packed = false;                          // seq_idx: row 0's sequences start at T/3 and 2T/3
  double tol = 2e-5;                            // max abs error over the gradient's RMS
};

void run(const Case &c, jit::Backend &backend) {
  INFO("case " << c.name << ": " << c.spec.str() << " chunk " << c.chunk);
  const ProblemSpec &s = c.spec;
  const Problem p(s, 21);
  const interp::DType f32 = interp::DType::Float32;
  std::vector<std::unique_ptr<Stored>> keep;
  auto store = [&](const Tensor &t, interp::DType type) -> const Stored & {
    keep.push_back(std::make_unique<Stored>(t, type, false, backend));
    return *keep.back();
  };
  const Stored &x = store(p.x, c.dtype), &dt = store(p.dt, f32), &A = store(p.A, f32), &B = store(p.B, c.dtype),
               &C = store(p.C, c.dtype);
  SsdArrayInputs in{x.array, dt.array, A.array, B.array, C.array};
  SsdInputs ref{x.rounded, dt.rounded, A.rounded, B.rounded, C.rounded};
  if (s.dRank) {
    const Stored &v = store(p.D, f32);
    in.D = v.array, ref.D = v.rounded.view();
  }
  if (s.z) {
    const Stored &v = store(p.z, c.dtype);
    in.z = v.array, ref.z = v.rounded.view();
  }
  if (s.dtBias) {
    const Stored &v = store(p.dtBias, f32);
    in.dtBias = v.array, ref.dtBias = v.rounded.view();
  }
  if (s.initialStates) {
    const Stored &v = store(p.initialStates, f32);
    in.initialStates = v.array, ref.initialStates = v.rounded.view();
  }
  if (c.packed) {
    Tensor seq({s.b, s.T});
    for (int64_t t = 0; t < s.T; ++t)
      seq({0, t}) = double(3 * t / s.T);
    const Stored &v = store(seq, interp::DType::Int32);
    in.seqIdx = v.array, ref.seqIdx = v.rounded.view();
  }
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> dist(-1, 1);
  Tensor dy({s.b, s.T, s.H, s.P}), dFinal({s.b, s.H, s.P, s.N});
  for (double &v : dy.data)
    v = dist(rng);
  for (double &v : dFinal.data)
    v = dist(rng);
  const Stored &dyStored = store(dy, f32), &dFinalStored = store(dFinal, f32);

  ForwardOptions options;
  options.chunkSize = c.chunk;
  options.dt = s.options;
  const SsdGradientOutputs got = ssdBackward(backend, in, dyStored.array, dFinalStored.array, options);
  const SsdGradients want = referenceBackward(ref, dyStored.rounded, dFinalStored.rounded.view(), s.options);

  const SsdGradients gotValues{got.dx.values(),
                               got.ddt.values(),
                               got.dA.values(),
                               got.dB.values(),
                               got.dC.values(),
                               s.dRank ? got.dD.values() : Tensor(),
                               s.z ? got.dz.values() : Tensor(),
                               s.dtBias ? got.dDtBias.values() : Tensor(),
                               s.initialStates ? got.dInitialStates.values() : Tensor()};
  const auto gotNamed = namedGradients(gotValues), wantNamed = namedGradients(want);
  REQUIRE(gotNamed.size() == wantNamed.size());
  for (size_t i = 0; i < gotNamed.size(); ++i) {
    const auto &[name, expected] = wantNamed[i];
    REQUIRE(gotNamed[i].first == name);
    REQUIRE(gotNamed[i].second->shape == expected->shape);
    const ErrorStats e = compare(*gotNamed[i].second, *expected);
    std::printf("ssd backward %-38s d%-15s %s\n", c.name, name.c_str(), e.str(expected->shape).c_str());
    CHECK(e.relToRms < c.tol);
  }
}

std::vector<Case> cases() {
  const auto spec = ProblemSpec::of;
  std::vector<Case> list;
  {
    Case c{"ragged fp32 D(H) z bias softplus init", spec(2, 40, 4, 8, 2, 8)};
    c.spec.dRank = 1, c.spec.z = true, c.spec.dtBias = true, c.spec.initialStates = true;
    c.spec.options.dtSoftplus = true;
    list.push_back(c);
  }
  {
    // Headdim 12 (padded to 16 in the chunk kernel), D per channel, dt limits, chunk 32.
    Case c{"P12 D(H,P) dt limits chunk 32", spec(1, 45, 2, 12, 1, 16), 32};
    c.spec.dRank = 2;
    c.spec.options.dtMin = 0.05, c.spec.options.dtMax = 0.3;
    list.push_back(c);
  }
  {
    Case c{"packed init z softplus chunk 64", spec(1, 100, 4, 16, 2, 16), 64, interp::DType::Float32, true};
    c.spec.z = true, c.spec.initialStates = true, c.spec.dtBias = true, c.spec.options.dtSoftplus = true;
    list.push_back(c);
  }
  {
    // bf16 data: the recomputed states are stored in bf16, as the forward keeps them.
    Case c{"bf16 D z", spec(1, 37, 4, 16, 2, 16), 16, interp::DType::BFloat16};
    c.spec.dRank = 1, c.spec.z = true;
    c.tol = 2e-2;
    list.push_back(c);
  }
  return list;
}

} // namespace

TEST_CASE("mamba2 interpreted: ssd_backward matches the float64 reference backward",
          "[mamba2][interpreter][backward]") {
  for (const Case &c : cases())
    run(c, test::interpreter());
}

TEST_CASE("mamba2 interpreted: every autotune configuration of the backward kernels",
          "[mamba2][interpreter][backward]") {
  // Each configuration of each tuned backward kernel forced in turn (the others in their first),
  // on the case with z (bwd_gate runs) and headdim 16.
  Case c = cases()[2];
  c.name = "packed init z softplus, forced";
  const std::pair<const char *, int> kernels[] = {
      {"bwd_gate", 3}, {"bwd_pass_state", 4}, {"bwd_chunk", 3}, {"bwd_dt", 3}};
  for (const auto &[kernel, count] : kernels)
    for (int config = 0; config < count; ++config) {
      const std::string rule = std::string(kernel) + ":" + std::to_string(config);
      INFO("TILE_AUTOTUNE_FORCE=" << rule);
      jit::Backend backend(test::interpreterForcing(rule));
      run(c, backend);
    }
}

TEST_CASE("gpu: ssd_backward matches the float64 reference backward", "[gpu][mamba2][backward]") {
  TILE_REQUIRE_GPU(device);
  jit::BackendOptions options;
  options.choice = jit::BackendOptions::Choice::Gpu;
  jit::Backend backend(options);
  for (const Case &c : cases())
    run(c, backend);
}

TEST_CASE("mamba2: ssd_backward checks the gradients' shapes", "[mamba2][backward]") {
  ProblemSpec s;
  s.b = 1, s.T = 8, s.H = 2, s.P = 4, s.G = 1, s.N = 4;
  const Problem p(s);
  const interp::DType f32 = interp::DType::Float32;
  const Stored x(p.x, f32, false), dt(p.dt, f32, false), A(p.A, f32, false), B(p.B, f32, false), C(p.C, f32, false);
  const Stored dy(Tensor({1, 8, 2, 5}), f32, false), dFinal(Tensor({1, 2, 4, 3}), f32, false);
  const SsdArrayInputs in{x.array, dt.array, A.array, B.array, C.array};
  CHECK_THROWS_WITH(ssdBackward(test::interpreter(), in, dy.array),
                    "ssd_backward: dy has shape (1, 8, 2, 5) but expected (1, 8, 2, 4)");
  const Stored dyOk(Tensor({1, 8, 2, 4}), f32, false);
  CHECK_THROWS_WITH(ssdBackward(test::interpreter(), in, dyOk.array, dFinal.array),
                    "ssd_backward: dfinal_states has shape (1, 2, 4, 3) but expected (1, 2, 4, 4)");
}
