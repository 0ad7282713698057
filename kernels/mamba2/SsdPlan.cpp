#include "kernels/mamba2/SsdPlan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

extern const unsigned char tile_mamba2_ssd_py[];
extern const std::size_t tile_mamba2_ssd_py_size;

namespace tile::mamba2 {

std::string ssdSource() {
  return std::string(reinterpret_cast<const char *>(tile_mamba2_ssd_py), tile_mamba2_ssd_py_size);
}

const char *ssdTensorName(SsdTensor t) {
  static const char *const names[kNumSsdTensors] = {
      "x", "dt",           "A",      "B",         "C",      "D", "z", "dt_bias", "initial_states",
      "y", "final_states", "dt_out", "dA_cumsum", "states", "CB"};
  return names[static_cast<unsigned>(t)];
}

const char *matmulPrecisionName(MatmulPrecision p) { return p == MatmulPrecision::TF32 ? "tf32" : "native"; }

std::optional<MatmulPrecision> parseMatmulPrecision(const std::string &text) {
  if (text == "native")
    return MatmulPrecision::Native;
  if (text == "tf32")
    return MatmulPrecision::TF32;
  return std::nullopt;
}

namespace {

using T = SsdTensor;

[[noreturn]] void invalid(const std::string &message) {
  throw rt::Error(rt::Error::Kind::InvalidArgument, "ssd_forward: " + message);
}

void expectFloatDType(SsdTensor t, rt::DType dtype) {
  if (dtype != rt::DType::BFloat16 && dtype != rt::DType::Float16 && dtype != rt::DType::Float32)
    invalid(
        fmt::format("{} has dtype {}; expected bfloat16, float16 or float32", ssdTensorName(t), rt::dtypeName(dtype)));
}

// The kernels of SsdPlan::launches, in order.
const char *const kLaunchNames[4] = {"chunk_cumsum", "chunk_bmm", "fwd_pass_state", "compute_out"};
// The block-size constants each launch takes from ForwardOptions::blockSizes.
const std::vector<std::string> kBlockNames[4] = {{"BH"}, {"BQ", "BN"}, {"BP", "BN"}, {"BQ", "BP", "BN"}};

std::int64_t cdiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Block sizes are powers of two (tiles must be) no larger than the dimension, so a tiny test
// shape gets tiny blocks rather than mostly-padding ones; a dimension that is not a power of
// two is covered by several blocks with a padded edge.
std::int64_t pow2AtMost(std::int64_t v, std::int64_t cap) {
  std::int64_t p = 1;
  while (p * 2 <= std::min(v, cap))
    p *= 2;
  return p;
}

// The request of one ssd.py kernel; args get their types from the plan's tensors.
SsdLaunch launch(const SsdPlan &plan, const char *kernel, std::map<std::string, frontend::ConstantValue> constants,
                 std::vector<std::pair<const char *, SsdLaunchArg>> params, std::array<std::int64_t, 3> grid) {
  SsdLaunch l;
  l.request.source = ssdSource();
  l.request.fileName = "ssd.py";
  l.request.kernel = kernel;
  l.request.constants = std::move(constants);
  l.grid = grid;
  for (auto &[name, arg] : params) {
    if (auto *t = std::get_if<SsdTensor>(&arg)) {
      const SsdTensorType &type = plan.type(*t);
      l.request.args[name] = {rt::dtypeName(type.dtype), std::int64_t(type.shape.size())};
    } else {
      l.request.args[name] = {"int64", 0};
    }
    l.args.push_back(arg);
  }
  return l;
}

// The block size `name` of launch `k`: ForwardOptions::blockSizes' value, checked, else `chosen`.
std::int64_t blockSize(const ForwardOptions &options, unsigned k, const char *name, std::int64_t chosen) {
  auto it = options.blockSizes[k].find(name);
  if (it == options.blockSizes[k].end())
    return chosen;
  const std::int64_t v = it->second;
  if (v < 1 || v > 256 || (v & (v - 1)))
    invalid(fmt::format("block size {}={} of {} must be a power of two from 1 to 256", name, v, kLaunchNames[k]));
  return v;
}

} // namespace

SsdPlan planSsdForward(const SsdTensorTypes &inputs, const ForwardOptions &options) {
  auto present = [&](SsdTensor t) { return inputs[unsigned(t)].has_value(); };
  for (SsdTensor t : {T::X, T::Dt, T::A, T::B, T::C})
    if (!present(t))
      invalid(fmt::format("the required input {} is missing", ssdTensorName(t)));
  auto shapeOf = [&](SsdTensor t) { return inputs[unsigned(t)]->shape; };
  auto optionalShape = [&](SsdTensor t) { return present(t) ? std::optional<Shape>(shapeOf(t)) : std::nullopt; };
  SsdShapes shapes{shapeOf(T::X),
                   shapeOf(T::Dt),
                   shapeOf(T::A),
                   shapeOf(T::B),
                   shapeOf(T::C),
                   optionalShape(T::D),
                   optionalShape(T::Z),
                   optionalShape(T::DtBias),
                   optionalShape(T::InitialStates)};
  SsdPlan plan;
  plan.dims = validateShapes(shapes);
  validateOptions(options.dt);
  for (unsigned i = 0; i < kNumSsdInputs; ++i)
    if (inputs[i])
      expectFloatDType(SsdTensor(i), inputs[i]->dtype);
  if (inputs[unsigned(T::B)]->dtype != inputs[unsigned(T::C)]->dtype)
    invalid("B and C must have the same dtype");
  const std::int64_t Q = options.chunkSize == 0 ? kDefaultChunkSize : options.chunkSize;
  if (Q < 16 || Q > 256 || (Q & (Q - 1)))
    invalid(fmt::format("chunk_size {} must be a power of two from 16 to 256", Q));
  const SsdDims &d = plan.dims;
  const std::int64_t b = d.batch, seqlen = d.seqlen, H = d.nheads, P = d.headdim, G = d.ngroups, N = d.dstate;
  if ((N & (N - 1)) || N > 256)
    invalid(fmt::format("dstate {} must be a power of two up to 256", N));
  for (unsigned k = 0; k < 4; ++k)
    for (const auto &[name, value] : options.blockSizes[k]) {
      if (std::find(kBlockNames[k].begin(), kBlockNames[k].end(), name) == kBlockNames[k].end()) {
        std::string takes;
        for (const std::string &b : kBlockNames[k])
          takes += (takes.empty() ? "" : ", ") + b;
        invalid(fmt::format("{} has no block size {} (it takes {})", kLaunchNames[k], name, takes));
      }
      if (name == "BQ" && (Q % value != 0 || value > Q))
        invalid(fmt::format("block size BQ={} of {} must divide chunk_size {}", value, kLaunchNames[k], Q));
      if (name == "BN" && k != 2 && (N % value != 0 || value > N))
        invalid(fmt::format("block size BN={} of {} must divide dstate {}", value, kLaunchNames[k], N));
    }
  const std::int64_t nc = cdiv(seqlen, Q);
  plan.chunkSize = Q;
  plan.numChunks = nc;

  for (unsigned i = 0; i < kNumSsdInputs; ++i)
    plan.tensors[i] = inputs[i];
  const rt::DType f32 = rt::DType::Float32;
  auto setOutput = [&](SsdTensor t, rt::DType dtype, Shape shape) {
    plan.tensors[unsigned(t)] = SsdTensorType{dtype, std::move(shape)};
  };
  setOutput(T::Y, options.outputDType.value_or(inputs[unsigned(T::X)]->dtype), {b, seqlen, H, P});
  setOutput(T::FinalStates, f32, {b, H, P, N});
  setOutput(T::DtOut, f32, {b, H, nc, Q});
  setOutput(T::DACumsum, f32, {b, H, nc, Q});
  // Chunk-entry states: compute_out reads them as the products' operand type, so with bf16
  // products they are stored in bf16 (half the bytes of the largest intermediate, no loss for y).
  // fp16 keeps f32 storage: states may leave fp16's range.
  const bool bf16States =
      inputs[unsigned(T::X)]->dtype == rt::DType::BFloat16 && options.precision == MatmulPrecision::Native;
  setOutput(T::States, bf16States ? rt::DType::BFloat16 : f32, {b, nc, H, P, N});
  setOutput(T::CB, f32, {b, nc, G, Q, Q});
  expectFloatDType(T::Y, plan.type(T::Y).dtype);

  // Absent optional inputs are passed as a placeholder of a fitting rank that the kernel never
  // reads (its HAS_* constant is false): every parameter needs an array.
  const SsdTensor dtBias = present(T::DtBias) ? T::DtBias : T::A;
  const SsdTensor init = present(T::InitialStates) ? T::InitialStates : T::FinalStates;
  const SsdTensor D = present(T::D) ? T::D : T::A;
  const SsdTensor z = present(T::Z) ? T::Z : T::X;
  const SsdOptions &o = options.dt;

  // 1. chunk_cumsum: grid (chunks, head blocks, batch).
  const std::int64_t bh = blockSize(options, 0, "BH", pow2AtMost(H, 8));
  plan.launches[0] = launch(plan, "chunk_cumsum",
                            {{"Q", Q},
                             {"BH", bh},
                             {"HAS_BIAS", present(T::DtBias)},
                             {"SOFTPLUS", o.dtSoftplus},
                             // The kernel's constants are f32: an infinite limit is the largest such value.
                             {"DT_MIN", o.dtMin},
                             {"DT_MAX", std::isinf(o.dtMax) ? 3.0e38 : o.dtMax}},
                            {{"dt", T::Dt},
                             {"A", T::A},
                             {"dt_bias", dtBias},
                             {"dt_out", T::DtOut},
                             {"dA_cumsum", T::DACumsum},
                             {"seqlen", seqlen}},
                            {nc, cdiv(H, bh), b});

  const bool tf32 = options.precision == MatmulPrecision::TF32;
  // The row block of chunk_bmm and compute_out (both index cb by it); BN must divide N (the
  // kernels' static_assert): N is a power of two, so min(N, 32) does.
  const std::int64_t bq = std::min<std::int64_t>(Q, 64), bnOut = std::min<std::int64_t>(N, 32);
  const std::int64_t bqBmm = blockSize(options, 1, "BQ", bq), bnBmm = blockSize(options, 1, "BN", bnOut);

  // 2. chunk_bmm: grid (chunks * row blocks, column blocks, batch * groups); blocks above the
  // causal diagonal return at once.
  plan.launches[1] =
      launch(plan, "chunk_bmm", {{"Q", Q}, {"N", N}, {"BQ", bqBmm}, {"BN", bnBmm}, {"TF32", tf32}},
             {{"B", T::B}, {"C", T::C}, {"cb", T::CB}, {"ngroups", G}}, {nc * (Q / bqBmm), Q / bqBmm, b * G});

  // 3. fwd_pass_state: grid (P blocks, N blocks, batch * heads); loops over the chunks. 32x32
  // state blocks: the largest that ptxas builds without spilling at chunk 64 (64x64 spills
  // 2 KB per thread), and more blocks for the serial chunk loop.
  const std::int64_t bpState = blockSize(options, 2, "BP", pow2AtMost(P, 32)),
                     bnState = blockSize(options, 2, "BN", pow2AtMost(N, 32));
  plan.launches[2] =
      launch(plan, "fwd_pass_state",
             {{"Q", Q}, {"BP", bpState}, {"BN", bnState}, {"HAS_INIT", present(T::InitialStates)}, {"TF32", tf32}},
             {{"x", T::X},
              {"B", T::B},
              {"dt_out", T::DtOut},
              {"dA_cumsum", T::DACumsum},
              {"initial_states", init},
              {"states", T::States},
              {"final_states", T::FinalStates},
              {"nheads", H},
              {"ngroups", G},
              {"nchunks", nc}},
             {cdiv(P, bpState), cdiv(N, bnState), b * H});

  // 4. compute_out: grid (chunks * row blocks, P blocks, batch * heads).
  const std::int64_t bqOut = blockSize(options, 3, "BQ", bq), bp = blockSize(options, 3, "BP", pow2AtMost(P, 64)),
                     bnOutBlock = blockSize(options, 3, "BN", bnOut);
  const bool dPerChannel = present(T::D) && shapeOf(T::D).size() == 2;
  plan.launches[3] = launch(plan, "compute_out",
                            {{"Q", Q},
                             {"N", N},
                             {"BQ", bqOut},
                             {"BP", bp},
                             {"BN", bnOutBlock},
                             {"HAS_D", present(T::D)},
                             {"D_PER_CHANNEL", dPerChannel},
                             {"HAS_Z", present(T::Z)},
                             {"TF32", tf32}},
                            {{"x", T::X},
                             {"C", T::C},
                             {"cb", T::CB},
                             {"dt_out", T::DtOut},
                             {"dA_cumsum", T::DACumsum},
                             {"states", T::States},
                             {"D", D},
                             {"z", z},
                             {"y", T::Y},
                             {"nheads", H},
                             {"ngroups", G}},
                            {nc * (Q / bqOut), cdiv(P, bp), b * H});
  return plan;
}

} // namespace tile::mamba2
