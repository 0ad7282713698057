// The chunked algorithm of docs/mamba2.md ("Chunked algorithm"), in float64, one function per
// GPU kernel so each stage's outputs can be checked on their own.
#include "kernels/mamba2/Reference.h"

#include "runtime/Error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tile::mamba2 {

namespace {

// 1. chunk_cumsum: u per position and its inclusive prefix sum of u*A inside each chunk.
void chunkCumsum(const SsdInputs &in, const SsdDims &d, const SsdOptions &options, ChunkedResult &r) {
  const std::int64_t Q = r.chunkSize;
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t h = 0; h < d.nheads; ++h) {
      const double A = in.A({h});
      const double bias = in.dtBias ? (*in.dtBias)({h}) : 0.0;
      for (std::int64_t c = 0; c < r.numChunks; ++c) {
        double s = 0.0;
        for (std::int64_t l = 0; l < Q; ++l) {
          const std::int64_t t = c * Q + l;
          const double u = t < d.seqlen ? stepSize(in.dt({b, t, h}), bias, options) : 0.0;
          s += u * A;
          r.dt({b, h, c, l}) = u;
          r.dACumsum({b, h, c, l}) = s;
        }
      }
    }
}

// 2. fwd_pass_state: the state entering each chunk, carried across chunks:
//    S_in <- exp(s_last) S_in + sum_l exp(s_last - s_l) u_l x_l ⊗ B_l.
void chunkStates(const SsdInputs &in, const SsdDims &d, ChunkedResult &r) {
  const std::int64_t Q = r.chunkSize, P = d.headdim, N = d.dstate;
  std::vector<double> S(std::size_t(P * N));
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t h = 0; h < d.nheads; ++h) {
      const std::int64_t g = h / d.headsPerGroup();
      for (std::int64_t p = 0; p < P; ++p)
        for (std::int64_t n = 0; n < N; ++n)
          S[std::size_t(p * N + n)] = in.initialStates ? (*in.initialStates)({b, h, p, n}) : 0.0;
      for (std::int64_t c = 0; c < r.numChunks; ++c) {
        const double sLast = r.dACumsum({b, h, c, Q - 1});
        const double decay = std::exp(sLast);
        for (std::int64_t p = 0; p < P; ++p)
          for (std::int64_t n = 0; n < N; ++n) {
            double &s = S[std::size_t(p * N + n)];
            r.states({b, c, h, p, n}) = s;
            s *= decay;
          }
        const std::int64_t valid = std::min(Q, d.seqlen - c * Q);
        for (std::int64_t l = 0; l < valid; ++l) {
          const std::int64_t t = c * Q + l;
          const double w = std::exp(sLast - r.dACumsum({b, h, c, l})) * r.dt({b, h, c, l});
          for (std::int64_t p = 0; p < P; ++p) {
            const double wx = w * in.x({b, t, h, p});
            for (std::int64_t n = 0; n < N; ++n)
              S[std::size_t(p * N + n)] += wx * in.B({b, t, g, n});
          }
        }
      }
      for (std::int64_t p = 0; p < P; ++p)
        for (std::int64_t n = 0; n < N; ++n)
          r.finalStates({b, h, p, n}) = S[std::size_t(p * N + n)];
    }
}

// 3. compute_out: y_i = exp(s_i) C_i·S_in[c] + sum_{j<=i} (C_i·B_j) exp(s_i - s_j) u_j x_j
//    + D x_i, then the z gate.
void chunkOutput(const SsdInputs &in, const SsdDims &d, ChunkedResult &r) {
  const std::int64_t Q = r.chunkSize, P = d.headdim, N = d.dstate;
  std::vector<double> yRow(static_cast<std::size_t>(P));
  for (std::int64_t b = 0; b < d.batch; ++b)
    for (std::int64_t h = 0; h < d.nheads; ++h) {
      const std::int64_t g = h / d.headsPerGroup();
      for (std::int64_t c = 0; c < r.numChunks; ++c) {
        const std::int64_t valid = std::min(Q, d.seqlen - c * Q);
        for (std::int64_t i = 0; i < valid; ++i) {
          const std::int64_t ti = c * Q + i;
          const double si = r.dACumsum({b, h, c, i});
          const double entry = std::exp(si);
          for (std::int64_t p = 0; p < P; ++p) {
            double acc = 0.0;
            for (std::int64_t n = 0; n < N; ++n)
              acc += in.C({b, ti, g, n}) * r.states({b, c, h, p, n});
            yRow[std::size_t(p)] = entry * acc;
          }
          for (std::int64_t j = 0; j <= i; ++j) {
            const std::int64_t tj = c * Q + j;
            double cb = 0.0;
            for (std::int64_t n = 0; n < N; ++n)
              cb += in.C({b, ti, g, n}) * in.B({b, tj, g, n});
            const double m = cb * std::exp(si - r.dACumsum({b, h, c, j})) * r.dt({b, h, c, j});
            for (std::int64_t p = 0; p < P; ++p)
              yRow[std::size_t(p)] += m * in.x({b, tj, h, p});
          }
          for (std::int64_t p = 0; p < P; ++p) {
            double y = yRow[std::size_t(p)] + skipWeight(in, h, p) * in.x({b, ti, h, p});
            if (in.z)
              y = gate(y, (*in.z)({b, ti, h, p}));
            r.y({b, ti, h, p}) = y;
          }
        }
      }
    }
}

} // namespace

ChunkedResult referenceChunked(const SsdInputs &inputs, std::int64_t chunkSize, const SsdOptions &options) {
  SsdDims d;
  const SsdInputs in = validateInputs(inputs, options, d);
  if (chunkSize < 1)
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    "chunk_size " + std::to_string(chunkSize) + " must be at least 1");
  if (in.seqIdx)
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    "referenceChunked does not model seq_idx (packed sequences): use reference()");
  ChunkedResult r;
  r.chunkSize = chunkSize;
  r.numChunks = (d.seqlen + chunkSize - 1) / chunkSize;
  r.y = Tensor({d.batch, d.seqlen, d.nheads, d.headdim});
  r.finalStates = Tensor({d.batch, d.nheads, d.headdim, d.dstate});
  r.dt = Tensor({d.batch, d.nheads, r.numChunks, chunkSize});
  r.dACumsum = Tensor({d.batch, d.nheads, r.numChunks, chunkSize});
  r.states = Tensor({d.batch, r.numChunks, d.nheads, d.headdim, d.dstate});
  chunkCumsum(in, d, options, r);
  chunkStates(in, d, r);
  chunkOutput(in, d, r);
  return r;
}

} // namespace tile::mamba2
