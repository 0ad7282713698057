// [gpu] Code generation against the interpreter: each kernel (one per op family, ragged
// shapes, strided views, several dtypes) is compiled by the JIT, run on the GPU, run again by
// the interpreter on the same inputs, and the outputs compared element by element: exactly
// where both sides must agree bit for bit (integers, extremes, data movement, element access
// at and past the edges, 16-bit sums and products of exact data), else within a tolerance
// derived from the dtype and the number of terms (see sumTolerance and productTolerance).

#include "compiler/frontend/Frontend.h"
#include "compiler/interpreter/DType.h"
#include "compiler/interpreter/Interpreter.h"
#include "runtime/jit/Jit.h"
#include "test/unit/runtime/GpuTest.h"

#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

using namespace tile;

namespace {

struct ArraySpec {
  std::string name;
  interp::DType dtype;
  std::vector<int64_t> shape;
  bool columnMajor = false; // a strided (transposed-storage) view
  bool output = false;
  std::vector<int64_t> strides = {}; // explicit strides in elements (padded rows, gaps)
  int64_t offset = 0;                // the view's first element in its allocation (1: misaligned)
  int64_t tail = 0;                  // elements of the allocation after the view's last one
  std::vector<double> values = {};   // the allocation's elements (cycled), instead of random data
};

struct Scalar {
  std::string name;
  interp::DType dtype;
  double value;
};

struct Case {
  std::string name;
  std::string source;
  std::string kernel;
  std::map<std::string, frontend::ConstantValue> constants;
  std::vector<ArraySpec> arrays;
  std::vector<Scalar> scalars;
  std::vector<std::string> paramOrder;
  rt::Grid grid;
  double rtol = 1e-5, atol = 1e-5;
  std::map<std::string, std::pair<double, double>> tolerances = {}; // per output: {rtol, atol}
};

struct HostData {
  ArraySpec spec;
  std::vector<int64_t> strides;
  std::vector<uint8_t> bytes;
};

HostData makeArray(const ArraySpec &spec, std::mt19937 &rng) {
  HostData h{spec, {}, {}};
  h.strides.assign(spec.shape.size(), 1);
  if (!spec.strides.empty())
    h.strides = spec.strides;
  else if (spec.columnMajor)
    for (size_t d = 1; d < spec.shape.size(); ++d)
      h.strides[d] = h.strides[d - 1] * spec.shape[d - 1];
  else
    for (int64_t d = static_cast<int64_t>(spec.shape.size()) - 2; d >= 0; --d)
      h.strides[d] = h.strides[d + 1] * spec.shape[d + 1];
  // The allocation spans the view (non-negative strides); gaps and the offset hold data too.
  int64_t n = spec.offset + 1 + spec.tail;
  for (size_t d = 0; d < spec.shape.size(); ++d)
    n += (spec.shape[d] - 1) * h.strides[d];
  unsigned size = interp::dtypeSize(spec.dtype);
  h.bytes.assign(static_cast<size_t>(n) * size, 0);
  std::uniform_real_distribution<double> real(-2.0, 2.0);
  std::uniform_int_distribution<int> integer(-50, 50);
  for (int64_t i = 0; i < n; ++i) {
    void *p = h.bytes.data() + i * size;
    if (!spec.values.empty()) {
      const double v = spec.values[size_t(i) % spec.values.size()];
      if (interp::isFloat(spec.dtype))
        interp::writeFloat(p, spec.dtype, v);
      else
        interp::writeInt(p, spec.dtype, static_cast<int64_t>(v));
      continue;
    }
    if (spec.output)
      continue; // outputs start zeroed on both sides
    if (interp::isFloat(spec.dtype))
      interp::writeFloat(p, spec.dtype, real(rng));
    else
      interp::writeInt(p, spec.dtype, integer(rng));
  }
  return h;
}

// The allocation element index of a view element.
int64_t position(const HostData &h, const std::vector<int64_t> &idx) {
  int64_t off = h.spec.offset;
  for (size_t d = 0; d < idx.size(); ++d)
    off += idx[d] * h.strides[d];
  return off;
}

double element(const HostData &h, const std::vector<int64_t> &idx) {
  const void *p = h.bytes.data() + position(h, idx) * interp::dtypeSize(h.spec.dtype);
  return interp::isFloat(h.spec.dtype) ? interp::readFloat(p, h.spec.dtype)
                                       : static_cast<double>(interp::readInt(p, h.spec.dtype));
}

void runCase(const Case &c, rt::Device &device, jit::Jit &jit) {
  INFO("case " << c.name);
  std::mt19937 rng(1234);
  std::map<std::string, HostData> gpuData, cpuData;
  for (const ArraySpec &a : c.arrays) {
    gpuData[a.name] = makeArray(a, rng);
    cpuData[a.name] = gpuData[a.name];
  }
  jit::KernelRequest request;
  request.source = c.source;
  request.fileName = c.name + ".py";
  request.kernel = c.kernel;
  request.constants = c.constants;
  // A view keeps the aligned facts when its offset and strides do (allocations start on 256
  // bytes): those compile for an aligned argument (TMA copies), the others for a plain one.
  for (const ArraySpec &a : c.arrays) {
    rt::ArrayArg view{256 + std::uint64_t(a.offset) * interp::dtypeSize(a.dtype), static_cast<rt::DType>(a.dtype),
                      a.shape, gpuData[a.name].strides};
    request.args[a.name] = {interp::dtypeName(a.dtype), static_cast<int64_t>(a.shape.size()), view.isAligned()};
  }
  for (const Scalar &s : c.scalars)
    request.args[s.name] = {interp::dtypeName(s.dtype), 0};

  // GPU.
  rt::Kernel kernel = jit.compile(request);
  std::map<std::string, rt::DeviceBuffer> buffers;
  std::vector<rt::Arg> gpuArgs;
  std::vector<interp::LaunchArg> cpuArgs;
  for (const std::string &name : c.paramOrder) {
    if (gpuData.count(name)) {
      HostData &h = gpuData[name];
      buffers.emplace(name, rt::DeviceBuffer(device, h.bytes.size()));
      buffers[name].copyFromHost(h.bytes.data(), h.bytes.size());
      size_t offsetBytes = static_cast<size_t>(h.spec.offset) * interp::dtypeSize(h.spec.dtype);
      gpuArgs.push_back(
          buffers[name].array(static_cast<rt::DType>(h.spec.dtype), h.spec.shape, h.strides, offsetBytes));
      HostData &ch = cpuData[name];
      cpuArgs.push_back(interp::LaunchArg::of(interp::HostArray::strided(ch.bytes.data() + offsetBytes, ch.spec.dtype,
                                                                         ch.spec.shape, ch.strides, ch.bytes.data(),
                                                                         ch.bytes.data() + ch.bytes.size())));
      continue;
    }
    const Scalar &s =
        *std::find_if(c.scalars.begin(), c.scalars.end(), [&](const Scalar &x) { return x.name == name; });
    if (s.dtype == interp::DType::Float32) {
      gpuArgs.push_back(static_cast<float>(s.value));
      cpuArgs.push_back(interp::LaunchArg::floating(s.dtype, s.value));
    } else if (s.dtype == interp::DType::UInt32) {
      gpuArgs.push_back(static_cast<uint32_t>(s.value));
      cpuArgs.push_back(interp::LaunchArg::integer(s.dtype, static_cast<int64_t>(s.value)));
    } else {
      gpuArgs.push_back(static_cast<int32_t>(s.value));
      cpuArgs.push_back(interp::LaunchArg::integer(s.dtype, static_cast<int64_t>(s.value)));
    }
  }
  rt::launch(kernel, c.grid, gpuArgs);
  device.synchronize();
  for (auto &[name, buffer] : buffers)
    buffer.copyToHost(gpuData[name].bytes.data(), gpuData[name].bytes.size());

  // Interpreter.
  mlir::MLIRContext context;
  frontend::SourceManager sources;
  frontend::DiagnosticEngine diags(sources);
  frontend::Specialization spec;
  spec.kernel = c.kernel;
  spec.constants = c.constants;
  spec.args = request.args;
  auto module = frontend::compileToTileIR(*sources.addBuffer(request.fileName, c.source), spec, context, diags);
  REQUIRE(module);
  std::string error;
  interp::Dim3 grid{c.grid.x, c.grid.y, c.grid.z};
  interp::InterpreterOptions options;
  options.undeterminedPadding = interp::UndeterminedPadding::Zero;
  REQUIRE(mlir::succeeded(interp::interpret(*module, c.kernel, grid, cpuArgs, options, error)));

  // Compare every output element.
  for (const ArraySpec &a : c.arrays) {
    if (!a.output)
      continue;
    const HostData &g = gpuData[a.name], &r = cpuData[a.name];
    int64_t n = 1, bad = 0;
    for (int64_t d : a.shape)
      n *= d;
    unsigned size = interp::dtypeSize(a.dtype);
    std::vector<bool> inView(g.bytes.size() / size, false);
    double maxErr = 0;
    const auto tol = c.tolerances.count(a.name) ? c.tolerances.at(a.name) : std::pair{c.rtol, c.atol};
    const double rtol = tol.first, atol = tol.second;
    for (int64_t i = 0; i < n; ++i) {
      std::vector<int64_t> idx(a.shape.size());
      int64_t rest = i;
      for (int64_t d = static_cast<int64_t>(a.shape.size()) - 1; d >= 0; --d) {
        idx[d] = rest % a.shape[d];
        rest /= a.shape[d];
      }
      inView[position(g, idx)] = true;
      double gv = element(g, idx), rv = element(r, idx);
      double err = gv == rv ? 0.0 : std::fabs(gv - rv); // equal infinities match too
      maxErr = std::max(maxErr, err);
      if (gv != rv && !(err <= atol + rtol * std::fabs(rv)) && !(std::isnan(gv) && std::isnan(rv)))
        ++bad;
    }
    // Elements of the allocation outside the view (gaps, the offset) must stay untouched.
    int64_t stray = 0;
    for (size_t e = 0; e < inView.size(); ++e)
      if (!inView[e] && std::memcmp(g.bytes.data() + e * size, r.bytes.data() + e * size, size) != 0)
        ++stray;
    INFO(a.name << ": max abs error " << maxErr << ", " << bad << " of " << n << " elements outside atol " << atol
                << " + rtol " << rtol << " * |interpreter|, " << stray << " elements outside the view written");
    CHECK(bad == 0);
    CHECK(stray == 0);
    std::printf("differential %-12s %-4s max|gpu-interp| = %.3g over %lld elements\n", c.name.c_str(), a.name.c_str(),
                maxErr, static_cast<long long>(n));
  }
}

const char *kHeader = "import cuda.tile as ct\n\n";

//===----------------------------------------------------------------------===//
// Tolerances of the 16-bit sums, products and scans on random data, from the dtype's unit
// roundoff u (round to nearest: bf16 2^-8, f16 2^-11) and the number n of terms. Both sides
// round every partial result to the dtype, the interpreter in order and the GPU in its own
// order (per thread, then across lanes and warps), so their difference is the difference of
// two sums of n - 1 rounding errors. The worst case, (n - 1) u sum|x| per side, is useless at
// bf16 (n u = 0.25 for n = 64), so the bounds take the probabilistic model (Higham and Mary,
// 2019): rounding errors independent, zero-mean, each within u times its partial result.
// The random cases cannot catch a small bug; the exact-data cases below (integers, powers of
// two, whose partial results are all representable) compare bit for bit and do.
//===----------------------------------------------------------------------===//

// Unit roundoff of a 16-bit float dtype.
double unitRoundoff(interp::DType dtype) { return std::ldexp(1.0, dtype == interp::DType::BFloat16 ? -8 : -11); }

// Absolute bound on |gpu - interpreter| for sums of n terms uniform in [-m, m] (sigma =
// m / sqrt(3)): the k-th partial sum has rms sigma sqrt(k), its rounding error variance at most
// (u sigma)^2 k / 3, in all (u sigma n)^2 / 6 per side, (u sigma n)^2 / 3 for the difference;
// six standard deviations of that is 2 u m n (a false failure under 1e-8 per element).
double sumTolerance(interp::DType dtype, int64_t n, double m) { return 2.0 * unitRoundoff(dtype) * m * double(n); }

// Relative bound on |gpu - interpreter| for products of n computed factors: per side each
// factor t * c + 1 rounds up to twice (once if the GPU fuses it) and each of the n - 1
// multiplications once, each a relative error uniform within +-u (variance u^2 / 3): at most
// 3n per side, 6n for the difference, a standard deviation of u sqrt(2n); six of them.
double productTolerance(interp::DType dtype, int64_t n) {
  return 6.0 * unitRoundoff(dtype) * std::sqrt(2.0 * double(n));
}

std::vector<Case> cases() {
  using D = interp::DType;
  std::vector<Case> out;
  // Loads/stores on ragged edges with a column-major input view; element-wise and casts.
  out.push_back(
      {"scale_rows",
       std::string(kHeader) + R"py(
@ct.kernel
def k(x, s, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    k = ct.load(s, index=(i,), shape=(TM,))
    ct.store(out, index=(i, j), tile=(t * k[:, None] + 1.5).astype(out.dtype))
)py",
       "k",
       {{"TM", int64_t(64)}, {"TN", int64_t(32)}},
       {{"x", D::Float32, {100, 70}, true}, {"s", D::Float32, {100}}, {"out", D::BFloat16, {100, 70}, false, true}},
       {},
       {"x", "s", "out"},
       rt::Grid(2, 3),
       // The f32 t * k + 1.5 may differ by one f32 rounding (a fused multiply-add on one side:
       // at most 2^-24 * 3.5 ~ 2e-7 absolute, below atol), which can move the bf16 result
       // across one rounding boundary: one bf16 ulp, at most 2^-7 |out| (u = 2^-8).
       std::ldexp(1.0, -7),
       1e-6});
  // Pipelined loads with padding other than zero: the copies (TMA where the array is aligned
  // on sm_90, cp.async otherwise) fill zeros past the edges and the threads reading the stages
  // put -inf / +inf in; ragged rows (70, blocks of 8) and columns (300, blocks of 128). Maxima
  // and minima are exact.
  out.push_back(
      {"pipelined_padding",
       std::string(kHeader) + R"py(
@ct.kernel
def k(x, mx, mn, n: int, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    hi = ct.full((TM,), float("-inf"), dtype=ct.float32)
    lo = ct.full((TM,), float("inf"), dtype=ct.float32)
    for j in range(ct.cdiv(n, TN)):
        a = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
        b = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.POS_INF)
        hi = ct.maximum(hi, ct.max(a, axis=1))
        lo = ct.minimum(lo, ct.min(b, axis=1))
    ct.store(mx, (i,), hi)
    ct.store(mn, (i,), lo)
)py",
       "k",
       {{"TM", int64_t(8)}, {"TN", int64_t(128)}},
       {{"x", D::Float32, {70, 300}}, {"mx", D::Float32, {70}, false, true}, {"mn", D::Float32, {70}, false, true}},
       {{"n", D::Int32, 300.0}},
       {"x", "mx", "mn", "n"},
       rt::Grid(9),
       0,
       0});
  // Unsigned integers: the inputs hold values near 2^32 and 2^8 (negative numbers wrapped), so
  // every operation whose result depends on the signedness (division, remainder, right shift,
  // comparison, min/max, maxima of a reduction, conversions to float and back, widening) would
  // differ if it took the signed form; ragged edges (300 elements, 128 per block).
  out.push_back({"unsigned",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, n, out, wide, red):
    i = ct.bid(0)
    x = ct.load(a, (i,), (128,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, (i,), (128,), padding_mode=ct.PaddingMode.ZERO)
    z = ct.load(c, (i,), (128,), padding_mode=ct.PaddingMode.ZERO)
    w = y.astype(ct.uint32)
    ct.store(out, (0, i), ct.reshape(x + w, (1, 128)))
    ct.store(out, (1, i), ct.reshape(x // (w + 1) + x // n, (1, 128)))
    ct.store(out, (2, i), ct.reshape(x % (w + 1), (1, 128)))
    ct.store(out, (3, i), ct.reshape((x >> 5) | (w << 24), (1, 128)))
    ct.store(out, (4, i), ct.reshape(ct.maximum(x, w * 16777216), (1, 128)))
    ct.store(out, (5, i), ct.reshape(ct.where(x > 2147483648, x - 7, x + 7), (1, 128)))
    ct.store(out, (6, i), ct.reshape((x.astype(ct.float32) * 0.25).astype(ct.uint32), (1, 128)))
    ct.store(out, (7, i), ct.reshape((z >> 33).astype(ct.uint32) + (z % 1000).astype(ct.uint32), (1, 128)))
    ct.store(wide, (i,), y.astype(ct.int64) + ct.astype(y, ct.int16).astype(ct.int64) * 1000)
    m = ct.reshape(ct.max(x, axis=0), (1,))
    n = ct.reshape(ct.min(x, axis=0), (1,))
    j = ct.reshape(ct.argmax(x, axis=0), (1,)).astype(ct.uint32)
    ct.store(red, (i * 4,), m)
    ct.store(red, (i * 4 + 1,), n)
    ct.store(red, (i * 4 + 2,), j)
    ct.store(red, (i * 4 + 3,), ct.reshape(ct.sum(x, axis=0), (1,)))
)py",
                 "k",
                 {},
                 {{"a", D::UInt32, {300}},
                  {"b", D::UInt8, {300}},
                  {"c", D::UInt64, {300}},
                  {"out", D::UInt32, {8, 300}, false, true},
                  {"wide", D::Int64, {300}, false, true},
                  {"red", D::UInt32, {12}, false, true}},
                 {{"n", D::UInt32, 3000000000.0}},
                 {"a", "b", "c", "n", "out", "wide", "red"},
                 rt::Grid(3),
                 0,
                 0});
  // Transcendentals: the PTX approximations (ex2, lg2, rsqrt within about 2^-22 relative or
  // absolute, sin/cos within 2^-20.9 absolute on [-pi, pi]) against the interpreter's libm,
  // on t in [-2, 2]: a dozen terms of magnitude at most 8 (exp(2) = 7.4) each off by at most
  // 8 * 2^-20.9, so |gpu - interpreter| < 12 * 8 * 2^-20.9 ~ 5e-5; tan(t / 2) (|tan| <= 1.6,
  // sin/cos errors divided by cos >= 0.54: below 3 * 2^-20.9), sinh and cosh (at most 3.8,
  // from ex2 and one division) add below 2e-5; atol 1e-4.
  out.push_back({"math",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, y):
    t = ct.load(x, (ct.bid(0),), (256,), padding_mode=ct.PaddingMode.ZERO)
    r = ct.exp(t) + ct.exp2(t) + ct.log(ct.abs(t) + 1.0) + ct.sin(t) + ct.cos(t)
    r = r + ct.tanh(t) + ct.sigmoid(t) + ct.sqrt(ct.abs(t)) + ct.rsqrt(ct.abs(t) + 0.5)
    r = r + ct.tan(t * 0.5) + ct.sinh(t) + ct.cosh(t)
    ct.store(y, (ct.bid(0),), r + ct.floor(t) * ct.ceil(t) + ct.maximum(t, 0.0))
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {1000}}, {"y", D::Float32, {1000}, false, true}},
                 {},
                 {"x", "y"},
                 rt::Grid(4),
                 0,
                 1e-4});
  // The same approximations with flush_to_zero=True (the .ftz instructions): the same bounds,
  // and exp2(-70 t^2) reaches below 2^-126 for |t| > 1.35, where the GPU flushes the result
  // to zero and the interpreter keeps the subnormal (a difference below 2^-126).
  out.push_back({"math flushed to zero",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, y):
    t = ct.load(x, (ct.bid(0),), (256,), padding_mode=ct.PaddingMode.ZERO)
    r = ct.exp(t, flush_to_zero=True) + ct.exp2(t, flush_to_zero=True) + ct.sin(t, flush_to_zero=True)
    r = r + ct.log2(ct.abs(t) + 1.0, flush_to_zero=True) + ct.cos(t, flush_to_zero=True)
    r = r + ct.rsqrt(ct.abs(t) + 0.5, flush_to_zero=True) + ct.sigmoid(t, flush_to_zero=True)
    ct.store(y, (ct.bid(0),), r + ct.exp2(t * t * -70.0, flush_to_zero=True))
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {1000}}, {"y", D::Float32, {1000}, false, true}},
                 {},
                 {"x", "y"},
                 rt::Grid(4),
                 0,
                 1e-4});
  // atan2 in every quadrant, on random data and on signed zeros, infinities and tiny values
  // (cycles of 8 and 7, so every pair meets): Cephes' atanf polynomial after reduction to
  // [0, tan(pi/8)] is within about 2e-7 of the value; the reductions and pi/2 - r, pi - r add
  // a few f32 ulps of pi: atol 2e-6. bf16 rounds once (2^-8 relative).
  out.push_back(
      {"atan2",
       std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, s, t, y, z, w):
    ta = ct.load(a, (ct.bid(0),), (256,), padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, (ct.bid(0),), (256,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (ct.bid(0),), ct.atan2(ta, tb))
    ts = ct.load(s, (ct.bid(0),), (256,), padding_mode=ct.PaddingMode.ZERO)
    tt = ct.load(t, (ct.bid(0),), (256,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(z, (ct.bid(0),), ct.atan2(ts, tt))
    ct.store(w, (ct.bid(0),), ct.atan2(ta.astype(ct.bfloat16), 0.5))
)py",
       "k",
       {},
       {{"a", D::Float32, {1000}},
        {"b", D::Float32, {1000}},
        {"s", D::Float32, {56}, false, false, {}, 0, 0, {0.0, -0.0, INFINITY, -INFINITY, 1.0, -1.0, 1e-30, 3.0}},
        {"t", D::Float32, {56}, false, false, {}, 0, 0, {0.0, -0.0, INFINITY, -INFINITY, -2.0, 1e-30, 0.5}},
        {"y", D::Float32, {1000}, false, true},
        {"z", D::Float32, {56}, false, true},
        {"w", D::BFloat16, {1000}, false, true}},
       {},
       {"a", "b", "s", "t", "y", "z", "w"},
       rt::Grid(4),
       0,
       2e-6,
       {{"w", {std::ldexp(1.0, -7), 1e-2}}}});
  // Reductions and scans along each axis.
  out.push_back({"reduce_scan",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, sums, maxes, args, scans):
    t = ct.load(x, (ct.bid(0), 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)
    ct.store(sums, (ct.bid(0),), ct.sum(t, axis=1))
    ct.store(maxes, (0,), ct.max(t, axis=0))
    ct.store(args, (ct.bid(0),), ct.argmax(t, axis=1) + ct.argmin(t, axis=1) * 100)
    ct.store(scans, (ct.bid(0), 0), ct.cumsum(t, axis=1) + ct.cumsum(t, axis=0, reverse=True))
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {32, 64}},
                  {"sums", D::Float32, {32}, false, true},
                  {"maxes", D::Float32, {64}, false, true},
                  {"args", D::Int32, {32}, false, true},
                  {"scans", D::Float32, {32, 64}, false, true}},
                 {},
                 {"x", "sums", "maxes", "args", "scans"},
                 rt::Grid(1),
                 1e-4,
                 1e-4});
  // Shape ops through shared memory.
  out.push_back({"shapes",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, y):
    t = ct.load(x, (0, 0), (16, 32), padding_mode=ct.PaddingMode.ZERO)
    p = ct.transpose(t)
    c = ct.cat((p, p * 2.0), axis=1)
    e = ct.extract(c, (1, 0), (16, 32))
    b = ct.broadcast_to(ct.sum(e, axis=0, keepdims=True), (16, 32))
    r = ct.reshape(e + b, (32, 16))
    ct.store(y, (0, 0), r + ct.arange(16).astype(ct.float32)[None, :])
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {16, 30}}, {"y", D::Float32, {32, 16}, false, true}},
                 {},
                 {"x", "y"},
                 rt::Grid(1),
                 1e-5,
                 1e-4});
  // Matrix products: bf16 inputs, f32 accumulation, a ragged K loop.
  out.push_back({"mma",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for kk in range(ct.num_tiles(a, 1, (BM, BK))):
        ta = ct.load(a, (ct.bid(0), kk), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (kk, ct.bid(1)), (BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)
)py",
                 "k",
                 {{"BM", int64_t(32)}, {"BN", int64_t(32)}, {"BK", int64_t(16)}},
                 {{"a", D::BFloat16, {70, 50}}, {"b", D::BFloat16, {50, 40}}, {"c", D::Float32, {70, 40}, false, true}},
                 {},
                 {"a", "b", "c"},
                 rt::Grid(3, 2),
                 1e-4,
                 1e-4});
  // Tensor Core shapes (mma.sync.m16n8k16 with ldmatrix): f16 and bf16, one n-tile per warp
  // (ldmatrix.x2), wide tiles with several n-tiles per warp, batched 3-D products, and an f32
  // product that takes the FMA path; ragged edges throughout.
  struct MmaShape {
    const char *dtype;
    D d;
    int64_t bm, bn, bk, m, n, k;
  };
  for (MmaShape s :
       {MmaShape{"f16", D::Float16, 16, 8, 16, 37, 21, 40}, MmaShape{"bf16", D::BFloat16, 64, 64, 32, 100, 130, 90},
        MmaShape{"f16", D::Float16, 128, 128, 64, 130, 129, 200}, MmaShape{"bf16", D::BFloat16, 16, 64, 16, 20, 70, 33},
        MmaShape{"tf32", D::TFloat32, 64, 64, 32, 100, 70, 90}, MmaShape{"tf32", D::TFloat32, 16, 8, 8, 20, 9, 12},
        MmaShape{"f32", D::Float32, 32, 32, 16, 50, 45, 40}}) {
    std::string name = std::string("mma_") + s.dtype + "_" + std::to_string(s.bm) + "x" + std::to_string(s.bn) + "x" +
                       std::to_string(s.bk);
    out.push_back({name,
                   std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    acc = ct.full((BM, BN), 0.5, dtype=ct.float32)
    for kk in range(ct.num_tiles(a, 1, (BM, BK))):
        ta = ct.load(a, (ct.bid(0), kk), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (kk, ct.bid(1)), (BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)
)py",
                   "k",
                   {{"BM", s.bm}, {"BN", s.bn}, {"BK", s.bk}},
                   {{"a", s.d, {s.m, s.k}}, {"b", s.d, {s.k, s.n}, true}, {"c", D::Float32, {s.m, s.n}, false, true}},
                   {},
                   {"a", "b", "c"},
                   rt::Grid((s.m + s.bm - 1) / s.bm, (s.n + s.bn - 1) / s.bn),
                   1e-4,
                   1e-4});
  }
  // A product kernel k(a, b, c) of 16-bit a and b into an f32 c (zero-initialized).
  auto productCase = [&](std::string name, std::string source, std::map<std::string, frontend::ConstantValue> constants,
                         D dtype, std::vector<int64_t> a, std::vector<int64_t> b, std::vector<int64_t> c,
                         rt::Grid grid) {
    return Case{std::move(name),
                std::move(source),
                "k",
                std::move(constants),
                {{"a", dtype, std::move(a)}, {"b", dtype, std::move(b)}, {"c", D::Float32, std::move(c), false, true}},
                {},
                {"a", "b", "c"},
                grid,
                1e-3,
                1e-3};
  };
  // Transposed operands fold into the product (A read with ldmatrix .trans, B without, on
  // mma.sync; written transposed into wgmma's core matrices): M = 32 keeps mma.sync, M = 64
  // takes wgmma on sm_90a; ragged edges, a K loop, both operands and a batched product.
  struct TransposedCase {
    const char *name;
    const char *body;
    D dtype;
    std::vector<int64_t> a, b, c;
    int64_t gridX, gridY;
  };
  for (const TransposedCase &t : std::vector<TransposedCase>{
           {"mma_tn32_bf16",
            "    acc = ct.zeros((32, 32), dtype=ct.float32)\n"
            "    for kk in range(ct.num_tiles(a, 0, (32, 32))):\n"
            "        x = ct.load(a, (kk, ct.bid(0)), (32, 32), padding_mode=ct.PaddingMode.ZERO)\n"
            "        y = ct.load(b, (kk, ct.bid(1)), (32, 32), padding_mode=ct.PaddingMode.ZERO)\n"
            "        acc = ct.mma(ct.transpose(x), y, acc)\n"
            "    ct.store(c, (ct.bid(0), ct.bid(1)), acc)\n",
            D::BFloat16,
            {70, 45},
            {70, 40},
            {45, 40},
            2,
            2},
           {"mma_nt32_f16",
            "    x = ct.load(a, (ct.bid(0), 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)\n"
            "    y = ct.load(b, (ct.bid(1), 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)\n"
            "    ct.store(c, (ct.bid(0), ct.bid(1)), ct.mma(x, ct.transpose(y), ct.full((32, 32), 0.25, "
            "dtype=ct.float32)))\n",
            D::Float16,
            {50, 60},
            {40, 60},
            {50, 40},
            2,
            2},
           {"mma_tt32_bf16",
            "    x = ct.load(a, (0, ct.bid(0)), (64, 32), padding_mode=ct.PaddingMode.ZERO)\n"
            "    y = ct.load(b, (ct.bid(1), 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)\n"
            "    ct.store(c, (ct.bid(0), ct.bid(1)), ct.mma(ct.transpose(x), ct.transpose(y), ct.zeros((32, 32), "
            "dtype=ct.float32)))\n",
            D::BFloat16,
            {64, 40},
            {36, 64},
            {40, 36},
            2,
            2},
           {"mma_tn64_bf16",
            "    x = ct.load(a, (0, ct.bid(0)), (64, 64), padding_mode=ct.PaddingMode.ZERO)\n"
            "    y = ct.load(b, (0, ct.bid(1)), (64, 32), padding_mode=ct.PaddingMode.ZERO)\n"
            "    ct.store(c, (ct.bid(0), ct.bid(1)), ct.mma(ct.transpose(x), y, ct.zeros((64, 32), "
            "dtype=ct.float32)))\n",
            D::BFloat16,
            {60, 100},
            {60, 50},
            {100, 50},
            2,
            2},
           {"mma_tn_batched_bf16",
            "    x = ct.load(a, (0, 0, 0), (2, 32, 32), padding_mode=ct.PaddingMode.ZERO)\n"
            "    y = ct.load(b, (0, 0, 0), (2, 32, 16), padding_mode=ct.PaddingMode.ZERO)\n"
            "    ct.store(c, (0, 0, 0), ct.mma(ct.permute(x, (0, 2, 1)), y, ct.zeros((2, 32, 16), "
            "dtype=ct.float32)))\n",
            D::BFloat16,
            {2, 30, 29},
            {2, 30, 13},
            {2, 29, 13},
            1,
            1}}) {
    out.push_back(productCase(t.name, std::string(kHeader) + "@ct.kernel\ndef k(a, b, c):\n" + t.body, {}, t.dtype, t.a,
                              t.b, t.c, rt::Grid(t.gridX, t.gridY)));
  }
  // wgmma products of a pipelined K loop read both operands in place from the stages: A
  // K-major and B N-major as loaded (row-major a and b), or the transposes (a stored K x M,
  // b stored N x K); ragged in every dimension, row-major and so aligned for the copies.
  struct InPlaceCase {
    const char *name;
    const char *loads;
    D dtype;
    std::vector<int64_t> a, b;
    int64_t m, n;
  };
  for (const InPlaceCase &t : std::vector<InPlaceCase>{
           {"wgmma_inplace_nn_bf16",
            "        ta = ct.load(a, (ct.bid(0), kk), (BM, BK), padding_mode=ct.PaddingMode.ZERO)\n"
            "        tb = ct.load(b, (kk, ct.bid(1)), (BK, BN), padding_mode=ct.PaddingMode.ZERO)\n",
            D::BFloat16,
            {130, 200},
            {200, 136},
            130,
            136},
           {"wgmma_inplace_tt_f16",
            "        ta = ct.transpose(ct.load(a, (kk, ct.bid(0)), (BK, BM), padding_mode=ct.PaddingMode.ZERO))\n"
            "        tb = ct.transpose(ct.load(b, (ct.bid(1), kk), (BN, BK), padding_mode=ct.PaddingMode.ZERO))\n",
            D::Float16,
            {200, 130},
            {136, 200},
            130,
            136}}) {
    out.push_back(productCase(t.name, std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    acc = ct.full((BM, BN), 0.5, dtype=ct.float32)
    for kk in range(ct.cdiv(200, BK)):
)py" + t.loads + R"py(        acc = ct.mma(ta, tb, acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)
)py",
                              {{"BM", int64_t(128)}, {"BN", int64_t(64)}, {"BK", int64_t(32)}}, t.dtype, t.a, t.b,
                              {t.m, t.n}, rt::Grid((t.m + 127) / 128, (t.n + 63) / 64)));
  }
  // Loads after a loop are copied at kernel start: a wgmma operand read in place from that
  // buffer (B N-major, also used element-wise), a K-major A, and a one-element load; ragged.
  for (D dtype : {D::BFloat16, D::Float16}) {
    out.push_back({std::string("prefetch_after_loop_") + (dtype == D::BFloat16 ? "bf16" : "f16"),
                   std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, w, c, n):
    acc = ct.zeros((64, 64), dtype=ct.float32)
    for i in range(n):
        acc = acc * 0.5 + ct.load(w, (i, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO)
    ta = ct.load(a, (ct.bid(0), 0), (64, 32), padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, (0, ct.bid(1)), (32, 64), padding_mode=ct.PaddingMode.ZERO)
    s = ct.load(w, (0, 0), (1, 1), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.mma(ta, tb, acc) + ct.sum(tb.astype(ct.float32), axis=0)[None, :] * s
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)
)py",
                   "k",
                   {},
                   {{"a", dtype, {100, 30}},
                    {"b", dtype, {30, 90}},
                    {"w", D::Float32, {150, 64}},
                    {"c", D::Float32, {100, 90}, false, true}},
                   {{"n", D::Int32, 3}},
                   {"a", "b", "w", "c", "n"},
                   rt::Grid(2, 2),
                   1e-3,
                   1e-3});
  }
  out.push_back(
      {"mma_batched",
       std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c):
    ta = ct.load(a, (0, 0, 0), (4, 32, 16), padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, (0, 0, 0), (4, 16, 16), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, (0, 0, 0), ct.mma(ta, tb, ct.zeros((4, 32, 16), dtype=ct.float32)))
)py",
       "k",
       {},
       {{"a", D::BFloat16, {3, 30, 16}}, {"b", D::BFloat16, {3, 16, 13}}, {"c", D::Float32, {3, 30, 13}, false, true}},
       {},
       {"a", "b", "c"},
       rt::Grid(1),
       1e-4,
       1e-4});
  // The accumulator rescaled every iteration (the Mamba-2 state update): the loop carries it
  // in mma.sync registers and the rescale runs in that layout.
  out.push_back(
      {"mma_rescale",
       std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, decay):
    acc = ct.full((64, 64), 1.0, dtype=ct.float32)
    for kk in range(ct.num_tiles(a, 1, (64, 32))):
        ta = ct.load(a, (ct.bid(0), kk), (64, 32), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (kk, 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc * decay)
    ct.store(c, (ct.bid(0), 0), acc + 1.0)
)py",
       "k",
       {},
       {{"a", D::BFloat16, {100, 75}}, {"b", D::BFloat16, {75, 64}}, {"c", D::Float32, {100, 64}, false, true}},
       {{"decay", D::Float32, 0.5}},
       {"a", "b", "c", "decay"},
       rt::Grid(2),
       1e-4,
       1e-4});
  // The Mamba-2 state loop: the running state stored every iteration (a conversion back from
  // the mma layout) and rescaled by a one-element tile reduced from data.
  out.push_back({"mma_state_loop",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, w, states):
    S = ct.zeros((64, 64), dtype=ct.float32)
    for i in range(3):
        ct.store(states, (i, 0, 0), ct.reshape(S, (1, 64, 64)))
        ta = ct.load(a, (0, i), (64, 32), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (i, 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)
        decay = ct.exp(ct.sum(ct.load(w, (i,), (16,), padding_mode=ct.PaddingMode.ZERO)) * 0.1)
        S = ct.mma(ta, tb, S * decay)
    ct.store(states, (3, 0, 0), ct.reshape(S, (1, 64, 64)))
)py",
                 "k",
                 {},
                 {{"a", D::BFloat16, {64, 96}},
                  {"b", D::BFloat16, {96, 64}},
                  {"w", D::Float32, {48}},
                  {"states", D::Float32, {4, 64, 64}, false, true}},
                 {},
                 {"a", "b", "w", "states"},
                 rt::Grid(1),
                 1e-3,
                 1e-3});
  // fwd_pass_state's shape at chunk 256 with initial states: a loaded state stored every
  // iteration and updated by an fp32 product over 256-row tiles (the FMA path), 4-d/5-d views
  // indexed from the block id. It spills heavily; with only .maxntid, ptxas (CUDA 13.0) built it
  // at 32 registers and loaded each thread's last 4-element run of init from the start of its
  // row, so states[:, 0] (a copy of init) came out wrong in 1024 places (.minnctapersm 1 now).
  out.push_back({"state_loop_q256_init",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, bm, w, init, states, nheads, n):
    bi = ct.bid(2) // nheads
    h = ct.bid(2) % nheads
    S = ct.reshape(ct.load(init, (bi, h, ct.bid(0), ct.bid(1)), (1, 1, 64, 64), padding_mode=ct.PaddingMode.ZERO), (64, 64))
    for c in range(n):
        ct.store(states, (bi, c, h, ct.bid(0), ct.bid(1)), ct.reshape(S, (1, 1, 1, 64, 64)))
        xc = ct.reshape(ct.load(x, (bi, c, h, ct.bid(0)), (1, 256, 1, 64), padding_mode=ct.PaddingMode.ZERO), (256, 64))
        bc = ct.reshape(ct.load(bm, (bi, c, 0, ct.bid(1)), (1, 256, 1, 64), padding_mode=ct.PaddingMode.ZERO), (256, 64))
        wv = ct.reshape(ct.load(w, (bi, h, c, 0), (1, 1, 1, 256)), (256,))
        S = ct.mma(ct.transpose(xc), bc * wv[:, None], S * 0.5)
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {1, 300, 2, 64}},
                  {"bm", D::Float32, {1, 300, 1, 64}},
                  {"w", D::Float32, {1, 2, 2, 256}},
                  {"init", D::Float32, {1, 2, 64, 64}},
                  {"states", D::Float32, {1, 2, 2, 64, 64}, false, true}},
                 {{"nheads", D::Int32, 2}, {"n", D::Int32, 2}},
                 {"x", "bm", "w", "init", "states", "nheads", "n"},
                 rt::Grid(1, 1, 2),
                 1e-3,
                 1e-3});
  // An accumulator epilogue without shared memory: a row scale (exp of a loaded vector) and a
  // causal mask (iota) built by each thread in the accumulator layout (tile.rematerialize
  // broadcasts), a loaded tile converted to that layout by recomputing its elements, and the
  // result stored from the fragments through a reshape with unit dims between the matrix dims,
  // on a ragged last row block (rows 64-99 of 100).
  out.push_back({"mma_epilogue_in_registers",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, s, x, y):
    ta = ct.load(a, (ct.bid(0), 0), (64, 32), padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, (0, 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.mma(ta, tb, ct.zeros((64, 64), dtype=ct.float32))
    sv = ct.load(s, (ct.bid(0),), (64,), padding_mode=ct.PaddingMode.ZERO)
    rows = ct.arange(64)
    acc = acc * ct.exp(sv * 0.5)[:, None]
    acc = ct.where(ct.arange(64)[None, :] <= rows[:, None], acc, 0.0)
    xv = ct.load(x, (ct.bid(0), 0), (64, 64), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ct.store(y, (ct.bid(0), 0, 1, 0), ct.reshape(acc + 0.5 * xv, (64, 1, 1, 64)).astype(y.dtype))
)py",
                 "k",
                 {},
                 {{"a", D::BFloat16, {100, 32}},
                  {"b", D::BFloat16, {32, 64}},
                  {"s", D::Float32, {100}},
                  {"x", D::BFloat16, {100, 64}},
                  {"y", D::BFloat16, {100, 1, 2, 64}, false, true}},
                 {},
                 {"a", "b", "s", "x", "y"},
                 rt::Grid(2),
                 // bf16 output: one rounding of the result (2^-7 relative) on top of f32 sums
                 // of 32 exact products in another order and ex2.approx (2^-22 relative).
                 std::ldexp(1.0, -7),
                 1e-3});
  // An A operand computed element-wise from a pipelined load's transpose, (w x)^T: ldmatrix.trans
  // from x's core-matrix stage, the scale applied per register (conversionWithLdmatrixLeaves);
  // a ragged last K block (200 rows) and trip counts 1 and 4.
  for (int trips : {1, 4}) {
    out.push_back({"ldmatrix_leaves_weighted_transpose_" + std::to_string(trips),
                   std::string(kHeader) + R"py(
@ct.kernel
def k(x, b, w, c, n: int):
    acc = ct.zeros((64, 64), dtype=ct.float32)
    for k in range(n):
        xs = ct.load(x, (k, ct.bid(0)), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        bs = ct.load(b, (k, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        ws = ct.load(w, (k,), (64,), padding_mode=ct.PaddingMode.ZERO)
        a = (ct.transpose(xs).astype(ct.float32) * ws[None, :]).astype(ct.bfloat16)
        acc = ct.mma(a, bs, acc)
    ct.store(c, (ct.bid(0), 0), acc)
)py",
                   "k",
                   {},
                   {{"x", D::BFloat16, {200, 128}},
                    {"b", D::BFloat16, {200, 64}},
                    {"w", D::Float32, {200}},
                    {"c", D::Float32, {128, 64}, false, true}},
                   {{"n", D::Int32, trips}},
                   {"x", "b", "w", "c", "n"},
                   rt::Grid(2),
                   // the same roundings on both sides (x w in f32, then bf16); sums of up to
                   // 256 products in another order.
                   1e-4,
                   1e-4});
  }
  // 16-bit accumulators stored as 16-byte vectors after a transpose across each quad of lanes
  // (storeQuadTransposed): y has every tile inside and aligned; z's edge tiles are ragged (the
  // checked path) and its first tile takes the vectors; w's rows are 8-byte but not 16-byte
  // aligned (the 4-byte fragment stores).
  out.push_back({"mma_store_16bit_quad_transposed",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, y, z, w):
    ta = ct.load(a, (ct.bid(0), 0), (64, 32), padding_mode=ct.PaddingMode.ZERO)
    tb = ct.load(b, (0, ct.bid(1)), (32, 128), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.mma(ta, tb, ct.zeros((64, 128), dtype=ct.float32))
    ct.store(y, (ct.bid(0), ct.bid(1)), acc.astype(y.dtype))
    ct.store(z, (ct.bid(0), ct.bid(1)), acc.astype(z.dtype))
    ct.store(w, (ct.bid(0), ct.bid(1)), acc.astype(w.dtype))
)py",
                 "k",
                 {},
                 {{"a", D::BFloat16, {128, 32}},
                  {"b", D::BFloat16, {32, 256}},
                  {"y", D::BFloat16, {128, 256}, false, true},
                  {"z", D::Float16, {100, 232}, false, true},
                  {"w", D::BFloat16, {128, 256}, false, true, {260, 1}, 4}},
                 {},
                 {"a", "b", "y", "z", "w"},
                 rt::Grid(2, 2),
                 // one rounding of the result (bf16: 2^-7 relative) on top of f32 sums of 32
                 // exact products in another order.
                 std::ldexp(1.0, -7),
                 1e-3});
  // tf32 from f32 data: rounding on conversion, arithmetic rounded to tf32, transcendentals,
  // and a tf32 product on Tensor Cores (m16n8k8).
  out.push_back({"tf32",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, d):
    ta = ct.load(a, (ct.bid(0), 0), (64, 32), padding_mode=ct.PaddingMode.ZERO).astype(ct.tfloat32)
    tb = ct.load(b, (0, 0), (32, 64), padding_mode=ct.PaddingMode.ZERO).astype(ct.tfloat32)
    e = ct.exp(ta * 0.5) + ta
    ct.store(d, (ct.bid(0), 0), e.astype(ct.float32))
    ct.store(c, (ct.bid(0), 0), ct.mma(e, tb, ct.zeros((64, 64), dtype=ct.float32)))
)py",
                 "k",
                 {},
                 {{"a", D::Float32, {100, 32}},
                  {"b", D::Float32, {32, 64}},
                  {"c", D::Float32, {100, 64}, false, true},
                  {"d", D::Float32, {100, 32}, false, true}},
                 {},
                 {"a", "b", "c", "d"},
                 rt::Grid(2),
                 // e rounds to tf32 (u = 2^-11) after exp, whose approximation on the GPU can move
                 // it across a rounding boundary: one tf32 ulp, 2^-10 |e|; the products over K = 32
                 // inherit such flips on a few factors. rtol = two ulps.
                 2e-3,
                 2e-3});
  // Element-wise gathers, scatters and atomics, with masks.
  out.push_back({"gather",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, idx, y, hist):
    i = ct.load(idx, (0,), (128,), padding_mode=ct.PaddingMode.ZERO)
    g = ct.gather(x, i, mask=i >= 0, padding_value=-7.0)
    ct.scatter(y, ct.arange(128), g * 2.0)
    old = ct.atomic_add(hist, (i % 8 + 8) % 8, ct.full((128,), 1.0, dtype=ct.float32))
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {60}},
                  {"idx", D::Int32, {128}},
                  {"y", D::Float32, {128}, false, true},
                  {"hist", D::Float32, {8}, false, true}},
                 {},
                 {"x", "idx", "y", "hist"},
                 rt::Grid(1),
                 1e-6,
                 1e-6});
  // Element access at and past the edges. docs/language.md: out-of-bounds elements are not
  // accessed — gather returns padding_value, scatter skips them, atomic_add leaves memory alone
  // and returns 0 (the interpreter's and the lowering's value). The indices: the first and
  // last elements (0, size - 1), one past (size), negatives (-1, -size, -size - 1), far out
  // (2^30, INT32_MAX, INT32_MIN) and in-bounds ones, each in-bounds index once (scatter order
  // and atomics then do not matter). Every array sits inside a larger allocation (offset and
  // tail hold data), so a missing or off-by-one check reads real data instead of the padding,
  // or writes outside the view, which the comparison counts.
  const std::vector<double> edges1d = {0,   1,  2,  59, 60, 61, 64,      100,          1000,          -1, -2, -60,
                                       -61, 30, 58, 3,  4,  5,  1 << 30, 2147483647,   -2147483648.0, 6,  7,  8,
                                       9,   10, 11, 12, 13, 14, 57,      -2147483647.0};
  out.push_back({"element_edges",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, idx, g, y, hist, old):
    i = ct.load(idx, (0,), (32,))
    ct.store(g, (0,), ct.gather(x, i, padding_value=-7.0))
    ct.scatter(y, i, ct.arange(32).astype(ct.float32) + 1.0)
    ct.store(old, (0,), ct.atomic_add(hist, i, ct.full((32,), 1.0, dtype=ct.float32)))
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {60}, false, false, {}, 64, 64},
                  {"idx", D::Int32, {32}, false, false, {}, 0, 0, edges1d},
                  {"g", D::Float32, {32}, false, true},
                  {"y", D::Float32, {60}, false, true, {}, 64, 64, {-3.0}},
                  {"hist", D::Float32, {60}, false, true, {}, 64, 64, {100, 101, 102, 103, 104}},
                  {"old", D::Float32, {32}, false, true}},
                 {},
                 {"x", "idx", "g", "y", "hist", "old"},
                 rt::Grid(1),
                 0,
                 0});
  // int64 indices past 2^32: truncated to 32 bits, 2^32 + 3 would read element 3.
  out.push_back({"element_edges_i64",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, idx, g, y):
    i = ct.load(idx, (0,), (8,))
    ct.store(g, (0,), ct.gather(x, i, padding_value=-7.0))
    ct.scatter(y, i, ct.arange(8).astype(ct.float32) + 1.0)
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {60}, false, false, {}, 16, 16},
                  {"idx",
                   D::Int64,
                   {8},
                   false,
                   false,
                   {},
                   0,
                   0,
                   {0, 59, 60, -1, 4294967296.0 + 3, -4294967296.0 + 5, 1099511627776.0, 7}},
                  {"g", D::Float32, {8}, false, true},
                  {"y", D::Float32, {60}, false, true, {}, 16, 16, {-3.0}}},
                 {},
                 {"x", "idx", "g", "y"},
                 rt::Grid(1),
                 0,
                 0});
  // 2-D: each dimension checked on its own. Rows are padded to 8 (strides (8, 1)), so (r, 7)
  // and (r + 1, -1) land on a gap element of the allocation and (5, c) past the last row:
  // checking only the flattened offset would read or write them. A mask turns off some
  // in-bounds elements too.
  const std::vector<double> rows = {0, 4, 4, 0, 5, -1, 1, 2, 3, 2147483647.0, 0, 1, 3, 4, 2, 6};
  const std::vector<double> cols = {0, 6, 7, -1, 0, 6, 7, -1, 3, 0, -2147483648.0, 1, 5, 2, 4, 0};
  out.push_back({"element_edges_2d",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, r, c, g, y):
    ri = ct.load(r, (0,), (16,))
    ci = ct.load(c, (0,), (16,))
    keep = ct.arange(16) != 12
    ct.store(g, (0,), ct.gather(x, (ri, ci), mask=keep, padding_value=-7.0))
    ct.scatter(y, (ri, ci), ct.arange(16).astype(ct.float32) + 1.0, mask=keep)
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {5, 7}, false, false, {8, 1}, 8, 8},
                  {"r", D::Int32, {16}, false, false, {}, 0, 0, rows},
                  {"c", D::Int32, {16}, false, false, {}, 0, 0, cols},
                  {"g", D::Float32, {16}, false, true},
                  {"y", D::Float32, {5, 7}, false, true, {8, 1}, 8, 8, {-3.0}}},
                 {},
                 {"x", "r", "c", "g", "y"},
                 rt::Grid(1),
                 0,
                 0});
  // Control flow with carried tiles and a run-time condition; integer arithmetic.
  out.push_back({"control",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, n, flag):
    acc = ct.zeros((64,), dtype=ct.int32)
    for i in range(n):
        t = ct.load(x, (i,), (64,), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + (t // 3) * (t % 5) + (t << 1) - (t >> 1)
    if flag > 0:
        acc = acc * 2
    else:
        acc = -acc
    ct.store(y, (0,), acc)
)py",
                 "k",
                 {},
                 {{"x", D::Int32, {300}}, {"y", D::Int32, {64}, false, true}},
                 {{"n", D::Int32, 5}, {"flag", D::Int32, 1}},
                 {"x", "y", "n", "flag"},
                 rt::Grid(1),
                 0,
                 0});
  // Long tiles along the first axis (the chunk_cumsum shapes at chunk 256): transposes, scans
  // and masks over several runs of registers per thread.
  for (int64_t q : {128, 256}) {
    std::string n = std::to_string(q);
    out.push_back({"transpose" + n,
                   std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, Q: ct.Constant[int]):
    t = ct.reshape(ct.load(x, (0, 0, 0), (1, Q, 4), padding_mode=ct.PaddingMode.ZERO), (Q, 4))
    ct.store(y, (0, 0, 0, 0), ct.reshape(ct.transpose(t), (1, 4, 1, Q)))
)py",
                   "k",
                   {{"Q", q}},
                   {{"x", D::Float32, {1, 190, 4}}, {"y", D::Float32, {1, 4, 1, q}, false, true}},
                   {},
                   {"x", "y"},
                   rt::Grid(1),
                   0,
                   0});
    out.push_back({"scan" + n,
                   std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, Q: ct.Constant[int]):
    t = ct.reshape(ct.load(x, (0, 0, 0), (1, Q, 4), padding_mode=ct.PaddingMode.ZERO), (Q, 4))
    ct.store(y, (0, 0), ct.cumsum(t, axis=0))
)py",
                   "k",
                   {{"Q", q}},
                   {{"x", D::Float32, {1, 190, 4}}, {"y", D::Float32, {q, 4}, false, true}},
                   {},
                   {"x", "y"},
                   rt::Grid(1),
                   1e-5,
                   1e-5});
    out.push_back({"mask" + n,
                   std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, n, Q: ct.Constant[int]):
    t = ct.reshape(ct.load(x, (0, 0, 0), (1, Q, 4), padding_mode=ct.PaddingMode.ZERO), (Q, 4))
    valid = (ct.bid(0) * Q + ct.arange(Q)) < n
    t = ct.minimum(ct.maximum(ct.where(t > 1.0, t, ct.log(1.0 + ct.exp(t))), 0.0), 3.0e38)
    ct.store(y, (0, 0), ct.where(valid[:, None], t, 0.0))
)py",
                   "k",
                   {{"Q", q}},
                   {{"x", D::Float32, {1, 190, 4}}, {"y", D::Float32, {q, 4}, false, true}},
                   {{"n", D::Int32, 190}},
                   {"x", "y", "n"},
                   rt::Grid(1),
                   // softplus log(1 + exp(t)) for t <= 1 through ex2 and lg2 approximations (about
                   // 2^-22 each, on values below 4): |gpu - interpreter| well under 1e-5.
                   0,
                   1e-5});
  }
  // Vectorised loads and stores: runs of 8 elements move in 16-byte accesses (f32: two, i8:
  // one of 8 bytes) when the view allows it, else element by element. Each dtype goes through
  // a view with padded rows (aligned; ragged edges in both dims, one cutting through a
  // vector), a contiguous one, a misaligned base (element 1), a row pitch that is not a
  // multiple of the vector and a last stride of 2; y is x's
  // view, so stores take the same paths, and z receives whole tiles, padding included.
  struct View {
    const char *name;
    std::vector<int64_t> strides;
    int64_t offset;
    int64_t cols;
  };
  const std::vector<View> views = {{"padded", {256, 1}, 0, 197},
                                   {"contig", {}, 0, 200},
                                   {"offset1", {256, 1}, 1, 197},
                                   {"pitch198", {198, 1}, 0, 197},
                                   {"stride2", {512, 2}, 0, 197}};
  const std::vector<std::pair<D, const char *>> dtypes = {
      {D::Float32, "f32"}, {D::BFloat16, "bf16"}, {D::Float16, "f16"}, {D::Int8, "i8"}, {D::Int32, "i32"}};
  auto copySource = [](const char *padding, const char *order) {
    return std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, z, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.)py" +
           padding + order + R"py()
    ct.store(y, (i, j), t)py" +
           order + R"py()
    ct.store(z, (i, j), t)
)py";
  };
  for (auto [dtype, tag] : dtypes) {
    const char *padding = interp::isFloat(dtype) ? "NAN" : "ZERO";
    for (const View &v : views)
      out.push_back({std::string("vec_") + tag + "_" + v.name,
                     copySource(padding, ""),
                     "k",
                     {{"TM", int64_t(32)}, {"TN", int64_t(64)}},
                     {{"x", dtype, {70, v.cols}, false, false, v.strides, v.offset},
                      {"y", dtype, {70, v.cols}, false, true, v.strides, v.offset},
                      {"z", dtype, {96, 256}, false, true}},
                     {},
                     {"x", "y", "z"},
                     rt::Grid(3, 4),
                     0,
                     0});
  }
  // Shorter runs: 8-byte (bf16, 4 per run) and 2-byte (i8, 2 per run) vectors.
  for (auto [dtype, tm] : {std::pair{D::BFloat16, int64_t(8)}, std::pair{D::Int8, int64_t(4)}})
    out.push_back({std::string("vec_") + interp::dtypeName(dtype) + "_tm" + std::to_string(tm),
                   copySource(interp::isFloat(dtype) ? "NAN" : "ZERO", ""),
                   "k",
                   {{"TM", tm}, {"TN", int64_t(64)}},
                   {{"x", dtype, {70, 197}, false, false, {256, 1}},
                    {"y", dtype, {70, 197}, false, true, {256, 1}},
                    {"z", dtype, {(70 + tm - 1) / tm * tm, 256}, false, true}},
                   {},
                   {"x", "y", "z"},
                   rt::Grid((70 + tm - 1) / tm, 4),
                   0,
                   0});
  // order = (1, 0): the tile's rows run down the columns of column-major storage, vectorised
  // when the columns are padded to a multiple of the vector, scalar when they are not.
  for (auto [dtype, tag] : {dtypes[0], dtypes[1]}) {
    for (bool padded : {true, false}) {
      std::vector<int64_t> strides = padded ? std::vector<int64_t>{1, 200} : std::vector<int64_t>{};
      out.push_back({std::string("vec_") + tag + (padded ? "_order_padded" : "_order_colmajor"),
                     copySource("NAN", ", order=(1, 0)"),
                     "k",
                     {{"TM", int64_t(32)}, {"TN", int64_t(64)}},
                     {{"x", dtype, {197, 70}, !padded, false, strides},
                      {"y", dtype, {197, 70}, !padded, true, strides},
                      {"z", dtype, {96, 256}, false, true}},
                     {},
                     {"x", "y", "z"},
                     rt::Grid(3, 4),
                     0,
                     0});
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Reductions and scans: every kind along every axis of 1-D, 2-D and 3-D tiles, small
// (replicated) tiles, ragged loads padded with zero or -inf, several dtypes, ties and NaN for
// argmax/argmin. Each output is checked against the interpreter's in-order evaluation.
//===----------------------------------------------------------------------===//

// "(a, b)", or "(a,)" for one item.
std::string pyTuple(const std::vector<std::string> &items) {
  std::string s = "(";
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + items[i];
  return s + (items.size() == 1 ? ",)" : ")");
}

std::string pyShape(const std::vector<int64_t> &shape) {
  std::vector<std::string> items;
  for (int64_t d : shape)
    items.push_back(std::to_string(d));
  return pyTuple(items);
}

// (ct.bid(0), 0, ...): block b works on rows [b * tile[0], (b + 1) * tile[0]).
std::string blockIndex(size_t rank) {
  std::vector<std::string> idx(rank, "0");
  idx[0] = "ct.bid(0)";
  return pyTuple(idx);
}

// Exact data for 16-bit sums and products: t (uniform in [-2, 2]) becomes an integer in
// [-4, 4], so every partial sum of up to 64 terms is an integer of at most 256 in magnitude,
// exact in bf16 (8 significant bits) and f16 (11); factors are 2 or 1/2, so every partial
// product is a power of two well inside bf16's exponent range. Any order gives the same bits,
// so these compare with tolerance 0 and catch any element summed twice, dropped or misplaced.
const char *kExactSums = "    t = ct.floor(t * 2.0)\n";
const char *kExactFactors = "ct.where(t > 0.0, t * 0.0 + 2.0, t * 0.0 + 0.5)";

const std::vector<std::string> kAllReductions = {"sum", "prod", "max", "min", "argmax", "argmin"};
const std::vector<std::string> kExtremes = {"max", "min", "argmax", "argmin"};

// Reduces one tile per block with each of `kinds` along `axis` (-1: axis=None on a 1-D tile)
// and stores every result. Float products reduce t * 0.1 + 1 to stay in range.
Case reduceCase(const std::string &name, const std::vector<int64_t> &tile, int axis, bool keepdims, interp::DType dtype,
                const std::vector<std::string> &kinds, double rtol, double atol, std::vector<int64_t> xShape = {},
                int64_t blocks = 1, const std::string &padding = "ZERO", const std::string &prep = "",
                const std::string &productArg = "") {
  bool isFloat = interp::isFloat(dtype);
  std::vector<int64_t> result = {1};
  if (axis >= 0) {
    result = tile;
    if (keepdims)
      result[axis] = 1;
    else
      result.erase(result.begin() + axis);
  }
  std::vector<int64_t> outShape = result;
  outShape[0] *= blocks;
  if (xShape.empty()) {
    xShape = tile;
    xShape[0] *= blocks;
  }
  std::string params = "x", body;
  Case c{name, "", "k", {}, {{"x", dtype, xShape}}, {}, {"x"}, rt::Grid(blocks), rtol, atol};
  for (const std::string &kind : kinds) {
    std::string out = "o_" + kind;
    params += ", " + out;
    std::string arg = kind == "prod" && isFloat ? (productArg.empty() ? "t * 0.1 + 1.0" : productArg) : "t";
    std::string expr = axis < 0 ? "ct.reshape(ct." + kind + "(" + arg + "), (1,))"
                                : "ct." + kind + "(" + arg + ", axis=" + std::to_string(axis) +
                                      ", keepdims=" + (keepdims ? "True" : "False") + ")";
    body += "    ct.store(" + out + ", " + blockIndex(outShape.size()) + ", " + expr + ")\n";
    bool isArg = kind == "argmax" || kind == "argmin";
    c.arrays.push_back({out, isArg ? interp::DType::Int32 : dtype, outShape, false, true});
    c.paramOrder.push_back(out);
  }
  c.source = std::string(kHeader) + "@ct.kernel\ndef k(" + params + "):\n    t = ct.load(x, " +
             blockIndex(tile.size()) + ", " + pyShape(tile) + ", padding_mode=ct.PaddingMode." + padding + ")\n" +
             prep + body;
  return c;
}

// Inclusive scans of one tile per block along `axis`: cumsum and cumprod, forward and reverse.
// Float products scan t * 0.05 + 1 (or productArg) to stay in range; prep rewrites t first.
Case scanCase(const std::string &name, const std::vector<int64_t> &tile, int axis, interp::DType dtype, double rtol,
              double atol, std::vector<int64_t> xShape = {}, int64_t blocks = 1, const std::string &prep = "",
              const std::string &productArg = "") {
  std::vector<int64_t> outShape = tile;
  outShape[0] *= blocks;
  if (xShape.empty())
    xShape = outShape;
  std::string idx = blockIndex(tile.size()), ax = std::to_string(axis);
  std::string p = !interp::isFloat(dtype) ? "t" : productArg.empty() ? "t * 0.05 + 1.0" : productArg;
  std::string source = std::string(kHeader) + "@ct.kernel\ndef k(x, fwd, rev, pfwd, prev):\n    t = ct.load(x, " + idx +
                       ", " + pyShape(tile) + ", padding_mode=ct.PaddingMode.ZERO)\n" + prep + "    ct.store(fwd, " +
                       idx + ", ct.cumsum(t, axis=" + ax + "))\n" + "    ct.store(rev, " + idx +
                       ", ct.cumsum(t, axis=" + ax + ", reverse=True))\n" + "    ct.store(pfwd, " + idx +
                       ", ct.cumprod(" + p + ", axis=" + ax + "))\n" + "    ct.store(prev, " + idx + ", ct.cumprod(" +
                       p + ", axis=" + ax + ", reverse=True))\n";
  Case c{name, source, "k", {}, {{"x", dtype, xShape}}, {}, {"x"}, rt::Grid(blocks), rtol, atol};
  for (const char *out : {"fwd", "rev", "pfwd", "prev"}) {
    c.arrays.push_back({out, dtype, outShape, false, true});
    c.paramOrder.push_back(out);
  }
  return c;
}

std::vector<Case> reduceScanCases() {
  using D = interp::DType;
  std::vector<Case> out;
  // 2-D: both axes, with and without keepdims, ragged in both dimensions over two blocks.
  for (int axis : {0, 1})
    for (bool keep : {true, false})
      out.push_back(reduceCase("reduce32x64_a" + std::to_string(axis) + (keep ? "k" : ""), {32, 64}, axis, keep,
                               D::Float32, kAllReductions, 1e-5, 1e-5, {50, 60}, 2));
  // 3-D: every axis; runs of 8 along the last dim, lane, warp and register bits elsewhere.
  for (int axis : {0, 1, 2}) {
    std::string a = "_a" + std::to_string(axis);
    out.push_back(reduceCase("reduce4x8x16" + a, {4, 8, 16}, axis, false, D::Float32, kAllReductions, 1e-5, 1e-5));
    out.push_back(
        reduceCase("reduce8x16x32" + a, {8, 16, 32}, axis, true, D::Float32, kAllReductions, 1e-5, 1e-5, {8, 16, 30}));
    out.push_back(reduceCase("reduce2x4x8" + a, {2, 4, 8}, axis, false, D::Int32, kAllReductions, 0, 0));
  }
  // Small tiles (fewer elements than threads: replicated), long and thin ones.
  struct Shape2 {
    int64_t m, n;
    int axis;
  };
  for (Shape2 s : std::vector<Shape2>{{4, 8, 0},
                                      {4, 8, 1},
                                      {2, 16, 0},
                                      {16, 2, 1},
                                      {32, 1, 0},
                                      {8, 128, 0},
                                      {128, 8, 1},
                                      {128, 8, 0},
                                      {512, 2, 0},
                                      {2, 512, 1}})
    out.push_back(reduceCase("reduce" + std::to_string(s.m) + "x" + std::to_string(s.n) + "_a" + std::to_string(s.axis),
                             {s.m, s.n}, s.axis, false, D::Float32, kAllReductions, 1e-5, 1e-5));
  // 1-D tiles, ragged over two blocks, and axis=None.
  for (int64_t n : {16, 128, 1024})
    out.push_back(reduceCase("reduce1d_" + std::to_string(n), {n}, 0, true, D::Float32, kAllReductions, 1e-4, 1e-4,
                             {2 * n - 3}, 2));
  out.push_back(reduceCase("reduce1d_all", {512}, -1, false, D::Float32, kAllReductions, 1e-4, 1e-4));
  // Element types: the extremes exactly; 16-bit sums and products of random data within the
  // bounds derived above (n: the real rows or columns of x, 13 or 60; padding adds 0 or
  // multiplies by 1, exactly), and of exact data bit for bit.
  for (int axis : {0, 1}) {
    std::string a = "_a" + std::to_string(axis);
    const int64_t n = axis == 0 ? 13 : 60;
    out.push_back(reduceCase("reduce_i32" + a, {16, 64}, axis, false, D::Int32, kAllReductions, 0, 0, {13, 60}));
    out.push_back(reduceCase("reduce_bf16" + a, {16, 64}, axis, false, D::BFloat16, kExtremes, 0, 0, {13, 60}));
    out.push_back(reduceCase("reduce_bf16_sum" + a, {16, 64}, axis, false, D::BFloat16, {"sum"}, 0,
                             sumTolerance(D::BFloat16, n, 2.0), {13, 60}));
    out.push_back(reduceCase("reduce_bf16_prod" + a, {16, 64}, axis, false, D::BFloat16, {"prod"},
                             productTolerance(D::BFloat16, n), 0, {13, 60}));
    out.push_back(reduceCase("reduce_bf16_exact" + a, {16, 64}, axis, false, D::BFloat16, {"sum", "prod"}, 0, 0,
                             {13, 60}, 1, "ZERO", kExactSums, kExactFactors));
    out.push_back(reduceCase("reduce_f16_exact" + a, {16, 64}, axis, false, D::Float16, {"sum"}, 0, 0, {13, 60}, 1,
                             "ZERO", kExactSums));
  }
  out.push_back(reduceCase("reduce_f16", {16, 64}, 1, true, D::Float16, kExtremes, 0, 0, {13, 60}));
  out.push_back(reduceCase("reduce_f16_sum", {16, 64}, 0, true, D::Float16, {"sum"}, 0,
                           sumTolerance(D::Float16, 13, 2.0), {13, 60}));
  out.push_back(reduceCase("reduce_f16_prod", {16, 64}, 0, true, D::Float16, {"prod"}, productTolerance(D::Float16, 13),
                           0, {13, 60}));
  out.push_back(reduceCase("reduce_f64", {16, 64}, 0, false, D::Float64, kAllReductions, 1e-12, 1e-12, {13, 60}));
  out.push_back(reduceCase("reduce_i64", {64, 16}, 1, false, D::Int64, kAllReductions, 0, 0, {60, 13}));
  // -inf padding: extremes over padded rows and columns (argmin ties among the -inf).
  out.push_back(
      reduceCase("reduce_neginf_a1", {32, 64}, 1, false, D::Float32, kExtremes, 0, 0, {30, 50}, 1, "NEG_INF"));
  out.push_back(reduceCase("reduce_neginf_a0", {32, 64}, 0, true, D::Float32, kExtremes, 0, 0, {30, 50}, 1, "NEG_INF"));
  // Ties: the first position wins, whatever the combining order.
  std::string floorTies = "    t = ct.floor(t * 2.0)\n", intTies = "    t = t // 16\n";
  out.push_back(
      reduceCase("reduce_ties_a1", {32, 64}, 1, false, D::Float32, kExtremes, 0, 0, {}, 1, "ZERO", floorTies));
  out.push_back(
      reduceCase("reduce_ties_a0", {32, 64}, 0, false, D::Float32, kExtremes, 0, 0, {}, 1, "ZERO", floorTies));
  out.push_back(reduceCase("reduce_ties_i32", {64, 32}, 0, false, D::Int32, kExtremes, 0, 0, {}, 1, "ZERO", intTies));
  out.push_back(reduceCase("reduce_ties_3d", {4, 32, 8}, 1, false, D::Int32, kExtremes, 0, 0, {}, 1, "ZERO", intTies));
  out.push_back(reduceCase("reduce_ties_small", {8, 8}, 0, false, D::Int32, kExtremes, 0, 0, {}, 1, "ZERO", intTies));
  // NaN: max/min propagate it, argmax/argmin return the first NaN.
  std::string nans = "    t = ct.where(t > 1.8, ct.log(t - 3.0), t)\n";
  for (int axis : {0, 1})
    out.push_back(reduceCase("reduce_nan_a" + std::to_string(axis), {32, 64}, axis, false, D::Float32, kExtremes, 0, 0,
                             {}, 1, "ZERO", nans));
  out.push_back(reduceCase("reduce_nan_small", {8, 8}, 1, false, D::Float32, kExtremes, 0, 0, {}, 1, "ZERO",
                           "    t = ct.where(t > 1.5, ct.log(t - 3.0), t)\n"));

  // Scans.
  for (int axis : {0, 1})
    out.push_back(scanCase("scan32x64_a" + std::to_string(axis), {32, 64}, axis, D::Float32, 1e-5, 1e-5, {50, 60}, 2));
  for (int axis : {0, 1, 2}) {
    std::string a = "_a" + std::to_string(axis);
    out.push_back(scanCase("scan4x8x16" + a, {4, 8, 16}, axis, D::Float32, 1e-5, 1e-5));
    out.push_back(scanCase("scan8x16x32" + a, {8, 16, 32}, axis, D::Float32, 1e-5, 1e-5, {8, 16, 30}));
    out.push_back(scanCase("scan2x4x8" + a, {2, 4, 8}, axis, D::Int32, 0, 0));
  }
  for (Shape2 s :
       std::vector<Shape2>{{4, 8, 0}, {4, 8, 1}, {16, 2, 1}, {128, 8, 0}, {128, 8, 1}, {512, 2, 0}, {2, 512, 1}})
    out.push_back(scanCase("scan" + std::to_string(s.m) + "x" + std::to_string(s.n) + "_a" + std::to_string(s.axis),
                           {s.m, s.n}, s.axis, D::Float32, 1e-5, 1e-5));
  for (int64_t n : {16, 128, 1024, 4096})
    out.push_back(scanCase("scan1d_" + std::to_string(n), {n}, 0, D::Float32, n > 128 ? 2e-4 : 1e-5,
                           n > 128 ? 2e-4 : 1e-5, {2 * n - 3}, 2));
  // 16-bit scans: each output position within the bound for the whole axis (its prefix has at
  // most n terms); exact data bit for bit.
  auto scan16 = [](const std::string &name, int axis, interp::DType dtype) {
    const int64_t n = axis == 0 ? 13 : 60;
    Case c = scanCase(name, {16, 64}, axis, dtype, 0, 0, {13, 60});
    const double sum = sumTolerance(dtype, n, 2.0), prod = productTolerance(dtype, n);
    c.tolerances = {{"fwd", {0, sum}}, {"rev", {0, sum}}, {"pfwd", {prod, 0}}, {"prev", {prod, 0}}};
    return c;
  };
  for (int axis : {0, 1}) {
    std::string a = "_a" + std::to_string(axis);
    out.push_back(scanCase("scan_i32" + a, {16, 64}, axis, D::Int32, 0, 0, {13, 60}));
    out.push_back(scan16("scan_bf16" + a, axis, D::BFloat16));
    out.push_back(
        scanCase("scan_bf16_exact" + a, {16, 64}, axis, D::BFloat16, 0, 0, {13, 60}, 1, kExactSums, kExactFactors));
  }
  out.push_back(scan16("scan_f16", 1, D::Float16));
  Case f16Exact = scanCase("scan_f16_exact", {16, 64}, 1, D::Float16, 0, 0, {13, 60}, 1, kExactSums);
  f16Exact.tolerances = {{"pfwd", {productTolerance(D::Float16, 60), 0}},
                         {"prev", {productTolerance(D::Float16, 60), 0}}};
  out.push_back(f16Exact);
  out.push_back(scanCase("scan_f64", {64, 16}, 0, D::Float64, 1e-12, 1e-12, {60, 13}));
  out.push_back(scanCase("scan_i64", {16, 64}, 1, D::Int64, 0, 0, {13, 60}));
  return out;
}

// Loops whose loads tile-pipeline-loops copies ahead into shared-memory stages: trip counts 0,
// 1 and around the number of stages (S - 1, S, S + 1 for 2 to 4 stages), a run-time start
// and step, tiles past the array's edge in both dimensions (ragged and wholly outside, a
// negative index), and views the copies cannot take (misaligned, strided, padded rows that
// break the 16-byte alignment) next to padded rows that keep it. Each iteration rescales the
// accumulator, so a stage read in the wrong iteration changes the result. Views that keep the
// aligned facts (w, and x with 56-element rows) compile for aligned arguments, whose loads TMA
// copies (zero fill past every edge, mbarrier phases): those run every trip count too, as do a
// loop run again inside an outer loop and a rank-4 tile past the array in every dimension.
std::vector<Case> pipelineCases() {
  using D = interp::DType;
  std::vector<Case> out;
  const std::string source = std::string(kHeader) + R"py(
@ct.kernel
def k(x, w, y, start, n, step):
    acc = ct.zeros((16, 32), dtype=ct.float32)
    for i in range(start, n, step):
        t = ct.load(x, (i, ct.bid(0)), (16, 32), padding_mode=ct.PaddingMode.ZERO)
        v = ct.load(w, (i,), (16,), padding_mode=ct.PaddingMode.ZERO)
        acc = acc * 0.75 + t.astype(ct.float32) * v[:, None]
    ct.store(y, (0, ct.bid(0)), acc)
)py";
  struct View {
    const char *name;
    bool columnMajor;
    std::vector<int64_t> strides;
    int64_t offset;
  };
  const std::vector<View> views = {{"contiguous", false, {}, 0},
                                   {"misaligned", false, {}, 1},
                                   {"strided", true, {}, 0},
                                   {"pitch56", false, {56, 1}, 0},
                                   {"pitch51", false, {51, 1}, 0}};
  struct Trip {
    int64_t start, n, step;
  };
  // x has 70 rows: four full 16-row tiles, a ragged fifth (6 rows) and none after.
  const std::vector<Trip> trips = {{0, 0, 1}, {0, 1, 1}, {0, 2, 1},  {0, 3, 1}, {0, 4, 1},
                                   {0, 5, 1}, {0, 6, 1}, {-1, 4, 1}, {1, 6, 2}, {2, 2, 1}};
  for (const View &view : views)
    for (const Trip &trip : trips) {
      if (view.offset || view.columnMajor || (!view.strides.empty() && view.strides[0] != 56))
        if (trip.n != 5 || trip.start != 0)
          continue; // the other trip counts on the contiguous and aligned views only
      Case c;
      c.name = std::string("pipeline_") + view.name + "_" + std::to_string(trip.start) + "_" + std::to_string(trip.n) +
               "_" + std::to_string(trip.step);
      c.source = source;
      c.kernel = "k";
      ArraySpec x{"x", D::BFloat16, {70, 50}, view.columnMajor};
      x.strides = view.strides;
      x.offset = view.offset;
      c.arrays = {x, {"w", D::Float32, {75}}, {"y", D::Float32, {16, 64}, false, true}};
      c.scalars = {{"start", D::Int32, double(trip.start)},
                   {"n", D::Int32, double(trip.n)},
                   {"step", D::Int32, double(trip.step)}};
      c.paramOrder = {"x", "w", "y", "start", "n", "step"};
      c.grid = rt::Grid(2);
      out.push_back(c);
    }
  // The inner loop runs once per outer iteration: its stage barriers start over each time.
  for (int64_t m : {1, 3}) {
    Case c;
    c.name = "pipeline_nested_" + std::to_string(m);
    c.source = std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, n, m):
    acc = ct.zeros((16, 32), dtype=ct.float32)
    for j in range(m):
        for i in range(n):
            t = ct.load(x, (i + j, ct.bid(0)), (16, 32), padding_mode=ct.PaddingMode.ZERO)
            acc = acc * 0.75 + t
    ct.store(y, (0, ct.bid(0)), acc)
)py";
    c.kernel = "k";
    c.arrays = {{"x", D::Float32, {70, 64}}, {"y", D::Float32, {16, 64}, false, true}};
    c.scalars = {{"n", D::Int32, 4.0}, {"m", D::Int32, double(m)}};
    c.paramOrder = {"x", "y", "n", "m"};
    c.grid = rt::Grid(2);
    out.push_back(c);
  }
  // A wgmma K loop whose product leaves its group pending across iterations
  // (tile.wgmma_pending): the copies into the previous stage are issued after the wait, with
  // the iteration's index arithmetic (shared with a store after the product) lowered again
  // for the later iteration; trip counts 0, 1, S - 1, S, S + 1 and more; a ragged row block.
  for (int64_t n : {0, 1, 2, 3, 4, 7}) {
    Case c;
    c.name = "pipeline_pending_wgmma_" + std::to_string(n);
    c.source = std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, copy, n):
    acc = ct.zeros((64, 64), dtype=ct.float32)
    for i in range(n):
        j = (i * 2) % 5
        ta = ct.load(a, (ct.bid(0), j), (64, 32), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (j, 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
        ct.store(copy, (ct.bid(0), j), ta)
    ct.store(c, (ct.bid(0), 0), acc)
)py";
    c.kernel = "k";
    c.arrays = {{"a", D::BFloat16, {100, 160}},
                {"b", D::BFloat16, {160, 64}},
                {"c", D::Float32, {100, 64}, false, true},
                {"copy", D::BFloat16, {100, 160}, false, true}};
    c.scalars = {{"n", D::Int32, double(n)}};
    c.paramOrder = {"a", "b", "c", "copy", "n"};
    c.grid = rt::Grid(2);
    c.rtol = c.atol = 1e-3;
    out.push_back(c);
  }
  {
    // Tiles of a rank-4 array past its edge in every dimension (a negative index, ragged and
    // wholly outside), blocks over the first and third.
    Case c;
    c.name = "pipeline_rank4_edges";
    c.source = std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, n):
    acc = ct.zeros((2, 16, 1, 16), dtype=ct.float32)
    for i in range(n):
        t = ct.load(x, (ct.bid(0), i, ct.bid(1), i - 1), (2, 16, 1, 16), padding_mode=ct.PaddingMode.ZERO)
        acc = acc * 0.5 + t
    ct.store(y, (ct.bid(0), 0, ct.bid(1), 0), acc)
)py";
    c.kernel = "k";
    c.arrays = {{"x", D::Float32, {3, 40, 2, 24}}, {"y", D::Float32, {4, 16, 2, 16}, false, true}};
    c.scalars = {{"n", D::Int32, 5.0}};
    c.paramOrder = {"x", "y", "n"};
    c.grid = rt::Grid(2, 2);
    out.push_back(c);
  }
  return out;
}

