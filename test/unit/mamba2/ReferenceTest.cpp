// The float64 references of docs/mamba2.md: the sequential recurrence checked by hand on one
// step, and the chunked algorithm (and each of its intermediates) checked against it.
#include "kernels/mamba2/Reference.h"
#include "kernels/mamba2/ErrorMetrics.h"
#include "test/unit/mamba2/Mamba2TestUtil.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tile::mamba2;
using tile::mamba2::test::Problem;
using tile::mamba2::test::ProblemSpec;

namespace {

// Agreement to rounding: max abs error below 1e-12 of the reference's RMS.
void checkClose(const TensorView &actual, const TensorView &ref, const char *what) {
  ErrorStats s = compare(actual, ref);
  INFO(what << ": " << s.str(ref.shape));
  CHECK(s.maxAbsError <= 1e-12 * std::max(1.0, s.refRms));
}

} // namespace

TEST_CASE("mamba2 reference: one step by hand", "[mamba2][reference]") {
  // b = T = H = G = 1, P = N = 2, with bias, softplus, initial state, D per (h, p) and z.
  const double x[2] = {0.5, -1.5}, B[2] = {2.0, -0.25}, C[2] = {-1.0, 3.0};
  const double dt = 0.3, bias = -0.1, A = -0.7, D[2] = {0.25, -2.0}, z[2] = {0.8, -1.1};
  const double S0[4] = {0.1, -0.2, 0.3, 0.4}; // (p, n)
  SsdInputs in{TensorView(x, {1, 1, 1, 2}),
               TensorView(&dt, {1, 1, 1}),
               TensorView(&A, {1}),
               TensorView(B, {1, 1, 1, 2}),
               TensorView(C, {1, 1, 1, 2}),
               {},
               {},
               {},
               {}};
  in.D = TensorView(D, {1, 2});
  in.z = TensorView(z, {1, 1, 1, 2});
  in.dtBias = TensorView(&bias, {1});
  in.initialStates = TensorView(S0, {1, 1, 2, 2});
  SsdOptions options;
  options.dtSoftplus = true;

  const double u = std::log(1 + std::exp(0.2));
  const double decay = std::exp(-0.7 * u);
  double S1[4];
  for (int p = 0; p < 2; ++p)
    for (int n = 0; n < 2; ++n)
      S1[p * 2 + n] = decay * S0[p * 2 + n] + u * x[p] * B[n];
  SsdResult r = reference(in, options);
  for (int p = 0; p < 2; ++p) {
    double y = S1[p * 2] * C[0] + S1[p * 2 + 1] * C[1] + D[p] * x[p];
    y = y * z[p] / (1 + std::exp(-z[p]));
    CHECK(r.y({0, 0, 0, p}) == Approx(y).epsilon(1e-14));
    for (int n = 0; n < 2; ++n)
      CHECK(r.finalStates({0, 0, p, n}) == Approx(S1[p * 2 + n]).epsilon(1e-14));
  }
}

TEST_CASE("mamba2 reference: the step size (bias, softplus, clamp)", "[mamba2][reference]") {
  SsdOptions plain, soft, limited;
  soft.dtSoftplus = true;
  limited.dtSoftplus = true;
  limited.dtMin = 0.01;
  limited.dtMax = 0.1;
  CHECK(stepSize(0.25, 0.0, plain) == 0.25);
  CHECK(stepSize(0.25, 0.5, plain) == 0.75);
  CHECK(stepSize(-0.25, 0.0, plain) == 0.0); // the default clamp to [0, inf) is applied
  CHECK(stepSize(0.0, 0.0, soft) == Approx(std::log(2.0)).epsilon(1e-15));
  CHECK(stepSize(25.0, 0.0, soft) == 25.0); // softplus(v) = v above 20
  CHECK(stepSize(19.0, 1.0, soft) == Approx(std::log1p(std::exp(20.0))).epsilon(1e-15));
  CHECK(stepSize(20.5, 0.0, soft) == 20.5);
  CHECK(stepSize(-10.0, 0.0, limited) == 0.01);
  CHECK(stepSize(5.0, 0.0, limited) == 0.1);
  CHECK(std::isnan(stepSize(std::nan(""), 0.0, limited)));
}

TEST_CASE("mamba2 reference: a clamped-to-zero step keeps the state", "[mamba2][reference]") {
  // dt = -1 without softplus clamps to u = 0: decay 1, no input, so y = S0·C + D x.
  const double x = 2.0, dt = -1.0, A = -1.0, B = 5.0, C = 3.0, D = 0.5, S0 = 0.25;
  SsdInputs in{TensorView(&x, {1, 1, 1, 1}),
               TensorView(&dt, {1, 1, 1}),
               TensorView(&A, {1}),
               TensorView(&B, {1, 1, 1, 1}),
               TensorView(&C, {1, 1, 1, 1}),
               {},
               {},
               {},
               {}};
  in.D = TensorView(&D, {1});
  in.initialStates = TensorView(&S0, {1, 1, 1, 1});
  SsdResult r = reference(in);
  CHECK(r.y.data[0] == 0.25 * 3.0 + 0.5 * 2.0);
  CHECK(r.finalStates.data[0] == 0.25);
}

