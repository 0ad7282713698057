// tile-bench ssd --decode: times the Mamba-2 decode step (kernels/mamba2/SsdDecode.h) on the
// 2.7B model's layer (H = 80, P = 64, N = 128, G = 1) at batch 1, 16 and 256, and prints per
// batch the median time of a step, the bandwidth on its compulsory traffic (the state read and
// written once, x, z, y, B, C, dt) and its share of the H200's 4.8 TB/s.
//
//   tile-bench ssd --decode [--batch 1,16,256] [--state-dtype float32|bfloat16] [--iters 20]
//                           [--warmup 3] [--repeats 100] [--json out.json]
//
// Inputs as mamba_ssm's Mamba-2 step passes them: bf16 x, z, B, C and y; fp32 dt (b, H), A, D,
// dt_bias; dt_softplus. The state is updated in place, as in serving. The first call tunes the
// block size (the new state written to scratch memory) and the calls after it launch from an
// SsdDecodeCache; each timed call enqueues --repeats steps back to back between two CUDA events
// (a serving loop's launch gaps do not count), and the figure is the median over --iters of the
// time per step.
#include "tools/tile-bench/Decode.h"

#include "tools/tile-bench/Common.h"

#include "kernels/mamba2/SsdDecode.h"
#include "tools/common/Numbers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>

