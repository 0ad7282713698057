// tile-ssd: the Mamba-2 SSD forward pass on .npy files.
//
//   tile-ssd --inputs DIR [--out DIR] [--chunk-size N] [--dt-softplus] [--dt-limit MIN,MAX]
//            [--output-dtype float32|float16|bfloat16] [--precision native|tf32] [--check] [--interpret]
//
// --chunk-size defaults to the library's choice (64, or 128 for 16-bit data with dstate >= 128;
// the output says which ran); --precision picks the operand type of the matrix products for
// 16-bit data (default: the data's own bf16/fp16).
//   tile-ssd                          # the built-in demo shape, checked against the reference
//
//   tile-ssd --backward [--inputs DIR] [--out DIR] [--chunk-size N] [--dt-softplus] [--dt-limit MIN,MAX]
//            [--check] [--interpret]
//
// --backward runs the backward pass (mamba2::ssdBackward) instead: DIR holds the forward's inputs
// and dy.npy (b, T, H, P), optionally dfinal_states.npy (b, H, P, N); it writes dx.npy, ddt.npy,
// dA.npy, dB.npy, dC.npy and, for the inputs given, dD.npy, dz.npy, ddt_bias.npy and
// dinitial_states.npy (float32) to --out, all or none. --check compares every gradient with the
// float64 reference backward (atol 1e-3, or 3e-2 with bf16 data, times the gradient's RMS; rtol
// 1e-2). Without --inputs: the demo's inputs with a random dy and d final_states, checked.
//
//   tile-ssd --decode [--inputs DIR] [--out DIR] [--dt-softplus] [--dt-limit MIN,MAX]
//            [--output-dtype float32|float16|bfloat16] [--check] [--interpret]
//
// --decode runs one decode step (mamba2::ssdDecodeStep) instead: DIR holds state.npy (b, H, P, N),
// x.npy (b, H, P), dt.npy (b, H) or (b, H, P), A.npy (H), B.npy and C.npy (b, G, N) and
// optionally D.npy and dt_bias.npy ((H) or (H, P)) and z.npy (b, H, P); it writes y.npy (float32
// unless asked) and the updated state.npy (in the input state's dtype, so it can feed the next
// step) to --out. Without --dt-limit it clamps nothing (the library's DecodeOptions). Without
// --inputs: a demo of shape (b, H, P, G, N) = (2, 8, 64, 2, 64), checked. --check compares with
// referenceDecodeStep (atol 3e-3 + rtol 1e-2 * |ref| on y and the state). --chunk-size and
// --precision do not apply (exit 2).
//
// DIR holds x.npy, dt.npy, A.npy, B.npy, C.npy and optionally D.npy, z.npy, dt_bias.npy,
// initial_states.npy (float32, float16 or bfloat16 — '<V2' as ml_dtypes writes it; float64 is
// taken as float32) and seq_idx.npy ((b, T) integers, read as int32: packed sequences, said on
// stdout). Writes y.npy and
// final_states.npy to --out (float32 unless asked). With
// --check, compares with the float64 reference and prints the max abs error, the error relative
// to the output's RMS and the count outside atol 3e-3 + rtol 1e-2 * |ref|; any element outside
// makes the exit code 1.
//
// Exit codes: 0 success, 1 a run-time error or a failed --check, 2 bad command line, 3 an
// unreadable input or unwritable output. y.npy and final_states.npy are written together
// (temporary files renamed into place) or not at all, and never onto an input.
//
// The kernels run on a jit::Backend: the GPU, or the tile IR interpreter on the CPU with
// --interpret, with TILE_INTERPRET=1, or on a machine without a GPU (it says which): the same
// launches (kernels/mamba2/SsdPlan.h), so the demo and --check mean the same on both.
// Interpreted, the demo takes under a second on one core.

#include "kernels/mamba2/ErrorMetrics.h"
#include "runtime/npy/Npy.h"
#include "tools/common/Files.h"
#include "tools/common/Numbers.h"
#include "tools/common/OutOfMemory.h"
#include "tools/tile-ssd/Run.h"

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sys/stat.h>

using namespace tile;
using namespace tile::mamba2;

