#include "tools/tile-ssd/Run.h"

#include "kernels/mamba2/SsdForward.h"

#include <chrono>

namespace tile::ssd {

RunResult run(jit::Backend &backend, const Inputs &inputs, const mamba2::ForwardOptions &options) {
  std::vector<jit::Buffer> buffers;
  buffers.reserve(mamba2::kNumSsdInputs);
  std::array<std::optional<rt::ArrayArg>, mamba2::kNumSsdInputs> arrays;
  for (unsigned i = 0; i < mamba2::kNumSsdInputs; ++i) {
    const std::optional<HostTensor> &t = inputs.tensors[i];
    if (!t)
      continue;
    buffers.push_back(backend.upload(t->bytes));
    arrays[i] = buffers.back().array(t->dtype, t->values.shape);
  }
  using T = mamba2::SsdTensor;
  auto get = [&](T t) { return *arrays[unsigned(t)]; };
  auto opt = [&](T t) { return arrays[unsigned(t)]; };
  mamba2::SsdArrayInputs in{get(T::X),      get(T::Dt),           get(T::A), get(T::B), get(T::C), opt(T::D), opt(T::Z),
                            opt(T::DtBias), opt(T::InitialStates)};

  RunResult r;
  auto start = std::chrono::steady_clock::now();
  mamba2::SsdOutputs out = mamba2::ssdForward(backend, in, options, nullptr, &r.timings);
  r.firstCallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  r.choices = out.choices;
  r.chunkSize = out.chunkSize;
  if (jit::Jit *jit = backend.jit()) {
    r.compiled = jit->stats().compiles;
    r.fromDiskCache = jit->stats().diskHits;
    out = mamba2::ssdForward(backend, in, options, nullptr, &r.timings);
  }
  r.y = out.y.values();
  r.finalStates = out.finalStates.values();
  r.yDType = out.y.view.dtype;
  return r;
}

} // namespace tile::ssd
