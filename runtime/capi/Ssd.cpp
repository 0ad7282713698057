#include "runtime/capi/Ssd.h"

#include "kernels/mamba2/SsdBackward.h"
#include "kernels/mamba2/SsdForward.h"
#include "kernels/mamba2/SsdVarlen.h"
#include "runtime/DLPack.h"
#include "runtime/Error.h"
#include "runtime/Stream.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>

namespace tile::capi {

namespace {

using mamba2::SsdTensor;

static_assert(mamba2::kNumSsdInputs == TILECC_SSD_NUM_INPUTS, "the C API's input order is SsdTensor's");
static_assert(mamba2::kNumSsdTensors - mamba2::kNumSsdInputs == TILECC_SSD_NUM_OUTPUTS,
              "the C API's output order is SsdTensor's");

[[noreturn]] void invalid(const std::string &message) { throw rt::Error(rt::Error::Kind::InvalidArgument, message); }

std::string tensorName(unsigned index) { return mamba2::ssdTensorName(static_cast<SsdTensor>(index)); }

// Where the context's kernels read memory: its CUDA device, or the host for the interpreter.
void checkDevice(Context *context, const DLTensor &t, const std::string &what) {
  const int type = t.device.device_type;
  if (!context)
    return;
  jit::Backend &backend = context->backend();
  if (!backend.onGpu()) {
    if (type != kDLCPU)
      invalid(fmt::format("{} is not in host memory (DLPack device type {}): the context runs the interpreter", what,
                          type));
    return;
  }
  if (type != kDLCUDA && type != kDLCUDAManaged)
    invalid(
        fmt::format("{} is not in CUDA memory (DLPack device type {}{})", what, type, type == kDLCPU ? ", CPU" : ""));
  const int ordinal = backend.device()->ordinal();
  if (type == kDLCUDA && t.device.device_id != ordinal)
    invalid(fmt::format("{} is on cuda:{}, the context on cuda:{}", what, t.device.device_id, ordinal));
}

rt::ArrayArg arrayOf(Context *context, const DLTensor &t, const std::string &what) {
  checkDevice(context, t, what);
  try {
    return rt::dlpackView(t);
  } catch (const rt::Error &e) {
    invalid(what + ": " + e.what());
  }
}

mamba2::SsdArrayInputs inputsOf(Context *context, const DLTensor *const *inputs) {
  if (!inputs)
    invalid("ssd_forward: the input list is null");
  auto required = [&](unsigned i) {
    if (!inputs[i])
      invalid("ssd_forward: input " + tensorName(i) + " is required (null was given)");
    return arrayOf(context, *inputs[i], "ssd_forward: input " + tensorName(i));
  };
  auto optional = [&](unsigned i) -> std::optional<rt::ArrayArg> {
    if (!inputs[i])
      return std::nullopt;
    return arrayOf(context, *inputs[i], "ssd_forward: input " + tensorName(i));
  };
  auto index = [](SsdTensor t) { return static_cast<unsigned>(t); };
  return {
      required(index(SsdTensor::X)),     required(index(SsdTensor::Dt)),     required(index(SsdTensor::A)),
      required(index(SsdTensor::B)),     required(index(SsdTensor::C)),      optional(index(SsdTensor::D)),
      optional(index(SsdTensor::Z)),     optional(index(SsdTensor::DtBias)), optional(index(SsdTensor::InitialStates)),
      optional(index(SsdTensor::SeqIdx))};
}

mamba2::ForwardOptions optionsOf(const tilecc_ssd_options *options) {
  mamba2::ForwardOptions o;
  if (!options)
    return o;
  if (options->chunk_size < 0)
    invalid(fmt::format("ssd_forward: chunk_size {} is negative", options->chunk_size));
  o.chunkSize = options->chunk_size;
  o.dt.dtSoftplus = options->dt_softplus != 0;
  if (std::isnan(options->dt_min) || std::isnan(options->dt_max) || options->dt_min > options->dt_max)
    invalid(fmt::format("ssd_forward: dt_limit ({}, {}) is not an interval", options->dt_min, options->dt_max));
  o.dt.dtMin = options->dt_min;
  o.dt.dtMax = options->dt_max;
  if (options->y_dtype && *options->y_dtype) {
    o.outputDType = rt::parseDType(options->y_dtype);
    if (!o.outputDType)
      invalid(fmt::format("ssd_forward: unknown y dtype '{}' (one of {})", options->y_dtype, rt::dtypeNameList()));
  }
  if (options->precision && *options->precision) {
    auto precision = mamba2::parseMatmulPrecision(options->precision);
    if (!precision)
      invalid(fmt::format("ssd_forward: unknown precision '{}' (native or tf32)", options->precision));
    o.precision = *precision;
  }
  return o;
}

// The interpreter bounds every access by the buffer that holds an array, so host arrays it did
// not allocate go through its buffers: inputs copied in (the elements their strides reach),
// outputs copied out once the (synchronous) pass is done.
class HostStaging {
public:
  explicit HostStaging(jit::Backend &backend) : backend_(backend) {}

