// tile-ssd: the Mamba-2 SSD forward pass on .npy files.
//
//   tile-ssd --inputs DIR [--out DIR] [--chunk-size 256] [--dt-softplus] [--dt-limit MIN,MAX]
//            [--output-dtype float32|float16|bfloat16] [--check]
//   tile-ssd                          # the built-in demo shape, checked against the reference
//
// DIR holds x.npy, dt.npy, A.npy, B.npy, C.npy and optionally D.npy, z.npy, dt_bias.npy,
// initial_states.npy (float32, float16 or bfloat16 — '<V2' as ml_dtypes writes it; float64 is
// taken as float32). Writes y.npy and final_states.npy to --out (float32 unless asked). With
// --check, compares with the float64 reference and prints the max abs error, the error relative
// to the output's RMS and the count outside atol 3e-3 + rtol 1e-2 * |ref|.

#include "kernels/mamba2/ErrorMetrics.h"
#include "kernels/mamba2/Reference.h"
#include "kernels/mamba2/SsdForward.h"
#include "runtime/npy/Npy.h"
#include "runtime/npy/SmallFloat.h"

#include <cstdio>
#include <cstring>
#include <random>
#include <sys/stat.h>

using namespace tile;
using namespace tile::mamba2;

namespace {

// An input on the device, and its float64 values for the reference.
struct Loaded {
  rt::DeviceBuffer buffer;
  rt::ArrayArg view;
  Tensor host;
};

Loaded upload(const rt::Device &device, const std::vector<int64_t> &shape, const std::vector<double> &values,
              rt::DType dtype) {
  Loaded l;
  l.host.shape = shape;
  l.host.data.resize(values.size());
  std::vector<uint8_t> bytes(values.size() * rt::dtypeSize(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    double v = rt::roundToDType(values[i], dtype);
    l.host.data[i] = v;
    if (dtype == rt::DType::Float32) {
      float f = static_cast<float>(v);
      std::memcpy(bytes.data() + 4 * i, &f, 4);
    } else {
      uint16_t bits = dtype == rt::DType::BFloat16 ? rt::bfloat16Bits(v) : rt::float16Bits(v);
      std::memcpy(bytes.data() + 2 * i, &bits, 2);
    }
  }
  l.buffer = rt::DeviceBuffer(device, std::max<size_t>(bytes.size(), 1));
  l.buffer.copyFromHost(bytes.data(), bytes.size());
  l.view = l.buffer.array(dtype, shape);
  return l;
}

std::optional<Loaded> loadNpy(const rt::Device &device, const std::string &dir, const char *name, bool required) {
  std::string path = dir + "/" + name + ".npy";
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (required)
      throw rt::Error(rt::Error::Kind::Io, "missing required input " + path);
    return std::nullopt;
  }
  rt::NpyArray a = rt::readNpy(path);
  rt::DType dtype = a.dtype == rt::DType::Float16 || a.dtype == rt::DType::BFloat16 ? a.dtype : rt::DType::Float32;
  return upload(device, a.shape, a.values, dtype);
}

std::vector<double> download(const rt::DeviceBuffer &buffer, rt::DType dtype, int64_t n) {
  std::vector<double> out(n);
  std::vector<uint8_t> bytes(n * rt::dtypeSize(dtype));
  buffer.copyToHost(bytes.data(), bytes.size());
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == rt::DType::Float32) {
      float f;
      std::memcpy(&f, bytes.data() + 4 * i, 4);
      out[i] = f;
    } else {
      uint16_t bits;
      std::memcpy(&bits, bytes.data() + 2 * i, 2);
      out[i] = dtype == rt::DType::BFloat16 ? rt::fromBFloat16Bits(bits) : rt::fromFloat16Bits(bits);
    }
  }
  return out;
}

