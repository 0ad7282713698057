// [gpu] jit::Backend: the same test bodies (test/unit/jit/BackendTestUtil.h) on the GPU and on
// the interpreter, results compared element by element — the point of one launch API is that
// switching backends changes nothing but where the kernel runs.

#include "runtime/jit/Backend.h"
#include "test/unit/jit/BackendTestUtil.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

using namespace tile;
using namespace tile::jit;

namespace {

Backend make(BackendOptions::Choice choice) {
  BackendOptions options;
  options.choice = choice;
  options.diskCache = DiskCache("");
  return Backend(options);
}

} // namespace

TEST_CASE("gpu: the same launches on the GPU and the interpreter agree", "[gpu][jit][backend]") {
  TILE_REQUIRE_GPU(device);
  Backend gpu = make(BackendOptions::Choice::Gpu), cpu = make(BackendOptions::Choice::Interpreter);
  REQUIRE(gpu.kind() == BackendKind::Gpu);
  REQUIRE(gpu.jit() != nullptr);
  CHECK_THAT(gpu.description(), Catch::StartsWith("the GPU (" + device.name()));
  REQUIRE(cpu.kind() == BackendKind::Interpreter);

  const int64_t n = 5000;
  std::vector<float> g = test::runSaxpy(gpu, n), c = test::runSaxpy(cpu, n);
  REQUIRE(g.size() == c.size());
  for (size_t i = 0; i < g.size(); ++i) {
    INFO("saxpy element " << i);
    REQUIRE(g[i] == c[i]);
  }
  std::vector<uint16_t> gs = test::runScaleRows(gpu, 37, 70), cs = test::runScaleRows(cpu, 37, 70);
  REQUIRE(gs.size() == cs.size());
  for (size_t i = 0; i < gs.size(); ++i) {
    INFO("scale_rows element " << i);
    REQUIRE(gs[i] == cs[i]);
  }
}

TEST_CASE("gpu: both backends refuse the same bad arguments with the same message", "[gpu][jit][backend]") {
  TILE_REQUIRE_GPU(device);
  for (Backend backend : {make(BackendOptions::Choice::Gpu), make(BackendOptions::Choice::Interpreter)}) {
    INFO("backend " << backendName(backend.kind()));
    KernelHandle k = backend.compile(test::saxpyRequest());
    Buffer x = backend.allocate(1024), out = backend.allocate(1024);
    rt::ArrayArg ax = x.array(rt::DType::Float32, {256});
    CHECK_THROWS_WITH(backend.launch(k, rt::Grid(2), {ax, ax, out.array(rt::DType::Float64, {128}), 2.0f}),
                      "launch of 'saxpy': argument 2 ('out'): dtype is float64, the kernel expects float32");
    CHECK_THROWS_WITH(backend.launch(k, rt::Grid(2), {ax, x.array(rt::DType::Float32, {16, 16}), ax, 2.0f}),
                      "launch of 'saxpy': argument 1 ('y'): rank is 2, the kernel expects 1");
  }
  // A kernel compiled by one backend is not launchable on the other.
  Backend gpu = make(BackendOptions::Choice::Gpu), cpu = make(BackendOptions::Choice::Interpreter);
  KernelHandle onGpu = gpu.compile(test::saxpyRequest());
  CHECK_THROWS_WITH(cpu.launch(onGpu, rt::Grid(1), {}),
                    Catch::Contains("compiled by the GPU backend, this is the interpreter backend"));
}