// Products whose A operand is computed in registers and built by each thread in the A
// fragments (tile.operand_a = #tile.operand<registers>): wgmma's register-A form on sm_90a, mma.sync without
// a shared-memory copy of A on sm_90.
std::vector<Case> registerOperandCases() {
  using D = interp::DType;
  std::vector<Case> out;
  // fwd_pass_state's swapped product: A the transpose of a loaded tile weighted per K column
  // (one exp each), B N-major from the pipeline stages, the state carried in registers and
  // stored every iteration; the last chunk ragged (rows 80-95 of 96 padded).
  out.push_back({"register_a_swapped_loop",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, v, states):
    S = ct.zeros((64, 64), dtype=ct.float32)
    for i in range(3):
        ct.store(states, (i, 0, 0), ct.reshape(S, (1, 64, 64)))
        bt = ct.load(a, (i, 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)
        x = ct.load(b, (i, 0), (32, 64), padding_mode=ct.PaddingMode.ZERO)
        w = ct.exp(ct.load(v, (i,), (32,), padding_mode=ct.PaddingMode.ZERO) * 0.5)
        S = ct.mma((ct.transpose(bt).astype(ct.float32) * w[None, :]).astype(ct.bfloat16), x, S * 0.5)
    ct.store(states, (3, 0, 0), ct.reshape(S, (1, 64, 64)))
)py",
                 "k",
                 {},
                 {{"a", D::BFloat16, {80, 64}},
                  {"b", D::BFloat16, {80, 64}},
                  {"v", D::Float32, {96}},
                  {"states", D::Float32, {4, 64, 64}, false, true}},
                 {},
                 {"a", "b", "v", "states"},
                 rt::Grid(1),
                 // exp differs in its last bits (ex2.approx), which may move an element of A by
                 // one bf16 ulp (2^-8 relative): one term of a sum of 32 (|term| < 4).
                 1e-2,
                 3e-2});
  // Two m64 blocks per warpgroup (M = 128) in a pipelined K loop, f16: A scaled per column
  // (built per element) and A halved (its stage read with ldmatrix.x4, the product taking the
  // fragments as they come), B N-major (loaded K x N) and K-major (a transposed N x K load);
  // a ragged 200-row A over two row blocks.
  out.push_back({"register_a_two_blocks_f16",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, bt, s, c, d):
    acc_c = ct.zeros((128, 64), dtype=ct.float32)
    acc_d = ct.zeros((128, 64), dtype=ct.float32)
    for kk in range(2):
        ta = ct.load(a, (ct.bid(0), kk), (128, 64), padding_mode=ct.PaddingMode.ZERO)
        sv = ct.load(s, (kk,), (64,))
        am = (ta.astype(ct.float32) * sv[None, :] + 0.25).astype(ct.float16)
        acc_c = ct.mma(am, ct.load(b, (kk, 0), (64, 64)), acc_c)
        acc_d = ct.mma(ta * 0.5, ct.transpose(ct.load(bt, (0, kk), (64, 64))), acc_d)
    ct.store(c, (ct.bid(0), 0), acc_c)
    ct.store(d, (ct.bid(0), 0), acc_d)
)py",
                 "k",
                 {},
                 {{"a", D::Float16, {200, 128}},
                  {"b", D::Float16, {128, 64}},
                  {"bt", D::Float16, {64, 128}},
                  {"s", D::Float32, {128}},
                  {"c", D::Float32, {200, 64}, false, true},
                  {"d", D::Float32, {200, 64}, false, true}},
                 {},
                 {"a", "b", "bt", "s", "c", "d"},
                 rt::Grid(2),
                 1e-3,
                 1e-3});
  // The fused Mamba-2 loop's two products of computed operands: A built from another product's
  // accumulator (the masked, decayed C.B^T: its fragments are A's), and a running state S^T
  // fed back as B (written to shared memory from the accumulator fragments, bf16 pairs); the
  // last chunk ragged (rows 80-95 of 96 padded).
  out.push_back({"operands_from_accumulators",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(c, b, x, s, y, st):
    St = ct.zeros((64, 32), dtype=ct.float32)
    causal = ct.arange(64)[None, :] <= ct.arange(64)[:, None]
    for i in range(3):
        cc = ct.load(c, (i, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        bc = ct.load(b, (i, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        xc = ct.load(x, (i, 0), (64, 32), padding_mode=ct.PaddingMode.ZERO)
        sv = ct.load(s, (i,), (64,), padding_mode=ct.PaddingMode.ZERO)
        yacc = ct.mma(cc, St.astype(ct.bfloat16), ct.zeros((64, 32), dtype=ct.float32))
        cb = ct.mma(cc, ct.transpose(bc), ct.zeros((64, 64), dtype=ct.float32))
        m = ct.where(causal, cb * ct.exp(sv * 0.25)[None, :], 0.0).astype(ct.bfloat16)
        yacc = ct.mma(m, xc, yacc)
        ct.store(y, (i, 0), yacc)
        St = ct.mma(ct.transpose(bc), xc, St * 0.5)
    ct.store(st, (0, 0), St)
)py",
                 "k",
                 {},
                 {{"c", D::BFloat16, {160, 64}},
                  {"b", D::BFloat16, {160, 64}},
                  {"x", D::BFloat16, {160, 32}},
                  {"s", D::Float32, {192}},
                  {"y", D::Float32, {160, 32}, false, true},
                  {"st", D::Float32, {64, 32}, false, true}},
                 {},
                 {"c", "b", "x", "s", "y", "st"},
                 rt::Grid(1),
                 // The computed operands round to bf16 (2^-8 relative), on both sides alike
                 // except where exp's last bits move an element of m by one ulp.
                 2e-2,
                 5e-2});
  return out;
}

// Stores that a loop repeats into aligned arrays, which tile-place-tma makes bulk tensor stores
// (TMA) through a staging buffer: accumulator fragments and canonical tiles, the 128-, 64-byte
// and no swizzle, two column blocks, rank 4, ragged edges clipped by the hardware and a padded
// row pitch whose gaps must keep their data.
std::vector<Case> tmaStoreCases() {
  using D = interp::DType;
  std::vector<Case> out;
  out.push_back({"tma_store_accumulator_bf16",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, n: int):
    j = ct.bid(0)
    for i in range(n):
        acc = ct.mma(ct.load(a, (i, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO),
                     ct.load(b, (0, j), (64, 64), padding_mode=ct.PaddingMode.ZERO),
                     ct.zeros((64, 64), dtype=ct.float32))
        ct.store(c, (i, j), acc.astype(ct.bfloat16))
)py",
                 "k",
                 {},
                 {{"a", D::BFloat16, {200, 64}},
                  {"b", D::BFloat16, {64, 136}},
                  {"c", D::BFloat16, {200, 136}, false, true, {144, 1}}},
                 {{"n", D::Int32, 4}},
                 {"a", "b", "c", "n"},
                 rt::Grid(3),
                 1e-2,
                 2e-2});
  out.push_back(
      {"tma_store_accumulator_f32",
       std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, n: int):
    j = ct.bid(0)
    for i in range(n):
        acc = ct.mma(ct.load(a, (i, 0), (64, 32), padding_mode=ct.PaddingMode.ZERO),
                     ct.load(b, (0, j), (32, 64), padding_mode=ct.PaddingMode.ZERO),
                     ct.zeros((64, 64), dtype=ct.float32))
        ct.store(c, (i, j), acc)
)py",
       "k",
       {},
       {{"a", D::BFloat16, {100, 32}}, {"b", D::BFloat16, {32, 132}}, {"c", D::Float32, {100, 132}, false, true}},
       {{"n", D::Int32, 2}},
       {"a", "b", "c", "n"},
       rt::Grid(3),
       1e-4,
       1e-4});
  out.push_back({"tma_store_canonical_64B",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, n: int):
    for i in range(n):
        t = ct.load(x, (i, 0), (16, 16), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, (i + 1, 0), t * 2.0 + 1.0)
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {70, 16}}, {"y", D::Float32, {70, 16}, false, true}},
                 {{"n", D::Int32, 5}},
                 {"x", "y", "n"},
                 rt::Grid(1),
                 0,
                 0});
  out.push_back({"tma_store_rows16",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, n: int):
    for i in range(n):
        t = ct.load(x, (i, 0), (32, 8))
        ct.store(y, (2 * i, 0), t)
)py",
                 "k",
                 {},
                 {{"x", D::BFloat16, {150, 8}}, {"y", D::BFloat16, {150, 8}, false, true}},
                 {{"n", D::Int32, 3}},
                 {"x", "y", "n"},
                 rt::Grid(1),
                 0,
                 0});
  out.push_back({"tma_store_rank4",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, y, heads: int):
    c = ct.bid(0)
    for h in range(heads):
        t = ct.load(x, (0, c, h, 0), (1, 64, 1, 32), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, (0, c, h, 0), (t.astype(ct.float32) * -0.5).astype(ct.bfloat16))
)py",
                 "k",
                 {},
                 {{"x", D::BFloat16, {1, 100, 3, 32}}, {"y", D::BFloat16, {1, 100, 3, 32}, false, true}},
                 {{"heads", D::Int32, 3}},
                 {"x", "y", "heads"},
                 rt::Grid(2),
                 0,
                 0});
  // At occupancy 8 one 16 KiB staging buffer fits and two do not: each store waits for the
  // previous one's read of the buffer before anyone writes it (five stores in a row).
  out.push_back({"tma_store_one_buffer",
                 std::string(kHeader) + R"py(
@ct.kernel(occupancy=8)
def k(x, y, n: int):
    for i in range(n):
        t = ct.load(x, (i, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, (i, 0), t * 2.0)
)py",
                 "k",
                 {},
                 {{"x", D::Float32, {300, 64}}, {"y", D::Float32, {300, 64}, false, true}},
                 {{"n", D::Int32, 5}},
                 {"x", "y", "n"},
                 rt::Grid(1),
                 0,
                 0});
  return out;
}

