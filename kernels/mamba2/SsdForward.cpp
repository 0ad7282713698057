#include "kernels/mamba2/SsdForward.h"

#include <fmt/format.h>

#include <cmath>

extern const unsigned char tile_mamba2_ssd_py[];
extern const std::size_t tile_mamba2_ssd_py_size;

namespace tile::mamba2 {

std::string ssdSource() {
  return std::string(reinterpret_cast<const char *>(tile_mamba2_ssd_py), tile_mamba2_ssd_py_size);
}

[[noreturn]] static void invalid(const std::string &message) {
  throw rt::Error(rt::Error::Kind::InvalidArgument, "ssd_forward: " + message);
}

static void expectDType(const char *name, const rt::ArrayArg &a) {
  if (a.dtype != rt::DType::BFloat16 && a.dtype != rt::DType::Float16 && a.dtype != rt::DType::Float32)
    invalid(fmt::format("{} has dtype {}; expected bfloat16, float16 or float32", name, rt::dtypeName(a.dtype)));
}

SsdShapes SsdDeviceInputs::shapes() const {
  SsdShapes s{x.shape, dt.shape, A.shape, B.shape, C.shape, {}, {}, {}, {}};
  if (D) s.D = D->shape;
  if (z) s.z = z->shape;
  if (dtBias) s.dtBias = dtBias->shape;
  if (initialStates) s.initialStates = initialStates->shape;
  return s;
}

SsdDims validate(const SsdDeviceInputs &in, const ForwardOptions &options) {
  SsdDims dims = validateShapes(in.shapes());
  validateOptions(options.dt);
  expectDType("x", in.x);
  expectDType("dt", in.dt);
  expectDType("A", in.A);
  expectDType("B", in.B);
  expectDType("C", in.C);
  if (in.B.dtype != in.C.dtype)
    invalid("B and C must have the same dtype");
  for (auto [name, t] : {std::pair{"D", &in.D}, std::pair{"z", &in.z}, std::pair{"dt_bias", &in.dtBias},
                         std::pair{"initial_states", &in.initialStates}})
    if (*t)
      expectDType(name, **t);
  int q = options.chunkSize;
  if (q < 16 || q > 256 || (q & (q - 1)))
    invalid(fmt::format("chunk_size {} must be a power of two from 16 to 256", q));
  int64_t n = dims.dstate;
  if ((n & (n - 1)) || n > 256)
    invalid(fmt::format("dstate {} must be a power of two up to 256", n));
  return dims;
}

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static frontend::ArgType argType(const rt::ArrayArg &a) {
  return {rt::dtypeName(a.dtype), static_cast<int64_t>(a.shape.size())};
}

static int64_t pow2AtMost(int64_t v, int64_t cap) {
  int64_t p = 1;
  while (p * 2 <= std::min(v, cap))
    p *= 2;
  return p;
}

SsdOutputs ssdForward(jit::Jit &jit, const SsdDeviceInputs &in, const ForwardOptions &options, const rt::Stream *streamIn,
                      SsdTimings *timings) {
  validate(in, options);
  const SsdOptions &dtOptions = options.dt;
  const rt::Device &device = jit.device();
  int64_t b = in.x.shape[0], T = in.x.shape[1], H = in.x.shape[2], P = in.x.shape[3];
  int64_t G = in.B.shape[2], N = in.B.shape[3];
  int64_t Q = options.chunkSize, nc = cdiv(T, Q);
  rt::DType yType = options.outputDType.value_or(in.x.dtype);

  SsdOutputs out;
  auto alloc = [&](rt::DeviceBuffer &buf, rt::ArrayArg &view, rt::DType dtype, std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    buf = rt::DeviceBuffer(device, static_cast<size_t>(std::max<int64_t>(n, 1)) * rt::dtypeSize(dtype));
    view = buf.array(dtype, shape);
  };
  alloc(out.y, out.yView, yType, {b, T, H, P});
  alloc(out.finalStates, out.finalStatesView, rt::DType::Float32, {b, H, P, N});
  alloc(out.dtOut, out.dtOutView, rt::DType::Float32, {b, H, nc, Q});
  alloc(out.dACumsum, out.dACumsumView, rt::DType::Float32, {b, H, nc, Q});
  alloc(out.states, out.statesView, rt::DType::Float32, {b, nc, H, P, N});

  // Absent optional inputs are passed as a placeholder the kernels never read.
  const rt::ArrayArg &dtBias = in.dtBias ? *in.dtBias : in.A;
  const rt::ArrayArg &init = in.initialStates ? *in.initialStates : out.finalStatesView;
  const rt::ArrayArg &D = in.D ? *in.D : in.A;
  const rt::ArrayArg &z = in.z ? *in.z : in.x;
  std::string source = ssdSource();
  rt::Stream defaultStream = rt::Stream::defaultStream(device);
  const rt::Stream &stream = streamIn ? *streamIn : defaultStream;
  // A pair of events brackets each launch when timings are wanted (compiling, on the host,
  // happens before the first of the pair is recorded, so it never counts).
  std::vector<rt::Event> events;
  auto launch = [&](const rt::Kernel &k, rt::Grid grid, std::vector<rt::Arg> args) {
    if (timings) {
      events.emplace_back(device);
      events.back().record(stream);
    }
    rt::launch(k, grid, args, stream);
    if (timings) {
      events.emplace_back(device);
      events.back().record(stream);
    }
  };

  // 1. chunk_cumsum
  {
    jit::KernelRequest r{source, "ssd.py", "chunk_cumsum", {}, {}, std::nullopt};
    r.constants = {{"Q", Q}, {"BH", pow2AtMost(H, 8)}, {"HAS_BIAS", bool(in.dtBias)}, {"SOFTPLUS", dtOptions.dtSoftplus},
                   {"DT_MIN", dtOptions.dtMin}, {"DT_MAX", std::isinf(dtOptions.dtMax) ? 3.0e38 : dtOptions.dtMax}};
    r.args = {{"dt", argType(in.dt)}, {"A", argType(in.A)}, {"dt_bias", argType(dtBias)}, {"dt_out", argType(out.dtOutView)},
              {"dA_cumsum", argType(out.dACumsumView)}, {"seqlen", {"int64", 0}}};
    int64_t bh = std::get<int64_t>(r.constants["BH"]);
    launch(jit.compile(r), rt::Grid(nc, cdiv(H, bh), b),
           {in.dt, in.A, dtBias, out.dtOutView, out.dACumsumView, rt::Scalar(static_cast<int64_t>(T))});
  }
  // 2. fwd_pass_state
  {
    int64_t bp = pow2AtMost(P, 64), bn = pow2AtMost(N, 64);
    jit::KernelRequest r{source, "ssd.py", "fwd_pass_state", {}, {}, std::nullopt};
    r.constants = {{"Q", Q}, {"BP", bp}, {"BN", bn}, {"HAS_INIT", bool(in.initialStates)}};
    r.args = {{"x", argType(in.x)}, {"B", argType(in.B)}, {"dt_out", argType(out.dtOutView)},
              {"dA_cumsum", argType(out.dACumsumView)}, {"initial_states", argType(init)},
              {"states", argType(out.statesView)}, {"final_states", argType(out.finalStatesView)},
              {"nheads", {"int64", 0}}, {"ngroups", {"int64", 0}}, {"nchunks", {"int64", 0}}};
    launch(jit.compile(r), rt::Grid(cdiv(P, bp), cdiv(N, bn), b * H),
           {in.x, in.B, out.dtOutView, out.dACumsumView, init, out.statesView, out.finalStatesView,
            rt::Scalar(H), rt::Scalar(G), rt::Scalar(nc)});
  }
  // 3. compute_out
  {
    int64_t bq = std::min<int64_t>(Q, 64), bp = pow2AtMost(P, 64), bn = std::min<int64_t>(N, 32);
    jit::KernelRequest r{source, "ssd.py", "compute_out", {}, {}, std::nullopt};
    r.constants = {{"Q", Q}, {"N", N}, {"BQ", bq}, {"BP", bp}, {"BN", bn}, {"HAS_D", bool(in.D)},
                   {"D_PER_CHANNEL", in.D && in.D->shape.size() == 2}, {"HAS_Z", bool(in.z)}};
    r.args = {{"x", argType(in.x)}, {"B", argType(in.B)}, {"C", argType(in.C)}, {"dt_out", argType(out.dtOutView)},
              {"dA_cumsum", argType(out.dACumsumView)}, {"states", argType(out.statesView)}, {"D", argType(D)},
              {"z", argType(z)}, {"y", argType(out.yView)}, {"nheads", {"int64", 0}}, {"ngroups", {"int64", 0}}};
    launch(jit.compile(r), rt::Grid(nc * (Q / bq), cdiv(P, bp), b * H),
           {in.x, in.B, in.C, out.dtOutView, out.dACumsumView, out.statesView, D, z, out.yView, rt::Scalar(H),
            rt::Scalar(G)});
  }
  stream.synchronize();
  if (timings) {
    timings->chunkCumsumMs = rt::Event::elapsedMs(events[0], events[1]);
    timings->fwdPassStateMs = rt::Event::elapsedMs(events[2], events[3]);
    timings->computeOutMs = rt::Event::elapsedMs(events[4], events[5]);
  }
  return out;
}

}  // namespace tile::mamba2
