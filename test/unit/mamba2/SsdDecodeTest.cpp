// ssd_decode_step (SsdDecode.h) on the interpreter backend: against the float64 reference of the
// step (referenceDecodeStep) over states in fp32 and bf16, data in every dtype, groups, D per
// head and per channel, z, dt bias, softplus, dt per channel and broadcast with zero strides as
// mamba_ssm's Mamba-2 step passes it; the step after a forward pass of T tokens against the
// forward pass of T + 1 tokens; and the errors naming the argument.
#include "kernels/mamba2/SsdDecode.h"
#include "compiler/interpreter/DType.h"
#include "kernels/mamba2/ErrorMetrics.h"
#include "kernels/mamba2/Reference.h"
#include "test/unit/mamba2/Mamba2TestUtil.h"
#include "test/unit/mamba2/StoredTensor.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <memory>
#include <random>

using namespace tile;
using namespace tile::mamba2;
using tile::mamba2::test::interpreter;
using tile::mamba2::test::Problem;
using tile::mamba2::test::ProblemSpec;
using tile::mamba2::test::Stored;
using tile::mamba2::test::unitRoundoff;

namespace {

const interp::DType kF32 = interp::DType::Float32, kBF16 = interp::DType::BFloat16, kF16 = interp::DType::Float16;

Tensor randomTensor(Shape shape, double lo, double hi, std::mt19937_64 &rng) {
  Tensor t(std::move(shape));
  std::uniform_real_distribution<double> dist(lo, hi);
  for (double &v : t.data)
    v = dist(rng);
  return t;
}

struct DecodeCase {
  const char *name;
  std::int64_t b = 1, H = 2, P = 8, G = 1, N = 16;
  interp::DType state = kF32, data = kF32, y = kF32; // data: x, z, B, C
  int dRank = 0, biasRank = 0;                       // 0: absent
  bool z = false, dtPerChannel = false, softplus = false, strided = false;
  // dt, dt_bias and D given as mamba_ssm's Mamba-2 step passes them: (b, H, P) and (H, P) views
  // with stride 0 along P.
  bool broadcastP = false;
  double dtMin = -INFINITY, dtMax = INFINITY;
};

// The tensors of a case, stored, and the views the reference reads.
struct DecodeProblem {
  std::vector<std::unique_ptr<Stored>> keep;
  SsdDecodeArrayInputs in;
  SsdDecodeInputs ref;
  std::unique_ptr<Stored> state;
  jit::Buffer yBuffer;
  rt::ArrayArg y;
  SsdOptions options;

