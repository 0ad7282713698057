// The executor of the ssd_forward plan: the backend's buffers for the outputs, its compile and
// launch for the kernels, its clock for the per-kernel times.
#include "kernels/mamba2/SsdForward.h"

#include "compiler/interpreter/DType.h"
#include "runtime/Error.h"

#include <cstdint>
#include <string>

namespace tile::mamba2 {

SsdShapes SsdArrayInputs::shapes() const { return SsdShapes::of(*this); }

// The array bound to each input name (null for an absent optional one).
static std::array<const rt::ArrayArg *, kNumSsdInputs> inputArrays(const SsdArrayInputs &in) {
  auto opt = [](const std::optional<rt::ArrayArg> &a) { return a ? &*a : nullptr; };
  return {&in.x, &in.dt, &in.A, &in.B, &in.C, opt(in.D), opt(in.z), opt(in.dtBias), opt(in.initialStates)};
}

SsdTensorTypes SsdArrayInputs::types() const {
  SsdTensorTypes types;
  auto arrays = inputArrays(*this);
  for (unsigned i = 0; i < kNumSsdInputs; ++i)
    if (arrays[i])
      types[i] = SsdTensorType{arrays[i]->dtype, arrays[i]->shape};
  return types;
}

SsdDims validate(const SsdArrayInputs &in, const ForwardOptions &options) {
  return planSsdForward(in.types(), options).dims;
}

Tensor SsdOutput::values() const {
  const unsigned size = rt::dtypeSize(view.dtype);
  Tensor t(view.shape);
  std::vector<unsigned char> bytes(t.data.size() * size);
  buffer.copyToHost(bytes.data(), bytes.size());
  for (size_t i = 0; i < t.data.size(); ++i)
    t.data[i] = interp::readFloat(bytes.data() + i * size, view.dtype);
  return t;
}

SsdOutputs ssdForward(jit::Backend &backend, const SsdArrayInputs &in, const ForwardOptions &options,
                      const rt::Stream *stream, SsdTimings *timings) {
  const SsdPlan plan = planSsdForward(in.types(), options);

  SsdOutputs out;
  std::array<const rt::ArrayArg *, kNumSsdTensors> arrays{};
  auto inputs = inputArrays(in);
  std::copy(inputs.begin(), inputs.end(), arrays.begin());
  auto alloc = [&](SsdTensor t, SsdOutput &o) {
    const SsdTensorType &type = plan.type(t);
    // Shapes come from the caller: a product that wraps would allocate a buffer the kernels
    // then overrun.
    uint64_t bytes = rt::dtypeSize(type.dtype);
    for (int64_t d : type.shape)
      if (d < 0 || __builtin_mul_overflow(bytes, uint64_t(d), &bytes) || bytes > uint64_t(INT64_MAX))
        throw rt::Error(rt::Error::Kind::InvalidArgument, std::string("ssd_forward: output ") + ssdTensorName(t) +
                                                              " of shape " + shapeString(type.shape) + " is too large");
    o.buffer = backend.allocate(static_cast<size_t>(bytes));
    o.view = o.buffer.array(type.dtype, type.shape);
    arrays[static_cast<unsigned>(t)] = &o.view;
  };
  alloc(SsdTensor::Y, out.y);
  alloc(SsdTensor::FinalStates, out.finalStates);
  alloc(SsdTensor::DtOut, out.dtOut);
  alloc(SsdTensor::DACumsum, out.dACumsum);
  alloc(SsdTensor::States, out.states);
  alloc(SsdTensor::CB, out.cb);

  // Every kernel is compiled first, on the host, so compiling never falls between two time
  // points.
  // Compiled together: on the GPU the four kernels compile concurrently on a cold cache.
  std::vector<jit::KernelRequest> requests;
  for (const SsdLaunch &l : plan.launches)
    requests.push_back(l.request);
  std::vector<jit::KernelHandle> kernels = backend.compileAll(requests);
  std::vector<jit::TimePoint> points; // a start and an end per timed launch
  std::vector<size_t> timed;          // which launch each pair brackets
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
    if (timings)
      points.push_back(backend.now(stream));
    backend.launch(kernels[k], rt::Grid(l.grid[0], l.grid[1], l.grid[2]), args, stream);
    if (timings) {
      points.push_back(backend.now(stream));
      timed.push_back(k);
    }
  }
  if (stream)
    stream->synchronize();
  else
    backend.synchronize();
  if (timings) {
    *timings = {};
    for (size_t i = 0; i < timed.size(); ++i)
      timings->kernelMs(timed[i]) = jit::TimePoint::elapsedMs(points[2 * i], points[2 * i + 1]);
    if (!points.empty())
      timings->endToEndMs = jit::TimePoint::elapsedMs(points.front(), points.back());
  }
  return out;
}

} // namespace tile::mamba2
