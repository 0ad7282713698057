// The Mamba-2 forward kernels the library ships compiled (runtime/jit/Prebuilt.h): every
// @ct.autotune configuration of ssd.py's four kernels for a set of problem signatures, built
// with the library by tile-ssd-prebuild, so that a first call on one of them loads and tunes
// instead of compiling. Anything else (another shape family, dtype or option, TILE_SSD_SOURCE,
// another target) is compiled by the JIT as before.
#pragma once

#include "kernels/mamba2/SsdPlan.h"

#include <string>
#include <vector>

namespace tile::mamba2 {

/// What ssd.py's kernels are specialized on, the batch and sequence length aside.
struct SsdSignature {
  std::int64_t nheads, headdim, ngroups, dstate;
  rt::DType data;        // x, B, C
  rt::DType params;      // A, D (per head) and dt_bias
  int chunkSize;         // 0: the library's choice
  rt::DType dt = params; // dt, through softplus
  std::string str() const;
};

/// Which signatures: "core" (the benchmark shapes' families with bf16 data and dt in float32,
/// as tile-bench passes it, or in bf16, as mamba_ssm's Mamba2 module passes its slice of the
/// input projection; and 2.7B's with float32 data; each at the library's chunk size and at 256)
/// or "full" (also fp16 and fp32 data, chunk sizes 64, 128 and 256, and
/// the smaller Mamba-2 models' head counts).
std::vector<SsdSignature> prebuiltSignatures(const std::string &set);

/// The targets of a comma-separated list ("sm_90a,sm_80"); throws rt::Error(InvalidArgument)
/// naming an unknown one or an empty list.
std::vector<std::string> parseTargets(const std::string &commaList);

/// Every configuration's request of the forward pass for `s` (contiguous arrays, as tensors
/// allocated by torch or tile-bench are).
std::vector<jit::KernelRequest> forwardRequests(const SsdSignature &s);

/// Registers the kernels compiled into the library (once; a build without them registers
/// nothing). The forward pass calls it before it compiles.
void registerPrebuiltSsdKernels();

} // namespace tile::mamba2