  explicit DecodeProblem(const DecodeCase &c, jit::Backend &backend = interpreter()) {
    std::mt19937_64 rng(5);
    auto store = [&](const Tensor &t, interp::DType dtype, bool strided) -> const Stored & {
      keep.push_back(std::make_unique<Stored>(t, dtype, strided, backend));
      return *keep.back();
    };
    // A per-head tensor broadcast along a new last dimension of P elements, stride 0.
    auto broadcast = [&](const Stored &s, TensorView &view, rt::ArrayArg &array) {
      Shape shape = s.array.shape, strides = s.array.stridesOrContiguous();
      shape.push_back(c.P);
      strides.push_back(0);
      array = s.buffer.array(s.array.dtype, shape, strides);
      view = TensorView(s.rounded.data.data(), shape, strides);
    };
    state = std::make_unique<Stored>(randomTensor({c.b, c.H, c.P, c.N}, -1, 1, rng), c.state, false, backend);
    const Stored &x = store(randomTensor({c.b, c.H, c.P}, -1, 1, rng), c.data, c.strided);
    const Shape dtShape = c.dtPerChannel ? Shape{c.b, c.H, c.P} : Shape{c.b, c.H};
    const Stored &dt =
        store(c.softplus ? randomTensor(dtShape, -3, 1, rng) : randomTensor(dtShape, -0.05, 0.4, rng), kF32, false);
    const Stored &A = store(randomTensor({c.H}, -2, -0.2, rng), kF32, false);
    const Stored &B = store(randomTensor({c.b, c.G, c.N}, -1, 1, rng), c.data, c.strided);
    const Stored &C = store(randomTensor({c.b, c.G, c.N}, -1, 1, rng), c.data, c.strided);
    in = {x.array, dt.array, A.array, B.array, C.array, {}, {}, {}};
    ref = {state->rounded, x.rounded, dt.rounded, A.rounded, B.rounded, C.rounded, {}, {}, {}};
    if (c.broadcastP)
      broadcast(dt, ref.dt, in.dt);
    if (c.dRank) {
      const Stored &D = store(randomTensor(c.dRank == 1 ? Shape{c.H} : Shape{c.H, c.P}, -1, 1, rng), kF32, false);
      in.D = D.array, ref.D = D.rounded.view();
      if (c.broadcastP)
        broadcast(D, *ref.D, *in.D);
    }
    if (c.z) {
      const Stored &z = store(randomTensor({c.b, c.H, c.P}, -2, 2, rng), c.data, c.strided);
      in.z = z.array, ref.z = z.rounded.view();
    }
    if (c.biasRank) {
      const Stored &bias =
          store(randomTensor(c.biasRank == 1 ? Shape{c.H} : Shape{c.H, c.P}, -0.5, 0.5, rng), kF32, false);
      in.dtBias = bias.array, ref.dtBias = bias.rounded.view();
      if (c.broadcastP)
        broadcast(bias, *ref.dtBias, *in.dtBias);
    }
    yBuffer = backend.allocate(size_t(c.b * c.H * c.P) * interp::dtypeSize(c.y));
    y = yBuffer.array(static_cast<rt::DType>(c.y), {c.b, c.H, c.P});
    options = SsdOptions{c.softplus, c.dtMin, c.dtMax};
  }
};

// The bound of a stored decode output against float64: fp32 arithmetic over N terms of unit
// scale (atol 1e-5 of the RMS), then the rounding to the stored dtype (rtol 2 units).
ErrorStats check(const char *name, const char *what, const Tensor &got, const Tensor &expected, rt::DType stored) {
  const double refRms = compare(expected, expected).refRms;
  const double rtol = stored == rt::DType::Float32 ? 0.0 : 2 * unitRoundoff(stored);
  const ErrorStats e = compare(got, expected, 1e-5 * std::max(1.0, refRms), rtol);
  std::printf("ssd decode %-44s %-6s %s\n", name, what, e.str(got.shape).c_str());
  CHECK(e.outside == 0);
  return e;
}

} // namespace

TEST_CASE("mamba2 decode: decode_step matches the float64 reference of the step", "[mamba2][interpreter]") {
  std::vector<DecodeCase> cases;
  cases.push_back({"fp32 state and data, batch 1"});
  {
    DecodeCase c{"bf16 state and data, groups 2, D(H,P) z bias softplus"};
    c.b = 3, c.H = 4, c.P = 12, c.G = 2, c.N = 8; // P not a power of two: a ragged P block
    c.state = kBF16, c.data = kBF16, c.y = kBF16;
    c.dRank = 2, c.biasRank = 1, c.z = true, c.softplus = true, c.strided = true;
    cases.push_back(c);
  }
  {
    DecodeCase c{"fp32 state, fp16 data, D(H), dt(b,H,P), bias(H,P), limits"};
    c.b = 2, c.H = 4, c.G = 4, c.N = 32;
    c.data = kF16, c.y = kF16, c.dRank = 1, c.biasRank = 2, c.dtPerChannel = true;
    c.dtMin = 0.01, c.dtMax = 0.3;
    cases.push_back(c);
  }
  {
    DecodeCase c{"as mamba_ssm's step: dt, dt_bias, D broadcast over P"};
    c.b = 2, c.H = 4, c.P = 16, c.G = 2, c.N = 64;
    c.state = kBF16, c.data = kBF16, c.y = kF32;
    c.dRank = 1, c.biasRank = 1, c.z = true, c.softplus = true, c.broadcastP = true;
    cases.push_back(c);
  }
  {
    DecodeCase c{"bf16 state, fp32 data, no options, batch 4"};
    c.b = 4, c.H = 2, c.P = 4, c.N = 128, c.state = kBF16;
    cases.push_back(c);
  }
  for (const DecodeCase &c : cases) {
    INFO("case " << c.name);
    DecodeProblem p(c);
    DecodeOptions options;
    options.dt = p.options;
    const SsdDecodeResult expected = referenceDecodeStep(p.ref, options.dt);
    const SsdKernelChoice ran = ssdDecodeStep(interpreter(), p.in, p.state->array, p.y, options);
    CHECK(ran.kernel == "decode_step");
    CHECK(ran.config == 0);
    CHECK_FALSE(ran.skipped);
    check(c.name, "y", valuesOf(p.yBuffer, p.y), expected.y, p.y.dtype);
    check(c.name, "state", valuesOf(p.state->buffer, p.state->array), expected.state, p.state->array.dtype);
  }
}