// 8-bit floats: every bit pattern of each format widened; f32 values around each format's
// edges (subnormals, ties, the largest finite value, overflow, infinities, NaN) narrowed,
// which must round as the interpreter does, bit for bit; arithmetic rounded to e4m3; products
// on 8-bit wgmma (A M x K, B the transpose of an N x K tile: TMA where the rows are aligned,
// cp.async where not) and on f16 operands (B loaded K x N; sm_80), ragged on every side.
std::vector<Case> float8Cases() {
  using D = interp::DType;
  std::vector<Case> out;
  auto patterns = [](D dtype) {
    std::vector<double> values;
    for (int bits = 0; bits < 256; ++bits) {
      uint8_t byte = static_cast<uint8_t>(bits);
      values.push_back(interp::readFloat(&byte, dtype));
    }
    return values;
  };
  std::vector<double> edges = {0.0,     -0.0,      448.0,   464.0,    465.0,    480.0,     57344.0,
                               61440.0, 61439.,    1e30,    -1e30,    HUGE_VAL, -HUGE_VAL, NAN,
                               1.0625,  1.1875,    -1.0625, 0x1p-9,   0x1p-10,  0x1.8p-10, 0x1p-16,
                               0x1p-17, 0x1.8p-17, 0x1p-6,  0x1.ep-7, 0x1.fp-7, 0x1p-14,   0x1.cp-15};
  for (int e = -20; e <= 17; ++e)
    for (double f : {0.0, 0.0625, 0.125, 0.1875, 0.3, 0.5, 0.71, 0.9375})
      for (double sign : {1.0, -1.0})
        edges.push_back(sign * std::ldexp(1.0 + f, e));
  out.push_back({"float8_convert",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x4, x5, z, w4, w5, sq, n4, n5):
    i = ct.bid(0)
    a = ct.load(x4, (i,), (128,), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(x5, (i,), (128,), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(w4, (i,), ct.astype(a, ct.float32))
    ct.store(w5, (i,), ct.astype(b, ct.float16))
    ct.store(sq, (i,), a * a)
    f = ct.load(z, (i,), (128,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(n4, (i,), ct.astype(f, ct.float8_e4m3fn))
    ct.store(n5, (i,), ct.astype(f, ct.float8_e5m2))
)py",
                 "k",
                 {},
                 {{"x4", D::Float8E4M3FN, {700}, false, false, {}, 0, 0, patterns(D::Float8E4M3FN)},
                  {"x5", D::Float8E5M2, {700}, false, false, {}, 0, 0, patterns(D::Float8E5M2)},
                  {"z", D::Float32, {700}, false, false, {}, 0, 0, edges},
                  {"w4", D::Float32, {700}, false, true},
                  {"w5", D::Float16, {700}, false, true},
                  {"sq", D::Float8E4M3FN, {700}, false, true},
                  {"n4", D::Float8E4M3FN, {700}, false, true},
                  {"n5", D::Float8E5M2, {700}, false, true}},
                 {},
                 {"x4", "x5", "z", "w4", "w5", "sq", "n4", "n5"},
                 rt::Grid(6),
                 0,
                 0});
  // Products of values in [-2, 2] rounded to 8 bits: each term is exact in f32, but wgmma adds
  // 8-bit products with fewer bits than f32 (about 14 significant bits on Hopper), so the
  // bound is an absolute one at that precision for sums of up to 192 terms of magnitude <= 4;
  // a misplaced operand element moves results by whole terms.
  struct Float8Product {
    const char *name, *body;
    D dtype;
    std::vector<int64_t> a, b, c;
    int64_t bm, bn, bk;
  };
  for (const Float8Product &p : std::vector<Float8Product>{
           {"float8_mma_nt_e4m3",
            "ct.transpose(ct.load(b, (ct.bid(1), kk), (BN, BK), padding_mode=ct.PaddingMode.ZERO))",
            D::Float8E4M3FN,
            {200, 192},
            {136, 192},
            {200, 136},
            128,
            128,
            64},
           {"float8_mma_nt_e5m2",
            "ct.transpose(ct.load(b, (ct.bid(1), kk), (BN, BK), padding_mode=ct.PaddingMode.ZERO))",
            D::Float8E5M2,
            {70, 150},
            {100, 150},
            {70, 100},
            64,
            64,
            32},
           {"float8_mma_nn_e4m3",
            "ct.load(b, (kk, ct.bid(1)), (BK, BN), padding_mode=ct.PaddingMode.ZERO)",
            D::Float8E4M3FN,
            {130, 100},
            {100, 72},
            {130, 72},
            64,
            64,
            32}}) {
    out.push_back({p.name,
                   std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    acc = ct.full((BM, BN), 0.5, dtype=ct.float32)
    for kk in range(ct.num_tiles(a, 1, (BM, BK))):
        ta = ct.load(a, (ct.bid(0), kk), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, )py" +
                       p.body + R"py(, acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)
)py",
                   "k",
                   {{"BM", p.bm}, {"BN", p.bn}, {"BK", p.bk}},
                   {{"a", p.dtype, p.a}, {"b", p.dtype, p.b}, {"c", D::Float32, p.c, false, true}},
                   {},
                   {"a", "b", "c"},
                   rt::Grid((p.c[0] + p.bm - 1) / p.bm, (p.c[1] + p.bn - 1) / p.bn),
                   0,
                   std::ldexp(4.0 * 192, -13)});
  }
  return out;
}

} // namespace

