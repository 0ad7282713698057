// tile-ssd's two ways to run ssd_forward on its host inputs: upload them and run the kernels on
// the GPU, or run the same kernels with the interpreter in place. Either gives y and
// final_states as float64 values, and per-kernel times.
#pragma once

#include "tools/tile-ssd/Inputs.h"

#include "runtime/Device.h"

namespace tile::ssd {

struct RunResult {
  mamba2::Tensor y, finalStates;
  rt::DType yDType = rt::DType::Float32;
  mamba2::SsdTimings timings;  // GPU events, or host wall-clock time when interpreted
  // GPU only: the first call (compiling or loading the kernels, then running) and where the
  // kernels came from.
  double firstCallMs = 0;
  unsigned compiled = 0, fromDiskCache = 0;
};

/// Compiles (JIT, disk cache) and warms up with one call, then times a second call.
RunResult runOnGpu(const rt::Device &device, const Inputs &inputs, const mamba2::ForwardOptions &options);
/// One call through the interpreter (compiling is not timed).
RunResult runInterpreted(const Inputs &inputs, const mamba2::ForwardOptions &options);

}  // namespace tile::ssd
