// The sequential recurrence, written to mirror docs/mamba2.md line by line.
#include "kernels/mamba2/Reference.h"

#include <algorithm>
#include <cmath>

namespace tile::mamba2 {

SsdResult reference(const SsdInputs &inputs, const SsdOptions &options) {
  SsdDims d;
  const SsdInputs in = validateInputs(inputs, options, d);
  SsdResult r{Tensor({d.batch, d.seqlen, d.nheads, d.headdim}), Tensor({d.batch, d.nheads, d.headdim, d.dstate})};
  std::vector<double> S(std::size_t(d.headdim * d.dstate));
  // B_t and C_t gathered once per step (they are strided views), not once per channel p:
  // the oracle also runs on long sequences (the 64-bit offset tests).
  std::vector<double> Bt(std::size_t(d.dstate)), Ct(std::size_t(d.dstate));
  for (std::int64_t b = 0; b < d.batch; ++b) {
    for (std::int64_t h = 0; h < d.nheads; ++h) {
      const std::int64_t g = h / d.headsPerGroup();
      const double A = in.A({h});
      const double bias = in.dtBias ? (*in.dtBias)({h}) : 0.0;
      for (std::int64_t p = 0; p < d.headdim; ++p)
        for (std::int64_t n = 0; n < d.dstate; ++n)
          S[std::size_t(p * d.dstate + n)] = in.initialStates ? (*in.initialStates)({b, h, p, n}) : 0.0;

      for (std::int64_t t = 0; t < d.seqlen; ++t) {
        // A new packed sequence starts from zero (the initial state is sequence 0's).
        if (in.seqIdx && (*in.seqIdx)({b, t}) != (t > 0 ? (*in.seqIdx)({b, t - 1}) : 0.0))
          std::fill(S.begin(), S.end(), 0.0);
        const double u = stepSize(in.dt({b, t, h}), bias, options);
        const double decay = std::exp(u * A);
        for (std::int64_t n = 0; n < d.dstate; ++n) {
          Bt[std::size_t(n)] = in.B({b, t, g, n});
          Ct[std::size_t(n)] = in.C({b, t, g, n});
        }
        for (std::int64_t p = 0; p < d.headdim; ++p) {
          const double x = in.x({b, t, h, p});
          double y = 0.0;
          for (std::int64_t n = 0; n < d.dstate; ++n) {
            double &s = S[std::size_t(p * d.dstate + n)];
            s = decay * s + u * x * Bt[std::size_t(n)];
            y += s * Ct[std::size_t(n)];
          }
          y += skipWeight(in, h, p) * x;
          if (in.z)
            y = gate(y, (*in.z)({b, t, h, p}));
          r.y({b, t, h, p}) = y;
        }
      }
      for (std::int64_t p = 0; p < d.headdim; ++p)
        for (std::int64_t n = 0; n < d.dstate; ++n)
          r.finalStates({b, h, p, n}) = S[std::size_t(p * d.dstate + n)];
    }
  }
  return r;
}

SsdDecodeResult referenceDecodeStep(const SsdDecodeInputs &inputs, const SsdOptions &options) {
  SsdDims d;
  const SsdDecodeInputs in = validateDecodeInputs(inputs, options, d);
  SsdDecodeResult r{Tensor({d.batch, d.nheads, d.headdim}), Tensor({d.batch, d.nheads, d.headdim, d.dstate})};
  const bool dtPerChannel = in.dt.rank() == 3, biasPerChannel = in.dtBias && in.dtBias->rank() == 2;
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t h = 0; h < d.nheads; ++h) {
      const std::int64_t g = h / d.headsPerGroup();
      for (std::int64_t p = 0; p < d.headdim; ++p) {
        const double dt = dtPerChannel ? in.dt({b, h, p}) : in.dt({b, h});
        const double bias = !in.dtBias ? 0.0 : biasPerChannel ? (*in.dtBias)({h, p}) : (*in.dtBias)({h});
        const double u = stepSize(dt, bias, options);
        const double decay = std::exp(u * in.A({h}));
        const double x = in.x({b, h, p});
        double y = 0.0;
        for (std::int64_t n = 0; n < d.dstate; ++n) {
          double &s = r.state({b, h, p, n});
          s = decay * in.state({b, h, p, n}) + u * x * in.B({b, g, n});
          y += s * in.C({b, g, n});
        }
        y += skipWeight(in.D, h, p) * x;
        r.y({b, h, p}) = in.z ? gate(y, (*in.z)({b, h, p})) : y;
      }
    }
  return r;
}

} // namespace tile::mamba2
