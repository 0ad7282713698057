// [gpu] ssd_forward's two executors on the same bytes: the generated code on the GPU against the
// interpreter running the very same plan, output by output (dt_out and dA_cumsum from
// chunk_cumsum, states and final_states from fwd_pass_state, y from compute_out), so a
// disagreement names the kernel whose code generation is wrong. The interpreter itself is
// checked against the float64 references in CI (test/unit/mamba2/SsdInterpretedTest.cpp).
#include "compiler/interpreter/DType.h"
#include "kernels/mamba2/ErrorMetrics.h"
#include "kernels/mamba2/SsdForward.h"
#include "kernels/mamba2/SsdInterpreted.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <random>

using namespace tile;
using namespace tile::mamba2;

namespace {

// One input, as bytes in its dtype: uploaded for the GPU, read in place by the interpreter.
struct Both {
  std::vector<unsigned char> bytes;
  interp::HostArray host;
  rt::DeviceBuffer buffer;
  rt::ArrayArg device;

  Both(const rt::Device &dev, Shape shape, rt::DType dtype, std::mt19937 &rng, double lo, double hi) {
    const auto idt = static_cast<interp::DType>(dtype);
    const unsigned size = interp::dtypeSize(idt);
    std::uniform_real_distribution<double> dist(lo, hi);
    bytes.resize(size_t(numElements(shape)) * size);
    for (size_t i = 0; i < bytes.size() / size; ++i) interp::writeFloat(bytes.data() + i * size, idt, dist(rng));
    host = interp::HostArray::contiguous(bytes.data(), idt, shape);
    buffer = rt::DeviceBuffer(dev, std::max<size_t>(bytes.size(), 1));
    buffer.copyFromHost(bytes.data(), bytes.size());
    device = buffer.array(dtype, shape);
  }
};

Tensor download(const rt::DeviceBuffer &buffer, const rt::ArrayArg &view) {
  const auto idt = static_cast<interp::DType>(view.dtype);
  const unsigned size = interp::dtypeSize(idt);
  Tensor t(view.shape);
  std::vector<unsigned char> bytes(t.data.size() * size);
  buffer.copyToHost(bytes.data(), bytes.size());
  for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = interp::readFloat(bytes.data() + i * size, idt);
  return t;
}

struct Config {
  const char *name;
  int64_t b, T, H, P, G, N;
  int chunk;
  rt::DType dtype;
};

void runConfig(jit::Jit &jit, const Config &c) {
  INFO("config " << c.name);
  const rt::Device &dev = jit.device();
  std::mt19937 rng(21);
  const rt::DType f32 = rt::DType::Float32;
  Both x(dev, {c.b, c.T, c.H, c.P}, c.dtype, rng, -1, 1), dt(dev, {c.b, c.T, c.H}, f32, rng, -4, 0),
      A(dev, {c.H}, f32, rng, -2, -0.5), B(dev, {c.b, c.T, c.G, c.N}, c.dtype, rng, -1, 1),
      C(dev, {c.b, c.T, c.G, c.N}, c.dtype, rng, -1, 1), D(dev, {c.H}, f32, rng, 0, 1),
      z(dev, {c.b, c.T, c.H, c.P}, c.dtype, rng, -2, 2), bias(dev, {c.H}, f32, rng, -0.5, 0.5),
      init(dev, {c.b, c.H, c.P, c.N}, f32, rng, -1, 1);
  SsdDeviceInputs din{x.device, dt.device, A.device, B.device, C.device, D.device, z.device, bias.device, init.device};
  SsdHostInputs hin{x.host, dt.host, A.host, B.host, C.host, D.host, z.host, bias.host, init.host};
  ForwardOptions options;
  options.chunkSize = c.chunk;
  options.dt.dtSoftplus = true;

  SsdOutputs gpu = ssdForward(jit, din, options);
  SsdHostOutputs cpu = ssdForwardInterpreted(hin, options);
  // The GPU's exp/log are the PTX approximations and its sums may run in another order, so
  // fp32 outputs agree to a few 1e-6; y in a 16-bit dtype may differ by one rounding.
  struct Out {
    const char *name;
    Tensor gpu;
    const Tensor &cpu;
    double tol;
  };
  const bool half = c.dtype != f32;
  Out outs[] = {{"dt_out", download(gpu.dtOut, gpu.dtOutView), cpu.dtOut, 1e-5},
                {"dA_cumsum", download(gpu.dACumsum, gpu.dACumsumView), cpu.dACumsum, 1e-5},
                {"states", download(gpu.states, gpu.statesView), cpu.states, 1e-4},
                {"final_states", download(gpu.finalStates, gpu.finalStatesView), cpu.finalStates, 1e-4},
                {"y", download(gpu.y, gpu.yView), cpu.y, half ? 2e-2 : 1e-4}};
  for (const Out &o : outs) {
    ErrorStats s = compare(o.gpu, o.cpu, 1e-4, 1e-3);
    std::printf("ssd gpu vs interpreter %-26s %-13s %s\n", c.name, o.name, s.str(o.cpu.shape).c_str());
    INFO(o.name << ": " << s.str(o.cpu.shape));
    CHECK(s.relToRms < o.tol);
  }
}

}  // namespace

TEST_CASE("gpu: ssd_forward's kernels agree with the interpreter output by output", "[gpu][mamba2]") {
  TILE_REQUIRE_GPU(device);
  char dir[] = "/tmp/tile-ssd-diff-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  jit::Jit jit(device, {}, jit::DiskCache(dir));
  const rt::DType bf16 = rt::DType::BFloat16, f32 = rt::DType::Float32;
  for (const Config &c : {Config{"chunk64 groups2 bf16", 1, 150, 4, 32, 2, 32, 64, bf16},
                          Config{"chunk128 fp32", 2, 200, 2, 64, 1, 64, 128, f32},
                          Config{"chunk256 fp32", 1, 300, 2, 64, 1, 64, 256, f32},
                          Config{"chunk256 bf16 P128 N128", 1, 300, 2, 128, 1, 128, 256, bf16}})
    runConfig(jit, c);
}