// Every differential case runs compiled for the device's own target (sm_90a on the H200: wgmma,
// TMA) and for sm_80 (which the H200 runs too): mma.sync, ldmatrix, cp.async and the FMA paths
// are then checked against the interpreter on real hardware, not only as text.
static const char *const kTargets[] = {"", "sm_80"};

// A JIT for `arch` ("" the device's) with `options` otherwise, caching in `dir`.
// Code for another target than the device's travels as PTX: a cubin for sm_80 does not load on
// an sm_90 device (CUDA_ERROR_NO_BINARY_FOR_GPU, seen on the H200), PTX the driver compiles does.
static jit::Jit jitFor(const rt::Device &device, const char *arch, jit::JitOptions options, const char *dir) {
  options.arch = arch;
  options.usePtx = options.usePtx || *arch;
  return jit::Jit(device, options, jit::DiskCache(dir));
}

// Each case compiled for every target of kTargets, against the interpreter.
static void runOnEveryTarget(const std::vector<Case> &cases, rt::Device &device) {
  char dir[] = "/tmp/tile-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  for (const char *arch : kTargets) {
    INFO("arch " << (*arch ? arch : "of the device"));
    jit::Jit jit = jitFor(device, arch, {}, dir);
    for (const Case &c : cases)
      runCase(c, device, jit);
  }
}