  rt::ArrayArg in(const rt::ArrayArg &a) { return stage(a, /*copyIn=*/true); }
  rt::ArrayArg out(const rt::ArrayArg &a) {
    rt::ArrayArg staged = stage(a, /*copyIn=*/false);
    if (!buffers_.empty())
      copyBack_.push_back({buffers_.size() - 1, a});
    return staged;
  }
  void finish() {
    for (const auto &[buffer, array] : copyBack_) {
      const jit::Buffer &b = buffers_[buffer];
      b.copyToHost(reinterpret_cast<void *>(array.data + spanOf(array).first), b.size());
    }
  }

private:
  // The byte offsets of the lowest element and past the highest one, from `data`.
  static std::pair<std::int64_t, std::int64_t> spanOf(const rt::ArrayArg &a) {
    const std::vector<std::int64_t> strides = a.stridesOrContiguous();
    const std::int64_t size = rt::dtypeSize(a.dtype);
    std::int64_t low = 0, high = 0;
    for (size_t d = 0; d < a.shape.size(); ++d) {
      const std::int64_t reach = (a.shape[d] - 1) * strides[d];
      (reach < 0 ? low : high) += reach;
    }
    return {low * size, (high + 1) * size};
  }

  rt::ArrayArg stage(const rt::ArrayArg &a, bool copyIn) {
    if (a.numElements() == 0 || !a.data)
      return a; // nothing is read or written; the checks that follow name a null array
    const auto [low, high] = spanOf(a);
    jit::Buffer &b = buffers_.emplace_back(
        copyIn ? backend_.upload(reinterpret_cast<const void *>(a.data + low), std::size_t(high - low))
               : backend_.allocate(std::size_t(high - low)));
    return b.array(a.dtype, a.shape, a.strides, std::size_t(-low));
  }

  jit::Backend &backend_;
  std::vector<jit::Buffer> buffers_;
  std::vector<std::pair<std::size_t, rt::ArrayArg>> copyBack_; // a buffer and the caller's array
};

} // namespace

std::string ssdPlanJson(const DLTensor *const *inputs, const tilecc_ssd_options *options) {
  const mamba2::SsdArrayInputs in = inputsOf(nullptr, inputs);
  const mamba2::SsdPlan plan = mamba2::planSsdForward(in.types(), optionsOf(options));
  nlohmann::json outputs = nlohmann::json::array();
  for (unsigned i = mamba2::kNumSsdInputs; i < mamba2::kNumSsdTensors; ++i) {
    const mamba2::SsdTensorType &type = plan.type(static_cast<SsdTensor>(i));
    outputs.push_back({{"name", tensorName(i)}, {"dtype", rt::dtypeName(type.dtype)}, {"shape", type.shape}});
  }
  return nlohmann::json{{"chunk_size", plan.chunkSize}, {"outputs", outputs}}.dump();
}

// The forward pass's outputs (`what` names the call in messages).
std::array<rt::ArrayArg, TILECC_SSD_NUM_OUTPUTS> outputsOf(Context &context, const DLTensor *const *outputs,
                                                           const std::string &what) {
  if (!outputs)
    invalid(what + ": the output list is null");
  std::array<rt::ArrayArg, TILECC_SSD_NUM_OUTPUTS> arrays;
  for (unsigned i = 0; i < arrays.size(); ++i) {
    const std::string name = what + ": output " + tensorName(mamba2::kNumSsdInputs + i);
    if (!outputs[i])
      invalid(name + " is required (null was given)");
    arrays[i] = arrayOf(&context, *outputs[i], name);
  }
  return arrays;
}

// On the interpreter, the inputs copied into its buffers.
void stageInputs(HostStaging &staging, mamba2::SsdArrayInputs &in) {
  for (rt::ArrayArg *a : {&in.x, &in.dt, &in.A, &in.B, &in.C})
    *a = staging.in(*a);
  for (std::optional<rt::ArrayArg> *a : {&in.D, &in.z, &in.dtBias, &in.initialStates, &in.seqIdx})
    if (*a)
      **a = staging.in(**a);
}

void ssdForward(Context &context, const DLTensor *const *inputs, const DLTensor *const *outputs,
                const tilecc_ssd_options *options, void *stream) {
  mamba2::SsdArrayInputs in = inputsOf(&context, inputs);
  std::array<rt::ArrayArg, TILECC_SSD_NUM_OUTPUTS> arrays = outputsOf(context, outputs, "ssd_forward");
  jit::Backend &backend = context.backend();
  std::optional<HostStaging> staging;
  if (!backend.onGpu()) {
    staging.emplace(backend);
    stageInputs(*staging, in);
    for (rt::ArrayArg &a : arrays)
      a = staging->out(a);
  }
  const mamba2::SsdArrayOutputs out{arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5]};
  std::optional<rt::Stream> borrowed = context.borrow(stream);
  mamba2::ssdForwardInto(backend, in, out, optionsOf(options), borrowed ? &*borrowed : nullptr, nullptr,
                         /*wait=*/false, &context.ssdPasses());
  if (staging)
    staging->finish();
}

