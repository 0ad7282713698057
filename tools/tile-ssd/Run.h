// tile-ssd's run of ssd_forward on its host inputs: upload them to the backend (device memory,
// or the interpreter's host buffers), run the kernels, and bring y and final_states back as
// float64 values, with per-kernel times.
#pragma once

#include "tools/tile-ssd/Inputs.h"

#include "kernels/mamba2/ReferenceBackward.h"
#include "kernels/mamba2/SsdDecode.h"
#include "kernels/mamba2/SsdForward.h"
#include "runtime/jit/Backend.h"

namespace tile::ssd {

struct RunResult {
  mamba2::Tensor y, finalStates;
  rt::DType yDType = rt::DType::Float32;
  mamba2::SsdTimings timings; // GPU events, or host wall-clock time when interpreted
  std::int64_t chunkSize = 0; // the chunk the pass ran with (the library's choice unless given)
  // The first call (compiling or loading the kernels, then running), and on the GPU where the
  // kernels came from.
  double firstCallMs = 0;
  jit::Jit::Stats loaded; // GPU: kernels compiled, prebuilt and from the disk cache
  /// The configuration each kernel ran in, as the first call chose it (tuned, cached, ...).
  std::array<mamba2::SsdKernelChoice, 4> choices;
};

/// One call, which compiles (GPU: or loads from the JIT's disk cache) and is timed whole; on
/// the GPU a second, warm call gives the per-kernel times (the interpreter's first call has
/// them already: compiling is never inside them).
RunResult run(jit::Backend &backend, const Inputs &inputs, const mamba2::ForwardOptions &options);

struct DecodeResult {
  mamba2::Tensor y, state; // y in its dtype, the state after the step in the state's dtype
  mamba2::SsdKernelChoice choice;
  double firstCallMs = 0; // the one call: compiling (GPU: or loading) and the step
  jit::Jit::Stats loaded;
};

/// One decode step (mamba2::ssdDecodeStep) on the uploaded state, y in `yDType`. Called once
/// only: a second call would apply the step twice.
DecodeResult runDecode(jit::Backend &backend, const DecodeInputs &inputs, rt::DType yDType,
                       const mamba2::DecodeOptions &options);

/// ssd_backward (mamba2::ssdBackward) on the inputs, the output gradient dy and optionally the
/// final states' dFinal (host tensors in their dtypes); the gradients as float64 values, in
/// SsdGradients' layout (absent inputs' gradients empty), and the one call's wall-clock time.
struct BackwardResult {
  mamba2::SsdGradients gradients;
  double ms = 0;
};
BackwardResult runBackward(jit::Backend &backend, const Inputs &inputs, const HostTensor &dy,
                           const std::optional<HostTensor> &dFinal, const mamba2::ForwardOptions &options);

} // namespace tile::ssd