TEST_CASE("gpu: products with A computed in registers match the interpreter", "[gpu][codegen][mma]") {
  TILE_REQUIRE_GPU(device);
  char dir[] = "/tmp/tile-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  // sm_90a: wgmma with A from registers; sm_90 (no wgmma) and sm_80: mma.sync with A from registers.
  for (const char *arch : {"", "sm_90", "sm_80"}) {
    INFO("arch " << (*arch ? arch : "of the device"));
    jit::Jit jit = jitFor(device, arch, {}, dir);
    for (const Case &c : registerOperandCases())
      runCase(c, device, jit);
  }
}

TEST_CASE("gpu: generated code matches the interpreter for every op family", "[gpu][codegen]") {
  TILE_REQUIRE_GPU(device);
  runOnEveryTarget(cases(), device);
}

TEST_CASE("gpu: 8-bit floats match the interpreter", "[gpu][codegen][float8]") {
  TILE_REQUIRE_GPU(device);
  runOnEveryTarget(float8Cases(), device);
}

TEST_CASE("gpu: reductions and scans match the interpreter", "[gpu][codegen][reduce]") {
  TILE_REQUIRE_GPU(device);
  char dir[] = "/tmp/tile-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  for (const char *arch : kTargets) {
    INFO("arch " << (*arch ? arch : "of the device"));
    jit::Jit jit = jitFor(device, arch, {}, dir);
    for (const Case &c : reduceScanCases())
      runCase(c, device, jit);
  }
  // Other block sizes move the lane/warp/register split of every axis.
  for (int64_t threads : {32, 256}) {
    INFO(threads << " threads");
    jit::JitOptions options;
    options.numThreads = threads;
    jit::Jit other(device, options, jit::DiskCache(dir));
    for (const Case &c : reduceScanCases())
      if (c.name == "reduce32x64_a0k" || c.name == "reduce32x64_a1" || c.name == "reduce4x8x16_a1" ||
          c.name == "reduce_ties_small" || c.name == "scan32x64_a0" || c.name == "scan8x16x32_a1" ||
          c.name == "scan1d_1024")
        runCase(c, device, other);
  }
}