void ssdBackward(Context &context, const DLTensor *const *inputs, const DLTensor *dy, const DLTensor *dFinalStates,
                 const DLTensor *const *gradients, const tilecc_ssd_options *options, void *stream) {
  mamba2::SsdArrayInputs in = inputsOf(&context, inputs);
  if (!dy)
    invalid("ssd_backward: dy is required (null was given)");
  if (!gradients)
    invalid("ssd_backward: the gradient list is null");
  rt::ArrayArg dyArray = arrayOf(&context, *dy, "ssd_backward: dy");
  std::optional<rt::ArrayArg> dFinal;
  if (dFinalStates)
    dFinal = arrayOf(&context, *dFinalStates, "ssd_backward: dfinal_states");
  // One slot per input, in the inputs' order (seq_idx's stays null: it has no gradient).
  std::array<std::optional<rt::ArrayArg>, TILECC_SSD_NUM_INPUTS> grads;
  for (unsigned i = 0; i < grads.size(); ++i)
    if (gradients[i])
      grads[i] = arrayOf(&context, *gradients[i], "ssd_backward: the gradient of " + tensorName(i));
  auto index = [](SsdTensor t) { return static_cast<unsigned>(t); };
  if (grads[index(SsdTensor::SeqIdx)])
    invalid("ssd_backward: seq_idx has no gradient; leave its slot null");
  for (SsdTensor t : {SsdTensor::X, SsdTensor::Dt, SsdTensor::A, SsdTensor::B, SsdTensor::C})
    if (!grads[index(t)])
      invalid("ssd_backward: the gradient of " + tensorName(index(t)) + " is required (null was given)");
  jit::Backend &backend = context.backend();
  std::optional<HostStaging> staging;
  if (!backend.onGpu()) {
    staging.emplace(backend);
    stageInputs(*staging, in);
    dyArray = staging->in(dyArray);
    if (dFinal)
      dFinal = staging->in(*dFinal);
    for (std::optional<rt::ArrayArg> &g : grads)
      if (g)
        g = staging->out(*g);
  }
  const mamba2::SsdGradientArrays out{
      *grads[index(SsdTensor::X)], *grads[index(SsdTensor::Dt)],    *grads[index(SsdTensor::A)],
      *grads[index(SsdTensor::B)], *grads[index(SsdTensor::C)],     grads[index(SsdTensor::D)],
      grads[index(SsdTensor::Z)],  grads[index(SsdTensor::DtBias)], grads[index(SsdTensor::InitialStates)]};
  std::optional<rt::Stream> borrowed = context.borrow(stream);
  mamba2::ssdBackwardInto(backend, in, dyArray, dFinal, out, optionsOf(options), borrowed ? &*borrowed : nullptr);
  if (staging)
    staging->finish();
}

void ssdVarlenStates(Context &context, const DLTensor *const *inputs, const DLTensor *const *outputs,
                     const DLTensor *cuSeqlens, const DLTensor *varlenStates, const tilecc_ssd_options *options,
                     void *stream) {
  mamba2::SsdArrayInputs in = inputsOf(&context, inputs);
  std::array<rt::ArrayArg, TILECC_SSD_NUM_OUTPUTS> arrays = outputsOf(context, outputs, "ssd_varlen_states");
  if (!cuSeqlens || !varlenStates)
    invalid(std::string("ssd_varlen_states: ") + (cuSeqlens ? "varlen_states" : "cu_seqlens") +
            " is required (null was given)");
  rt::ArrayArg cu = arrayOf(&context, *cuSeqlens, "ssd_varlen_states: cu_seqlens");
  rt::ArrayArg varlen = arrayOf(&context, *varlenStates, "ssd_varlen_states: varlen_states");
  jit::Backend &backend = context.backend();
  std::optional<HostStaging> staging;
  if (!backend.onGpu()) {
    // The forward's outputs are this call's inputs.
    staging.emplace(backend);
    stageInputs(*staging, in);
    for (rt::ArrayArg &a : arrays)
      a = staging->in(a);
    cu = staging->in(cu);
    varlen = staging->out(varlen);
  }
  const mamba2::SsdArrayOutputs forward{arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5]};
  std::optional<rt::Stream> borrowed = context.borrow(stream);
  mamba2::ssdVarlenStatesInto(backend, in, forward, cu, varlen, optionsOf(options), borrowed ? &*borrowed : nullptr,
                              /*wait=*/false);
  if (staging)
    staging->finish();
}

} // namespace tile::capi