namespace tile::bench {
namespace {

using json = nlohmann::json;

// The H200's DRAM bandwidth, the floor of a step that moves its state once each way.
constexpr double kTBs = 4.8;

int fail(const std::string &message) {
  std::fprintf(stderr, "tile-bench: error: %s\n", message.c_str());
  return 2;
}

} // namespace

int runSsdDecode(int argc, char **argv) {
  std::vector<std::int64_t> batches = {1, 16, 256};
  rt::DType stateDType = rt::DType::Float32;
  int iters = 20, warmup = 3, repeats = 100;
  std::string jsonOut, error;
  std::set<std::string> given; // each option once: a repeat would silently replace the first
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--decode")
      continue;
    if (!given.insert(a).second)
      return fail(a + " is given twice; give it once");
    if (a.rfind("--", 0) != 0)
      return fail("unexpected argument " + a);
    if (i + 1 >= argc)
      return fail(a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--batch") {
      auto list = tools::parseIntList(v, ',', 1, 16, 1, 65535, "--batch", error);
      if (!list)
        return fail(error);
      batches = *list;
    } else if (a == "--state-dtype") {
      if (v == "float32")
        stateDType = rt::DType::Float32;
      else if (v == "bfloat16")
        stateDType = rt::DType::BFloat16;
      else
        return fail("--state-dtype must be float32 or bfloat16, got '" + v + "'");
    } else if (a == "--iters" || a == "--warmup" || a == "--repeats") {
      auto n = tools::parseInt(v, a == "--warmup" ? 0 : 1, a == "--repeats" ? 10000 : 1000000, a, error);
      if (!n)
        return fail(error);
      (a == "--iters" ? iters : a == "--warmup" ? warmup : repeats) = static_cast<int>(*n);
    } else if (a == "--json") {
      jsonOut = v;
    } else {
      return fail("unknown option " + a +
                  " (with --decode: --batch, --state-dtype, --iters, --warmup, --repeats, "
                  "--json)");
    }
  }
  if (!haveGpu())
    return 77;
  jit::BackendOptions backendOptions;
  backendOptions.choice = jit::BackendOptions::Choice::Gpu; // timing the interpreter means nothing here
  jit::Backend backend(backendOptions);
  const std::int64_t H = 80, P = 64, G = 1, N = 128;
  std::printf("tile-bench ssd --decode on %s: 2.7B layer (H, P, G, N) = (%lld, %lld, %lld, %lld), %s state, median of "
              "%d after %d warm-up calls, each call %d steps back to back\n",
              backend.description().c_str(), (long long)H, (long long)P, (long long)G, (long long)N,
              rt::dtypeName(stateDType), iters, warmup, repeats);
  std::printf("%6s %10s %9s %8s %7s  %s\n", "batch", "us/step", "MB/step", "GB/s", "%4.8TB", "configuration");
  json results = json::array();
  int failed = 0;
  const rt::DType bf16 = rt::DType::BFloat16, f32 = rt::DType::Float32;
  for (std::int64_t b : batches) {
    try {
      std::mt19937 rng(42);
      jit::Buffer state = randomBuffer(backend, b * H * P * N, stateDType, rng, -1, 1);
      jit::Buffer x = randomBuffer(backend, b * H * P, bf16, rng, -1, 1);
      jit::Buffer z = randomBuffer(backend, b * H * P, bf16, rng, -1, 1);
      jit::Buffer B = randomBuffer(backend, b * G * N, bf16, rng, -1, 1);
      jit::Buffer C = randomBuffer(backend, b * G * N, bf16, rng, -1, 1);
      jit::Buffer dt = randomBuffer(backend, b * H, f32, rng, -4, 0);
      jit::Buffer A = randomBuffer(backend, H, f32, rng, -2, -0.5f);
      jit::Buffer D = randomBuffer(backend, H, f32, rng, 0, 1);
      jit::Buffer bias = randomBuffer(backend, H, f32, rng, -1, 1);
      jit::Buffer y = backend.allocate(static_cast<std::size_t>(b * H * P) * 2);
      mamba2::SsdDecodeArrayInputs in{x.array(bf16, {b, H, P}), dt.array(f32, {b, H}),    A.array(f32, {H}),
                                      B.array(bf16, {b, G, N}), C.array(bf16, {b, G, N}), D.array(f32, {H}),
                                      z.array(bf16, {b, H, P}), bias.array(f32, {H})};
      const rt::ArrayArg stateArray = state.array(stateDType, {b, H, P, N}), yArray = y.array(bf16, {b, H, P});
      mamba2::DecodeOptions options;
      options.dt.dtSoftplus = true;
      mamba2::SsdDecodeCache cache;
      const mamba2::SsdKernelChoice choice =
          mamba2::ssdDecodeStep(backend, in, stateArray, yArray, options, nullptr, true, &cache);
      auto steps = [&](int count) {
        for (int r = 0; r < count; ++r)
          mamba2::ssdDecodeStep(backend, in, stateArray, yArray, options, nullptr, /*wait=*/false, &cache);
      };
      steps(warmup * repeats);
      backend.synchronize();
      std::vector<double> ms;
      for (int i = 0; i < iters; ++i) {
        jit::TimePoint t0 = backend.now();
        steps(repeats);
        jit::TimePoint t1 = backend.now();
        ms.push_back(jit::TimePoint::elapsedMs(t0, t1) / repeats);
      }
      std::sort(ms.begin(), ms.end());
      const double median = ms[ms.size() / 2];
      const double bytes =
          2.0 * b * H * P * N * rt::dtypeSize(stateDType) + 3.0 * b * H * P * 2 + 2.0 * b * G * N * 2 + b * H * 4.0;
      const double gbs = bytes / 1e9 / (median * 1e-3);
      std::printf("%6lld %10.2f %9.2f %8.0f %6.1f%%  %s\n", (long long)b, median * 1e3, bytes / 1e6, gbs,
                  100.0 * gbs / (kTBs * 1e3), choice.str().c_str());
      results.push_back({{"batch", b},
                         {"state_dtype", rt::dtypeName(stateDType)},
                         {"us_per_step", median * 1e3},
                         {"bytes", bytes},
                         {"GBs", gbs},
                         {"config", choice.config},
                         {"label", choice.label},
                         {"source", jit::tuneSourceName(choice.source)},
                         {"config0_ms", choice.config0Ms},
                         {"tuned_ms", choice.ms}});
    } catch (const rt::Error &e) {
      std::printf("%6lld failed: %s\n", (long long)b, e.what());
      results.push_back({{"batch", b}, {"error", e.what()}});
      ++failed;
    }
  }
  if (!writeJson(jsonOut, results))
    return 3;
  return failed ? 1 : 0;
}

} // namespace tile::bench
