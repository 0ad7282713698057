#include "kernels/mamba2/SsdPlan.h"

#include "runtime/File.h"
#include "runtime/jit/Jit.h"
#include "runtime/jit/KernelDecl.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

extern const unsigned char tile_mamba2_ssd_py[];
extern const std::size_t tile_mamba2_ssd_py_size;

namespace tile::mamba2 {

std::string kernelSource(const char *environmentVariable, const unsigned char *embedded, std::size_t size) {
  // Kernel authors try a changed kernel file without rebuilding the library (or its GPU bundle).
  if (const char *path = std::getenv(environmentVariable); path && *path) {
    // The project's reader: a FIFO or /dev/zero is refused at once, a file past the JIT's
    // source limit too.
    std::string text;
    try {
      text = rt::readRegularFile(path, jit::kMaxSourceBytes);
    } catch (const rt::Error &e) {
      throw rt::Error(rt::Error::Kind::InvalidArgument, fmt::format("{}={}", environmentVariable, e.what()));
    }
    if (text.empty())
      throw rt::Error(rt::Error::Kind::InvalidArgument,
                      fmt::format("{}={}: the file is empty", environmentVariable, path));
    return text;
  }
  return std::string(reinterpret_cast<const char *>(embedded), size);
}

std::string ssdSource() { return kernelSource("TILE_SSD_SOURCE", tile_mamba2_ssd_py, tile_mamba2_ssd_py_size); }

const char *ssdTensorName(SsdTensor t) {
  static const char *const names[kNumSsdTensors] = {
      "x", "dt",           "A",      "B",         "C",      "D", "z", "dt_bias", "initial_states", "seq_idx",
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
  mamba2::expectFloatDType("ssd_forward: ", ssdTensorName(t), dtype);
}

std::int64_t cdiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

using Constants = KernelConstants;

} // namespace

void expectFloatDType(const char *prefix, const std::string &name, rt::DType dtype) {
  if (dtype != rt::DType::BFloat16 && dtype != rt::DType::Float16 && dtype != rt::DType::Float32)
    throw rt::Error(
        rt::Error::Kind::InvalidArgument,
        fmt::format("{}{} has dtype {}; expected bfloat16, float16 or float32", prefix, name, rt::dtypeName(dtype)));
}

std::int64_t pow2AtMost(std::int64_t v, std::int64_t cap) {
  std::int64_t p = 1;
  while (p * 2 <= std::min(v, cap))
    p *= 2;
  return p;
}

rt::ArrayArg transposedView(const rt::ArrayArg &array) {
  rt::ArrayArg view = array;
  std::size_t rank = view.shape.size();
  if (rank < 2)
    return view;
  view.strides = array.stridesOrContiguous();
  std::swap(view.shape[rank - 1], view.shape[rank - 2]);
  std::swap(view.strides[rank - 1], view.strides[rank - 2]);
  return view;
}

std::int64_t intOf(const KernelConstants &c, const char *name) { return std::get<std::int64_t>(c.at(name)); }

SsdLaunch autotunedLaunch(const jit::KernelRequest &base, const std::function<void(KernelConstants &)> &fit,
                          const std::function<std::array<std::int64_t, 3>(const KernelConstants &)> &grid,
                          const std::map<std::string, std::int64_t> &dims) {
  SsdLaunch l;
  const jit::KernelDecl decl = jit::kernelDecl(base.source, base.fileName, base.kernel);
  if (decl.configs.empty())
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    fmt::format("{}: {} has no @ct.autotune configurations", base.fileName, base.kernel));
  l.keyNames = decl.key;
  l.keyValues = dims;
  for (unsigned i = 0; i < decl.configs.size(); ++i) {
    Constants tuned = decl.configs[i];
    fit(tuned);
    SsdVariant v;
    v.candidate.config = i;
    for (auto &[name, value] : tuned)
      v.candidate.constants[name] = frontend::formatConstant(value);
    auto same = std::find_if(l.variants.begin(), l.variants.end(),
                             [&](const SsdVariant &o) { return o.candidate.constants == v.candidate.constants; });
    if (same != l.variants.end()) {
      same->candidate.merged.push_back(i);
      continue;
    }
    v.request = base;
    v.request.config = i;
    // The fitted sizes override the configuration's own (a constant given overrides it). Kernel
    // options (occupancy, num_ctas, num_threads) are no constants: the front end takes them
    // from the configuration itself (request.config); they stay in the candidate's label.
    for (auto &[name, value] : tuned)
      if (!frontend::isKernelOption(name))
        v.request.constants[name] = value;
    v.grid = grid(v.request.constants);
    l.variants.push_back(std::move(v));
  }
  return l;
}

