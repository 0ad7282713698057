#include "kernels/mamba2/SsdWork.h"

#include <algorithm>

namespace tile::mamba2 {

double KernelWork::floorMs(double bandwidthTBs, double tflops) const {
  return std::max(bytes / (bandwidthTBs * 1e9), flops / (tflops * 1e9));
}

std::array<KernelWork, 4> ssdKernelWork(const SsdDims &d, std::int64_t chunk, int dataBytes, int stateBytes) {
  const double b = double(d.batch), T = double(d.seqlen), H = double(d.nheads), P = double(d.headdim),
               G = double(d.ngroups), N = double(d.dstate), Q = double(chunk);
  const double nc = chunk > 0 ? double((d.seqlen + chunk - 1) / chunk) : 0.0;
  const double e = dataBytes, s = stateBytes;
  const double x = b * T * H * P * e;             // x, and y the same size
  const double bc = b * T * G * N * e;            // B or C
  const double perHead = b * H * nc * Q * 4.0;    // dt_out or dA_cumsum
  const double causal = Q * (Q + 1) / 2;          // C.B^T elements on or below the diagonal
  const double cb = b * nc * G * causal * 4.0;    // C.B^T
  const double states = b * nc * H * P * N * s;   // chunk-entry states
  const double finalStates = b * H * P * N * 4.0; // fp32
  const double stateProducts = 2 * b * H * nc * Q * P * N;
  std::array<KernelWork, 4> work;
  work[0] = {b * T * H * 4.0 + 2 * H * 4.0 + 2 * perHead, 0.0};
  work[1] = {2 * bc + cb, 2 * b * nc * G * causal * N};
  work[2] = {x + bc + 2 * perHead + states + finalStates, stateProducts};
  work[3] = {x + bc + cb + 2 * perHead + states + H * 4.0 + x, stateProducts + 2 * b * H * nc * causal * P};
  return work;
}

} // namespace tile::mamba2
