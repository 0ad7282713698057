// The executor of the ssd_forward plan: the backend's buffers for the outputs, its compile and
// launch for the kernels, its clock for the per-kernel times.
#include "kernels/mamba2/SsdForward.h"
#include "kernels/mamba2/SsdPrebuilt.h"

#include "compiler/interpreter/DType.h"
#include "runtime/Error.h"
#include "runtime/jit/LaunchTimer.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

namespace tile::mamba2 {

std::string SsdKernelChoice::str() const {
  if (skipped)
    return "skipped (nothing reads its output)";
  return label + " (config " + std::to_string(config) + ", " + jit::tuneSourceName(source) + ")";
}

SsdShapes SsdArrayInputs::shapes() const { return SsdShapes::of(*this); }

// The array bound to each input name (null for an absent optional one).
static std::array<const rt::ArrayArg *, kNumSsdInputs> inputArrays(const SsdArrayInputs &in) {
  auto opt = [](const std::optional<rt::ArrayArg> &a) { return a ? &*a : nullptr; };
  return {&in.x,         &in.dt, &in.A, &in.B, &in.C, opt(in.D), opt(in.z), opt(in.dtBias), opt(in.initialStates),
          opt(in.seqIdx)};
}

SsdTensorTypes SsdArrayInputs::types() const {
  SsdTensorTypes types;
  auto arrays = inputArrays(*this);
  for (unsigned i = 0; i < kNumSsdInputs; ++i)
    if (arrays[i])
      types[i] = SsdTensorType{arrays[i]->dtype, arrays[i]->shape, arrays[i]->isAligned()};
  return types;
}

SsdDims validate(const SsdArrayInputs &in, const ForwardOptions &options) {
  return planSsdForward(in.types(), options).dims;
}

Tensor valuesOf(const jit::Buffer &buffer, const rt::ArrayArg &view) {
  const unsigned size = rt::dtypeSize(view.dtype);
  Tensor t(view.shape);
  std::vector<unsigned char> bytes(t.data.size() * size);
  buffer.copyToHost(bytes.data(), bytes.size());
  for (size_t i = 0; i < t.data.size(); ++i)
    t.data[i] = interp::readFloat(bytes.data() + i * size, view.dtype);
  return t;
}

Tensor SsdOutput::values() const { return valuesOf(buffer, view); }

// The output tensors in SsdTensor order from Y.
static std::array<const rt::ArrayArg *, kNumSsdTensors - kNumSsdInputs> outputArrays(const SsdArrayOutputs &out) {
  return {&out.y, &out.finalStates, &out.dtOut, &out.dACumsum, &out.states, &out.cb};
}

SsdOutputs ssdForward(jit::Backend &backend, const SsdArrayInputs &in, const ForwardOptions &options,
                      const rt::Stream *stream, SsdTimings *timings) {
  const SsdPlan plan = planSsdForward(in.types(), options);
  SsdOutputs out;
  SsdArrayOutputs arrays;
  auto alloc = [&](SsdTensor t, SsdOutput &o, rt::ArrayArg &array) {
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
    array = o.view;
  };
  alloc(SsdTensor::Y, out.y, arrays.y);
  alloc(SsdTensor::FinalStates, out.finalStates, arrays.finalStates);
  alloc(SsdTensor::DtOut, out.dtOut, arrays.dtOut);
  alloc(SsdTensor::DACumsum, out.dACumsum, arrays.dACumsum);
  alloc(SsdTensor::States, out.states, arrays.states);
  alloc(SsdTensor::CB, out.cb, arrays.cb);
  static_cast<SsdRun &>(out) = ssdForwardInto(backend, in, arrays, options, stream, timings, /*wait=*/true);
  return out;
}

// Each output as the plan has it: dtype, shape, row-major contiguous, and memory unless empty.
static void checkOutputs(const SsdPlan &plan, const SsdArrayOutputs &outputs) {
  auto arrays = outputArrays(outputs);
  for (unsigned i = 0; i < arrays.size(); ++i) {
    const SsdTensor t = static_cast<SsdTensor>(kNumSsdInputs + i);
    const SsdTensorType &type = plan.type(t);
    const rt::ArrayArg &a = *arrays[i];
    auto fail = [&](const std::string &what) {
      throw rt::Error(rt::Error::Kind::InvalidArgument,
                      std::string("ssd_forward: output ") + ssdTensorName(t) + " " + what);
    };
    if (a.dtype != type.dtype)
      fail(std::string("has dtype ") + rt::dtypeName(a.dtype) + ", the plan writes " + rt::dtypeName(type.dtype));
    if (a.shape != type.shape)
      fail("has shape " + shapeString(a.shape) + ", expected " + shapeString(type.shape));
    if (!a.isContiguous())
      fail("is not contiguous (strides " + shapeString(a.strides) + ")");
    if (!a.data && std::find(a.shape.begin(), a.shape.end(), 0) == a.shape.end())
      fail("has no memory (a null pointer)");
  }
}

namespace {

constexpr size_t kKernels = std::tuple_size<decltype(SsdPlan::launches)>::value;
using TensorArrays = std::array<const rt::ArrayArg *, kNumSsdTensors>;

std::vector<rt::Arg> argsOf(const SsdLaunch &l, const TensorArrays &arrays) {
  std::vector<rt::Arg> args;
  for (const SsdLaunchArg &a : l.args) {
    if (auto *t = std::get_if<SsdTensor>(&a))
      args.emplace_back(*arrays[static_cast<unsigned>(*t)]);
    else if (auto *v = std::get_if<SsdTransposed>(&a))
      args.emplace_back(transposedView(*arrays[static_cast<unsigned>(v->tensor)]));
    else
      args.emplace_back(rt::Scalar(std::get<std::int64_t>(a)));
  }
  return args;
}

rt::Grid gridOf(const SsdVariant &v) { return rt::Grid(v.grid[0], v.grid[1], v.grid[2]); }

// The key of SsdPassCache: everything planSsdForward reads.
std::string passKey(const SsdTensorTypes &types, const ForwardOptions &o) {
  std::string key;
  for (const std::optional<SsdTensorType> &t : types) {
    if (!t) {
      key += "-;";
      continue;
    }
    key += std::string(rt::dtypeName(t->dtype)) + shapeString(t->shape) + (t->aligned ? "a;" : ";");
  }
  char options[160];
  std::snprintf(options, sizeof options, "Q=%d sp=%d dt=[%a,%a] %s y=%s", o.chunkSize, int(o.dt.dtSoftplus), o.dt.dtMin,
                o.dt.dtMax, matmulPrecisionName(o.precision), o.outputDType ? rt::dtypeName(*o.outputDType) : "-");
  return key + options;
}

} // namespace

/// A plan with each kernel's configuration chosen and compiled: what a pass launches.
struct SsdPrepared {
  SsdPlan plan;
  std::array<unsigned, kKernels> winner{};
  std::array<std::optional<jit::KernelHandle>, kKernels> kernels;
  std::array<bool, kKernels> skipped{};
  SsdRun run;
};

// Chooses each kernel's configuration (known without timing — forced, off, in memory, a tuning
// file, an imported table — else tuned here, launching on `arrays`) and compiles it.
static SsdPrepared prepare(jit::Backend &backend, SsdPlan plan, const TensorArrays &arrays, const rt::Stream *stream) {
  jit::Tuner &tuner = backend.tuner();
  std::array<std::vector<jit::TuneCandidate>, kKernels> candidates;
  std::array<std::optional<jit::TuneKey>, kKernels> keys;
  std::array<std::optional<jit::TuneDecision>, kKernels> decisions;
  for (size_t k = 0; k < kKernels; ++k) {
    const SsdLaunch &l = plan.launches[k];
    for (const SsdVariant &v : l.variants)
      candidates[k].push_back(v.candidate);
    if (l.empty()) {
      decisions[k] = jit::TuneDecision{0, jit::TuneSource::Only, {}, 0};
      continue;
    }
    const auto &g = l.grid();
    keys[k] = jit::makeTuneKey({l.request(), l.keyNames, l.keyValues, g[0] * g[1] * g[2], backend.deviceName(),
                                backend.driverVersion(), backend.targetOptions()},
                               candidates[k]);
    decisions[k] = tuner.known(*keys[k], candidates[k]);
  }
  // chunk_bmm serves compute_out's blocks below the diagonal, which only configurations with
  // row blocks smaller than the chunk have: with such a choice of compute_out known, chunk_bmm
  // neither compiles, tunes nor runs.
  SsdPrepared p;
  auto skipBmmUnlessRead = [&] {
    p.skipped[1] = decisions[3] && !readsChunkBmm(plan, plan.launches[3].variants[decisions[3]->winner]);
    if (p.skipped[1] && !decisions[1])
      decisions[1] = jit::TuneDecision{0, jit::TuneSource::Only, {}, 0};
  };
  skipBmmUnlessRead();

  // Every kernel is compiled first, on the host, so compiling never falls between two time
  // points: at once (concurrently on the GPU), the chosen configuration of each kernel whose
  // choice is known and every configuration of the others.
  std::vector<jit::KernelRequest> requests;
  std::array<size_t, kKernels> first{};
  for (size_t k = 0; k < kKernels; ++k) {
    first[k] = requests.size();
    const SsdLaunch &l = plan.launches[k];
    if (p.skipped[k])
      continue;
    if (decisions[k])
      requests.push_back(l.variants[decisions[k]->winner].request);
    else
      for (const SsdVariant &v : l.variants)
        requests.push_back(v.request);
  }
  registerPrebuiltSsdKernels();
  std::vector<jit::CompileAttempt> compiled = backend.tryCompileAll(requests);
  for (size_t k = 0; k < kKernels; ++k)
    if (decisions[k] && !p.skipped[k]) {
      if (!compiled[first[k]].kernel)
        throw rt::Error(rt::Error::Kind::InvalidArgument, compiled[first[k]].error);
      p.kernels[k] = compiled[first[k]].kernel;
    }

  // The tuning pass: in launch order, each undecided kernel's configurations are timed on the
  // results of the kernels before it, then its winner runs so the next kernel sees real data.
  const bool tuning = std::any_of(decisions.begin(), decisions.end(), [](auto &d) { return !d; });
  for (size_t k = 0; tuning && k < kKernels; ++k) {
    const SsdLaunch &l = plan.launches[k];
    if (l.empty() || p.skipped[k])
      continue;
    if (!decisions[k]) {
      std::vector<jit::LaunchTimer::Variant> variants;
      for (const SsdVariant &v : l.variants)
        variants.push_back({v.request, gridOf(v)});
      jit::LaunchTimer timer(backend, variants, argsOf(l, arrays), stream);
      timer.provide(std::vector<jit::CompileAttempt>(compiled.begin() + first[k],
                                                     compiled.begin() + first[k] + l.variants.size()));
      decisions[k] = tuner.choose(*keys[k], candidates[k], timer);
      p.kernels[k] = timer.kernel(decisions[k]->winner);
    }
    backend.launch(*p.kernels[k], gridOf(l.variants[decisions[k]->winner]), argsOf(l, arrays), stream);
  }
  skipBmmUnlessRead();

  for (size_t k = 0; k < kKernels; ++k) {
    const SsdLaunch &l = plan.launches[k];
    const jit::TuneDecision &d = *decisions[k];
    const SsdVariant &v = l.variants[d.winner];
    p.winner[k] = d.winner;
    p.run.choices[k] = {
        l.request().kernel, v.candidate.config, v.candidate.label(), d.source, d.msOf(v.candidate.config),
        d.msOf(0),          d.tuneMs,           p.skipped[k]};
  }
  p.run.chunkSize = plan.chunkSize;
  p.run.cbBlock =
      p.skipped[1] ? 0 : std::get<std::int64_t>(plan.launches[1].variants[p.winner[1]].request.constants.at("BQ"));
  p.plan = std::move(plan);
  return p;
}

SsdRun ssdForwardInto(jit::Backend &backend, const SsdArrayInputs &in, const SsdArrayOutputs &outputs,
                      const ForwardOptions &options, const rt::Stream *stream, SsdTimings *timings, bool wait,
                      SsdPassCache *cache) {
  const SsdTensorTypes types = in.types();
  const std::string key = cache ? passKey(types, options) : std::string();
  std::shared_ptr<const SsdPrepared> pass = cache ? cache->find(key) : nullptr;
  const SsdPlan plan = pass ? SsdPlan() : planSsdForward(types, options);
  checkOutputs(pass ? pass->plan : plan, outputs);
  TensorArrays arrays{};
  auto inputs = inputArrays(in);
  std::copy(inputs.begin(), inputs.end(), arrays.begin());
  auto outs = outputArrays(outputs);
  std::copy(outs.begin(), outs.end(), arrays.begin() + kNumSsdInputs);
  if (!pass) {
    pass = std::make_shared<const SsdPrepared>(prepare(backend, plan, arrays, stream));
    if (cache)
      cache->insert(key, pass);
  }
  const SsdPrepared &p = *pass;

  // The pass proper, with the chosen configurations (timed: `repeats` times back to back).
  std::vector<jit::TimePoint> points; // a start and an end per timed launch
  std::vector<size_t> timed;          // which launch each pair brackets
  std::optional<jit::TimePoint> passStart;
  const int repeats = timings ? std::max(1, timings->repeats) : 1;
  std::array<std::vector<rt::Arg>, kKernels> args;
  for (size_t k = 0; k < kKernels; ++k)
    if (!p.plan.launches[k].empty() && !p.skipped[k])
      args[k] = argsOf(p.plan.launches[k], arrays);
  // Events go between the kernels of the last pass only (its per-kernel times); the passes
  // before it run back to back, bracketed by one event at the start.
  for (int r = 0; r < repeats; ++r) {
    const bool lastPass = r + 1 == repeats;
    if (timings && r == 0)
      passStart = backend.now(stream);
    for (size_t k = 0; k < kKernels; ++k) {
      const SsdLaunch &l = p.plan.launches[k];
      if (l.empty() || p.skipped[k])
        continue;
      if (timings && lastPass)
        points.push_back(backend.now(stream));
      backend.launch(*p.kernels[k], gridOf(l.variants[p.winner[k]]), args[k], stream);
      if (timings && lastPass) {
        points.push_back(backend.now(stream));
        timed.push_back(k);
      }
    }
  }
  if (wait || timings) {
    if (stream)
      stream->synchronize();
    else
      backend.synchronize();
  }
  if (timings) {
    *timings = {};
    timings->repeats = repeats;
    for (size_t i = 0; i < timed.size(); ++i)
      timings->kernelMs(timed[i]) = jit::TimePoint::elapsedMs(points[2 * i], points[2 * i + 1]);
    if (!points.empty())
      timings->endToEndMs = jit::TimePoint::elapsedMs(*passStart, points.back()) / repeats;
  }
  return p.run;
}

} // namespace tile::mamba2
