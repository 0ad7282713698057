#include "tools/tile-ssd/Run.h"

#include "kernels/mamba2/SsdBackward.h"
#include "kernels/mamba2/SsdForward.h"

#include <chrono>

namespace tile::ssd {

namespace {

// Each present tensor uploaded into a buffer of `buffers`, and its array there.
template <std::size_t Count>
std::array<std::optional<rt::ArrayArg>, Count> upload(jit::Backend &backend,
                                                      const std::array<std::optional<HostTensor>, Count> &tensors,
                                                      std::vector<jit::Buffer> &buffers) {
  buffers.reserve(Count);
  std::array<std::optional<rt::ArrayArg>, Count> arrays;
  for (unsigned i = 0; i < Count; ++i) {
    const std::optional<HostTensor> &t = tensors[i];
    if (!t)
      continue;
    buffers.push_back(backend.upload(t->bytes));
    arrays[i] = buffers.back().array(t->dtype, t->values.shape);
  }
  return arrays;
}

// The forward pass's inputs uploaded into `buffers`.
mamba2::SsdArrayInputs uploadInputs(jit::Backend &backend, const Inputs &inputs, std::vector<jit::Buffer> &buffers) {
  const auto arrays = upload(backend, inputs.tensors, buffers);
  using T = mamba2::SsdTensor;
  auto get = [&](T t) { return *arrays[unsigned(t)]; };
  auto opt = [&](T t) { return arrays[unsigned(t)]; };
  return {get(T::X),     get(T::Dt),     get(T::A),
          get(T::B),     get(T::C),      opt(T::D),
          opt(T::Z),     opt(T::DtBias), opt(T::InitialStates),
          opt(T::SeqIdx)};
}

} // namespace

RunResult run(jit::Backend &backend, const Inputs &inputs, const mamba2::ForwardOptions &options) {
  std::vector<jit::Buffer> buffers;
  const mamba2::SsdArrayInputs in = uploadInputs(backend, inputs, buffers);

  RunResult r;
  auto start = std::chrono::steady_clock::now();
  mamba2::SsdOutputs out = mamba2::ssdForward(backend, in, options, nullptr, &r.timings);
  r.firstCallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  r.choices = out.choices;
  r.chunkSize = out.chunkSize;
  if (jit::Jit *jit = backend.jit()) {
    r.loaded = jit->stats();
    out = mamba2::ssdForward(backend, in, options, nullptr, &r.timings);
  }
  r.y = out.y.values();
  r.finalStates = out.finalStates.values();
  r.yDType = out.y.view.dtype;
  return r;
}

DecodeResult runDecode(jit::Backend &backend, const DecodeInputs &inputs, rt::DType yDType,
                       const mamba2::DecodeOptions &options) {
  std::vector<jit::Buffer> buffers;
  const auto arrays = upload(backend, inputs.tensors, buffers);
  using T = DecodeTensor;
  auto get = [&](T t) { return *arrays[unsigned(t)]; };
  auto opt = [&](T t) { return arrays[unsigned(t)]; };
  mamba2::SsdDecodeArrayInputs in{get(T::X), get(T::Dt), get(T::A), get(T::B),
                                  get(T::C), opt(T::D),  opt(T::Z), opt(T::DtBias)};
  // y has x's shape (the step checks both against the state's (b, H, P)).
  const mamba2::Shape &yShape = inputs[T::X].values.shape;
  std::int64_t count = 1;
  for (std::int64_t d : yShape)
    count *= d;
  jit::Buffer y = backend.allocate(static_cast<std::size_t>(count) * rt::dtypeSize(yDType));
  const rt::ArrayArg yArray = y.array(yDType, yShape), state = get(T::State);

  DecodeResult r;
  auto start = std::chrono::steady_clock::now();
  r.choice = mamba2::ssdDecodeStep(backend, in, state, yArray, options);
  r.firstCallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (jit::Jit *jit = backend.jit()) {
    r.loaded = jit->stats();
  }
  r.y = mamba2::valuesOf(y, yArray);
  r.state = mamba2::valuesOf(buffers[0], state);
  return r;
}

BackwardResult runBackward(jit::Backend &backend, const Inputs &inputs, const HostTensor &dy,
                           const std::optional<HostTensor> &dFinal, const mamba2::ForwardOptions &options) {
  std::vector<jit::Buffer> buffers;
  const mamba2::SsdArrayInputs in = uploadInputs(backend, inputs, buffers);
  const std::array<std::optional<HostTensor>, 2> grads = {dy, dFinal};
  const auto gradArrays = upload(backend, grads, buffers);
  BackwardResult r;
  const auto start = std::chrono::steady_clock::now();
  const mamba2::SsdGradientOutputs g = mamba2::ssdBackward(backend, in, *gradArrays[0], gradArrays[1], options);
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  auto values = [](const mamba2::SsdOutput &o) { return o.view.shape.empty() ? mamba2::Tensor() : o.values(); };
  r.gradients = {values(g.dx), values(g.ddt),     values(g.dA),
                 values(g.dB), values(g.dC),      values(g.dD),
                 values(g.dz), values(g.dDtBias), values(g.dInitialStates)};
  return r;
}

} // namespace tile::ssd
