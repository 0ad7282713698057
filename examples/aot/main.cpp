// An application of a kernel compiled ahead of time (CMakeLists.txt): a bf16 GEMM launched through
// the generated launch_matmul, checked against a host product, and one launch with a wrong
// argument, which the launcher refuses with the runtime's own message. It links TileCC::runtime
// alone. Without a GPU it says so and exits 0 (nothing can run; 1 with TILE_TEST_REQUIRE_GPU=1);
// exit 1 when a result is wrong.
#include "matmul_launcher.h"

#include "runtime/DeviceBuffer.h"
#include "runtime/Error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using namespace tile;

// The float a bf16 bit pattern holds.
float fromBF16(std::uint16_t bits) {
  const std::uint32_t word = std::uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &word, sizeof f);
  return f;
}

std::int64_t constant(const rt::KernelMetadata &md, const char *name) {
  return std::get<std::int64_t>(md.constants.at(name));
}

} // namespace

int main() {
  const rt::KernelMetadata &md = aot::matmul_metadata(); // no device needed
  const std::int64_t BM = constant(md, "BM"), BN = constant(md, "BN");
  std::printf("tile-aot-example: kernel '%s' compiled ahead of time (BM=%lld BN=%lld, %d threads per block)\n",
              md.name.c_str(), (long long)BM, (long long)BN, md.threadsPerBlock);
  std::string why;
  if (!rt::Device::available(0, &why)) {
    std::printf("tile-aot-example: no GPU (%s): the launcher needs one; nothing to run\n", why.c_str());
    // scripts/gpu-run.sh sets TILE_TEST_REQUIRE_GPU=1: there a missing GPU is a failure.
    const char *require = std::getenv("TILE_TEST_REQUIRE_GPU");
    return require && std::strcmp(require, "1") == 0 ? 1 : 0;
  }
  try {
    rt::Device device(0);
    rt::Stream stream(device);
    std::printf("tile-aot-example: on %s (compute capability %d.%d)\n", device.name().c_str(),
                device.computeCapabilityMajor(), device.computeCapabilityMinor());
    const std::int64_t M = 200, N = 150, K = 96; // ragged: partial blocks at every edge
    std::vector<std::uint16_t> a(M * K), b(K * N);
    for (std::int64_t i = 0; i < M * K; ++i)
      a[i] = std::uint16_t(rt::Scalar::bfloat16(float(i % 13) * 0.125f - 0.75f).bits());
    for (std::int64_t i = 0; i < K * N; ++i)
      b[i] = std::uint16_t(rt::Scalar::bfloat16(float(i % 7) * 0.25f - 0.5f).bits());
    rt::DeviceBuffer da = rt::DeviceBuffer::fromHost(device, a), db = rt::DeviceBuffer::fromHost(device, b);
    rt::DeviceBuffer dc(device, M * N * sizeof(float));
    const rt::Grid grid((M + BM - 1) / BM, (N + BN - 1) / BN);
    aot::launch_matmul(stream, grid, da.array(rt::DType::BFloat16, {M, K}), db.array(rt::DType::BFloat16, {K, N}),
                       dc.array(rt::DType::Float32, {M, N}));
    stream.synchronize();
    const std::vector<float> c = dc.toHost<float>();
    double worst = 0;
    for (std::int64_t i = 0; i < M; ++i)
      for (std::int64_t j = 0; j < N; ++j) {
        double ref = 0;
        for (std::int64_t k = 0; k < K; ++k)
          ref += double(fromBF16(a[i * K + k])) * double(fromBF16(b[k * N + j]));
        worst = std::max(worst, std::abs(double(c[i * N + j]) - ref));
      }
    // Products of multiples of 1/8 and 1/4 with f32 sums of at most 96 terms: exact in
    // principle; the bound leaves room for the Tensor Cores' accumulation order only.
    const bool ok = worst <= 1e-3;
    std::printf("tile-aot-example: c = a @ b (%lld x %lld x %lld) on the '%s' image: max abs error %g: %s\n",
                (long long)M, (long long)N, (long long)K, aot::matmul_kernel(device).metadata().arch.c_str(), worst,
                ok ? "correct" : "WRONG");

    // The launcher checks its arguments as tile::rt::launch does.
    bool refused = false;
    try {
      aot::launch_matmul(stream, grid, da.array(rt::DType::BFloat16, {M, K}), db.array(rt::DType::BFloat16, {K, N}),
                         dc.array(rt::DType::BFloat16, {M, N}));
    } catch (const rt::Error &e) {
      refused = e.kind() == rt::Error::Kind::InvalidArgument && std::strstr(e.what(), "'c'") != nullptr;
      std::printf("tile-aot-example: a wrong argument is refused: %s\n", e.what());
    }
    if (!refused)
      std::printf("tile-aot-example: a bfloat16 'c' was NOT refused\n");
    return ok && refused ? 0 : 1;
  } catch (const rt::Error &e) {
    std::printf("tile-aot-example: %s\n", e.what());
    return 1;
  }
}