namespace {

// One ssd.py launch: every @ct.autotune configuration of `kernel`, its block sizes fitted to
// the shape by `fit`, on the grid `grid` gives for them; `fixed` holds the other constants and
// args get their types from the plan's tensors.
SsdLaunch launch(const SsdPlan &plan, const char *kernel, Constants fixed,
                 std::vector<std::pair<const char *, SsdLaunchArg>> params, const std::function<void(Constants &)> &fit,
                 const std::function<std::array<std::int64_t, 3>(const Constants &)> &grid,
                 const std::map<std::string, std::int64_t> &dims) {
  jit::KernelRequest base;
  base.source = ssdSource();
  base.fileName = "ssd.py";
  base.kernel = kernel;
  base.constants = std::move(fixed);
  std::vector<SsdLaunchArg> args;
  for (auto &[name, arg] : params) {
    if (auto *t = std::get_if<SsdTensor>(&arg)) {
      const SsdTensorType &type = plan.type(*t);
      base.args[name] = {rt::dtypeName(type.dtype), std::int64_t(type.shape.size()), type.aligned};
    } else if (auto *v = std::get_if<SsdTransposed>(&arg)) {
      // Its last stride is not 1: never an aligned (TMA) argument.
      const SsdTensorType &type = plan.type(v->tensor);
      base.args[name] = {rt::dtypeName(type.dtype), std::int64_t(type.shape.size()), false};
    } else {
      base.args[name] = {"int64", 0};
    }
    args.push_back(arg);
  }
  SsdLaunch l = autotunedLaunch(base, fit, grid, dims);
  l.args = std::move(args);
  return l;
}

} // namespace

int defaultChunkSize(std::int64_t dstate, rt::DType dataType, MatmulPrecision precision) {
  const bool tensorCores16 =
      (dataType == rt::DType::BFloat16 || dataType == rt::DType::Float16) && precision == MatmulPrecision::Native;
  return tensorCores16 && dstate >= 128 ? 128 : 64;
}

