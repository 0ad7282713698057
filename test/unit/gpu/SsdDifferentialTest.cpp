// [gpu] ssd_forward on both backends from the same bytes: the generated code on the GPU against
// the interpreter running the very same plan, output by output (dt_out and dA_cumsum from
// chunk_cumsum, states and final_states from fwd_pass_state, y from compute_out), so a
// disagreement names the kernel whose code generation is wrong. The interpreter itself is
// checked against the float64 references in CI (test/unit/mamba2/SsdInterpretedTest.cpp).
#include "compiler/interpreter/DType.h"
#include "kernels/mamba2/ErrorMetrics.h"
#include "kernels/mamba2/SsdForward.h"
#include "test/unit/mamba2/SsdConfigs.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <random>

using namespace tile;
using namespace tile::mamba2;

namespace {

// One input, as bytes in its dtype, uploaded to both backends.
struct Both {
  jit::Buffer gpuBuffer, cpuBuffer;
  rt::ArrayArg gpu, cpu;

  Both(jit::Backend &gpuBackend, jit::Backend &cpuBackend, Shape shape, rt::DType dtype, std::mt19937 &rng, double lo,
       double hi) {
    const unsigned size = interp::dtypeSize(dtype);
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<unsigned char> bytes(size_t(numElements(shape)) * size);
    for (size_t i = 0; i < bytes.size() / size; ++i)
      interp::writeFloat(bytes.data() + i * size, dtype, dist(rng));
    gpuBuffer = gpuBackend.upload(bytes);
    cpuBuffer = cpuBackend.upload(bytes);
    gpu = gpuBuffer.array(dtype, shape);
    cpu = cpuBuffer.array(dtype, shape);
  }
};

struct Config {
  std::string name;
  int64_t b, T, H, P, G, N;
  int chunk;
  rt::DType dtype;
  MatmulPrecision precision = MatmulPrecision::Native;
};

void runConfig(jit::Backend &gpuBackend, jit::Backend &cpuBackend, const Config &c) {
  INFO("config " << c.name);
  std::mt19937 rng(21);
  const rt::DType f32 = rt::DType::Float32;
  auto both = [&](Shape shape, rt::DType dtype, double lo, double hi) {
    return Both(gpuBackend, cpuBackend, std::move(shape), dtype, rng, lo, hi);
  };
  Both x = both({c.b, c.T, c.H, c.P}, c.dtype, -1, 1), dt = both({c.b, c.T, c.H}, f32, -4, 0),
       A = both({c.H}, f32, -2, -0.5), B = both({c.b, c.T, c.G, c.N}, c.dtype, -1, 1),
       C = both({c.b, c.T, c.G, c.N}, c.dtype, -1, 1), D = both({c.H}, f32, 0, 1),
       z = both({c.b, c.T, c.H, c.P}, c.dtype, -2, 2), bias = both({c.H}, f32, -0.5, 0.5),
       init = both({c.b, c.H, c.P, c.N}, f32, -1, 1);
  SsdArrayInputs gin{x.gpu, dt.gpu, A.gpu, B.gpu, C.gpu, D.gpu, z.gpu, bias.gpu, init.gpu};
  SsdArrayInputs cin{x.cpu, dt.cpu, A.cpu, B.cpu, C.cpu, D.cpu, z.cpu, bias.cpu, init.cpu};
  ForwardOptions options;
  options.chunkSize = c.chunk;
  options.dt.dtSoftplus = true;
  options.precision = c.precision;

  SsdOutputs gpu = ssdForward(gpuBackend, gin, options);
  SsdOutputs cpu = ssdForward(cpuBackend, cin, options);
  // The GPU's exp/log are the PTX approximations and its sums may run in another order, so
  // fp32 outputs agree to a few 1e-6; y in a 16-bit dtype may differ by one rounding. 16-bit
  // data takes tf32 Tensor Core products, whose sums the hardware adds in its own order and
  // rounding: over K = 256 the states differ by ~1e-4 of their RMS (measured: 1.4e-4, 3.6e-4).
  // bf16 products round the decay-weighted B to 8 bits after the approximate exp: a factor the
  // two backends compute a hair apart can round to neighbouring bf16 values (2^-8 apart), so
  // bf16 states get a bound 5x wider.
  struct Out {
    const char *name;
    const SsdOutput &gpu, &cpu;
    double tol;
  };
  const bool half = c.dtype != f32;
  const double halfStateTol = c.dtype == rt::DType::BFloat16 && c.precision == MatmulPrecision::Native ? 1e-2 : 2e-3;
  const Out outs[] = {{"dt_out", gpu.dtOut, cpu.dtOut, 1e-5},
                      {"dA_cumsum", gpu.dACumsum, cpu.dACumsum, 1e-5},
                      {"states", gpu.states, cpu.states, half ? halfStateTol : 1e-4},
                      {"final_states", gpu.finalStates, cpu.finalStates, half ? halfStateTol : 1e-4},
                      {"y", gpu.y, cpu.y, half ? 2e-2 : 1e-4}};
  for (const Out &o : outs) {
    const Tensor g = o.gpu.values(), h = o.cpu.values();
    ErrorStats s = compare(g, h, 1e-4, 1e-3);
    std::printf("ssd gpu vs interpreter %-26s %-13s %s\n", c.name.c_str(), o.name, s.str(h.shape).c_str());
    INFO(o.name << ": " << s.str(h.shape));
    if (half && std::string(o.name) == "y") {
      // One rounding of the stored 16-bit y apart is one ulp of the element's own magnitude,
      // up to 2^-7 (bf16) or 2^-10 (fp16) of |y|: where |y| is several times its RMS that
      // passes tol * RMS (measured on the H200: 0.0312 = one bf16 ulp at |y| in [4, 8), RMS
      // 0.85). Every element must lie within tol * RMS plus one ulp.
      const double ulp = c.dtype == rt::DType::BFloat16 ? 0x1p-7 : 0x1p-10;
      ErrorStats r = compare(g, h, o.tol * s.refRms, ulp);
      INFO("y within tol * rms + one ulp: " << r.str(h.shape));
      CHECK(r.outside == 0);
    } else {
      CHECK(s.relToRms < o.tol);
    }
  }
}

} // namespace

