// tile-bench ssd: times the Mamba-2 forward pass on five model shapes (defaultShapes) or the
// shapes of a peer file, and prints, per shape, each kernel's time, the total, the achieved
// bandwidth on the compulsory traffic, the share of the hardware floor reached and the ratio
// to the peer's figures; then, per shape and kernel, the kernel's own compulsory traffic and
// products (SsdWork.h), its achieved GB/s and TFLOP/s and the share of its own floor.
//
//   tile-bench ssd [--peer PEER.json] [--iters 20] [--warmup 3] [--shape NAME] [--json out.json]
//                  [--chunk-size N] [--precision native|tf32] [--export-tuning FILE] [--repeats 10]
//   tile-bench ssd --decode ...      # the decode step instead (Decode.cpp)
//   tile-bench ssd --backward ...    # the backward pass instead (Backward.cpp)
//
// Each kernel runs in the configuration the autotuner picks (TILE_AUTOTUNE=0: config 0); the
// first call of a shape tunes what the tuning cache lacks, and a table at the end says per
// shape and kernel which configuration won, by how much over config 0, and how long tuning
// took. --export-tuning writes the tuner's decisions as a table (TILE_AUTOTUNE_TABLE reads it).
//
// PEER.json (another implementation's timings, measured on the same GPU) is a JSON list of
// shapes: {"shape": NAME, "batch", "seqlen", "nheads", "headdim", "ngroups", "dstate", "chunk"
// (default 256), "total_ms", "chunk_cumsum_ms", "chunk_state_ms", "state_passing_ms",
// "bmm_chunk_ms", "chunk_scan_ms", "compulsory_MB", "GFLOP"}; missing numbers read as 0.
//
// Inputs as the peer measured them: bf16 x, B, C; fp32 dt, A (negative), D, dt_bias;
// dt_softplus; each shape's chunk (the peer file's "chunk", default 256) unless --chunk-size
// gives one (0: the library's choice). The headline is the
// end-to-end time per pass: each timed call runs the pass --repeats times back to back (CUDA
// events around all launches, no host synchronisation between kernels; the host enqueues
// while the GPU runs, as when a benchmark or a model enqueues many calls, so launch gaps do not
// count; --repeats 1 times one pass after a synchronisation); per-kernel times (events around
// each launch of the last pass) are beside it. Medians over --iters.

#include "kernels/mamba2/SsdForward.h"
#include "kernels/mamba2/SsdWork.h"
#include "runtime/Error.h"
#include "runtime/File.h"
#include "tools/common/Numbers.h"
#include "tools/tile-bench/Backward.h"
#include "tools/tile-bench/Common.h"
#include "tools/tile-bench/Decode.h"
#include "tools/tile-bench/Gemm.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>

using namespace tile;
using json = nlohmann::json;

namespace {

// SsdPlan::launches' order.
const char *const kKernelNames[4] = {"chunk_cumsum", "chunk_bmm", "fwd_pass_state", "compute_out"};

using bench::defaultShapes;
using bench::median;
using bench::randomBuffer;
using bench::Shape;

} // namespace