TEST_CASE("gpu: pipelined loops match the interpreter for every trip count, edge and view",
          "[gpu][codegen][pipeline]") {
  TILE_REQUIRE_GPU(device);
  char dir[] = "/tmp/tile-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  // 0: stages from the hints (3 here); 1: synchronous loads, the reference path; 2 and 4.
  for (const char *arch : kTargets)
    for (int64_t stages : {0, 1, 2, 4}) {
      INFO("arch " << (*arch ? arch : "of the device") << ", " << stages << " pipeline stages");
      jit::JitOptions options;
      options.pipelineStages = stages;
      jit::Jit jit = jitFor(device, arch, options, dir);
      for (const Case &c : pipelineCases())
        runCase(c, device, jit);
    }
}

// Products whose computed B operand tile-swap-mma-operands moves into wgmma's register A slot
// (D^T = B^T.A^T, the accumulator carried transposed through the loop): a dequantized operand
// (rows scaled), a decayed accumulator starting from a loaded state (transposed before the
// loop), f16, ragged edges in M, N and K.
std::vector<Case> swappedProductCases() {
  using D = interp::DType;
  std::vector<Case> out;
  out.push_back({"swap_scaled_b",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(a, b, s, c, k_tiles: int):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((64, 128), dtype=ct.float32)
    for kk in range(k_tiles):
        at = ct.load(a, (i, kk), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        bt = ct.load(b, (kk, j), (64, 128), padding_mode=ct.PaddingMode.ZERO)
        sc = ct.load(s, (kk,), (64,), padding_mode=ct.PaddingMode.ZERO)
        bw = (bt.astype(ct.float32) * sc[:, None]).astype(ct.bfloat16)
        acc = ct.mma(at, bw, acc)
    ct.store(c, (i, j), acc)
)py",
                 "k",
                 {},
                 {{"a", D::BFloat16, {100, 150}},
                  {"b", D::BFloat16, {150, 200}},
                  {"s", D::Float32, {150}},
                  {"c", D::Float32, {100, 200}, false, true}},
                 {{"k_tiles", D::Int32, 3}},
                 {"a", "b", "s", "c", "k_tiles"},
                 rt::Grid(2, 2),
                 1e-4,
                 1e-4});
  out.push_back({"swap_decayed_state_f16",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, b, g, init, out, n: int):
    j = ct.bid(0)
    S = ct.load(init, (0, j), (64, 64), padding_mode=ct.PaddingMode.ZERO)
    for c in range(n):
        xc = ct.load(x, (c, 0), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        bc = ct.load(b, (c, j), (64, 64), padding_mode=ct.PaddingMode.ZERO)
        gc = ct.load(g, (c,), (64,), padding_mode=ct.PaddingMode.ZERO)
        w = (bc.astype(ct.float32) * ct.exp(gc)[:, None]).astype(ct.float16)
        S = ct.mma(ct.transpose(xc), w, S * 0.5)
    ct.store(out, (0, j), S)
)py",
                 "k",
                 {},
                 {{"x", D::Float16, {250, 64}},
                  {"b", D::Float16, {250, 100}},
                  {"g", D::Float32, {250}},
                  {"init", D::Float32, {64, 100}},
                  {"out", D::Float32, {64, 100}, false, true}},
                 {{"n", D::Int32, 4}},
                 {"x", "b", "g", "init", "out", "n"},
                 rt::Grid(2),
                 1e-3,
                 1e-3});
  // int8 weights dequantized (a scale per output column) in both layouts, stored K x N and
  // N x K (nn.Linear): not swapped, the converted operand goes through shared memory (register
  // fragments read from these stages gave wrong results: OperandSources.h). 128 x 128 tiles,
  // ragged in M, N and K.
  const char *dequantized = R"py(