bool readsChunkBmm(const SsdPlan &plan, const SsdVariant &computeOut) {
  return std::get<std::int64_t>(computeOut.request.constants.at("BQ")) < plan.chunkSize;
}

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
                   optionalShape(T::InitialStates),
                   optionalShape(T::SeqIdx)};
  SsdPlan plan;
  plan.dims = validateShapes(shapes);
  validateOptions(options.dt);
  for (unsigned i = 0; i < kNumSsdInputs; ++i)
    if (inputs[i] && SsdTensor(i) != T::SeqIdx)
      expectFloatDType(SsdTensor(i), inputs[i]->dtype);
  if (present(T::SeqIdx) && inputs[unsigned(T::SeqIdx)]->dtype != rt::DType::Int32)
    invalid(fmt::format("seq_idx has dtype {}; expected int32", rt::dtypeName(inputs[unsigned(T::SeqIdx)]->dtype)));
  if (inputs[unsigned(T::B)]->dtype != inputs[unsigned(T::C)]->dtype)
    invalid("B and C must have the same dtype");
  const std::int64_t Q = options.chunkSize == 0
                             ? defaultChunkSize(plan.dims.dstate, inputs[unsigned(T::X)]->dtype, options.precision)
                             : options.chunkSize;
  if (Q < 16 || Q > 256 || (Q & (Q - 1)))
    invalid(fmt::format("chunk_size {} must be a power of two from 16 to 256", Q));
  const SsdDims &d = plan.dims;
  const std::int64_t b = d.batch, seqlen = d.seqlen, H = d.nheads, P = d.headdim, G = d.ngroups, N = d.dstate;
  if ((N & (N - 1)) || N > 256)
    invalid(fmt::format("dstate {} must be a power of two up to 256", N));
  const std::int64_t nc = cdiv(seqlen, Q);
  plan.chunkSize = Q;
  plan.numChunks = nc;

  for (unsigned i = 0; i < kNumSsdInputs; ++i)
    plan.tensors[i] = inputs[i];
  const rt::DType f32 = rt::DType::Float32;
  auto setOutput = [&](SsdTensor t, rt::DType dtype, Shape shape) {
    // Allocated contiguous, on a 256-byte boundary.
    rt::ArrayArg allocated{256, dtype, shape, {}};
    plan.tensors[unsigned(t)] = SsdTensorType{dtype, std::move(shape), allocated.isAligned()};
  };
  setOutput(T::Y, options.outputDType.value_or(inputs[unsigned(T::X)]->dtype), {b, seqlen, H, P});
  setOutput(T::FinalStates, f32, {b, H, P, N});
  setOutput(T::DtOut, f32, {b, H, nc, Q});
  setOutput(T::DACumsum, f32, {b, H, nc, Q});
  // Chunk-entry states: compute_out reads them as the products' operand type, so with bf16
  // products they are stored in bf16 (half the bytes of the largest intermediate, no loss for y).
  // fp16 keeps f32 storage: states may leave fp16's range. C.B^T stays f32: compute_out decays
  // and weights it before the one rounding to the operand type (bf16 storage measured 1% faster
  // on the H200 and raised y's error by 14% on the G=2 bf16 test case).
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
  const SsdTensor seqIdx = present(T::SeqIdx) ? T::SeqIdx : T::A;
  const SsdOptions &o = options.dt;

  // The dimensions a kernel's autotune key= may name.
  const std::map<std::string, std::int64_t> dims = {{"batch", b},   {"seqlen", seqlen}, {"nheads", H}, {"headdim", P},
                                                    {"ngroups", G}, {"dstate", N},      {"Q", Q}};
  // Block sizes are fitted to the shape: a power of two no larger than the dimension it tiles
  // (a tiny test shape gets tiny blocks rather than mostly-padding ones); row blocks divide Q
  // and BN divides N (the kernels' static_assert), both powers of two.
  auto fitPow2 = [](Constants &c, const char *name, std::int64_t dim) { c[name] = pow2AtMost(dim, intOf(c, name)); };
  auto fitMin = [](Constants &c, const char *name, std::int64_t dim) { c[name] = std::min(dim, intOf(c, name)); };

  // 1. chunk_cumsum: grid (chunks, head blocks, batch).
  plan.launches[0] = launch(
      plan, "chunk_cumsum",
      {{"Q", Q},
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
      [&](Constants &c) { fitPow2(c, "BH", H); },
      [&](const Constants &c) {
        return std::array<std::int64_t, 3>{nc, cdiv(H, intOf(c, "BH")), b};
      },
      dims);

  const bool tf32 = options.precision == MatmulPrecision::TF32;

  // 2. chunk_bmm: grid (chunks * row blocks, column blocks, batch * groups); blocks above the
  // causal diagonal return at once.
  plan.launches[1] = launch(
      plan, "chunk_bmm", {{"Q", Q}, {"N", N}, {"TF32", tf32}},
      {{"B", T::B}, {"C", T::C}, {"cb", T::CB}, {"ngroups", G}},
      [&](Constants &c) {
        fitMin(c, "BQ", Q);
        fitMin(c, "BN", N);
      },
      [&](const Constants &c) {
        const std::int64_t rowBlocks = Q / intOf(c, "BQ");
        return std::array<std::int64_t, 3>{nc * rowBlocks, rowBlocks, b * G};
      },
      dims);

  // 3. fwd_pass_state: grid (P blocks, N blocks, batch * heads); loops over the chunks.
  // Configuration 0 has 32x32 state blocks: the largest that ptxas builds without spilling at
  // chunk 64 (64x64 spills 2 KB per thread), and more blocks for the serial chunk loop.
  plan.launches[2] = launch(
      plan, "fwd_pass_state",
      {{"Q", Q}, {"HAS_INIT", present(T::InitialStates)}, {"HAS_SEQ", present(T::SeqIdx)}, {"TF32", tf32}},
      {{"x", T::X},
       {"B", T::B},
       {"dt_out", T::DtOut},
       {"dA_cumsum", T::DACumsum},
       {"initial_states", init},
       {"states", T::States},
       {"final_states", T::FinalStates},
       {"states_t", SsdTransposed{T::States}},
       {"final_states_t", SsdTransposed{T::FinalStates}},
       {"nheads", H},
       {"ngroups", G},
       {"nchunks", nc},
       {"seq_idx", seqIdx}},
      [&](Constants &c) {
        fitPow2(c, "BP", P);
        fitPow2(c, "BN", N);
        // Parts of a whole chunk or more: the plain chunk loop (merges with its configuration).
        if (c.count("SQ") && intOf(c, "SQ") >= Q)
          c.erase("SQ");
      },
      [&](const Constants &c) {
        return std::array<std::int64_t, 3>{cdiv(P, intOf(c, "BP")), cdiv(N, intOf(c, "BN")), b * H};
      },
      dims);

  // 4. compute_out: grid (chunks * row blocks, P blocks, batch * heads / HB), HB heads of one
  // group per block (a power of two dividing the heads per group). It reads cb in its own row
  // blocks: where chunk_bmm's are smaller, the parts of a diagonal block above chunk_bmm's
  // diagonal were never written, and the causal mask drops them.
  const bool dPerChannel = present(T::D) && shapeOf(T::D).size() == 2;
  plan.launches[3] = launch(
      plan, "compute_out",
      {{"Q", Q},
       {"N", N},
       {"HAS_D", present(T::D)},
       {"D_PER_CHANNEL", dPerChannel},
       {"HAS_Z", present(T::Z)},
       {"HAS_INIT", present(T::InitialStates)},
       {"HAS_SEQ", present(T::SeqIdx)},
       {"TF32", tf32}},
      {{"x", T::X},
       {"B", T::B},
       {"C", T::C},
       {"cb", T::CB},
       {"dt_out", T::DtOut},
       {"dA_cumsum", T::DACumsum},
       {"states", T::States},
       {"initial_states", init},
       {"D", D},
       {"z", z},
       {"y", T::Y},
       {"nheads", H},
       {"ngroups", G},
       {"seq_idx", seqIdx}},
      [&](Constants &c) {
        fitMin(c, "BQ", Q);
        fitPow2(c, "BP", P);
        fitMin(c, "BN", N);
        // The most heads of one group up to HB that divide the group's heads (80 and HB 32: 20).
        std::int64_t hb = std::clamp<std::int64_t>(c.count("HB") ? intOf(c, "HB") : 1, 1, H / G);
        while ((H / G) % hb)
          --hb;
        c["HB"] = hb;
      },
      [&](const Constants &c) {
        return std::array<std::int64_t, 3>{nc * (Q / intOf(c, "BQ")), cdiv(P, intOf(c, "BP")), b * H / intOf(c, "HB")};
      },
      dims);
  return plan;
}

} // namespace tile::mamba2