TEST_CASE("mamba2 decode: every configuration, and two steps through the cache", "[mamba2][interpreter][autotune]") {
  DecodeCase c{"every configuration"};
  c.b = 2, c.H = 2, c.P = 64, c.N = 16, c.dRank = 2, c.z = true, c.biasRank = 1, c.softplus = true;
  const DecodeProblem base(c);
  DecodeOptions options;
  options.dt = base.options;
  const SsdDecodeResult expected = referenceDecodeStep(base.ref, options.dt);
  // decode.py's BP list, each fitted to P = 64: five block sizes.
  for (unsigned config = 0; config < 5; ++config) {
    INFO("TILE_AUTOTUNE_FORCE=decode_step:" << config);
    jit::Backend backend(test::interpreterForcing("decode_step:" + std::to_string(config)));
    DecodeProblem p(c, backend); // the same values, in this backend's buffers
    const rt::ArrayArg &state = p.state->array, &y = p.y;
    SsdDecodeCache cache;
    const SsdKernelChoice ran = ssdDecodeStep(backend, p.in, state, y, options, nullptr, true, &cache);
    CHECK(ran.config == config);
    CHECK(ran.source == jit::TuneSource::Forced);
    check(ran.label.c_str(), "y", valuesOf(p.yBuffer, y), expected.y, rt::DType::Float32);
    check(ran.label.c_str(), "state", valuesOf(p.state->buffer, state), expected.state, rt::DType::Float32);
    // A second step from the cache continues from the updated state.
    SsdDecodeInputs next = p.ref;
    next.state = expected.state;
    const SsdDecodeResult second = referenceDecodeStep(next, options.dt);
    const SsdKernelChoice again = ssdDecodeStep(backend, p.in, state, y, options, nullptr, true, &cache);
    CHECK(cache.size() == 1);
    CHECK(again.label == ran.label);
    check(ran.label.c_str(), "y 2", valuesOf(p.yBuffer, y), second.y, rt::DType::Float32);
    check(ran.label.c_str(), "state 2", valuesOf(p.state->buffer, state), second.state, rt::DType::Float32);
  }
}

namespace {

// Positions [from, to) of dimension 1 of t.
Tensor slice1(const Tensor &t, std::int64_t from, std::int64_t to) {
  Shape shape = t.shape;
  shape[1] = to - from;
  Tensor r(shape);
  const std::int64_t outer = t.shape[0], inner = numElements(t.shape) / (outer * t.shape[1]);
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = from; i < to; ++i)
      for (std::int64_t k = 0; k < inner; ++k)
        r.data[size_t((o * shape[1] + i - from) * inner + k)] = t.data[size_t((o * t.shape[1] + i) * inner + k)];
  return r;
}

// Dimension 1 of t dropped at position i: (b, T, ...) -> (b, ...).
Tensor at1(const Tensor &t, std::int64_t i) {
  Tensor r = slice1(t, i, i + 1);
  r.shape.erase(r.shape.begin() + 1);
  return r;
}

} // namespace

