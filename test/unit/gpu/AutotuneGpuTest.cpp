// [gpu] The autotuner on the device: ssd_forward's first call for a new key times every
// configuration with CUDA events and returns the winners' results (equal to configuration
// 0's within the products' rounding); a later "process" (a new backend on the same cache
// folder) reuses the decisions without timing and gets the same results.
#include "kernels/mamba2/SsdForward.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstring>
#include <random>

using namespace tile;
using namespace tile::mamba2;

namespace {

jit::Backend gpuBackend(const std::string &dir, jit::TuneMode mode) {
  jit::BackendOptions options;
  options.choice = jit::BackendOptions::Choice::Gpu;
  options.diskCache = jit::DiskCache(dir);
  jit::TuneSettings tuning;
  tuning.mode = mode;
  tuning.print = true;
  options.tuning = tuning;
  return jit::Backend(options);
}

struct Run {
  std::vector<float> y;
  std::array<SsdKernelChoice, 4> choices;
  double ms = 0;
};

// A bf16 problem large enough that every configuration of every kernel is a distinct candidate.
Run run(jit::Backend &backend) {
  const int64_t b = 2, T = 1000, H = 16, P = 64, G = 1, N = 64;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-1, 1);
  auto bf16Buffer = [&](int64_t n) {
    std::vector<uint16_t> v(static_cast<size_t>(n));
    for (auto &e : v) {
      float f = dist(rng);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      e = uint16_t(bits >> 16);
    }
    return backend.upload(v);
  };
  auto f32Buffer = [&](int64_t n, float lo, float hi) {
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(static_cast<size_t>(n));
    for (auto &e : v)
      e = d(rng);
    return backend.upload(v);
  };
  jit::Buffer x = bf16Buffer(b * T * H * P), B = bf16Buffer(b * T * G * N), C = bf16Buffer(b * T * G * N);
  jit::Buffer dt = f32Buffer(b * T * H, 0.001f, 0.1f), A = f32Buffer(H, -2, -0.5f);
  const rt::DType bf16 = rt::DType::BFloat16, f32 = rt::DType::Float32;
  SsdArrayInputs in{x.array(bf16, {b, T, H, P}),
                    dt.array(f32, {b, T, H}),
                    A.array(f32, {H}),
                    B.array(bf16, {b, T, G, N}),
                    C.array(bf16, {b, T, G, N}),
                    {},
                    {},
                    {},
                    {}};
  ForwardOptions options;
  options.chunkSize = 64;
  options.outputDType = f32;
  auto start = std::chrono::steady_clock::now();
  SsdOutputs out = ssdForward(backend, in, options);
  Run r;
  r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  r.y = out.y.buffer.toHost<float>();
  r.choices = out.choices;
  return r;
}

} // namespace

TEST_CASE("gpu: ssd_forward tunes on its first call and reuses the decisions later", "[gpu][mamba2][autotune]") {
  TILE_REQUIRE_GPU(device);
  char dir[] = "/tmp/tile-tune-gpu-XXXXXX";
  REQUIRE(mkdtemp(dir));
  Run tuned, again, first;
  {
    jit::Backend backend = gpuBackend(dir, jit::TuneMode::Tune);
    tuned = run(backend);
    CHECK(backend.tuner().stats().tunings == 4);
  }
  {
    // A later process: the decisions come from the tuning files.
    jit::Backend backend = gpuBackend(dir, jit::TuneMode::Tune);
    again = run(backend);
    CHECK(backend.tuner().stats().tunings == 0);
    CHECK(backend.tuner().stats().fileHits == 4);
  }
  {
    jit::Backend backend = gpuBackend(dir, jit::TuneMode::Off);
    first = run(backend);
  }
  for (size_t k = 0; k < 4; ++k) {
    INFO(tuned.choices[k].kernel);
    std::printf("autotune gpu: %-14s %s: %.4f ms vs config 0 %.4f ms (tuning %.0f ms)\n",
                tuned.choices[k].kernel.c_str(), tuned.choices[k].str().c_str(), tuned.choices[k].ms,
                tuned.choices[k].config0Ms, tuned.choices[k].tuneMs);
    CHECK(tuned.choices[k].source == jit::TuneSource::Tuned);
    CHECK(tuned.choices[k].ms > 0);
    CHECK(again.choices[k].source == jit::TuneSource::Cached);
    CHECK(again.choices[k].config == tuned.choices[k].config);
    CHECK(first.choices[k].config == 0u);
  }
  std::printf("autotune gpu: first call %.0f ms (compile + tune), later process %.1f ms, untuned %.1f ms\n", tuned.ms,
              again.ms, first.ms);
  // The winners' results: the same in both processes, and configuration 0's within the
  // rounding of bf16 products.
  REQUIRE(tuned.y.size() == first.y.size());
  CHECK(tuned.y == again.y);
  double worst = 0, sumSq = 0;
  for (size_t i = 0; i < first.y.size(); ++i) {
    worst = std::max(worst, double(std::abs(tuned.y[i] - first.y[i])));
    sumSq += double(first.y[i]) * first.y[i];
  }
  const double rms = std::sqrt(sumSq / double(first.y.size()));
  std::printf("autotune gpu: tuned vs config 0 y: max abs diff %.3g (rms %.3g)\n", worst, rms);
  CHECK(worst <= 5e-2 * rms);
}
