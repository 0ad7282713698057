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

// Programmatic dependent launch: a chain of kernels that each wait for the one before
// (ct.grid_dependency_control_wait) and let the next start early; each reads what the previous
// one wrote, so an early start that did not wait would read stale values. Many rounds back to
// back on one stream, then the result against the count of rounds.
TEST_CASE("gpu: kernels launched with programmatic dependent launch see their predecessors' writes",
          "[gpu][jit][backend][pdl]") {
  TILE_REQUIRE_GPU(device);
  Backend gpu = make(BackendOptions::Choice::Gpu);
  KernelRequest r;
  r.fileName = "pdl.py";
  r.source = R"py(import cuda.tile as ct


@ct.kernel
def step(src, dst, n: int):
    ct.grid_dependency_control_wait()
    ct.grid_dependency_control_launch_dependents()
    acc = ct.load(src, (ct.bid(0),), (256,))
    for i in range(n):
        acc = acc * 1.0 + 0.0
    ct.store(dst, (ct.bid(0),), acc + 1.0)
)py";
  r.kernel = "step";
  r.args = {{"src", {"float32", 1, true}}, {"dst", {"float32", 1, true}}, {"n", {"int32", 0}}};
  KernelHandle k = gpu.compile(r);
  const int64_t n = 256 * 528;
  std::vector<float> zeros(n, 0.0f);
  Buffer a = gpu.upload(zeros), b = gpu.upload(zeros);
  rt::ArrayArg aa = a.array(rt::DType::Float32, {n}), bb = b.array(rt::DType::Float32, {n});
  const int rounds = 200;
  for (int i = 0; i < rounds; ++i)
    gpu.launch(k, rt::Grid(n / 256), {i % 2 ? bb : aa, i % 2 ? aa : bb, int32_t(1 + i % 7)});
  std::vector<float> out = (rounds % 2 ? b : a).toHost<float>();
  for (int64_t i = 0; i < n; ++i) {
    INFO("element " << i);
    REQUIRE(out[i] == float(rounds));
  }
}

// num_ctas=N (sm_90+): the launch groups the blocks into clusters of N along the first grid
// axis N divides, and launches them unclustered when it divides none; 16 is beyond the
// portable 8 (the runtime opts the kernel in). Every block writes its own coordinates, so a
// launch that dropped or repeated blocks shows.
TEST_CASE("gpu: kernels with num_ctas launch in clusters wherever the grid allows", "[gpu][jit][backend][cluster]") {
  TILE_REQUIRE_GPU(device);
  if (device.computeCapabilityMajor() < 9)
    TILE_SKIP("thread-block clusters need sm_90");
  Backend gpu = make(BackendOptions::Choice::Gpu);
  for (int numCtas : {2, 16}) {
    KernelRequest r;
    r.fileName = "clusters.py";
    r.source = "import cuda.tile as ct\n\n\n@ct.kernel(num_ctas=" + std::to_string(numCtas) +
               ")\ndef coords(out):\n    v = ct.bid(0) * 1000 + ct.bid(1) * 10 + ct.bid(2)\n"
               "    ct.store(out, (ct.bid(2), ct.bid(1), ct.bid(0)), ct.full((1, 1, 1), v, dtype=ct.int32))\n";
    r.kernel = "coords";
    r.args = {{"out", {"int32", 3, false}}};
    KernelHandle k = gpu.compile(r);
    for (rt::Grid grid : {rt::Grid(32), rt::Grid(3, 32), rt::Grid(3, 5, 32), rt::Grid(3, 5, 7)}) {
      INFO("num_ctas " << numCtas << ", grid (" << grid.x << ", " << grid.y << ", " << grid.z << ")");
      const int64_t n = grid.x * grid.y * grid.z;
      std::vector<int32_t> init(n, -1);
      Buffer out = gpu.upload(init);
      gpu.launch(k, grid, {out.array(rt::DType::Int32, {grid.z, grid.y, grid.x})});
      std::vector<int32_t> got = out.toHost<int32_t>();
      for (int64_t z = 0; z < grid.z; ++z)
        for (int64_t y = 0; y < grid.y; ++y)
          for (int64_t x = 0; x < grid.x; ++x)
            REQUIRE(got[(z * grid.y + y) * grid.x + x] == int32_t(x * 1000 + y * 10 + z));
    }
  }
}
