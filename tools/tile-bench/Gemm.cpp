// tile-bench gemm: the bf16 GEMM of kernels/examples/matmul.py (f32 accumulation; f32 and bf16
// output, the latter as the peers' figures are measured) at M = N = K = 4096 and 8192, over a
// few tile shapes and block sizes; prints the median time and TFLOP/s of each and checks
// sampled elements of c against a float64 dot product.
//
//   tile-bench gemm [--sizes 4096,8192] [--iters 10] [--warmup 2] [--json out.json]
#include "tools/tile-bench/Gemm.h"

#include "tools/tile-bench/Common.h"

#include "runtime/jit/Backend.h"
#include "tools/common/Numbers.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>

extern const unsigned char tile_examples_matmul_py[];
extern const std::size_t tile_examples_matmul_py_size;

namespace tile::bench {
namespace {

using json = nlohmann::json;

float fromBF16(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t toBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

struct Config {
  int64_t bm, bn, bk, threads;
};

} // namespace

int runGemm(int argc, char **argv) {
  std::vector<int64_t> sizes = {4096, 8192};
  int iters = 10, warmup = 2;
  std::string jsonOut, error;
  std::set<std::string> given; // each option once: a repeat would silently replace the first
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (!given.insert(a).second) {
      std::fprintf(stderr, "tile-bench: error: %s is given twice; give it once\n", a.c_str());
      return 2;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "tile-bench: error: %s needs a value\n", a.c_str());
      return 2;
    }
    std::string v = argv[++i];
    if (a == "--sizes") {
      auto list = tools::parseIntList(v, ',', 1, 16, 64, 32768, "--sizes", error);
      if (!list) {
        std::fprintf(stderr, "tile-bench: error: %s\n", error.c_str());
        return 2;
      }
      sizes = *list;
    } else if (a == "--iters" || a == "--warmup") {
      auto n = tools::parseInt(v, a == "--iters" ? 1 : 0, 100000, a, error);
      if (!n) {
        std::fprintf(stderr, "tile-bench: error: %s\n", error.c_str());
        return 2;
      }
      (a == "--iters" ? iters : warmup) = static_cast<int>(*n);
    } else if (a == "--json") {
      jsonOut = v;
    } else {
      std::fprintf(stderr, "tile-bench: error: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (!haveGpu())
    return 77;
  const std::string source(reinterpret_cast<const char *>(tile_examples_matmul_py), tile_examples_matmul_py_size);
  // 128x256 runs at 256 threads (two warpgroups): at 128 its 128 accumulator registers per
  // thread spill.
  const Config configs[] = {{128, 128, 64, 128}, {128, 256, 64, 256}, {128, 128, 64, 256},
                            {256, 128, 64, 256}, {64, 128, 64, 128},  {128, 64, 64, 128}};
  json results = json::array();
  int failures = 0;
  std::printf("tile-bench gemm: bf16 x bf16 (f32 accumulation), median of %d after %d warm-up launches\n", iters,
              warmup);
  std::printf("%6s %4s %4s %3s %7s %4s %10s %9s %s\n", "size", "BM", "BN", "BK", "threads", "C", "ms", "TFLOP/s",
              "check");
  for (int64_t n : sizes) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<uint16_t> ha(n * n), hb(n * n);
    for (auto &x : ha)
      x = toBF16(dist(rng));
    for (auto &x : hb)
      x = toBF16(dist(rng));
    for (const Config &c : configs)
      for (bool bf16Out : {false, true}) {
        const char *outName = bf16Out ? "bf16" : "f32";
        try {
          jit::BackendOptions options;
          options.choice = jit::BackendOptions::Choice::Gpu;
          options.jit.numThreads = c.threads;
          jit::Backend backend(options);
          jit::Buffer a = backend.upload(ha), b = backend.upload(hb), out = backend.allocate(n * n * (bf16Out ? 2 : 4));
          jit::KernelRequest r;
          r.source = source;
          r.fileName = "matmul.py";
          r.kernel = "matmul";
          r.constants = {{"BM", c.bm}, {"BN", c.bn}, {"BK", c.bk}};
          rt::ArrayArg aa = a.array(rt::DType::BFloat16, {n, n}), ba = b.array(rt::DType::BFloat16, {n, n}),
                       ca = out.array(bf16Out ? rt::DType::BFloat16 : rt::DType::Float32, {n, n});
          // The arrays' aligned facts (TMA copies) as the JIT callers pass them.
          r.args = {{"a", {"bfloat16", 2, aa.isAligned()}},
                    {"b", {"bfloat16", 2, ba.isAligned()}},
                    {"c", {bf16Out ? "bfloat16" : "float32", 2, ca.isAligned()}}};
          jit::KernelHandle k = backend.compile(r);
          rt::Grid grid((n + c.bm - 1) / c.bm, (n + c.bn - 1) / c.bn);
          std::vector<rt::Arg> args = {aa, ba, ca};
          for (int i = 0; i < warmup; ++i)
            backend.launch(k, grid, args);
          std::vector<double> ms;
          for (int i = 0; i < iters; ++i) {
            jit::TimePoint t0 = backend.now();
            backend.launch(k, grid, args);
            jit::TimePoint t1 = backend.now();
            backend.synchronize();
            ms.push_back(jit::TimePoint::elapsedMs(t0, t1));
          }
          std::sort(ms.begin(), ms.end());
          double median = ms[ms.size() / 2], tflops = 2.0 * n * n * n / (median * 1e-3) / 1e12;
          // 64 sampled elements against a float64 dot product of the same bf16 inputs.
          std::vector<float> hc(n * n);
          if (bf16Out) {
            std::vector<uint16_t> h16(n * n);
            out.copyToHost(h16.data(), h16.size() * 2);
            std::transform(h16.begin(), h16.end(), hc.begin(), fromBF16);
          } else {
            out.copyToHost(hc.data(), hc.size() * 4);
          }
          double worst = 0;
          std::uniform_int_distribution<int64_t> pick(0, n - 1);
          for (int s = 0; s < 64; ++s) {
            int64_t i = pick(rng), j = pick(rng);
            double ref = 0, mag = 0;
            for (int64_t kk = 0; kk < n; ++kk) {
              double p = double(fromBF16(ha[i * n + kk])) * fromBF16(hb[kk * n + j]);
              ref += p, mag += std::abs(p);
            }
            worst = std::max(worst, std::abs(hc[i * n + j] - ref) / std::max(mag, 1e-30));
          }
          // f32 accumulation over K terms: relative to sum |a_k b_k|, ~K * 2^-24 at worst; a bf16
          // output adds its rounding, 2^-9 of |c| <= sum |a_k b_k|.
          bool ok = worst < 1e-5 * std::max<double>(1, n / 1024.0) + (bf16Out ? std::ldexp(1.0, -9) : 0.0);
          failures += !ok;
          std::printf("%6lld %4lld %4lld %3lld %7lld %4s %10.3f %9.1f %s (%.1e)\n", (long long)n, (long long)c.bm,
                      (long long)c.bn, (long long)c.bk, (long long)c.threads, outName, median, tflops,
                      ok ? "ok" : "WRONG", worst);
          results.push_back({{"size", n},
                             {"BM", c.bm},
                             {"BN", c.bn},
                             {"BK", c.bk},
                             {"threads", c.threads},
                             {"out", outName},
                             {"ms", median},
                             {"tflops", tflops},
                             {"max_rel_error", worst},
                             {"ok", ok}});
        } catch (const rt::Error &e) {
          std::printf("%6lld %4lld %4lld %3lld %7lld %4s failed: %s\n", (long long)n, (long long)c.bm, (long long)c.bn,
                      (long long)c.bk, (long long)c.threads, outName, e.what());
          results.push_back(
              {{"size", n}, {"BM", c.bm}, {"BN", c.bn}, {"threads", c.threads}, {"out", outName}, {"error", e.what()}});
        }
      }
  }
  if (!writeJson(jsonOut, results))
    return 3;
  return failures ? 1 : 0;
}

} // namespace tile::bench