TEST_CASE("mamba2 reference: chunked equals sequential", "[mamba2][reference]") {
  SsdOptions softplusLimits;
  softplusLimits.dtSoftplus = true;
  softplusLimits.dtMin = 0.02;
  softplusLimits.dtMax = 0.5;
  SsdOptions softplus;
  softplus.dtSoftplus = true;
  // (b, T, H, P, G, N, D rank, z, initial_states, dt_bias, options): ragged T, ngroups 1, 2 and
  // nheads, both D shapes, every optional input.
  const ProblemSpec specs[] = {
      {1, 1, 1, 1, 1, 1, 0, false, false, false, {}},
      {1, 13, 2, 3, 1, 4, 0, false, false, false, {}},
      {2, 37, 4, 3, 2, 5, 1, true, false, true, softplus},
      {1, 29, 3, 2, 3, 3, 2, false, true, false, softplusLimits},
      {2, 16, 4, 4, 1, 2, 2, true, true, true, softplusLimits},
      {1, 33, 6, 2, 2, 3, 1, true, true, true, {}},
      {3, 7, 2, 5, 2, 2, 2, false, true, true, softplus},
  };
  for (const ProblemSpec &spec : specs) {
    Problem problem(spec, 7);
    SsdInputs in = problem.inputs();
    SsdResult seq = reference(in, spec.options);
    for (std::int64_t Q : {4, 8, 16}) {
      INFO(spec.str() << ", chunk " << Q);
      ChunkedResult ch = referenceChunked(in, Q, spec.options);
      CHECK(ch.numChunks == (spec.T + Q - 1) / Q);
      checkClose(ch.y, seq.y, "y");
      checkClose(ch.finalStates, seq.finalStates, "final_states");

      // chunk_cumsum: u and its in-chunk prefix sum of u*A; padding holds u = 0.
      for (std::int64_t b = 0; b < spec.b; ++b)
        for (std::int64_t h = 0; h < spec.H; ++h)
          for (std::int64_t c = 0; c < ch.numChunks; ++c) {
            double s = 0;
            for (std::int64_t l = 0; l < Q; ++l) {
              std::int64_t t = c * Q + l;
              double u = t < spec.T
                             ? stepSize(problem.dt({b, t, h}), spec.dtBias ? problem.dtBias({h}) : 0.0, spec.options)
                             : 0.0;
              s += u * problem.A({h});
              CHECK(ch.dt({b, h, c, l}) == u);
              CHECK(ch.dACumsum({b, h, c, l}) == Approx(s).epsilon(1e-14).margin(1e-15));
            }
          }

      // The state entering chunk c is the sequential final state of the first c*Q positions:
      // run the recurrence on views of the prefix (same strides, shorter T).
      for (std::int64_t c = 0; c < ch.numChunks; ++c) {
        SsdInputs prefix = in;
        const std::int64_t len = c * Q;
        prefix.x = TensorView(problem.x.data.data(), {spec.b, len, spec.H, spec.P}, contiguousStrides(problem.x.shape));
        prefix.dt = TensorView(problem.dt.data.data(), {spec.b, len, spec.H}, contiguousStrides(problem.dt.shape));
        prefix.B = TensorView(problem.B.data.data(), {spec.b, len, spec.G, spec.N}, contiguousStrides(problem.B.shape));
        prefix.C = TensorView(problem.C.data.data(), {spec.b, len, spec.G, spec.N}, contiguousStrides(problem.C.shape));
        if (spec.z)
          prefix.z =
              TensorView(problem.z.data.data(), {spec.b, len, spec.H, spec.P}, contiguousStrides(problem.z.shape));
        Tensor entry({spec.b, spec.H, spec.P, spec.N});
        for (std::int64_t b = 0; b < spec.b; ++b)
          for (std::int64_t h = 0; h < spec.H; ++h)
            for (std::int64_t p = 0; p < spec.P; ++p)
              for (std::int64_t n = 0; n < spec.N; ++n)
                entry({b, h, p, n}) = ch.states({b, c, h, p, n});
        INFO("chunk-entry state " << c);
        checkClose(entry, reference(prefix, spec.options).finalStates, "states");
      }
    }
  }
}