@ct.kernel
def kn(x, w, s, y, k_tiles: int):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((128, 128), dtype=ct.float32)
    sc = ct.load(s, (j,), (128,), padding_mode=ct.PaddingMode.ZERO)
    for kk in range(k_tiles):
        a = ct.load(x, (i, kk), (128, 64), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(w, (kk, j), (64, 128), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, (b.astype(ct.float32) * sc[None, :]).astype(ct.bfloat16), acc)
    ct.store(y, (i, j), acc)


@ct.kernel
def nk(x, w, s, y, k_tiles: int):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((128, 128), dtype=ct.float32)
    sc = ct.load(s, (j,), (128,), padding_mode=ct.PaddingMode.ZERO)
    for kk in range(k_tiles):
        a = ct.load(x, (i, kk), (128, 64), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(w, (j, kk), (128, 64), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, ct.transpose((b.astype(ct.float32) * sc[:, None]).astype(ct.bfloat16)), acc)
    ct.store(y, (i, j), acc)


@ct.kernel
def decode(x, w, s, y, k_tiles: int):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((16, 64), dtype=ct.float32)
    sc = ct.load(s, (j,), (64,), padding_mode=ct.PaddingMode.ZERO)
    for kk in range(k_tiles):
        a = ct.load(x, (i, kk), (16, 128), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(w, (kk, j), (128, 64), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, (b.astype(ct.float32) * sc[None, :]).astype(ct.bfloat16), acc)
    ct.store(y, (i, j), acc)
)py";
  // K x N weights with 16-byte rows (TMA copies), N x K ones with 250-byte rows (cp.async).
  for (bool linear : {false, true}) {
    const int64_t k = linear ? 160 : 150, n = linear ? 250 : 256;
    out.push_back({linear ? "swap_int8_weights_nk" : "swap_int8_weights_kn",
                   std::string(kHeader) + dequantized,
                   linear ? "nk" : "kn",
                   {},
                   {{"x", D::BFloat16, {200, k}},
                    {"w", D::Int8, linear ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}},
                    {"s", D::Float32, {n}},
                    {"y", D::Float32, {200, n}, false, true}},
                   {{"k_tiles", D::Int32, 3}},
                   {"x", "w", "s", "y", "k_tiles"},
                   rt::Grid(2, 2),
                   // w * s rounds to bf16 (2^-8 relative) on both sides alike; sums of 150
                   // products of |x| < 2 and |w s| < 100 in different orders.
                   1e-3,
                   1e-2});
  }
  // Decode with int8 weights: 16 rows on mma.sync; ragged in M (13 rows), N and K.
  out.push_back({"swap_int8_weights_decode",
                 std::string(kHeader) + dequantized,
                 "decode",
                 {},
                 {{"x", D::BFloat16, {13, 300}},
                  {"w", D::Int8, {300, 200}},
                  {"s", D::Float32, {200}},
                  {"y", D::Float32, {13, 200}, false, true}},
                 {{"k_tiles", D::Int32, 3}},
                 {"x", "w", "s", "y", "k_tiles"},
                 rt::Grid(1, 4),
                 1e-3,
                 1e-2});
  // Decode with bf16 weights scaled per row: 16 rows, too few for wgmma, swapped onto
  // wgmma m64n16 with N as its M; ragged in M (13 rows), N and K.
  out.push_back({"swap_decode_onto_wgmma",
                 std::string(kHeader) + R"py(
@ct.kernel
def k(x, w, s, y, k_tiles: int):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((16, 64), dtype=ct.float32)
    for kk in range(k_tiles):
        a = ct.load(x, (i, kk), (16, 128), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(w, (kk, j), (128, 64), padding_mode=ct.PaddingMode.ZERO)
        sc = ct.load(s, (kk,), (128,), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, (b.astype(ct.float32) * sc[:, None]).astype(ct.bfloat16), acc)
    ct.store(y, (i, j), acc)
)py",
                 "k",
                 {},
                 {{"x", D::BFloat16, {13, 300}},
                  {"w", D::BFloat16, {300, 200}},
                  {"s", D::Float32, {300}},
                  {"y", D::Float32, {13, 200}, false, true}},
                 {{"k_tiles", D::Int32, 3}},
                 {"x", "w", "s", "y", "k_tiles"},
                 rt::Grid(1, 4),
                 1e-4,
                 1e-4});
  return out;
}

