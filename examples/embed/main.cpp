// An application embedding tile-cc through its installed CMake package (TileCC::jit and
// TileCC::mamba2): it compiles a kernel from source at run time and launches it, then runs the
// Mamba-2 SSD forward pass on a small problem, and checks both against host computations. The
// backend is the GPU when there is one, else the CPU interpreter (TILE_INTERPRET=1 forces it);
// the program says which. Exit 0 when every result is right, 1 otherwise (and, with
// TILE_TEST_REQUIRE_GPU=1, when there is no GPU).
#include "kernels/mamba2/ErrorMetrics.h"
#include "kernels/mamba2/Reference.h"
#include "kernels/mamba2/SsdForward.h"
#include "runtime/jit/Backend.h"
#include "tile/Version.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

using namespace tile;

const char *kSource = R"py(
import cuda.tile as ct

@ct.kernel
def scale_rows(x, s, out, bias, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    k = ct.load(s, index=(i,), shape=(TM,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i, j), tile=t * k[:, None] + bias)
)py";

// out = x * s[:, None] + bias on a ragged 100 x 70 array (the last blocks are partial).
bool runScaleRows(jit::Backend &backend) {
  jit::KernelRequest request;
  request.source = kSource;
  request.fileName = "scale_rows.py";
  request.kernel = "scale_rows";
  request.constants = {{"TM", int64_t(32)}, {"TN", int64_t(32)}};
  request.args = {{"x", {"float32", 2}}, {"s", {"float32", 1}}, {"out", {"float32", 2}}, {"bias", {"float32", 0}}};
  jit::KernelHandle kernel = backend.compile(request);

  const int64_t m = 100, n = 70;
  std::vector<float> x(m * n), s(m);
  for (int64_t i = 0; i < m * n; ++i)
    x[i] = float(i % 17) - 8.0f;
  for (int64_t i = 0; i < m; ++i)
    s[i] = 0.25f * float(i % 5 + 1);
  jit::Buffer dx = backend.upload(x), ds = backend.upload(s), out = backend.allocate(m * n * sizeof(float));
  backend.launch(kernel, rt::Grid((m + 31) / 32, (n + 31) / 32),
                 {dx.array(rt::DType::Float32, {m, n}), ds.array(rt::DType::Float32, {m}),
                  out.array(rt::DType::Float32, {m, n}), 0.5f});
  backend.synchronize();
  const std::vector<float> result = out.toHost<float>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const float expected = x[i * n + j] * s[i] + 0.5f;
      if (result[i * n + j] != expected) {
        std::printf("scale_rows: wrong result at (%lld, %lld): %g, expected %g\n", (long long)i, (long long)j,
                    result[i * n + j], expected);
        return false;
      }
    }
  std::printf("scale_rows on a %lld x %lld array: correct\n", (long long)m, (long long)n);
  return true;
}

// ssdForward on fp32 inputs (b=1, T=50: a ragged last chunk; H=4, P=16, G=2, N=16, D and z),
// against the float64 sequential recurrence.
bool runSsd(jit::Backend &backend) {
  const int64_t b = 1, T = 50, H = 4, P = 16, G = 2, N = 16;
  std::mt19937 rng(7);
  auto random = [&](mamba2::Shape shape, double lo, double hi, std::vector<float> &values) {
    mamba2::Tensor t(std::move(shape));
    std::uniform_real_distribution<float> dist{float(lo), float(hi)};
    values.resize(t.data.size());
    for (size_t i = 0; i < t.data.size(); ++i)
      t.data[i] = values[i] = dist(rng); // the reference sees exactly the fp32 values
    return t;
  };
  std::vector<float> vx, vdt, vA, vB, vC, vD, vz;
  const mamba2::Tensor x = random({b, T, H, P}, -1, 1, vx), dt = random({b, T, H}, 0.01, 0.4, vdt),
                       A = random({H}, -2, -0.2, vA), B = random({b, T, G, N}, -1, 1, vB),
                       C = random({b, T, G, N}, -1, 1, vC), D = random({H}, -1, 1, vD),
                       z = random({b, T, H, P}, -2, 2, vz);
  jit::Buffer bx = backend.upload(vx), bdt = backend.upload(vdt), bA = backend.upload(vA), bB = backend.upload(vB),
              bC = backend.upload(vC), bD = backend.upload(vD), bz = backend.upload(vz);
  const rt::DType f32 = rt::DType::Float32;
  mamba2::SsdArrayInputs in{bx.array(f32, x.shape),
                            bdt.array(f32, dt.shape),
                            bA.array(f32, A.shape),
                            bB.array(f32, B.shape),
                            bC.array(f32, C.shape),
                            bD.array(f32, D.shape),
                            bz.array(f32, z.shape),
                            {},
                            {}};
  mamba2::ForwardOptions options;
  options.chunkSize = 16;
  const mamba2::SsdOutputs out = mamba2::ssdForward(backend, in, options);

  mamba2::SsdInputs ref{x, dt, A, B, C, D.view(), z.view(), {}, {}};
  const mamba2::SsdResult expected = mamba2::reference(ref, options.dt);
  const mamba2::Tensor y = out.y.values(), states = out.finalStates.values();
  const mamba2::ErrorStats ey = mamba2::compare(y, expected.y, 2e-3, 2e-3);
  const mamba2::ErrorStats es = mamba2::compare(states, expected.finalStates, 2e-3, 2e-3);
  std::printf("ssdForward y:            %s\n", ey.str(y.shape).c_str());
  std::printf("ssdForward final_states: %s\n", es.str(states.shape).c_str());
  const bool ok = ey.outside == 0 && es.outside == 0 && ey.relToRms < 2e-3 && es.relToRms < 2e-3;
  std::printf("ssdForward (b=%lld T=%lld H=%lld P=%lld G=%lld N=%lld): %s\n", (long long)b, (long long)T, (long long)H,
              (long long)P, (long long)G, (long long)N, ok ? "matches the reference" : "WRONG");
  return ok;
}

} // namespace

int main() {
  try {
    jit::Backend backend; // the GPU, or the interpreter without one (or with TILE_INTERPRET=1)
    std::printf("tile-embed-example (TileCC %s): running on %s\n", TILE_CC_VERSION_STRING,
                backend.description().c_str());
    // scripts/gpu-run.sh sets TILE_TEST_REQUIRE_GPU=1: there the interpreter is a failure.
    const char *require = std::getenv("TILE_TEST_REQUIRE_GPU");
    if (require && std::strcmp(require, "1") == 0 && backend.kind() != jit::BackendKind::Gpu) {
      std::printf("tile-embed-example: TILE_TEST_REQUIRE_GPU is set but there is no GPU\n");
      return 1;
    }
    const bool ok = runScaleRows(backend) & runSsd(backend);
    std::printf("tile-embed-example: %s\n", ok ? "all results correct" : "FAILED");
    return ok ? 0 : 1;
  } catch (const rt::Error &e) {
    std::printf("tile-embed-example: %s\n", e.what());
    return 1;
  }
}
