// The interpreter executor of the ssd_forward plan: host buffers for the outputs, the
// interpreter for the kernels, wall-clock times.
#include "kernels/mamba2/SsdInterpreted.h"

#include "compiler/interpreter/DType.h"
#include "runtime/jit/Interpreted.h"

#include <chrono>

namespace tile::mamba2 {

namespace {

// rt::DType and interp::DType list the same dtypes in the same order (the runtime cannot
// depend on the compiler's copy); the plan speaks the runtime's.
#define TILE_SAME_DTYPE(name) \
  static_assert(static_cast<unsigned>(rt::DType::name) == static_cast<unsigned>(interp::DType::name));
TILE_SAME_DTYPE(Bool)
TILE_SAME_DTYPE(Int64)
TILE_SAME_DTYPE(Float16)
TILE_SAME_DTYPE(BFloat16)
TILE_SAME_DTYPE(Float32)
TILE_SAME_DTYPE(Float64)
TILE_SAME_DTYPE(Float8E5M2)
#undef TILE_SAME_DTYPE
rt::DType toRt(interp::DType d) { return static_cast<rt::DType>(d); }
interp::DType toInterp(rt::DType d) { return static_cast<interp::DType>(d); }

std::array<const interp::HostArray *, kNumSsdInputs> inputArrays(const SsdHostInputs &in) {
  auto opt = [](const std::optional<interp::HostArray> &a) { return a ? &*a : nullptr; };
  return {&in.x, &in.dt, &in.A, &in.B, &in.C, opt(in.D), opt(in.z), opt(in.dtBias), opt(in.initialStates)};
}

// An output the kernels write, in its dtype's bits.
struct OutputBuffer {
  std::vector<unsigned char> bytes;
  interp::HostArray array;

  explicit OutputBuffer(const SsdTensorType &type)
      : bytes(static_cast<size_t>(numElements(type.shape)) * rt::dtypeSize(type.dtype)) {
    array = interp::HostArray::contiguous(bytes.data(), toInterp(type.dtype), type.shape);
  }
  Tensor values() const {
    Tensor t(array.shape);
    const unsigned size = interp::dtypeSize(array.dtype);
    for (int64_t i = 0; i < t.numElements(); ++i)
      t.data[size_t(i)] = interp::readFloat(bytes.data() + size_t(i) * size, array.dtype);
    return t;
  }
};

}  // namespace

SsdTensorTypes SsdHostInputs::types() const {
  SsdTensorTypes types;
  auto arrays = inputArrays(*this);
  for (unsigned i = 0; i < kNumSsdInputs; ++i)
    if (arrays[i])
      types[i] = SsdTensorType{toRt(arrays[i]->dtype), arrays[i]->shape};
  return types;
}

SsdHostOutputs ssdForwardInterpreted(const SsdHostInputs &in, const ForwardOptions &options,
                                     SsdTimings *timings) {
  const SsdPlan plan = planSsdForward(in.types(), options);

  std::array<interp::HostArray, kNumSsdTensors> arrays;
  auto inputs = inputArrays(in);
  for (unsigned i = 0; i < kNumSsdInputs; ++i) {
    if (!inputs[i])
      continue;
    arrays[i] = *inputs[i];
    if (arrays[i].strides.empty())
      arrays[i].strides = contiguousStrides(arrays[i].shape);
  }
  std::vector<OutputBuffer> outputs;
  outputs.reserve(kNumSsdTensors - kNumSsdInputs);
  for (unsigned i = kNumSsdInputs; i < kNumSsdTensors; ++i) {
    outputs.emplace_back(plan.type(SsdTensor(i)));
    arrays[i] = outputs.back().array;
  }

  // Compile all three first, so the times below are the kernels' alone.
  for (const SsdLaunch &l : plan.launches)
    jit::compileForInterpreter(l.request);
  if (timings)
    *timings = {};
  for (size_t k = 0; k < plan.launches.size(); ++k) {
    const SsdLaunch &l = plan.launches[k];
    if (l.empty())
      continue;
    std::vector<interp::LaunchArg> args;
    for (const SsdLaunchArg &a : l.args) {
      if (auto *t = std::get_if<SsdTensor>(&a))
        args.push_back(interp::LaunchArg::of(arrays[static_cast<unsigned>(*t)]));
      else
        args.push_back(interp::LaunchArg::i64(std::get<std::int64_t>(a)));
    }
    auto start = std::chrono::steady_clock::now();
    jit::interpret(l.request, {l.grid[0], l.grid[1], l.grid[2]}, args);
    if (timings)
      timings->kernelMs(k) = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }

  auto values = [&](SsdTensor t) { return outputs[static_cast<unsigned>(t) - kNumSsdInputs].values(); };
  SsdHostOutputs out;
  out.y = values(SsdTensor::Y);
  out.finalStates = values(SsdTensor::FinalStates);
  out.dtOut = values(SsdTensor::DtOut);
  out.dACumsum = values(SsdTensor::DACumsum);
  out.states = values(SsdTensor::States);
  out.yDType = plan.type(SsdTensor::Y).dtype;
  return out;
}

}  // namespace tile::mamba2