namespace {

int usage(const std::string &message) {
  std::fprintf(stderr,
               "tile-ssd: error: %s\nusage: tile-ssd [--inputs DIR] [--out DIR] [--chunk-size N] [--dt-softplus] "
               "[--dt-limit MIN,MAX] [--output-dtype float32|float16|bfloat16] [--precision native|tf32] [--check] "
               "[--interpret] [--decode|--backward]\n",
               message.c_str());
  return 2;
}

int ioError(const std::string &message) {
  std::fprintf(stderr, "tile-ssd: error: %s\n", message.c_str());
  return 3;
}

void printFirstCall(bool interpret, double ms, const jit::Jit::Stats &loaded) {
  if (interpret)
    std::printf("tile-ssd: first call %.1f ms (compiling to tile IR and interpreting)\n", ms);
  else
    std::printf("tile-ssd: first call %.1f ms (%u kernels compiled, %u prebuilt, %u loaded from the disk cache)\n", ms,
                loaded.compiles, loaded.prebuiltHits, loaded.diskHits);
}

// y.npy and the second output (final_states.npy or state.npy) both or neither: temporary files
// renamed into place, so an old second file never sits next to a new y.npy. 0, or exit code 3.
int writeOutputs(const std::string &yPath, const Tensor &y, rt::DType yDType, const std::string &otherPath,
                 const Tensor &other, rt::DType otherDType) {
  std::vector<std::pair<std::string, std::string>> files = {
      {yPath, rt::encodeNpy(y.shape, y.data.data(), y.data.size(), yDType)},
      {otherPath, rt::encodeNpy(other.shape, other.data.data(), other.data.size(), otherDType)}};
  std::string error;
  if (!tools::writeFilesAtomically(files, error))
    return ioError(error + " (neither y.npy nor " + otherPath.substr(otherPath.rfind('/') + 1) + " was written)");
  std::printf("tile-ssd: wrote %s and %s\n", yPath.c_str(), otherPath.c_str());
  return 0;
}

struct Checked {
  const char *name;
  const Tensor &got, &expected;
  double atol; // rtol is 1e-2 for all
};

// Prints each output's errors against the reference and the verdict: exit code 1 when any
// element is outside tolerance (a NaN anywhere counts as outside, compare's rule, so NaN inputs
// cannot pass), else 0.
int reportCheck(const std::vector<Checked> &outputs) {
  long long outside = 0, count = 0;
  for (const Checked &c : outputs) {
    ErrorStats e = compare(c.got, c.expected, c.atol, 1e-2);
    std::printf("tile-ssd: %-12s %s\n", c.name, e.str(c.got.shape).c_str());
    outside += e.outside;
    count += e.count;
  }
  if (outside != 0) {
    std::printf("tile-ssd: check FAILED: %lld of %lld elements outside tolerance\n", outside, count);
    return 1;
  }
  std::printf("tile-ssd: check passed\n");
  return 0;
}

// --decode, after the command line and the files were checked: one step on DIR's inputs or the
// demo's, the outputs written when statePath is not empty, and the check.
int decodeMain(jit::Backend &backend, const std::string &inputDir, const std::string &yPath,
               const std::string &statePath, DecodeOptions options, rt::DType yDType, bool check) {
  ssd::DecodeInputs inputs;
  if (inputDir.empty()) {
    check = true;
    options.dt.dtSoftplus = true;
    ssd::DemoShape shape{2, 1, 8, 64, 2, 64};
    inputs = ssd::demoDecodeInputs(shape);
    std::printf("tile-ssd: decode demo shape (b, H, P, G, N) = (%lld, %lld, %lld, %lld, %lld), bf16 x, z, B, C, fp32 "
                "state\n",
                (long long)shape.b, (long long)shape.H, (long long)shape.P, (long long)shape.G, (long long)shape.N);
  } else {
    inputs = ssd::loadDecodeInputs(inputDir);
  }
  ssd::DecodeResult r = ssd::runDecode(backend, inputs, yDType, options);
  printFirstCall(!backend.onGpu(), r.firstCallMs, r.loaded);
  std::printf("tile-ssd: decode_step    ran %s\n", r.choice.str().c_str());
  if (!statePath.empty())
    if (int rc = writeOutputs(yPath, r.y, yDType, statePath, r.state, inputs[ssd::DecodeTensor::State].dtype))
      return rc;
  if (!check)
    return 0;
  // The step is fp32 arithmetic on the inputs' values; beyond it only y and the state are
  // rounded into their dtypes (bf16: 2^-9 relative, inside rtol), so every dtype keeps atol 3e-3.
  SsdDecodeResult expected = referenceDecodeStep(inputs.reference(), options.dt);
  return reportCheck({{"y", r.y, expected.y, 3e-3}, {"state", r.state, expected.state, 3e-3}});
}

// The files --backward writes (those of absent inputs' gradients are not written).
const char *const kGradientFiles[] = {"dx", "ddt", "dA", "dB", "dC", "dD", "dz", "ddt_bias", "dinitial_states"};

// --backward, after the command line and the files were checked: the gradients on DIR's inputs
// (with dy.npy and optionally dfinal_states.npy) or the demo's, written when outDir is not
// empty, and the check.
int backwardMain(jit::Backend &backend, const std::string &inputDir, const std::string &outDir, ForwardOptions options,
                 bool check) {
  ssd::Inputs inputs;
  std::optional<ssd::HostTensor> dy, dFinal;
  if (inputDir.empty()) {
    check = true;
    options.dt.dtSoftplus = true;
    ssd::DemoShape shape{1, 300, 4, 32, 1, 32};
    inputs = ssd::demoInputs(shape);
    dy = ssd::randomTensor(rt::DType::BFloat16, {shape.b, shape.T, shape.H, shape.P}, 5);
    dFinal = ssd::randomTensor(rt::DType::Float32, {shape.b, shape.H, shape.P, shape.N}, 6);
    std::printf("tile-ssd: backward demo shape (b, T, H, P, G, N) = (%lld, %lld, %lld, %lld, %lld, %lld), bf16, "
                "random dy and d final_states\n",
                (long long)shape.b, (long long)shape.T, (long long)shape.H, (long long)shape.P, (long long)shape.G,
                (long long)shape.N);
  } else {
    inputs = ssd::loadInputs(inputDir);
    dy = ssd::loadNpyInput(inputDir + "/dy.npy", /*required=*/true);
    dFinal = ssd::loadNpyInput(inputDir + "/dfinal_states.npy", /*required=*/false);
  }
  const ssd::BackwardResult r = ssd::runBackward(backend, inputs, *dy, dFinal, options);
  std::printf("tile-ssd: backward %.1f ms (one call: the forward recomputed, then the backward kernels%s)\n", r.ms,
              backend.onGpu() ? ", compiling included" : ", interpreted");
  const auto got = namedGradients(r.gradients); // the file of "dt"'s is ddt.npy
  if (!outDir.empty()) {
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto &[name, t] : got)
      files.push_back(
          {outDir + "/d" + name + ".npy", rt::encodeNpy(t->shape, t->data.data(), t->data.size(), rt::DType::Float32)});
    std::string error;
    if (!tools::writeFilesAtomically(files, error))
      return ioError(error + " (no gradient was written)");
    std::printf("tile-ssd: wrote %zu gradients to %s\n", files.size(), outDir.c_str());
  }
  if (!check)
    return 0;
  std::optional<TensorView> dFinalView;
  if (dFinal)
    dFinalView = dFinal->values.view();
  const SsdGradients want = referenceBackward(inputs.reference(), dy->values, dFinalView, options.dt);
  const auto wanted = namedGradients(want);
  // The kernels compute in float32 on the inputs' values; with bf16 data the recomputed
  // chunk-entry states are bf16 (the forward keeps them so), a few 1e-3 of the gradients' RMS.
  const auto &x = inputs.tensors[unsigned(SsdTensor::X)];
  const double relative = x && x->dtype == rt::DType::BFloat16 ? 3e-2 : 1e-3;
  std::vector<std::string> labels;
  labels.reserve(got.size()); // Checked keeps their c_str()
  std::vector<Checked> checked;
  for (size_t i = 0; i < got.size() && i < wanted.size(); ++i) {
    labels.push_back("d" + got[i].first);
    checked.push_back({labels.back().c_str(), *got[i].second, *wanted[i].second,
                       relative * compare(*wanted[i].second, *wanted[i].second, 0, 0).refRms});
  }
  return reportCheck(checked);
}

} // namespace

