// tile-ssd: the Mamba-2 SSD forward pass on .npy files.
//
//   tile-ssd --inputs DIR [--out DIR] [--chunk-size N] [--dt-softplus] [--dt-limit MIN,MAX]
//            [--output-dtype float32|float16|bfloat16] [--precision native|tf32] [--check] [--interpret]
//
// --chunk-size defaults to the library's choice (64); --precision picks the operand type of the
// matrix products for 16-bit data (default: the data's own bf16/fp16).
//   tile-ssd                          # the built-in demo shape, checked against the reference
//
// DIR holds x.npy, dt.npy, A.npy, B.npy, C.npy and optionally D.npy, z.npy, dt_bias.npy,
// initial_states.npy (float32, float16 or bfloat16 — '<V2' as ml_dtypes writes it; float64 is
// taken as float32). Writes y.npy and final_states.npy to --out (float32 unless asked). With
// --check, compares with the float64 reference and prints the max abs error, the error relative
// to the output's RMS and the count outside atol 3e-3 + rtol 1e-2 * |ref|.
//
// The kernels run on a jit::Backend: the GPU, or the tile IR interpreter on the CPU with
// --interpret, with TILE_INTERPRET=1, or on a machine without a GPU (it says which): the same
// launches (kernels/mamba2/SsdPlan.h), so the demo and --check mean the same on both.
// Interpreted, the demo takes under a second on one core.

#include "kernels/mamba2/ErrorMetrics.h"
#include "runtime/npy/Npy.h"
#include "tools/tile-ssd/Run.h"

#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

using namespace tile;
using namespace tile::mamba2;

namespace {

int usage(const char *message) {
  std::fprintf(stderr, "tile-ssd: %s\nusage: tile-ssd [--inputs DIR] [--out DIR] [--chunk-size N] [--dt-softplus] "
                       "[--dt-limit MIN,MAX] [--output-dtype float32|float16|bfloat16] [--precision native|tf32] [--check] "
                       "[--interpret]\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  std::string inputDir, outDir;
  ForwardOptions options;
  bool check = false;
  jit::BackendOptions backendOptions;
  std::optional<rt::DType> outputDType;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--inputs") { const char *v = value(); if (!v) return usage("--inputs needs a directory"); inputDir = v; }
    else if (a == "--out") { const char *v = value(); if (!v) return usage("--out needs a directory"); outDir = v; }
    else if (a == "--chunk-size") { const char *v = value(); if (!v) return usage("--chunk-size needs a value"); options.chunkSize = std::atoi(v); }
    else if (a == "--dt-softplus") options.dt.dtSoftplus = true;
    else if (a == "--dt-limit") {
      const char *v = value();
      if (!v || std::sscanf(v, "%lf,%lf", &options.dt.dtMin, &options.dt.dtMax) != 2)
        return usage("--dt-limit needs MIN,MAX");
    } else if (a == "--output-dtype") {
      const char *v = value();
      std::string s = v ? v : "";
      if (s == "float32") outputDType = rt::DType::Float32;
      else if (s == "float16") outputDType = rt::DType::Float16;
      else if (s == "bfloat16") outputDType = rt::DType::BFloat16;
      else return usage("--output-dtype must be float32, float16 or bfloat16");
    } else if (a == "--precision") {
      const char *v = value();
      auto p = parseMatmulPrecision(v ? v : "");
      if (!p) return usage("--precision must be native (the data's bf16/fp16) or tf32");
      options.precision = *p;
    } else if (a == "--check") check = true;
    else if (a == "--interpret") backendOptions.choice = jit::BackendOptions::Choice::Interpreter;
    else return usage(("unknown option " + a).c_str());
  }
  try {
    jit::Backend backend(backendOptions);
    const bool interpret = !backend.onGpu();
    std::printf("tile-ssd: running the kernels on %s\n",
                backendOptions.choice == jit::BackendOptions::Choice::Interpreter ? "the interpreter (--interpret)"
                                                                                   : backend.description().c_str());
    ssd::Inputs inputs;
    if (inputDir.empty()) {
      // The demo: a small 2.7B-like layer (ragged seqlen), bf16.
      check = true;
      options.dt.dtSoftplus = true;
      ssd::DemoShape shape{1, 1000, 8, 64, 1, 64};
      inputs = ssd::demoInputs(shape);
      std::printf("tile-ssd: demo shape (b, T, H, P, G, N) = (%lld, %lld, %lld, %lld, %lld, %lld), bf16, chunk %d\n",
                  (long long)shape.b, (long long)shape.T, (long long)shape.H, (long long)shape.P, (long long)shape.G,
                  (long long)shape.N, options.chunkSize ? options.chunkSize : kDefaultChunkSize);
    } else {
      inputs = ssd::loadInputs(inputDir);
    }
    options.outputDType = outputDType;

    ssd::RunResult r = ssd::run(backend, inputs, options);
    if (interpret)
      std::printf("tile-ssd: first call %.1f ms (compiling to tile IR and interpreting)\n", r.firstCallMs);
    else
      std::printf("tile-ssd: first call %.1f ms (%u kernels compiled, %u loaded from the disk cache)\n", r.firstCallMs,
                  r.compiled, r.fromDiskCache);
    std::printf("tile-ssd: chunk_cumsum %.3f ms, chunk_bmm %.3f ms, fwd_pass_state %.3f ms, compute_out %.3f ms, "
                "end to end %.3f ms%s\n",
                r.timings.chunkCumsumMs, r.timings.chunkBmmMs, r.timings.fwdPassStateMs, r.timings.computeOutMs,
                r.timings.endToEndMs, interpret ? " (interpreted, host wall-clock)" : "");
    if (!outDir.empty()) {
      mkdir(outDir.c_str(), 0755);
      rt::writeNpy(outDir + "/y.npy", r.y.shape, r.y.data, outputDType.value_or(rt::DType::Float32));
      rt::writeNpy(outDir + "/final_states.npy", r.finalStates.shape, r.finalStates.data, rt::DType::Float32);
      std::printf("tile-ssd: wrote %s/y.npy and %s/final_states.npy\n", outDir.c_str(), outDir.c_str());
    }
    if (check) {
      SsdResult expected = reference(inputs.reference(), options.dt);
      std::printf("tile-ssd: y            %s\n", compare(r.y, expected.y, 3e-3, 1e-2).str(r.y.shape).c_str());
      std::printf("tile-ssd: final_states %s\n",
                  compare(r.finalStates, expected.finalStates, 3e-3, 1e-2).str(r.finalStates.shape).c_str());
    }
    return 0;
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "tile-ssd: %s\n", e.what());
    return 1;
  }
}