TEST_CASE("mamba2 reference: head h reads group h / (H/G)", "[mamba2][reference]") {
  // H = 4, G = 2: heads 2 and 3 read group 1. The same heads as a G = 1 problem on views
  // (x, dt, A, z of heads 2..3; B, C of group 1) must give bit-identical results.
  ProblemSpec spec{2, 11, 4, 3, 2, 4, 2, true, true, true, {}};
  Problem problem(spec, 3);
  SsdResult full = reference(problem.inputs(), spec.options);

  auto offsetView = [](const Tensor &t, Shape shape, std::int64_t offset) {
    return TensorView(t.data.data() + offset, std::move(shape), contiguousStrides(t.shape));
  };
  SsdInputs sub{offsetView(problem.x, {2, 11, 2, 3}, 2 * 3),
                offsetView(problem.dt, {2, 11, 2}, 2),
                offsetView(problem.A, {2}, 2),
                offsetView(problem.B, {2, 11, 1, 4}, 4),
                offsetView(problem.C, {2, 11, 1, 4}, 4),
                offsetView(problem.D, {2, 3}, 2 * 3),
                offsetView(problem.z, {2, 11, 2, 3}, 2 * 3),
                offsetView(problem.dtBias, {2}, 2),
                offsetView(problem.initialStates, {2, 2, 3, 4}, 2 * 3 * 4)};
  SsdResult part = reference(sub, spec.options);
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t h = 0; h < 2; ++h)
      for (std::int64_t p = 0; p < 3; ++p) {
        for (std::int64_t t = 0; t < 11; ++t)
          CHECK(part.y({b, t, h, p}) == full.y({b, t, h + 2, p}));
        for (std::int64_t n = 0; n < 4; ++n)
          CHECK(part.finalStates({b, h, p, n}) == full.finalStates({b, h + 2, p, n}));
      }
}

TEST_CASE("mamba2 reference: strided views read the same values", "[mamba2][reference]") {
  // x and z as every other element of a (b, T, H, 2P) buffer, B and C as slices of one
  // (b, T, 2, G, N) projection output, D transposed: the results equal the contiguous ones.
  ProblemSpec spec{2, 9, 2, 3, 1, 4, 2, true, false, false, {}};
  Problem problem(spec, 5);
  SsdResult expected = reference(problem.inputs(), spec.options);
  ChunkedResult expectedChunked = referenceChunked(problem.inputs(), 4, spec.options);

  Tensor xBuf({2, 9, 2, 6}), zBuf({2, 9, 2, 6}), bcBuf({2, 9, 2, 1, 4}), dT({3, 2});
  for (std::int64_t i = 0; i < problem.x.numElements(); ++i) {
    xBuf.data[std::size_t(2 * i + 1)] = problem.x.data[std::size_t(i)];
    zBuf.data[std::size_t(2 * i + 1)] = problem.z.data[std::size_t(i)];
  }
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t t = 0; t < 9; ++t)
      for (std::int64_t n = 0; n < 4; ++n) {
        bcBuf({b, t, 0, 0, n}) = problem.B({b, t, 0, n});
        bcBuf({b, t, 1, 0, n}) = problem.C({b, t, 0, n});
      }
  for (std::int64_t h = 0; h < 2; ++h)
    for (std::int64_t p = 0; p < 3; ++p)
      dT({p, h}) = problem.D({h, p});

  SsdInputs in = problem.inputs();
  in.x = TensorView(xBuf.data.data() + 1, {2, 9, 2, 3}, {108, 12, 6, 2});
  in.z = TensorView(zBuf.data.data() + 1, {2, 9, 2, 3}, {108, 12, 6, 2});
  in.B = TensorView(bcBuf.data.data(), {2, 9, 1, 4}, {72, 8, 4, 1});
  in.C = TensorView(bcBuf.data.data() + 4, {2, 9, 1, 4}, {72, 8, 4, 1});
  in.D = TensorView(dT.data.data(), {2, 3}, {1, 2});
  SsdResult r = reference(in, spec.options);
  CHECK(r.y.data == expected.y.data);
  CHECK(r.finalStates.data == expected.finalStates.data);
  ChunkedResult rc = referenceChunked(in, 4, spec.options);
  CHECK(rc.y.data == expectedChunked.y.data);
  CHECK(rc.states.data == expectedChunked.states.data);
}

TEST_CASE("mamba2 reference: empty sequence", "[mamba2][reference]") {
  ProblemSpec spec{2, 0, 2, 3, 1, 2, 1, false, true, false, {}};
  Problem problem(spec);
  SsdResult r = reference(problem.inputs());
  CHECK(r.y.shape == Shape{2, 0, 2, 3});
  CHECK(r.finalStates.data == problem.initialStates.data);
  ChunkedResult ch = referenceChunked(problem.inputs(), 8);
  CHECK(ch.numChunks == 0);
  CHECK(ch.states.shape == Shape{2, 0, 2, 3, 2});
  CHECK(ch.finalStates.data == problem.initialStates.data);
}