int main(int argc, char **argv) {
  // A file size limit (ulimit -f) then fails the write with EFBIG, which is reported and leaves
  // the old outputs, instead of killing the process halfway through.
  std::signal(SIGXFSZ, SIG_IGN);
  tools::exitOnOutOfMemory("tile-ssd"); // an error and exit code 3, not an uncaught bad_alloc
  std::string inputDir, outDir;
  ForwardOptions options;
  bool check = false, decode = false, backward = false;
  jit::BackendOptions backendOptions;
  std::optional<rt::DType> outputDType;
  std::string error;
  std::set<std::string> given; // every option takes one value (or none): a repeat is refused
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a.rfind("--", 0) == 0 && !given.insert(a).second)
      return usage(a + " is given twice; give it once (the last would silently replace the other)");
    if (a == "--inputs") {
      const char *v = value();
      if (!v || !*v)
        return usage("--inputs needs a directory");
      inputDir = v;
    } else if (a == "--out") {
      const char *v = value();
      if (!v || !*v)
        return usage("--out needs a directory");
      outDir = v;
    } else if (a == "--chunk-size") {
      const char *v = value();
      if (!v)
        return usage("--chunk-size needs a value");
      auto q = tools::parseInt(v, 16, 256, "--chunk-size", error);
      if (!q)
        return usage(error);
      if (*q & (*q - 1))
        return usage("--chunk-size: " + std::to_string(*q) + " is not a power of two (16, 32, 64, 128 or 256)");
      options.chunkSize = static_cast<int>(*q);
    } else if (a == "--dt-softplus")
      options.dt.dtSoftplus = true;
    else if (a == "--dt-limit") {
      const char *v = value();
      if (!v)
        return usage("--dt-limit needs MIN,MAX");
      // A step size is non-negative; MAX may be inf (no upper clamp, the default).
      tools::DoubleRange range;
      range.min = 0;
      range.allowInfinity = true;
      auto limits = tools::parseDoubleList(v, ',', 2, 2, "--dt-limit", error, range);
      if (!limits)
        return usage(error);
      if ((*limits)[0] > (*limits)[1])
        return usage("--dt-limit: MIN must not exceed MAX, got '" + std::string(v) + "'");
      options.dt.dtMin = (*limits)[0];
      options.dt.dtMax = (*limits)[1];
    } else if (a == "--output-dtype") {
      const char *v = value();
      std::string s = v ? v : "";
      if (s == "float32")
        outputDType = rt::DType::Float32;
      else if (s == "float16")
        outputDType = rt::DType::Float16;
      else if (s == "bfloat16")
        outputDType = rt::DType::BFloat16;
      else
        return usage("--output-dtype must be float32, float16 or bfloat16, got '" + s + "'");
    } else if (a == "--precision") {
      const char *v = value();
      auto p = parseMatmulPrecision(v ? v : "");
      if (!p)
        return usage("--precision must be native (the data's bf16/fp16) or tf32");
      options.precision = *p;
    } else if (a == "--check")
      check = true;
    else if (a == "--decode")
      decode = true;
    else if (a == "--backward")
      backward = true;
    else if (a == "--interpret")
      backendOptions.choice = jit::BackendOptions::Choice::Interpreter;
    else
      return usage("unknown option " + a);
  }

  if (decode && backward)
    return usage("--decode and --backward are two different runs; give one");
  if (backward)
    for (const char *forwardOnly : {"--output-dtype", "--precision"})
      if (given.count(forwardOnly))
        return usage(std::string(forwardOnly) + " does not apply to --backward (its gradients are float32, its "
                                                "products float32)");
  if (decode)
    for (const char *forwardOnly : {"--chunk-size", "--precision"})
      if (given.count(forwardOnly))
        return usage(std::string(forwardOnly) + " does not apply to --decode (the decode step has no chunks and no "
                                                "matrix products)");

  // Everything about the files is checked before the (possibly long) run.
  std::vector<std::string> inputFiles;
  if (!inputDir.empty()) {
    struct stat st;
    if (stat(inputDir.c_str(), &st) != 0)
      return ioError("--inputs: cannot open '" + inputDir + "': " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode))
      return ioError("--inputs: '" + inputDir + "' is not a directory");
    inputFiles = decode ? ssd::decodeInputPaths(inputDir) : ssd::inputPaths(inputDir);
    if (backward)
      for (const char *name : {"/dy.npy", "/dfinal_states.npy"})
        if (struct stat gst; stat((inputDir + name).c_str(), &gst) == 0)
          inputFiles.push_back(inputDir + name);
  }
  const std::string yPath = outDir + "/y.npy", statesPath = outDir + (decode ? "/state.npy" : "/final_states.npy");
  if (!outDir.empty()) {
    std::vector<tools::NamedPath> inputs;
    for (const std::string &in : inputFiles)
      inputs.push_back({in, "the input '" + in + "'"});
    std::vector<tools::NamedPath> outputs = {{yPath, "--out"}, {statesPath, "--out"}};
    if (backward) {
      outputs.clear();
      for (const char *name : kGradientFiles)
        outputs.push_back({outDir + "/" + name + ".npy", "--out"});
    }
    if (std::string clash = tools::checkOutputs(outputs, inputs); !clash.empty())
      return usage(clash);
    if (!tools::makeDirectories(outDir, error) || !tools::checkWritableDirectory(outDir, error))
      return ioError("--out: " + error);
  }

  try {
    jit::Backend backend(backendOptions);
    const bool interpret = !backend.onGpu();
    std::printf("tile-ssd: running the kernels on %s\n",
                backendOptions.choice == jit::BackendOptions::Choice::Interpreter ? "the interpreter (--interpret)"
                                                                                  : backend.description().c_str());
    if (backward)
      return backwardMain(backend, inputDir, outDir, options, check);
    if (decode) {
      DecodeOptions decodeOptions;
      decodeOptions.dt.dtSoftplus = options.dt.dtSoftplus;
      if (given.count("--dt-limit")) { // else the library's default: no clamp
        decodeOptions.dt.dtMin = options.dt.dtMin;
        decodeOptions.dt.dtMax = options.dt.dtMax;
      }
      return decodeMain(backend, inputDir, yPath, outDir.empty() ? "" : statesPath, decodeOptions,
                        outputDType.value_or(rt::DType::Float32), check);
    }
    ssd::Inputs inputs;
    if (inputDir.empty()) {
      // The demo: a small 2.7B-like layer (ragged seqlen), bf16.
      check = true;
      options.dt.dtSoftplus = true;
      ssd::DemoShape shape{1, 1000, 8, 64, 1, 64};
      inputs = ssd::demoInputs(shape);
      std::printf("tile-ssd: demo shape (b, T, H, P, G, N) = (%lld, %lld, %lld, %lld, %lld, %lld), bf16\n",
                  (long long)shape.b, (long long)shape.T, (long long)shape.H, (long long)shape.P, (long long)shape.G,
                  (long long)shape.N);
    } else {
      inputs = ssd::loadInputs(inputDir);
      if (inputs.tensors[unsigned(mamba2::SsdTensor::SeqIdx)])
        std::printf("tile-ssd: packed sequences (seq_idx.npy): the state restarts where seq_idx changes\n");
    }
    options.outputDType = outputDType;

    ssd::RunResult r = ssd::run(backend, inputs, options);
    std::printf("tile-ssd: chunk %lld%s\n", (long long)r.chunkSize, options.chunkSize ? "" : " (the library's choice)");
    printFirstCall(interpret, r.firstCallMs, r.loaded);
    for (const mamba2::SsdKernelChoice &c : r.choices) {
      std::printf("tile-ssd: %-14s ran %s", c.kernel.c_str(), c.str().c_str());
      if (c.ms > 0 && c.config0Ms > 0)
        std::printf(": %.4f ms vs %.4f ms for config 0 when tuned", c.ms, c.config0Ms);
      if (c.source == jit::TuneSource::Tuned)
        std::printf(", tuning took %.0f ms", c.tuneMs);
      std::printf("\n");
    }
    std::printf("tile-ssd: chunk_cumsum %.3f ms, chunk_bmm %.3f ms, fwd_pass_state %.3f ms, compute_out %.3f ms, "
                "end to end %.3f ms%s\n",
                r.timings.chunkCumsumMs, r.timings.chunkBmmMs, r.timings.fwdPassStateMs, r.timings.computeOutMs,
                r.timings.endToEndMs, interpret ? " (interpreted, host wall-clock)" : "");
    if (!outDir.empty())
      if (int rc = writeOutputs(yPath, r.y, outputDType.value_or(rt::DType::Float32), statesPath, r.finalStates,
                                rt::DType::Float32))
        return rc;
    if (check) {
      SsdResult expected = reference(inputs.reference(), options.dt);
      // bf16 products round the computed factors to 8 bits: their bound is the peer's, a few
      // 1e-2 of the output's RMS (atol 5e-2 * RMS for y, 2e-2 * RMS for the states). Every
      // other precision keeps atol 3e-3.
      const auto &x = inputs.tensors[unsigned(SsdTensor::X)];
      const bool bf16Products = x && x->dtype == rt::DType::BFloat16 && options.precision == MatmulPrecision::Native;
      const double yAtol = bf16Products ? 5e-2 * compare(expected.y, expected.y, 0, 0).refRms : 3e-3;
      const double sAtol =
          bf16Products ? 2e-2 * compare(expected.finalStates, expected.finalStates, 0, 0).refRms : 3e-3;
      return reportCheck({{"y", r.y, expected.y, yAtol}, {"final_states", r.finalStates, expected.finalStates, sAtol}});
    }
    return 0;
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "tile-ssd: error: %s\n", e.what());
    return e.kind() == rt::Error::Kind::Io ? 3 : 1;
  }
}