TEST_CASE("gpu: ssd_forward's kernels agree with the interpreter output by output", "[gpu][mamba2]") {
  TILE_REQUIRE_GPU(device);
  char dir[] = "/tmp/tile-ssd-diff-cache-XXXXXX";
  REQUIRE(mkdtemp(dir));
  jit::BackendOptions options;
  options.choice = jit::BackendOptions::Choice::Gpu;
  options.diskCache = jit::DiskCache(dir);
  // Both backends run each kernel's first configuration: the tuner would pick the GPU's by
  // timing, and configurations round bf16 products differently (an XW state configuration
  // rounds the decay-weighted x, the first one the decay-weighted B), which is not a code
  // generation error. Every other configuration has its own comparison below.
  jit::TuneSettings tuning;
  tuning.force = jit::parseForceRules("0");
  options.tuning = tuning;
  jit::Backend gpu(options);
  options.choice = jit::BackendOptions::Choice::Interpreter;
  jit::Backend cpu(options);
  const rt::DType bf16 = rt::DType::BFloat16, f32 = rt::DType::Float32;
  for (const Config &c :
       {Config{"chunk64 groups2 bf16", 1, 150, 4, 32, 2, 32, 64, bf16},
        Config{"chunk128 fp32", 2, 200, 2, 64, 1, 64, 128, f32},
        Config{"chunk256 fp32", 1, 300, 2, 64, 1, 64, 256, f32},
        Config{"chunk256 bf16 P128 N128", 1, 300, 2, 128, 1, 128, 256, bf16},
        Config{"chunk128 bf16 tf32 products", 1, 300, 2, 64, 1, 64, 128, bf16, MatmulPrecision::TF32}})
    runConfig(gpu, cpu, c);
}

TEST_CASE("gpu: every autotune configuration agrees with the interpreter output by output", "[gpu][mamba2]") {
  // The runs of test::configRuns (SsdConfigs.h), pinned on both backends as TILE_AUTOTUNE_FORCE
  // would, bf16 at chunk 256 and fp32 at chunk 128 in turn: each configuration is its own
  // generated code, and a disagreement names the kernel.
  TILE_REQUIRE_GPU(device);
  char dir[] = "/tmp/tile-ssd-diff-configs-XXXXXX";
  REQUIRE(mkdtemp(dir));
  const auto runs = test::configRuns();
  for (size_t r = 0; r < runs.size(); ++r) {
    jit::BackendOptions options;
    options.choice = jit::BackendOptions::Choice::Gpu;
    options.diskCache = jit::DiskCache(dir);
    jit::TuneSettings tuning;
    tuning.force = jit::parseForceRules(runs[r]);
    options.tuning = tuning;
    jit::Backend gpu(options);
    options.choice = jit::BackendOptions::Choice::Interpreter;
    jit::Backend cpu(options);
    Config c = r % 2 ? Config{"", 1, 260, 16, 64, 2, 128, 256, rt::DType::BFloat16}
                     : Config{"", 1, 130, 16, 64, 1, 128, 128, rt::DType::Float32};
    c.name = std::string(r % 2 ? "bf16 " : "fp32 ") + runs[r];
    runConfig(gpu, cpu, c);
  }
}
