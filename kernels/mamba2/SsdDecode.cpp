// The decode step's checks, its launch of decode.py (planned as the forward's launches are:
// SsdPlan.h autotunedLaunch) and its executor over a jit::Backend.
#include "kernels/mamba2/SsdDecode.h"

#include "kernels/mamba2/SsdTuning.h"

#include "runtime/Error.h"

#include <fmt/format.h>

#include <cmath>

extern const unsigned char tile_mamba2_decode_py[];
extern const std::size_t tile_mamba2_decode_py_size;

namespace tile::mamba2 {

std::string decodeSource() {
  return kernelSource("TILE_SSD_DECODE_SOURCE", tile_mamba2_decode_py, tile_mamba2_decode_py_size);
}

namespace {

constexpr const char *kPrefix = "ssd_decode_step: ";

[[noreturn]] void invalid(const std::string &message) {
  throw rt::Error(rt::Error::Kind::InvalidArgument, kPrefix + message);
}

// decode_step's array parameters, in its order.
enum Param : unsigned { State, NewState, X, Dt, A, DtBias, B, C, D, Z, Y, kParams };
const char *const kParamNames[kParams] = {"state", "new_state", "x", "dt", "A", "dt_bias", "B", "C", "D", "z", "y"};

// The arrays each parameter gets: absent optional inputs are passed as a placeholder of the
// same rank that the kernel never reads (its HAS_* constant is false); new_state is the state
// (in place).
std::array<rt::ArrayArg, kParams> paramArrays(const SsdDecodeArrayInputs &in, const rt::ArrayArg &state,
                                              const rt::ArrayArg &y) {
  return {
      state, state, in.x, in.dt, in.A, in.dtBias.value_or(in.A), in.B, in.C, in.D.value_or(in.A), in.z.value_or(in.x),
      y};
}

// Every step of `a` that goes somewhere: strides at least 1 on each dimension of more than one
// element (0 would make two elements one, a negative stride is not supported here).
bool stepsForward(const rt::ArrayArg &a) {
  const std::vector<std::int64_t> strides = a.stridesOrContiguous();
  for (std::size_t d = 0; d < a.shape.size(); ++d)
    if (a.shape[d] > 1 && strides[d] < 1)
      return false;
  return true;
}

// One past the last element of `a` (strides as stepsForward allows them), in elements.
std::int64_t span(const rt::ArrayArg &a) {
  const std::vector<std::int64_t> strides = a.stridesOrContiguous();
  std::int64_t last = 0;
  for (std::size_t d = 0; d < a.shape.size(); ++d) {
    if (a.shape[d] == 0)
      return 0;
    last += (a.shape[d] - 1) * strides[d];
  }
  return last + 1;
}

std::int64_t cdiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

} // namespace

SsdDims validateDecode(const SsdDecodeArrayInputs &in, const rt::ArrayArg &state, const rt::ArrayArg &y,
                       const DecodeOptions &options) {
  SsdDims d;
  try {
    d = validateDecodeShapes(SsdDecodeShapes::of(state.shape, in));
    expectShape("y", y.shape, "(b, H, P)", {d.batch, d.nheads, d.headdim});
    validateOptions(options.dt);
  } catch (const rt::Error &e) {
    invalid(e.what());
  }
  const auto arrays = paramArrays(in, state, y);
  for (unsigned p = 0; p < kParams; ++p) {
    if (p == NewState)
      continue;
    const rt::ArrayArg &a = arrays[p];
    expectFloatDType(kPrefix, kParamNames[p], a.dtype);
    if (!a.strides.empty() && a.strides.size() != a.shape.size())
      invalid(fmt::format("{} has {} strides for shape {} (expected {}, or none for contiguous)", kParamNames[p],
                          a.strides.size(), shapeString(a.shape), a.shape.size()));
    if (!a.data && a.numElements() != 0)
      invalid(fmt::format("{} has no memory (a null pointer)", kParamNames[p]));
  }
  if ((d.dstate & (d.dstate - 1)) || d.dstate > 256)
    invalid(fmt::format("dstate {} must be a power of two up to 256", d.dstate));
  if (!stepsForward(state))
    invalid(fmt::format("state (strides {}) is updated in place: every stride of a dimension larger than 1 must be "
                        "at least 1",
                        shapeString(state.stridesOrContiguous())));
  return d;
}

namespace {

// The launch: decode_step in each configuration, block sizes fitted to the shape.
SsdLaunch planDecode(const std::array<rt::ArrayArg, kParams> &arrays, const SsdDims &d, const SsdDecodeArrayInputs &in,
                     const DecodeOptions &options) {
  const SsdOptions &o = options.dt;
  jit::KernelRequest base;
  base.source = decodeSource();
  base.fileName = "decode.py";
  base.kernel = "decode_step";
  // The kernel's limits are f32 constants: an infinite one is the largest such value.
  base.constants = {{"N", d.dstate},
                    {"DT_PER_CHANNEL", in.dt.shape.size() == 3},
                    {"HAS_BIAS", in.dtBias.has_value()},
                    {"BIAS_PER_CHANNEL", in.dtBias && in.dtBias->shape.size() == 2},
                    {"SOFTPLUS", o.dtSoftplus},
                    {"CLAMP", !std::isinf(o.dtMin) || !std::isinf(o.dtMax)},
                    {"DT_MIN", std::isinf(o.dtMin) ? -3.0e38 : o.dtMin},
                    {"DT_MAX", std::isinf(o.dtMax) ? 3.0e38 : o.dtMax},
                    {"HAS_D", in.D.has_value()},
                    {"D_PER_CHANNEL", in.D && in.D->shape.size() == 2},
                    {"HAS_Z", in.z.has_value()}};
  for (unsigned p = 0; p < kParams; ++p) {
    // new_state keeps the state's promises: tuning passes scratch memory of the same strides.
    const rt::ArrayArg &a = arrays[p == NewState ? State : p];
    base.args[kParamNames[p]] = {rt::dtypeName(a.dtype), std::int64_t(a.shape.size()), a.isAligned()};
  }
  base.args["nheads"] = {"int64", 0};
  base.args["ngroups"] = {"int64", 0};
  const std::int64_t P = d.headdim, N = d.dstate;
  return autotunedLaunch(
      base,
      // BP rows of P with the whole of N: at most 8192 state elements per block (64 registers of
      // state per thread at 128 threads).
      [&](KernelConstants &c) {
        c["BP"] = pow2AtMost(P, std::min(intOf(c, "BP"), std::max<std::int64_t>(1, 8192 / N)));
      },
      [&](const KernelConstants &c) {
        return std::array<std::int64_t, 3>{cdiv(P, intOf(c, "BP")), d.nheads, d.batch};
      },
      {{"batch", d.batch}, {"nheads", d.nheads}, {"headdim", P}, {"ngroups", d.ngroups}, {"dstate", N}});
}

// The key of SsdDecodeCache: everything planDecode reads.
std::string decodeKey(const std::array<rt::ArrayArg, kParams> &arrays, const SsdDecodeArrayInputs &in,
                      const DecodeOptions &options) {
  std::string key;
  for (const rt::ArrayArg &a : arrays)
    key += std::string(rt::dtypeName(a.dtype)) + shapeString(a.shape) + (a.isAligned() ? "a;" : ";");
  const SsdOptions &o = options.dt;
  return key + fmt::format("D={} z={} bias={} sp={} dt=[{},{}]", in.D.has_value(), in.z.has_value(),
                           in.dtBias.has_value(), o.dtSoftplus, o.dtMin, o.dtMax);
}

rt::Grid gridOf(const SsdVariant &v) { return rt::Grid(v.grid[0], v.grid[1], v.grid[2]); }

std::vector<rt::Arg> argsOf(const std::array<rt::ArrayArg, kParams> &arrays, const SsdDims &d) {
  std::vector<rt::Arg> args(arrays.begin(), arrays.end());
  args.emplace_back(rt::Scalar(d.nheads));
  args.emplace_back(rt::Scalar(d.ngroups));
  return args;
}

} // namespace

/// The configuration chosen and compiled.
struct SsdDecodePrepared {
  std::optional<jit::KernelHandle> kernel; // none when the grid is empty
  rt::Grid grid;
  SsdKernelChoice choice;
};

// Chooses the configuration (known without timing, else timed here with the new state written to
// scratch memory of the state's strides) and compiles it.
static SsdDecodePrepared prepare(jit::Backend &backend, const SsdLaunch &l, std::array<rt::ArrayArg, kParams> arrays,
                                 const SsdDims &d, const rt::Stream *stream) {
  SsdDecodePrepared p;
  p.choice.kernel = l.request().kernel;
  if (l.empty()) {
    p.choice.skipped = true;
    return p;
  }
  // Timed with the new state written to scratch memory of the state's strides.
  jit::Buffer scratch;
  const ChosenVariant chosen = chooseVariant(
      backend, l,
      [&] {
        const std::int64_t elements = span(arrays[State]);
        scratch = backend.allocate(std::size_t(elements) * rt::dtypeSize(arrays[State].dtype));
        std::array<rt::ArrayArg, kParams> timing = arrays;
        timing[NewState] = scratch.array(arrays[State].dtype, arrays[State].shape, arrays[State].stridesOrContiguous());
        return argsOf(timing, d);
      },
      stream);
  p.kernel = chosen.kernel;
  p.grid = gridOf(l.variants[chosen.index]);
  p.choice = choiceOf(l, chosen);
  return p;
}

SsdKernelChoice ssdDecodeStep(jit::Backend &backend, const SsdDecodeArrayInputs &in, const rt::ArrayArg &state,
                              const rt::ArrayArg &y, const DecodeOptions &options, const rt::Stream *stream, bool wait,
                              SsdDecodeCache *cache) {
  const SsdDims d = validateDecode(in, state, y, options);
  const std::array<rt::ArrayArg, kParams> arrays = paramArrays(in, state, y);
  const std::string key = cache ? decodeKey(arrays, in, options) : std::string();
  std::shared_ptr<const SsdDecodePrepared> prepared = cache ? cache->find(key) : nullptr;
  if (!prepared) {
    prepared = std::make_shared<const SsdDecodePrepared>(
        prepare(backend, planDecode(arrays, d, in, options), arrays, d, stream));
    if (cache)
      cache->insert(key, prepared);
  }
  if (prepared->kernel) {
    backend.launch(*prepared->kernel, prepared->grid, argsOf(arrays, d), stream);
    if (wait) {
      if (stream)
        stream->synchronize();
      else
        backend.synchronize();
    }
  }
  return prepared->choice;
}

} // namespace tile::mamba2