TEST_CASE("mamba2 decode: the step after a forward pass of T tokens is the forward pass of T + 1",
          "[mamba2][interpreter]") {
  struct Continuation {
    const char *name;
    interp::DType data;
    std::int64_t T;
  };
  // T = 20 at chunk 16: the forward's state crosses a chunk boundary and its last chunk is ragged.
  for (const Continuation &k :
       {Continuation{"fp32", kF32, 20}, Continuation{"bf16", kBF16, 20}, Continuation{"fp32, one token", kF32, 1}}) {
    INFO(k.name);
    ProblemSpec spec;
    spec.b = 2, spec.T = k.T + 1, spec.H = 4, spec.P = 8, spec.G = 2, spec.N = 16;
    spec.dRank = 2, spec.z = true, spec.dtBias = true, spec.initialStates = true, spec.options.dtSoftplus = true;
    const Problem p(spec, 3);
    std::vector<std::unique_ptr<Stored>> keep;
    auto store = [&](const Tensor &t, interp::DType dtype) -> const Stored & {
      keep.push_back(std::make_unique<Stored>(t, dtype, false));
      return *keep.back();
    };
    const Stored &A = store(p.A, kF32), &D = store(p.D, kF32), &bias = store(p.dtBias, kF32),
                 &init = store(p.initialStates, kF32);
    auto forward = [&](std::int64_t from, std::int64_t to) {
      SsdArrayInputs in{store(slice1(p.x, from, to), k.data).array,
                        store(slice1(p.dt, from, to), kF32).array,
                        A.array,
                        store(slice1(p.B, from, to), k.data).array,
                        store(slice1(p.C, from, to), k.data).array,
                        D.array,
                        store(slice1(p.z, from, to), k.data).array,
                        bias.array,
                        init.array};
      ForwardOptions options;
      options.chunkSize = 16;
      options.dt = spec.options;
      return ssdForward(interpreter(), in, options);
    };
    const SsdOutputs first = forward(0, k.T), whole = forward(0, k.T + 1);
    // The step on token T from the forward's final states (fp32, in the backend's memory).
    const std::int64_t T = k.T;
    SsdDecodeArrayInputs in{store(at1(p.x, T), k.data).array,
                            store(at1(p.dt, T), kF32).array,
                            A.array,
                            store(at1(p.B, T), k.data).array,
                            store(at1(p.C, T), k.data).array,
                            D.array,
                            store(at1(p.z, T), k.data).array,
                            bias.array};
    jit::Buffer yBuffer = interpreter().allocate(size_t(spec.b * spec.H * spec.P) * 4);
    const rt::ArrayArg y = yBuffer.array(rt::DType::Float32, {spec.b, spec.H, spec.P});
    DecodeOptions options;
    options.dt = spec.options; // the forward's: softplus, clamped at 0
    ssdDecodeStep(interpreter(), in, first.finalStates.view, y, options);
    const Tensor stepY = valuesOf(yBuffer, y), stepState = first.finalStates.values();
    const Tensor wholeY = at1(whole.y.values(), T), wholeState = whole.finalStates.values();
    // fp32: both are fp32 arithmetic on the same inputs (1e-5 of the RMS). bf16: the forward's
    // products round their computed factors to bf16 (ssdTolerance's bound, Mamba2TestUtil.h),
    // the step computes in fp32: they differ by the forward's rounding.
    const bool bf16 = k.data == kBF16;
    const double sMax = tile::mamba2::test::maxAbs(whole.dACumsum.values());
    auto bound = [&](const Tensor &ref, rt::DType stored) {
      const double refRms = compare(ref, ref).refRms;
      if (!bf16)
        return tile::mamba2::test::Tolerance{1e-5 * std::max(1.0, refRms), 0.0};
      auto t = tile::mamba2::test::ssdTolerance(rt::DType::BFloat16, false, stored, refRms, sMax);
      return tile::mamba2::test::Tolerance{2 * t.atol, 2 * t.rtol};
    };
    const auto ty = bound(wholeY, whole.y.view.dtype), ts = bound(wholeState, rt::DType::Float32);
    const ErrorStats ey = compare(stepY, wholeY, ty.atol, ty.rtol);
    const ErrorStats es = compare(stepState, wholeState, ts.atol, ts.rtol);
    std::printf("ssd decode %-44s %-6s %s\n", k.name, "y", ey.str(stepY.shape).c_str());
    std::printf("ssd decode %-44s %-6s %s\n", k.name, "state", es.str(stepState.shape).c_str());
    CHECK(ey.outside == 0);
    CHECK(es.outside == 0);
  }
}