int usage(const char *message) {
  std::fprintf(stderr, "tile-ssd: %s\nusage: tile-ssd [--inputs DIR] [--out DIR] [--chunk-size N] [--dt-softplus] "
                       "[--dt-limit MIN,MAX] [--output-dtype float32|float16|bfloat16] [--check]\n", message);
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  std::string inputs, outDir;
  ForwardOptions options;
  bool check = false;
  std::optional<rt::DType> outputDType;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--inputs") { const char *v = value(); if (!v) return usage("--inputs needs a directory"); inputs = v; }
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
    } else if (a == "--check") check = true;
    else return usage(("unknown option " + a).c_str());
  }
  std::string why;
  if (!rt::Device::available(0, &why)) {
    std::printf("tile-ssd: no GPU here (%s); nothing was run\n", why.c_str());
    return 77;
  }
  try {
    rt::Device device(0);
    jit::Jit jit(device);
    std::vector<Loaded> keep;
    SsdDeviceInputs in;
    SsdInputs ref;
    std::optional<Loaded> x, dt, A, B, C, D, z, bias, init;
    if (inputs.empty()) {
      // The demo: a small 2.7B-like layer (b=1, T=1000 (ragged), H=8, P=64, G=1, N=64), bf16.
      check = true;
      options.dt.dtSoftplus = true;
      std::mt19937 rng(3);
      auto random = [&](std::vector<int64_t> shape, double lo, double hi) {
        std::uniform_real_distribution<double> d(lo, hi);
        std::vector<double> v(numElements(shape));
        for (double &e : v) e = d(rng);
        return v;
      };
      int64_t b = 1, T = 1000, H = 8, P = 64, G = 1, N = 64;
      auto bf = rt::DType::BFloat16, f = rt::DType::Float32;
      x = upload(device, {b, T, H, P}, random({b, T, H, P}, -1, 1), bf);
      dt = upload(device, {b, T, H}, random({b, T, H}, -4, 0), f);
      A = upload(device, {H}, random({H}, -2, -0.5), f);
      B = upload(device, {b, T, G, N}, random({b, T, G, N}, -1, 1), bf);
      C = upload(device, {b, T, G, N}, random({b, T, G, N}, -1, 1), bf);
      D = upload(device, {H}, random({H}, 0, 1), f);
      std::printf("tile-ssd: demo shape (b, T, H, P, G, N) = (1, 1000, 8, 64, 1, 64), bf16, chunk %d\n",
                  options.chunkSize);
    } else {
      x = loadNpy(device, inputs, "x", true);
      dt = loadNpy(device, inputs, "dt", true);
      A = loadNpy(device, inputs, "A", true);
      B = loadNpy(device, inputs, "B", true);
      C = loadNpy(device, inputs, "C", true);
      D = loadNpy(device, inputs, "D", false);
      z = loadNpy(device, inputs, "z", false);
      bias = loadNpy(device, inputs, "dt_bias", false);
      init = loadNpy(device, inputs, "initial_states", false);
    }
    in = {x->view, dt->view, A->view, B->view, C->view, {}, {}, {}, {}};
    ref = {x->host, dt->host, A->host, B->host, C->host, {}, {}, {}, {}};
    if (D) in.D = D->view, ref.D = D->host.view();
    if (z) in.z = z->view, ref.z = z->host.view();
    if (bias) in.dtBias = bias->view, ref.dtBias = bias->host.view();
    if (init) in.initialStates = init->view, ref.initialStates = init->host.view();
    options.outputDType = outputDType;

    SsdTimings timings;
    ssdForward(jit, in, options);  // compiles (or loads from the cache)
    SsdOutputs out = ssdForward(jit, in, options, nullptr, &timings);
    std::printf("tile-ssd: chunk_cumsum %.3f ms, fwd_pass_state %.3f ms, compute_out %.3f ms, total %.3f ms\n",
                timings.chunkCumsumMs, timings.fwdPassStateMs, timings.computeOutMs, timings.totalMs());
    std::vector<double> y = download(out.y, out.yView.dtype, numElements(out.yView.shape));
    std::vector<double> fs = download(out.finalStates, rt::DType::Float32, numElements(out.finalStatesView.shape));
    if (!outDir.empty()) {
      mkdir(outDir.c_str(), 0755);
      rt::writeNpy(outDir + "/y.npy", out.yView.shape, y, outputDType.value_or(rt::DType::Float32));
      rt::writeNpy(outDir + "/final_states.npy", out.finalStatesView.shape, fs, rt::DType::Float32);
      std::printf("tile-ssd: wrote %s/y.npy and %s/final_states.npy\n", outDir.c_str(), outDir.c_str());
    }
    if (check) {
      SsdResult expected = reference(ref, options.dt);
      Tensor yt(out.yView.shape), ft(out.finalStatesView.shape);
      yt.data = y;
      ft.data = fs;
      std::printf("tile-ssd: y            %s\n", compare(yt, expected.y, 3e-3, 1e-2).str(yt.shape).c_str());
      std::printf("tile-ssd: final_states %s\n", compare(ft, expected.finalStates, 3e-3, 1e-2).str(ft.shape).c_str());
    }
    return 0;
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "tile-ssd: %s\n", e.what());
    return 1;
  }
}
