// The GPU executor of the ssd_forward plan: device buffers for the outputs, the JIT for the
// kernels, rt::launch on a stream, CUDA events for the per-kernel times.
#include "kernels/mamba2/SsdForward.h"

namespace tile::mamba2 {

SsdShapes SsdDeviceInputs::shapes() const {
  SsdShapes s{x.shape, dt.shape, A.shape, B.shape, C.shape, {}, {}, {}, {}};
  if (D) s.D = D->shape;
  if (z) s.z = z->shape;
  if (dtBias) s.dtBias = dtBias->shape;
  if (initialStates) s.initialStates = initialStates->shape;
  return s;
}

// The device array bound to each input name (null for an absent optional one).
static std::array<const rt::ArrayArg *, kNumSsdInputs> inputArrays(const SsdDeviceInputs &in) {
  auto opt = [](const std::optional<rt::ArrayArg> &a) { return a ? &*a : nullptr; };
  return {&in.x, &in.dt, &in.A, &in.B, &in.C, opt(in.D), opt(in.z), opt(in.dtBias), opt(in.initialStates)};
}

SsdTensorTypes SsdDeviceInputs::types() const {
  SsdTensorTypes types;
  auto arrays = inputArrays(*this);
  for (unsigned i = 0; i < kNumSsdInputs; ++i)
    if (arrays[i])
      types[i] = SsdTensorType{arrays[i]->dtype, arrays[i]->shape};
  return types;
}

SsdDims validate(const SsdDeviceInputs &in, const ForwardOptions &options) {
  return planSsdForward(in.types(), options).dims;
}

SsdOutputs ssdForward(jit::Jit &jit, const SsdDeviceInputs &in, const ForwardOptions &options, const rt::Stream *streamIn,
                      SsdTimings *timings) {
  const SsdPlan plan = planSsdForward(in.types(), options);
  const rt::Device &device = jit.device();

  SsdOutputs out;
  std::array<const rt::ArrayArg *, kNumSsdTensors> arrays{};
  auto inputs = inputArrays(in);
  std::copy(inputs.begin(), inputs.end(), arrays.begin());
  auto alloc = [&](SsdTensor t, rt::DeviceBuffer &buf, rt::ArrayArg &view) {
    const SsdTensorType &type = plan.type(t);
    buf = rt::DeviceBuffer(device, static_cast<size_t>(std::max<int64_t>(numElements(type.shape), 1)) *
                                       rt::dtypeSize(type.dtype));
    view = buf.array(type.dtype, type.shape);
    arrays[static_cast<unsigned>(t)] = &view;
  };
  alloc(SsdTensor::Y, out.y, out.yView);
  alloc(SsdTensor::FinalStates, out.finalStates, out.finalStatesView);
  alloc(SsdTensor::DtOut, out.dtOut, out.dtOutView);
  alloc(SsdTensor::DACumsum, out.dACumsum, out.dACumsumView);
  alloc(SsdTensor::States, out.states, out.statesView);

  rt::Stream defaultStream = rt::Stream::defaultStream(device);
  const rt::Stream &stream = streamIn ? *streamIn : defaultStream;
  // A pair of events brackets each launch when timings are wanted. Every kernel is compiled
  // first, on the host, so compiling never falls between a pair.
  std::vector<rt::Kernel> kernels;
  for (const SsdLaunch &l : plan.launches)
    kernels.push_back(jit.compile(l.request));
  std::vector<rt::Event> events;  // a start and an end per timed launch
  std::vector<size_t> timed;      // which launch each pair brackets
  for (size_t k = 0; k < plan.launches.size(); ++k) {
    const SsdLaunch &l = plan.launches[k];
    if (l.empty())
      continue;
    std::vector<rt::Arg> args;
    for (const SsdLaunchArg &a : l.args) {
      if (auto *t = std::get_if<SsdTensor>(&a))
        args.emplace_back(*arrays[static_cast<unsigned>(*t)]);
      else
        args.emplace_back(rt::Scalar(std::get<std::int64_t>(a)));
    }
    if (timings) {
      events.emplace_back(device);
      events.back().record(stream);
    }
    rt::launch(kernels[k], rt::Grid(l.grid[0], l.grid[1], l.grid[2]), args, stream);
    if (timings) {
      events.emplace_back(device);
      events.back().record(stream);
      timed.push_back(k);
    }
  }
  stream.synchronize();
  if (timings) {
    *timings = {};
    for (size_t i = 0; i < timed.size(); ++i)
      timings->kernelMs(timed[i]) = rt::Event::elapsedMs(events[2 * i], events[2 * i + 1]);
  }
  return out;
}

}  // namespace tile::mamba2
