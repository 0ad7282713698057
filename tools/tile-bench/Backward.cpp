// tile-bench ssd --backward: times the Mamba-2 backward pass on the benchmark shapes and prints
// per shape the median wall-clock time of one ssdBackward call (it recomputes the forward pass,
// runs the backward kernels and waits for them), beside the forward pass alone on the same
// inputs.
//
//   tile-bench ssd --backward [--shape NAME] [--chunk-size N] [--iters 5] [--warmup 1] [--json out.json]
//
// Inputs as the forward benchmark's: bf16 x, B, C; fp32 dt, A (negative), D, dt_bias;
// dt_softplus; dy in bf16 and d final_states in fp32, random. Compiling happens in the warm-up
// calls.
#include "tools/tile-bench/Backward.h"

#include "tools/tile-bench/Common.h"

#include "kernels/mamba2/SsdBackward.h"
#include "tools/common/Numbers.h"

#include <chrono>
#include <cstdio>

namespace tile::bench {

int runSsdBackward(int argc, char **argv) {
  std::string onlyShape, jsonOut, error;
  int iters = 5, warmup = 1, chunk = 0;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--backward")
      continue;
    auto fail = [&](const std::string &message) {
      std::fprintf(stderr, "tile-bench: error: %s\n", message.c_str());
      return 2;
    };
    if (i + 1 >= argc)
      return fail(a + " needs a value (with --backward: --shape, --chunk-size, --iters, --warmup, --json)");
    const std::string v = argv[++i];
    if (a == "--shape") {
      onlyShape = v;
    } else if (a == "--json") {
      jsonOut = v;
    } else if (a == "--iters" || a == "--warmup" || a == "--chunk-size") {
      auto n = tools::parseInt(v, a == "--iters" ? 1 : 0, a == "--chunk-size" ? 256 : 1000, a, error);
      if (!n)
        return fail(error);
      (a == "--iters" ? iters : a == "--warmup" ? warmup : chunk) = static_cast<int>(*n);
    } else {
      return fail("unknown option " + a + " (with --backward: --shape, --chunk-size, --iters, --warmup, --json)");
    }
  }
  std::vector<Shape> shapes;
  for (const Shape &s : defaultShapes())
    if (onlyShape.empty() || s.name == onlyShape)
      shapes.push_back(s);
  if (shapes.empty()) {
    std::fprintf(stderr, "tile-bench: error: --shape: no shape '%s'\n", onlyShape.c_str());
    return 2;
  }
  if (!haveGpu())
    return 77;
  jit::BackendOptions backendOptions;
  backendOptions.choice = jit::BackendOptions::Choice::Gpu;
  jit::Backend backend(backendOptions);
  std::printf("tile-bench ssd --backward on %s, median of %d after %d warm-up calls\n", backend.description().c_str(),
              iters, warmup);
  std::printf("%-24s %5s %12s %12s\n", "shape", "chunk", "forward ms", "backward ms");
  nlohmann::json results = nlohmann::json::array();
  for (const Shape &s : shapes) {
    std::mt19937 rng(42);
    const std::int64_t b = s.batch, T = s.seqlen, H = s.nheads, P = s.headdim, G = s.ngroups, N = s.dstate;
    const rt::DType bf16 = rt::DType::BFloat16, f32 = rt::DType::Float32;
    jit::Buffer x = randomBuffer(backend, b * T * H * P, bf16, rng, -1, 1);
    jit::Buffer B = randomBuffer(backend, b * T * G * N, bf16, rng, -1, 1);
    jit::Buffer C = randomBuffer(backend, b * T * G * N, bf16, rng, -1, 1);
    jit::Buffer dt = randomBuffer(backend, b * T * H, f32, rng, -4, 0);
    jit::Buffer A = randomBuffer(backend, H, f32, rng, -2, -0.5f);
    jit::Buffer D = randomBuffer(backend, H, f32, rng, 0, 1);
    jit::Buffer bias = randomBuffer(backend, H, f32, rng, -1, 1);
    jit::Buffer dy = randomBuffer(backend, b * T * H * P, bf16, rng, -1, 1);
    jit::Buffer dFinal = randomBuffer(backend, b * H * P * N, f32, rng, -1, 1);
    mamba2::SsdArrayInputs in{x.array(bf16, {b, T, H, P}), dt.array(f32, {b, T, H}), A.array(f32, {H}),
                              B.array(bf16, {b, T, G, N}), C.array(bf16, {b, T, G, N})};
    in.D = D.array(f32, {H});
    in.dtBias = bias.array(f32, {H});
    mamba2::ForwardOptions options;
    options.chunkSize = chunk;
    options.dt.dtSoftplus = true;
    auto time = [&](auto &&call) {
      for (int i = 0; i < warmup; ++i)
        call();
      std::vector<double> ms;
      for (int i = 0; i < iters; ++i) {
        const auto start = std::chrono::steady_clock::now();
        call();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      }
      return median(ms);
    };
    try {
      std::int64_t ranChunk = 0;
      const double forwardMs = time([&] { ranChunk = mamba2::ssdForward(backend, in, options).chunkSize; });
      const double backwardMs = time([&] {
        mamba2::ssdBackward(backend, in, dy.array(bf16, {b, T, H, P}), dFinal.array(f32, {b, H, P, N}), options);
      });
      std::printf("%-24s %5lld %12.3f %12.3f\n", s.name.c_str(), (long long)ranChunk, forwardMs, backwardMs);
      results.push_back(
          {{"shape", s.name}, {"chunk", ranChunk}, {"forward_ms", forwardMs}, {"backward_ms", backwardMs}});
    } catch (const std::exception &e) {
      std::printf("%-24s failed: %s\n", s.name.c_str(), e.what());
      results.push_back({{"shape", s.name}, {"error", e.what()}});
    }
  }
  return writeJson(jsonOut, results) ? 0 : 3;
}

} // namespace tile::bench
