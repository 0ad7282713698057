// [gpu] A kernel package (every @ct.autotune configuration built ahead of time, as tile-cc
// --all-configs writes it) loads without the compiler, and each configuration launches.
#include "compiler/driver/Compile.h"
#include "runtime/KernelPackage.h"
#include "runtime/Runtime.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

#include <fstream>

using namespace tile;

namespace {

const char *kSource = R"py(import cuda.tile as ct

@ct.autotune(configs=[dict(B=128), dict(B=256)], key=["n"])
@ct.kernel
def scale(x, y, alpha, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, (i,), ct.load(x, (i,), (B,), padding_mode=ct.PaddingMode.ZERO) * alpha)
)py";

} // namespace

TEST_CASE("gpu: a kernel package loads every configuration and each one runs", "[gpu][package]") {
  TILE_REQUIRE_GPU(device);
  char dir[] = "/tmp/tile-package-XXXXXX";
  REQUIRE(mkdtemp(dir));
  rt::PackageManifest manifest;
  manifest.kernel = "scale";
  manifest.arch = "sm_80";
  for (unsigned config = 0; config < 2; ++config) {
    frontend::Specialization spec;
    spec.kernel = "scale";
    spec.args = {{"x", {"float32", 1}}, {"y", {"float32", 1}}, {"alpha", {"float32", 0}}};
    spec.config = config;
    driver::CompileOptions options;
    options.arch = "sm_80"; // PTX the driver compiles for any newer device
    options.ptxOnly = true;
    driver::CompiledKernel compiled;
    std::string diagnostics;
    REQUIRE(driver::compileKernel(kSource, "scale.py", spec, options, compiled, diagnostics));
    const std::string stem = "scale.config" + std::to_string(config);
    std::ofstream(std::string(dir) + "/" + stem + ".ptx") << compiled.ptx;
    std::ofstream(std::string(dir) + "/" + stem + ".json") << compiled.metadata;
    manifest.entries.push_back({config, {{"B", config ? "256" : "128"}}, stem + ".ptx", stem + ".json", ""});
  }
  manifest.entries.push_back({2, {{"B", "48"}}, "", "", "not a power of two"});
  std::ofstream(std::string(dir) + "/manifest.json") << rt::toJson(manifest);

  std::vector<rt::PackagedKernel> kernels = rt::loadKernelPackage(device, dir);
  REQUIRE(kernels.size() == 2);
  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.25f * float(i);
  auto dx = rt::DeviceBuffer::fromHost(device, x);
  for (const rt::PackagedKernel &k : kernels) {
    INFO("config " << k.config);
    const int block = k.config ? 256 : 128;
    CHECK(k.constants.at("B") == std::to_string(block));
    rt::DeviceBuffer dy(device, n * sizeof(float));
    rt::launch(k.kernel, rt::Grid((n + block - 1) / block),
               {dx.array(rt::DType::Float32, {n}), dy.array(rt::DType::Float32, {n}), 4.0f});
    device.synchronize();
    std::vector<float> y = dy.toHost<float>();
    for (int i = 0; i < n; ++i)
      REQUIRE(y[i] == float(i));
  }
}
