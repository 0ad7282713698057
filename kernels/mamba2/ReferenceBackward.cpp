// The reverse of Reference.cpp's recurrence, per batch and head:
//   forward  u_t = clamp(softplus?(dt_t + bias)), a_t = exp(u_t A), S_t = a_t S_{t-1} + u_t x_t ⊗ B_t,
//            y_t = S_t C_t + D x_t, out_t = y_t z_t sigmoid(z_t) (with z)
//   backward G = dL/dS_t, from G_T = dFinalStates down: G += dy_t ⊗ C_t, then the step's
//            inputs take their share and G_{t-1} = a_t G (zero past a sequence's first position).
#include "kernels/mamba2/ReferenceBackward.h"

#include "runtime/Error.h"

#include <cmath>

namespace tile::mamba2 {

namespace {

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// du/d(dt + bias): the clamp passes the gradient only strictly inside the limits, softplus
// contributes sigmoid(v) (the forward passes v through above 20).
double stepSizeDerivative(double dt, double bias, const SsdOptions &options) {
  const double v = dt + bias;
  const double u = stepSize(dt, bias, options);
  if (!(u > options.dtMin && u < options.dtMax))
    return 0.0;
  return options.dtSoftplus && !(v > 20.0) ? sigmoid(v) : 1.0;
}

void expectGradientShape(const char *name, const Shape &actual, const Shape &expected) {
  if (actual != expected)
    throw rt::Error(rt::Error::Kind::InvalidArgument, std::string("ssd backward: ") + name + " has shape " +
                                                          shapeString(actual) + " but expected " +
                                                          shapeString(expected));
}

} // namespace

std::vector<std::pair<std::string, const Tensor *>> namedGradients(const SsdGradients &g) {
  std::vector<std::pair<std::string, const Tensor *>> named;
  for (const auto &[name, t] :
       std::initializer_list<std::pair<const char *, const Tensor *>>{{"x", &g.dx},
                                                                      {"dt", &g.ddt},
                                                                      {"A", &g.dA},
                                                                      {"B", &g.dB},
                                                                      {"C", &g.dC},
                                                                      {"D", &g.dD},
                                                                      {"z", &g.dz},
                                                                      {"dt_bias", &g.dDtBias},
                                                                      {"initial_states", &g.dInitialStates}})
    if (!t->shape.empty())
      named.emplace_back(name, t);
  return named;
}

SsdGradients referenceBackward(const SsdInputs &inputs, const TensorView &dyView,
                               const std::optional<TensorView> &dFinalView, const SsdOptions &options) {
  SsdDims d;
  const SsdInputs in = validateInputs(inputs, options, d);
  const std::int64_t T = d.seqlen, P = d.headdim, N = d.dstate;
  expectGradientShape("dy", dyView.shape, {d.batch, T, d.nheads, P});
  if (dFinalView)
    expectGradientShape("dfinal_states", dFinalView->shape, {d.batch, d.nheads, P, N});
  SsdGradients g;
  g.dx = Tensor(in.x.shape), g.ddt = Tensor(in.dt.shape), g.dA = Tensor(in.A.shape);
  g.dB = Tensor(in.B.shape), g.dC = Tensor(in.C.shape);
  if (in.D)
    g.dD = Tensor(in.D->shape);
  if (in.z)
    g.dz = Tensor(in.z->shape);
  if (in.dtBias)
    g.dDtBias = Tensor(in.dtBias->shape);
  if (in.initialStates)
    g.dInitialStates = Tensor(in.initialStates->shape);

  const auto newSequence = [&](std::int64_t b, std::int64_t t) {
    return in.seqIdx && (*in.seqIdx)({b, t}) != (t > 0 ? (*in.seqIdx)({b, t - 1}) : 0.0);
  };
  // The forward's states, kept per step (float64, P x N each: the oracle runs on small problems).
  std::vector<double> states(std::size_t((T + 1) * P * N)); // S_{t-1} at t, S_{T-1} at T
  std::vector<double> G(std::size_t(P * N));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    for (std::int64_t h = 0; h < d.nheads; ++h) {
      const std::int64_t grp = h / d.headsPerGroup();
      const double A = in.A({h});
      const double bias = in.dtBias ? (*in.dtBias)({h}) : 0.0;
      auto S = [&](std::int64_t t, std::int64_t p, std::int64_t n) -> double & {
        return states[std::size_t((t * P + p) * N + n)];
      };
      // Replay the forward to keep every state (S(t, ...) is the state before step t).
      for (std::int64_t p = 0; p < P; ++p)
        for (std::int64_t n = 0; n < N; ++n)
          S(0, p, n) = in.initialStates ? (*in.initialStates)({b, h, p, n}) : 0.0;
      for (std::int64_t t = 0; t < T; ++t) {
        const double u = stepSize(in.dt({b, t, h}), bias, options), a = std::exp(u * A);
        const bool reset = newSequence(b, t);
        for (std::int64_t p = 0; p < P; ++p)
          for (std::int64_t n = 0; n < N; ++n)
            S(t + 1, p, n) = (reset ? 0.0 : a * S(t, p, n)) + u * in.x({b, t, h, p}) * in.B({b, t, grp, n});
      }
      for (std::int64_t p = 0; p < P; ++p)
        for (std::int64_t n = 0; n < N; ++n)
          G[std::size_t(p * N + n)] = dFinalView ? (*dFinalView)({b, h, p, n}) : 0.0;

      for (std::int64_t t = T - 1; t >= 0; --t) {
        const double u = stepSize(in.dt({b, t, h}), bias, options), a = std::exp(u * A);
        // The gate, then y_t = S_t C_t + D x_t.
        std::vector<double> dyt(static_cast<std::size_t>(P));
        for (std::int64_t p = 0; p < P; ++p) {
          double gy = dyView({b, t, h, p});
          if (in.z) {
            // The ungated y_t, from the kept state.
            double y = skipWeight(in, h, p) * in.x({b, t, h, p});
            for (std::int64_t n = 0; n < N; ++n)
              y += S(t + 1, p, n) * in.C({b, t, grp, n});
            const double z = (*in.z)({b, t, h, p}), s = sigmoid(z);
            g.dz({b, t, h, p}) = gy * y * s * (1.0 + z * (1.0 - s));
            gy *= z * s;
          }
          dyt[std::size_t(p)] = gy;
          const double x = in.x({b, t, h, p});
          g.dx({b, t, h, p}) += skipWeight(in, h, p) * gy;
          if (in.D) {
            if (in.D->rank() == 1)
              g.dD({h}) += gy * x;
            else
              g.dD({h, p}) += gy * x;
          }
        }
        for (std::int64_t p = 0; p < P; ++p)
          for (std::int64_t n = 0; n < N; ++n) {
            G[std::size_t(p * N + n)] += dyt[std::size_t(p)] * in.C({b, t, grp, n});
            g.dC({b, t, grp, n}) += dyt[std::size_t(p)] * S(t + 1, p, n);
          }
        // S_t = a S_{t-1} + u x_t ⊗ B_t (S_{t-1} = 0 where a sequence starts).
        const bool reset = newSequence(b, t);
        double da = 0.0, du = 0.0;
        for (std::int64_t p = 0; p < P; ++p) {
          const double x = in.x({b, t, h, p});
          for (std::int64_t n = 0; n < N; ++n) {
            const double gpn = G[std::size_t(p * N + n)], Bn = in.B({b, t, grp, n});
            if (!reset)
              da += gpn * S(t, p, n);
            du += gpn * x * Bn;
            g.dx({b, t, h, p}) += u * gpn * Bn;
            g.dB({b, t, grp, n}) += u * gpn * x;
          }
        }
        // a = exp(u A): da/du = a A, da/dA = a u.
        du += da * a * A;
        g.dA({h}) += da * a * u;
        const double ddt = du * stepSizeDerivative(in.dt({b, t, h}), bias, options);
        g.ddt({b, t, h}) = ddt;
        if (in.dtBias)
          g.dDtBias({h}) += ddt;
        for (double &v : G)
          v = reset ? 0.0 : v * a;
      }
      if (in.initialStates)
        for (std::int64_t p = 0; p < P; ++p)
          for (std::int64_t n = 0; n < N; ++n)
            g.dInitialStates({b, h, p, n}) = G[std::size_t(p * N + n)];
    }
  }
  return g;
}

} // namespace tile::mamba2