TEST_CASE("gpu: products with swapped operands match the interpreter", "[gpu][codegen][wgmma]") {
  TILE_REQUIRE_GPU(device);
  runOnEveryTarget(swappedProductCases(), device);
}

TEST_CASE("gpu: stores written by TMA match the interpreter", "[gpu][codegen][tma]") {
  TILE_REQUIRE_GPU(device);
  runOnEveryTarget(tmaStoreCases(), device);
}

// kernels/examples/attention.py as users run it: the source tree's copy (TILE_SOURCE_DIR), or
// the one under the working directory where the tests run from a copy of the tree.
static std::string exampleSource(const std::string &name) {
  for (std::string root : {std::string(TILE_SOURCE_DIR) + "/", std::string()}) {
    std::ifstream in(root + "kernels/examples/" + name);
    if (in) {
      std::ostringstream text;
      text << in.rdbuf();
      return text.str();
    }
  }
  FAIL("cannot read kernels/examples/" << name);
  return "";
}

// Online softmax with the statistics in the accumulator's rows and P as a register A operand:
// causal and not, ragged sequences (EVEN_K = False), grouped-query heads, D 64 and 128, bf16
// and fp16, 128 and 256 threads (a 128 x 128 key block). B x H x S x D, K and V with H / G heads.
// Each shape twice: as written and with @ct.kernel(warp_specialize=True) (on sm_90a a producer
// warpgroup issues the loop's TMA copies).
static std::vector<Case> attentionCases() {
  using D = interp::DType;
  struct Shape {
    const char *name;
    int64_t d, tileN;
    bool causal, even;
    int64_t groups, s;
    D dtype;
  };
  const Shape shapes[] = {{"attention_d64", 64, 64, false, true, 1, 256, D::BFloat16},
                          {"attention_causal_gqa_ragged", 64, 64, true, false, 2, 200, D::BFloat16},
                          {"attention_d128_causal_f16", 128, 64, true, false, 1, 136, D::Float16},
                          {"attention_n128_ragged", 64, 128, false, false, 1, 300, D::BFloat16}};
  std::string source = exampleSource("attention.py");
  std::string specializedSource = source;
  size_t decorator = specializedSource.find("@ct.kernel\n");
  REQUIRE(decorator != std::string::npos);
  specializedSource.replace(decorator, std::strlen("@ct.kernel\n"), "@ct.kernel(warp_specialize=True)\n");
  std::vector<Case> out;
  for (const Shape &sh : shapes)
    for (bool specialized : {false, true}) {
      int64_t b = 2, h = 2, kvh = h / sh.groups;
      out.push_back({std::string(sh.name) + (specialized ? "_warp_specialized" : ""),
                     specialized ? specializedSource : source,
                     "attention",
                     {{"TILE_D", sh.d},
                      {"H", h},
                      {"TILE_M", int64_t(128)},
                      {"TILE_N", sh.tileN},
                      {"QUERY_GROUP_SIZE", sh.groups},
                      {"CAUSAL", sh.causal},
                      {"EVEN_K", sh.even}},
                     {{"Q", sh.dtype, {b, h, sh.s, sh.d}},
                      {"K", sh.dtype, {b, kvh, sh.s, sh.d}},
                      {"V", sh.dtype, {b, kvh, sh.s, sh.d}},
                      {"Out", sh.dtype, {b, h, sh.s, sh.d}, false, true}},
                     {{"qk_scale", D::Float32, 1.0 / std::sqrt(double(sh.d))}},
                     {"Q", "K", "V", "Out", "qk_scale"},
                     rt::Grid((sh.s + 127) / 128, b * h),
                     2e-2,
                     1e-2});
    }
  return out;
}

TEST_CASE("gpu: attention with its statistics in accumulator rows matches the interpreter",
          "[gpu][codegen][attention]") {
  TILE_REQUIRE_GPU(device);
  runOnEveryTarget(attentionCases(), device);
}
