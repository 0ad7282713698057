// The executor of ssd_backward: the recomputed forward, then ssd.py's backward kernels in order
// (bwd_gate with z, bwd_pass_state, bwd_chunk, bwd_dt, bwd_reduce).
#include "kernels/mamba2/SsdBackward.h"

#include "kernels/mamba2/SsdTuning.h"
#include "runtime/Error.h"
#include "runtime/jit/KernelDecl.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <variant>

namespace tile::mamba2 {

namespace {

[[noreturn]] void invalid(const std::string &message) {
  throw rt::Error(rt::Error::Kind::InvalidArgument, "ssd_backward: " + message);
}

std::int64_t nextPow2(std::int64_t v) {
  std::int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}

using LaunchArg = std::variant<rt::ArrayArg, std::int64_t>;

using GridOf = std::function<std::array<std::int64_t, 3>(const KernelConstants &)>;
using Fit = std::function<void(KernelConstants &)>;

// Launches ssd.py's `kernel` with these constants and arguments (named in parameter order) on the
// grid `grid` gives for its constants: in the @ct.autotune configuration the backend's tuner
// chooses (fitted to the shape by `fit`; timed on these arguments when the tuner must: every
// backward kernel writes only what it would write again), or as it is when it has none.
void run(
    jit::Backend &backend, const rt::Stream *stream, const char *kernel, KernelConstants constants,
    const std::vector<std::pair<const char *, LaunchArg>> &args, const GridOf &grid,
    const std::map<std::string, std::int64_t> &dims, const Fit &fit = [](KernelConstants &) {}) {
  jit::KernelRequest request;
  request.source = ssdSource();
  request.fileName = "ssd.py";
  request.kernel = kernel;
  request.constants = std::move(constants);
  std::vector<rt::Arg> values;
  for (const auto &[name, arg] : args) {
    if (const auto *a = std::get_if<rt::ArrayArg>(&arg)) {
      request.args[name] = {rt::dtypeName(a->dtype), static_cast<std::int64_t>(a->shape.size()), a->isAligned()};
      values.emplace_back(*a);
    } else {
      request.args[name] = {"int64", 0};
      values.emplace_back(rt::Scalar(std::get<std::int64_t>(arg)));
    }
  }
  if (jit::kernelDecl(request.source, request.fileName, kernel).configs.empty()) {
    const std::array<std::int64_t, 3> g = grid(request.constants);
    if (g[0] != 0 && g[1] != 0 && g[2] != 0)
      backend.launch(backend.compile(request), rt::Grid(g[0], g[1], g[2]), values, stream);
    return;
  }
  const SsdLaunch l = autotunedLaunch(request, fit, grid, dims);
  if (l.empty())
    return;
  const ChosenVariant chosen = chooseVariant(
      backend, l, [&] { return values; }, stream);
  const std::array<std::int64_t, 3> &g = l.variants[chosen.index].grid;
  backend.launch(*chosen.kernel, rt::Grid(g[0], g[1], g[2]), values, stream);
}

// A float32 array of `shape` in the backend's memory, not initialized: every kernel writes all of
// each array it writes (nothing is uploaded: the arrays of a large problem are hundreds of MB).
SsdOutput output(jit::Backend &backend, const Shape &shape) {
  SsdOutput o;
  const std::size_t bytes = static_cast<std::size_t>(numElements(shape)) * sizeof(float);
  o.buffer = backend.allocate(std::max<std::size_t>(bytes, 1));
  o.view = o.buffer.array(rt::DType::Float32, shape);
  return o;
}

void expectGradient(const char *name, const rt::ArrayArg &a, const Shape &expected) {
  if (a.shape != expected)
    invalid(fmt::format("{} has shape {} but expected {}", name, shapeString(a.shape), shapeString(expected)));
  if (!rt::isFloat(a.dtype) || rt::dtypeSize(a.dtype) < 2)
    invalid(fmt::format("{} has dtype {}; expected bfloat16, float16 or float32", name, rt::dtypeName(a.dtype)));
}

// A gradient array the caller gave: float32, contiguous, its input's shape.
void expectOutput(const char *name, const rt::ArrayArg &a, const Shape &expected) {
  if (a.dtype != rt::DType::Float32 || a.shape != expected || !a.isContiguous())
    invalid(fmt::format("the gradient {} must be a contiguous float32 array of shape {}; got {} {}", name,
                        shapeString(expected), rt::dtypeName(a.dtype), shapeString(a.shape)));
}

// An optional input's gradient: given exactly when the input is.
template <typename Input>
void expectOptionalOutput(const char *name, const std::optional<rt::ArrayArg> &a, const std::optional<Input> &input) {
  if (a.has_value() != input.has_value())
    invalid(fmt::format("the gradient {} is {} but its input is {}", name, a ? "given" : "missing",
                        input ? "given" : "absent"));
  if (a)
    expectOutput(name, *a, input->shape);
}

} // namespace

SsdGradientOutputs ssdBackward(jit::Backend &backend, const SsdArrayInputs &in, const rt::ArrayArg &dy,
                               const std::optional<rt::ArrayArg> &dFinalStates, const ForwardOptions &options,
                               const rt::Stream *stream) {
  const SsdDims d = validate(in, options);
  const std::int64_t b = d.batch, T = d.seqlen, H = d.nheads, P = d.headdim, G = d.ngroups, N = d.dstate;
  SsdGradientOutputs g;
  g.dx = output(backend, {b, T, H, P});
  g.ddt = output(backend, {b, T, H});
  g.dA = output(backend, {H});
  g.dB = output(backend, {b, T, G, N});
  g.dC = output(backend, {b, T, G, N});
  SsdGradientArrays arrays{g.dx.view, g.ddt.view, g.dA.view, g.dB.view, g.dC.view};
  auto optional = [&](const auto &input, SsdOutput &out, std::optional<rt::ArrayArg> &array) {
    if (input) {
      out = output(backend, input->shape);
      array = out.view;
    }
  };
  optional(in.D, g.dD, arrays.dD);
  optional(in.z, g.dz, arrays.dz);
  optional(in.dtBias, g.dDtBias, arrays.dDtBias);
  optional(in.initialStates, g.dInitialStates, arrays.dInitialStates);
  ssdBackwardInto(backend, in, dy, dFinalStates, arrays, options, stream);
  return g;
}

void ssdBackwardInto(jit::Backend &backend, const SsdArrayInputs &in, const rt::ArrayArg &dy,
                     const std::optional<rt::ArrayArg> &dFinalStates, const SsdGradientArrays &grads,
                     const ForwardOptions &options, const rt::Stream *stream) {
  const SsdDims d = validate(in, options);
  const std::int64_t b = d.batch, T = d.seqlen, H = d.nheads, P = d.headdim, G = d.ngroups, N = d.dstate;
  expectGradient("dy", dy, {b, T, H, P});
  if (dFinalStates)
    expectGradient("dfinal_states", *dFinalStates, {b, H, P, N});
  expectOutput("dx", grads.dx, in.x.shape);
  expectOutput("ddt", grads.ddt, in.dt.shape);
  expectOutput("dA", grads.dA, in.A.shape);
  expectOutput("dB", grads.dB, in.B.shape);
  expectOutput("dC", grads.dC, in.C.shape);
  expectOptionalOutput("dD", grads.dD, in.D);
  expectOptionalOutput("dz", grads.dz, in.z);
  expectOptionalOutput("ddt_bias", grads.dDtBias, in.dtBias);
  expectOptionalOutput("dinitial_states", grads.dInitialStates, in.initialStates);

  // The forward again: y before the gate in float32, and the intermediates.
  SsdArrayInputs ungated = in;
  ungated.z.reset();
  ForwardOptions forwardOptions = options;
  forwardOptions.outputDType = rt::DType::Float32;
  const SsdOutputs f = ssdForward(backend, ungated, forwardOptions, stream);
  const std::int64_t Q = f.chunkSize, nc = f.dtOut.view.shape[2], PP = nextPow2(P);

  // Scratch: y's gradient after the gate, the gradients of the states leaving each chunk and of
  // u, and the per-chunk parts of dA, dt_bias and D.
  SsdOutput dyGated, dInit = output(backend, {b, H, P, N}), dStates = output(backend, {b, nc, H, P, N});
  SsdOutput du = output(backend, {b, H, nc, Q}), dAPart = output(backend, {b * nc, H});
  SsdOutput dBiasPart = output(backend, {b * nc, H}), dDPart = output(backend, {b * nc, H, PP});

  const rt::ArrayArg seqIdx = in.seqIdx ? *in.seqIdx : in.A; // placeholders: never read
  const rt::ArrayArg D = in.D ? *in.D : in.A, dtBias = in.dtBias ? *in.dtBias : in.A;
  const rt::ArrayArg dD = in.D ? *grads.dD : dAPart.view, dDtBias = in.dtBias ? *grads.dDtBias : dAPart.view;
  const rt::ArrayArg dInitial = in.initialStates ? *grads.dInitialStates : dInit.view;
  // The dimensions the kernels' autotune key= may name, and the block sizes fitted to them.
  const std::map<std::string, std::int64_t> dims = {{"batch", b},   {"seqlen", T}, {"nheads", H}, {"headdim", P},
                                                    {"ngroups", G}, {"dstate", N}, {"Q", Q}};
  auto fitPow2 = [](KernelConstants &c, const char *name, std::int64_t dim) {
    c[name] = pow2AtMost(dim, intOf(c, name));
  };
  auto cdiv = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  const bool seq = in.seqIdx.has_value(), perChannel = in.D && in.D->shape.size() == 2;

  rt::ArrayArg dyOfY = dy;
  if (in.z) {
    dyGated = output(backend, {b, T, H, P});
    run(
        backend, stream, "bwd_gate", {},
        {{"y", f.y.view}, {"z", *in.z}, {"dout", dy}, {"dy", dyGated.view}, {"dz", *grads.dz}, {"nheads", H}},
        [&](const KernelConstants &c) {
          return std::array<std::int64_t, 3>{cdiv(T, intOf(c, "BT")), cdiv(P, intOf(c, "BP")), b * H};
        },
        dims, [&](KernelConstants &c) { fitPow2(c, "BP", P); });
    dyOfY = dyGated.view;
  }
  const rt::ArrayArg dfinal = dFinalStates ? *dFinalStates : dInit.view;
  run(
      backend, stream, "bwd_pass_state", {{"Q", Q}, {"HAS_DFINAL", dFinalStates.has_value()}, {"HAS_SEQ", seq}},
      {{"dy", dyOfY},
       {"C", in.C},
       {"dA_cumsum", f.dACumsum.view},
       {"dfinal", dfinal},
       {"seq_idx", seqIdx},
       {"dstates", dStates.view},
       {"dinit", dInitial},
       {"nheads", H},
       {"ngroups", G},
       {"nchunks", nc}},
      [&](const KernelConstants &c) {
        return std::array<std::int64_t, 3>{cdiv(P, intOf(c, "BP")), cdiv(N, intOf(c, "BN")), b * H};
      },
      dims,
      [&](KernelConstants &c) {
        fitPow2(c, "BP", P);
        fitPow2(c, "BN", N);
      });
  run(
      backend, stream, "bwd_chunk",
      {{"Q", Q}, {"PP", PP}, {"N", N}, {"HAS_D", in.D.has_value()}, {"D_PER_CHANNEL", perChannel}, {"HAS_SEQ", seq}},
      {{"x", in.x},
       {"B", in.B},
       {"C", in.C},
       {"dy", dyOfY},
       {"dt_out", f.dtOut.view},
       {"dA_cumsum", f.dACumsum.view},
       {"A", in.A},
       {"states", f.states.view},
       {"dstates", dStates.view},
       {"seq_idx", seqIdx},
       {"D", D},
       {"dx", grads.dx},
       {"dB", grads.dB},
       {"dC", grads.dC},
       {"du", du.view},
       {"dA_part", dAPart.view},
       {"dD_part", dDPart.view},
       {"nheads", H},
       {"ngroups", G},
       {"nchunks", nc}},
      [&](const KernelConstants &) {
        return std::array<std::int64_t, 3>{nc, G, b};
      },
      dims);
  run(
      backend, stream, "bwd_dt",
      {{"Q", Q},
       {"HAS_BIAS", in.dtBias.has_value()},
       {"SOFTPLUS", options.dt.dtSoftplus},
       {"DT_MIN", options.dt.dtMin},
       {"DT_MAX", std::isinf(options.dt.dtMax) ? 3.0e38 : options.dt.dtMax}},
      {{"dt", in.dt},
       {"dt_bias", dtBias},
       {"du", du.view},
       {"ddt", grads.ddt},
       {"dbias_part", dBiasPart.view},
       {"seqlen", T},
       {"nchunks", nc}},
      [&](const KernelConstants &c) {
        return std::array<std::int64_t, 3>{nc, cdiv(H, intOf(c, "BH")), b};
      },
      dims, [&](KernelConstants &c) { fitPow2(c, "BH", H); });
  run(
      backend, stream, "bwd_reduce",
      {{"PP", PP}, {"HAS_BIAS", in.dtBias.has_value()}, {"HAS_D", in.D.has_value()}, {"D_PER_CHANNEL", perChannel}},
      {{"dA_part", dAPart.view},
       {"dbias_part", dBiasPart.view},
       {"dD_part", dDPart.view},
       {"dA", grads.dA},
       {"ddt_bias", dDtBias},
       {"dD", dD},
       {"rows", b * nc}},
      [&](const KernelConstants &) {
        return std::array<std::int64_t, 3>{H, 1, 1};
      },
      dims);
  if (stream)
    stream->synchronize();
  else
    backend.synchronize();
}

} // namespace tile::mamba2
