#include "tools/tile-ssd/Run.h"

#include "compiler/interpreter/DType.h"
#include "kernels/mamba2/SsdForward.h"

#include <chrono>

namespace tile::ssd {

namespace {

struct Uploaded {
  rt::DeviceBuffer buffer;
  rt::ArrayArg view;
};

mamba2::Tensor download(const rt::DeviceBuffer &buffer, const rt::ArrayArg &view) {
  const auto idt = static_cast<interp::DType>(view.dtype);
  const unsigned size = interp::dtypeSize(idt);
  mamba2::Tensor t(view.shape);
  std::vector<unsigned char> bytes(t.data.size() * size);
  buffer.copyToHost(bytes.data(), bytes.size());
  for (size_t i = 0; i < t.data.size(); ++i)
    t.data[i] = interp::readFloat(bytes.data() + i * size, idt);
  return t;
}

}  // namespace

RunResult runOnGpu(const rt::Device &device, const Inputs &inputs, const mamba2::ForwardOptions &options) {
  std::vector<std::optional<Uploaded>> up(mamba2::kNumSsdInputs);
  for (unsigned i = 0; i < mamba2::kNumSsdInputs; ++i) {
    const std::optional<HostTensor> &t = inputs.tensors[i];
    if (!t)
      continue;
    Uploaded u;
    u.buffer = rt::DeviceBuffer(device, std::max<size_t>(t->bytes.size(), 1));
    u.buffer.copyFromHost(t->bytes.data(), t->bytes.size());
    u.view = u.buffer.array(t->dtype, t->values.shape);
    up[i] = std::move(u);
  }
  auto get = [&](mamba2::SsdTensor t) { return up[unsigned(t)]->view; };
  auto opt = [&](mamba2::SsdTensor t) { return up[unsigned(t)] ? std::optional<rt::ArrayArg>(get(t)) : std::nullopt; };
  using T = mamba2::SsdTensor;
  mamba2::SsdDeviceInputs in{get(T::X), get(T::Dt), get(T::A), get(T::B), get(T::C),
                             opt(T::D), opt(T::Z),  opt(T::DtBias), opt(T::InitialStates)};
  jit::Jit jit(device);
  auto start = std::chrono::steady_clock::now();
  mamba2::ssdForward(jit, in, options);  // compiles (or loads from the cache)
  RunResult r;
  r.firstCallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  r.compiled = jit.stats().compiles;
  r.fromDiskCache = jit.stats().diskHits;
  mamba2::SsdOutputs out = mamba2::ssdForward(jit, in, options, nullptr, &r.timings);
  r.y = download(out.y, out.yView);
  r.finalStates = download(out.finalStates, out.finalStatesView);
  r.yDType = out.yView.dtype;
  return r;
}

RunResult runInterpreted(const Inputs &inputs, const mamba2::ForwardOptions &options) {
  RunResult r;
  mamba2::SsdHostOutputs out = mamba2::ssdForwardInterpreted(inputs.host(), options, &r.timings);
  r.y = std::move(out.y);
  r.finalStates = std::move(out.finalStates);
  r.yDType = out.yDType;
  return r;
}

}  // namespace tile::ssd