TEST_CASE("mamba2 decode: argument errors name the argument", "[mamba2][interpreter]") {
  DecodeCase c{"errors"};
  c.b = 2, c.H = 4, c.G = 2, c.dRank = 1, c.z = true, c.biasRank = 1;
  DecodeProblem p(c);
  jit::Backend &backend = interpreter();
  auto fails = [&](const SsdDecodeArrayInputs &in, const rt::ArrayArg &state, const rt::ArrayArg &y,
                   const std::string &message, const DecodeOptions &options = {}) {
    INFO(message);
    CHECK_THROWS_WITH(ssdDecodeStep(backend, in, state, y, options), Catch::Contains("ssd_decode_step: " + message));
  };
  const rt::ArrayArg &state = p.state->array;
  {
    SsdDecodeArrayInputs in = p.in;
    in.x.shape = {2, 4, 7};
    fails(in, state, p.y, "x has shape (2, 4, 7) but expected (b, H, P) = (2, 4, 8)");
  }
  {
    SsdDecodeArrayInputs in = p.in;
    in.dt.shape = {2, 4, 8, 1};
    fails(in, state, p.y, "dt has rank 4 (shape (2, 4, 8, 1)) but expected rank 2: (b, H) = (2, 4)");
  }
  {
    SsdDecodeArrayInputs in = p.in;
    in.B.shape = {2, 3, 16};
    in.C.shape = {2, 3, 16};
    fails(in, state, p.y, "nheads 4 is not divisible by ngroups 3");
  }
  {
    SsdDecodeArrayInputs in = p.in;
    in.C.shape = {2, 1, 16};
    fails(in, state, p.y, "C has shape (2, 1, 16) but expected (b, G, N) = (2, 2, 16)");
  }
  {
    SsdDecodeArrayInputs in = p.in;
    in.D->shape = {4, 8, 1};
    fails(in, state, p.y, "D has shape (4, 8, 1) but expected (H,) = (4,) or (H, P) = (4, 8)");
  }
  {
    SsdDecodeArrayInputs in = p.in;
    in.dtBias->shape = {5};
    fails(in, state, p.y, "dt_bias has shape (5,) but expected (H,) = (4,)");
  }
  {
    SsdDecodeArrayInputs in = p.in;
    in.z->dtype = rt::DType::Int32;
    fails(in, state, p.y, "z has dtype int32; expected bfloat16, float16 or float32");
  }
  rt::ArrayArg y = p.y;
  y.shape = {2, 4, 9};
  fails(p.in, state, y, "y has shape (2, 4, 9) but expected (b, H, P) = (2, 4, 8)");
  y = p.y;
  y.dtype = rt::DType::Float64;
  fails(p.in, state, y, "y has dtype float64; expected bfloat16, float16 or float32");
  y = p.y;
  y.data = 0;
  fails(p.in, state, y, "y has no memory (a null pointer)");
  rt::ArrayArg s = state;
  s.dtype = rt::DType::Int8;
  fails(p.in, s, p.y, "state has dtype int8; expected bfloat16, float16 or float32");
  s = state;
  s.strides = {512, 128, 0, 1};
  fails(p.in, s, p.y, "state (strides (512, 128, 0, 1)) is updated in place");
  s = state;
  s.shape = {2, 4, 8};
  fails(p.in, s, p.y, "state has rank 3 (shape (2, 4, 8)) but expected rank 4: (b, H, P, N)");
  {
    // dstate 12: B, C and the state agree, but tiles need a power of two.
    SsdDecodeArrayInputs in = p.in;
    in.B.shape = in.C.shape = {2, 2, 12};
    s = state;
    s.shape = {2, 4, 8, 12};
    s.strides.clear();
    fails(in, s, p.y, "dstate 12 must be a power of two up to 256");
  }
  DecodeOptions limits;
  limits.dt.dtMin = 1, limits.dt.dtMax = 0.5;
  fails(p.in, state, p.y, "dt_limit (1.000000, 0.500000) is not an interval", limits);
  // An empty batch runs nothing.
  SsdDecodeArrayInputs empty = p.in;
  for (rt::ArrayArg *a : {&empty.x, &empty.dt, &empty.B, &empty.C, &*empty.z})
    a->shape[0] = 0;
  s = state;
  s.shape[0] = 0;
  y = p.y;
  y.shape[0] = 0;
  CHECK(ssdDecodeStep(backend, empty, s, y).skipped);
}
