// tile-ssd's run of ssd_forward on its host inputs: upload them to the backend (device memory,
// or the interpreter's host buffers), run the kernels, and bring y and final_states back as
// float64 values, with per-kernel times.
#pragma once

#include "tools/tile-ssd/Inputs.h"

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
  unsigned compiled = 0, fromDiskCache = 0;
  /// The configuration each kernel ran in, as the first call chose it (tuned, cached, ...).
  std::array<mamba2::SsdKernelChoice, 4> choices;
};

/// One call, which compiles (GPU: or loads from the JIT's disk cache) and is timed whole; on
/// the GPU a second, warm call gives the per-kernel times (the interpreter's first call has
/// them already: compiling is never inside them).
RunResult run(jit::Backend &backend, const Inputs &inputs, const mamba2::ForwardOptions &options);

} // namespace tile::ssd