int main(int argc, char **argv) {
  if (argc >= 2 && std::strcmp(argv[1], "gemm") == 0)
    return bench::runGemm(argc, argv);
  if (argc < 2 || std::strcmp(argv[1], "ssd") != 0) {
    std::fprintf(stderr, "usage: tile-bench ssd [--peer FILE] [--iters N] [--warmup N] [--shape NAME] [--json FILE] "
                         "[--chunk-size N] [--precision native|tf32] [--export-tuning FILE] [--repeats N]\n"
                         "       tile-bench ssd --decode [--batch 1,16,256] [--state-dtype float32|bfloat16] "
                         "[--iters N] [--warmup N] [--repeats N] [--json FILE]\n"
                         "       tile-bench ssd --backward [--shape NAME] [--chunk-size N] [--iters N] [--warmup N] "
                         "[--json FILE]\n"
                         "       tile-bench gemm [--sizes 4096,8192] [--iters N] [--warmup N] [--json FILE]\n");
    return 2;
  }
  if (std::any_of(argv + 2, argv + argc, [](const char *a) { return std::strcmp(a, "--decode") == 0; }))
    return bench::runSsdDecode(argc, argv);
  if (std::any_of(argv + 2, argv + argc, [](const char *a) { return std::strcmp(a, "--backward") == 0; }))
    return bench::runSsdBackward(argc, argv);
  std::string peerFile, onlyShape, jsonOut, tuningOut;
  int iters = 20, warmup = 3, repeats = 10;
  int chunkOverride = -1; // -1: each shape's own chunk
  mamba2::MatmulPrecision precision = mamba2::MatmulPrecision::Native;
  std::set<std::string> given; // each option once: a repeat would silently replace the first
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) == 0 && !given.insert(a).second) {
      std::fprintf(stderr, "tile-bench: error: %s is given twice; give it once\n", a.c_str());
      return 2;
    }
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "tile-bench: error: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    auto count = [&](int64_t min, int64_t max) {
      std::string error;
      auto v = tools::parseInt(next(), min, max, a, error);
      if (!v) {
        std::fprintf(stderr, "tile-bench: error: %s\n", error.c_str());
        std::exit(2);
      }
      return static_cast<int>(*v);
    };
    if (a == "--peer")
      peerFile = next();
    else if (a == "--iters")
      iters = count(1, 1000000);
    else if (a == "--warmup")
      warmup = count(0, 1000000);
    else if (a == "--repeats")
      repeats = count(1, 1000);
    else if (a == "--shape")
      onlyShape = next();
    else if (a == "--json")
      jsonOut = next();
    else if (a == "--export-tuning")
      tuningOut = next();
    else if (a == "--chunk-size") {
      chunkOverride = count(0, 256);
      if (chunkOverride && (chunkOverride < 16 || (chunkOverride & (chunkOverride - 1)))) {
        std::fprintf(stderr, "tile-bench: error: --chunk-size: %d is not 0 or a power of two from 16 to 256\n",
                     chunkOverride);
        return 2;
      }
    } else if (a == "--precision") {
      auto p = mamba2::parseMatmulPrecision(next());
      if (!p) {
        std::fprintf(stderr, "tile-bench: error: --precision must be native or tf32\n");
        return 2;
      }
      precision = *p;
    } else {
      std::fprintf(stderr, "tile-bench: error: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  std::vector<Shape> shapes = defaultShapes();
  if (!peerFile.empty()) {
    std::string text;
    try {
      text = tile::rt::readRegularFile(peerFile, 16u << 20);
    } catch (const tile::rt::Error &e) {
      std::fprintf(stderr, "tile-bench: error: %s\n", e.what());
      return 3;
    }
    json peer = json::parse(text, nullptr, false);
    if (peer.is_discarded() || !peer.is_array()) {
      std::fprintf(stderr, "tile-bench: error: %s is not a JSON list of shapes\n", peerFile.c_str());
      return 3;
    }
    shapes.clear();
    try {
      for (const json &p : peer)
        shapes.push_back({p.value("shape", ""), p.value("batch", 0), p.value("seqlen", 0), p.value("nheads", 0),
                          p.value("headdim", 0), p.value("ngroups", 0), p.value("dstate", 0), p.value("chunk", 256),
                          p.value("total_ms", 0.0), p.value("chunk_cumsum_ms", 0.0),
                          p.value("chunk_state_ms", 0.0) + p.value("state_passing_ms", 0.0),
                          p.value("bmm_chunk_ms", 0.0) + p.value("chunk_scan_ms", 0.0), p.value("compulsory_MB", 0.0),
                          p.value("GFLOP", 0.0)});
    } catch (const json::exception &e) {
      // e.g. a field of the wrong type: say which file instead of terminating.
      std::fprintf(stderr, "tile-bench: error: %s: %s\n", peerFile.c_str(), e.what());
      return 3;
    }
  }
  if (!onlyShape.empty() &&
      std::none_of(shapes.begin(), shapes.end(), [&](const Shape &s) { return s.name == onlyShape; })) {
    std::string names;
    for (const Shape &s : shapes)
      names += (names.empty() ? "" : ", ") + s.name;
    std::fprintf(stderr, "tile-bench: error: --shape: no shape '%s' (shapes: %s)\n", onlyShape.c_str(), names.c_str());
    return 2;
  }
  if (!bench::haveGpu())
    return 77;
  jit::BackendOptions backendOptions;
  backendOptions.choice = jit::BackendOptions::Choice::Gpu; // timing the interpreter means nothing here
  jit::Backend backend(backendOptions);
  std::printf("tile-bench ssd on %s, median of %d after %d warm-up calls, each call %d pass(es) back to back\n",
              backend.description().c_str(), iters, warmup, repeats);
  std::printf("%-24s %5s %8s %8s %8s %8s %9s %8s %8s %8s\n", "shape", "chunk", "cumsum", "bmm", "state", "out",
              "e2e ms", "GB/s", "%floor", "vs peer");
  json results = json::array();
  int failed = 0;
  // Per shape, the configuration each kernel ran in and its tuned time against config 0's.
  std::vector<std::pair<std::string, std::array<mamba2::SsdKernelChoice, 4>>> choices;
  // Per shape, each kernel's median time and its own floor (SsdWork.h).
  struct KernelRow {
    std::string shape;
    std::array<double, 4> ms;
    std::array<mamba2::KernelWork, 4> work;
    std::array<bool, 4> skipped{}; // not launched (SsdKernelChoice::skipped)
  };
  std::vector<KernelRow> kernelRows;
  double totalTuneMs = 0;
  for (const Shape &s : shapes) {
    if (!onlyShape.empty() && s.name != onlyShape)
      continue;
    std::mt19937 rng(42);
    int64_t b = s.batch, T = s.seqlen, H = s.nheads, P = s.headdim, G = s.ngroups, N = s.dstate;
    auto x = randomBuffer(backend, b * T * H * P, rt::DType::BFloat16, rng, -1, 1);
    auto B = randomBuffer(backend, b * T * G * N, rt::DType::BFloat16, rng, -1, 1);
    auto C = randomBuffer(backend, b * T * G * N, rt::DType::BFloat16, rng, -1, 1);
    auto dt = randomBuffer(backend, b * T * H, rt::DType::Float32, rng, -4, 0);
    auto A = randomBuffer(backend, H, rt::DType::Float32, rng, -2, -0.5f);
    auto D = randomBuffer(backend, H, rt::DType::Float32, rng, 0, 1);
    auto bias = randomBuffer(backend, H, rt::DType::Float32, rng, -1, 1);
    mamba2::SsdArrayInputs in;
    in.x = x.array(rt::DType::BFloat16, {b, T, H, P});
    in.B = B.array(rt::DType::BFloat16, {b, T, G, N});
    in.C = C.array(rt::DType::BFloat16, {b, T, G, N});
    in.dt = dt.array(rt::DType::Float32, {b, T, H});
    in.A = A.array(rt::DType::Float32, {H});
    in.D = D.array(rt::DType::Float32, {H});
    in.dtBias = bias.array(rt::DType::Float32, {H});
    mamba2::ForwardOptions options;
    options.chunkSize = chunkOverride >= 0 ? chunkOverride : static_cast<int>(s.chunk);
    options.precision = precision;
    options.dt.dtSoftplus = true;
    try {
      // The first call compiles what neither cache holds (the four kernels' configurations
      // concurrently) and tunes what the tuning cache does not know.
      const jit::Jit::Stats before = backend.jit() ? backend.jit()->stats() : jit::Jit::Stats{};
      auto firstStart = std::chrono::steady_clock::now();
      mamba2::SsdOutputs first = mamba2::ssdForward(backend, in, options);
      const int64_t chunk = first.chunkSize; // the plan's choice when options.chunkSize is 0
      choices.push_back({s.name, first.choices});
      double tuneMs = 0;
      json autotune = json::array();
      for (const mamba2::SsdKernelChoice &c : first.choices) {
        tuneMs += c.tuneMs;
        autotune.push_back({{"kernel", c.kernel},
                            {"config", c.config},
                            {"label", c.label},
                            {"source", jit::tuneSourceName(c.source)},
                            {"ms", c.ms},
                            {"config0_ms", c.config0Ms}});
      }
      totalTuneMs += tuneMs;
      double firstCallMs =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - firstStart).count();
      for (int i = 1; i < warmup; ++i)
        mamba2::ssdForward(backend, in, options);
      std::vector<double> cumsum, bmm, state, out, total;
      for (int i = 0; i < iters; ++i) {
        mamba2::SsdTimings t;
        t.repeats = repeats;
        mamba2::ssdForward(backend, in, options, nullptr, &t);
        cumsum.push_back(t.chunkCumsumMs);
        bmm.push_back(t.chunkBmmMs);
        state.push_back(t.fwdPassStateMs);
        out.push_back(t.computeOutMs);
        total.push_back(t.endToEndMs);
      }
      double ms = median(total);
      double mb = s.compulsoryMB > 0 ? s.compulsoryMB
                                     : (b * T * H * P * 2.0 * 2 + b * T * G * N * 2.0 * 2 + b * T * H * 4.0) / 1e6;
      int64_t nc = (T + chunk - 1) / chunk;
      double gflop =
          s.gflop > 0
              ? s.gflop
              : b * nc * (2.0 * G * chunk * chunk * N + H * (2.0 * chunk * chunk * P + 4.0 * chunk * N * P)) / 1e9;
      double floorMs = std::max(mb / 1e3 / 4.8, gflop / 790.0); // 4.8 TB/s, 790 TFLOP/s
      // bf16 data, so bf16 chunk-entry states.
      KernelRow row{s.name,
                    {median(cumsum), median(bmm), median(state), median(out)},
                    mamba2::ssdKernelWork(mamba2::SsdDims{b, T, H, P, G, N}, chunk, 2, 2)};
      for (size_t k = 0; k < 4; ++k)
        row.skipped[k] = first.choices[k].skipped;
      kernelRows.push_back(row);
      json perKernel = json::array();
      for (size_t k = 0; k < 4; ++k)
        perKernel.push_back({{"kernel", kKernelNames[k]},
                             {"skipped", row.skipped[k]},
                             {"ms", row.ms[k]},
                             {"bytes", row.work[k].bytes},
                             {"flops", row.work[k].flops},
                             {"floor_ms", row.work[k].floorMs(mamba2::kH200TBs, mamba2::kH200Tflops)}});
      std::printf("%-24s %5lld %8.3f %8.3f %8.3f %8.3f %9.3f %8.0f %7.1f%% %7.2fx\n", s.name.c_str(), (long long)chunk,
                  median(cumsum), median(bmm), median(state), median(out), ms, mb / ms, 100.0 * floorMs / ms,
                  s.peerTotalMs > 0 ? ms / s.peerTotalMs : 0.0);
      results.push_back({{"shape", s.name},
                         {"chunk", chunk},
                         {"precision", mamba2::matmulPrecisionName(precision)},
                         {"chunk_cumsum_ms", median(cumsum)},
                         {"chunk_bmm_ms", median(bmm)},
                         {"fwd_pass_state_ms", median(state)},
                         {"compute_out_ms", median(out)},
                         {"total_ms", ms},
                         {"repeats", repeats},
                         {"floor_ms", floorMs},
                         {"peer_total_ms", s.peerTotalMs},
                         {"first_call_ms", firstCallMs},
                         {"tune_ms", tuneMs},
                         {"kernels", perKernel},
                         {"autotune", autotune}});
      const jit::Jit::Stats after = backend.jit() ? backend.jit()->stats() : jit::Jit::Stats{};
      std::fprintf(stderr,
                   "tile-bench: %s: first call %.0f ms (%u kernels compiled, %u prebuilt, %u from the disk cache; "
                   "tuning %.0f ms; then running)\n",
                   s.name.c_str(), firstCallMs, after.compiles - before.compiles,
                   after.prebuiltHits - before.prebuiltHits, after.diskHits - before.diskHits, tuneMs);
    } catch (const rt::Error &e) {
      std::printf("%-24s failed: %s\n", s.name.c_str(), e.what());
      ++failed;
      results.push_back({{"shape", s.name}, {"error", e.what()}});
    }
  }
  // Each kernel against its own floor: the bytes it must move and the products it must run
  // (each input read once, each output written once), at the H200's 4.8 TB/s and 790 TFLOP/s.
  std::printf("\nper kernel: achieved bandwidth and Tensor Core rate on its compulsory work, and the share of its "
              "own floor\n");
  std::printf("%-24s %-14s %8s %9s %8s %8s %9s %7s\n", "shape", "kernel", "ms", "MB", "GB/s", "TFLOP/s", "floor ms",
              "%floor");
  for (const KernelRow &row : kernelRows)
    for (size_t k = 0; k < 4; ++k) {
      if (row.skipped[k]) {
        std::printf("%-24s %-14s  skipped (nothing reads its output)\n", row.shape.c_str(), kKernelNames[k]);
        continue;
      }
      const mamba2::KernelWork &w = row.work[k];
      double floorMs = w.floorMs(mamba2::kH200TBs, mamba2::kH200Tflops);
      double ms = row.ms[k];
      std::printf("%-24s %-14s %8.3f %9.1f %8.0f %8.1f %9.4f %6.1f%%\n", row.shape.c_str(), kKernelNames[k], ms,
                  w.bytes / 1e6, ms > 0 ? w.bytes / 1e6 / ms : 0.0, ms > 0 ? w.flops / 1e9 / ms : 0.0, floorMs,
                  ms > 0 ? 100.0 * floorMs / ms : 0.0);
    }
  // The tuner's choices: which configuration ran per shape and kernel, and the speed-up over
  // configuration 0 that the tuning measured (blank when nothing was timed: one candidate,
  // tuning off or forced).
  std::printf("\nautotune: configuration per shape and kernel (tuned median vs config 0; tuning took %.0f ms in all)\n",
              totalTuneMs);
  std::printf("%-24s %-14s %-22s %-8s %-12s %9s %9s %7s\n", "shape", "kernel", "configuration", "index", "source", "ms",
              "config0", "speedup");
  for (const auto &[shape, kernelChoices] : choices)
    for (const mamba2::SsdKernelChoice &c : kernelChoices) {
      std::printf("%-24s %-14s %-22s %-8u %-12s", shape.c_str(), c.kernel.c_str(), c.label.c_str(), c.config,
                  jit::tuneSourceName(c.source));
      if (c.ms > 0 && c.config0Ms > 0)
        std::printf(" %9.4f %9.4f %6.2fx\n", c.ms, c.config0Ms, c.config0Ms / c.ms);
      else
        std::printf(" %9s %9s %7s\n", "-", "-", "-");
    }
  if (!tuningOut.empty()) {
    try {
      backend.tuner().exportTable(tuningOut);
      std::printf("tile-bench: wrote the tuning table %s\n", tuningOut.c_str());
    } catch (const rt::Error &e) {
      std::fprintf(stderr, "tile-bench: error: %s\n", e.what());
      return 3;
    }
  }
  if (!bench::writeJson(jsonOut, results))
    return 3;
  if (failed) {
    std::printf("tile-bench: %d of the shapes FAILED\n", failed);
    return 1;
  }
  return 0;
}
