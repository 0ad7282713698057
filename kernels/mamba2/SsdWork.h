// The work each kernel of the SSD forward pass cannot avoid, for judging a measured time
// against its own floor: the bytes it must move (each of its inputs read once, each of its
// outputs written once) and the floating-point operations of its matrix products (2 per
// multiply-add). Element-wise work is left out: it is small against either.
#pragma once

#include "kernels/mamba2/SsdProblem.h"

#include <array>
#include <cstdint>

namespace tile::mamba2 {

struct KernelWork {
  double bytes = 0;
  double flops = 0;
  /// The time the H200 needs at least (ms): the larger of the bytes at `bandwidthTBs` and the
  /// operations at `tflops`.
  double floorMs(double bandwidthTBs, double tflops) const;
};

/// The measured H200 ceilings the floors use (docs/mamba2.md): 4.8 TB/s of DRAM bandwidth and
/// 790 TFLOP/s of dense bf16 Tensor Core work.
inline constexpr double kH200TBs = 4.8, kH200Tflops = 790.0;

/// chunk_cumsum, chunk_bmm, fwd_pass_state and compute_out (SsdPlan's order) at chunk size
/// `chunk`, with x, B, C and y of `dataBytes` per element, the chunk-entry states of
/// `stateBytes` (2 for 16-bit data, 4 for fp32) and the intermediates (dt_out, dA_cumsum, C.B^T)
/// in fp32. C.B^T counts the elements on or below the causal diagonal, which are all chunk_bmm
/// writes and compute_out reads; so do the intra-chunk products.
std::array<KernelWork, 4> ssdKernelWork(const SsdDims &dims, std::int64_t chunk, int dataBytes, int stateBytes);

} // namespace tile::mamba2
