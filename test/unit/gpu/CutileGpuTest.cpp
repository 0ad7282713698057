// [gpu] The constructs cuTile files use that code generation gained with them: a spin lock
// built from atomic_cas (acquire) and atomic_xchg (release) across many blocks, loops left by
// break and return, and a persistent loop with a run-time step. Each runs on the GPU and on
// the interpreter, and both must give the values worked out here.

#include "runtime/jit/Backend.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace tile;
using namespace tile::jit;

namespace {

const char *kSource = R"py(import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def locked_sum(lock, total):
    while ct.atomic_cas(lock, 0, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    ct.store(total, (0,), ct.load(total, (0,), (1,)) + ct.bid(0) + 1)
    ct.atomic_xchg(lock, 0, 0, memory_order=ct.MemoryOrder.RELEASE)


@ct.kernel
def first_over(x, out, limit: float, T: ConstInt):
    i = 0
    found = -1
    while i < ct.num_tiles(x, axis=0, shape=(T,)):
        if ct.sum(ct.load(x, (i,), (T,))) > limit:
            found = i
            break
        i += 1
    if found < 0:
        return
    ct.store(out, (ct.bid(0),), ct.full((1,), found, dtype=ct.int32))


@ct.kernel
def strided(x, out, T: ConstInt):
    for t in range(ct.bid(0), ct.num_tiles(x, axis=0, shape=(T,)), ct.num_blocks(0)):
        if t % 3 == 2:
            continue
        ct.store(out, (t,), ct.load(x, (t,), (T,)) + 1.0)
)py";

KernelRequest request(const std::string &kernel, std::map<std::string, frontend::ConstantValue> constants,
                      std::map<std::string, frontend::ArgType> args) {
  KernelRequest r;
  r.source = kSource;
  r.fileName = "cutile_gpu.py";
  r.kernel = kernel;
  r.constants = std::move(constants);
  r.args = std::move(args);
  return r;
}

Backend make(BackendOptions::Choice choice) {
  BackendOptions options;
  options.choice = choice;
  options.diskCache = DiskCache("");
  return Backend(options);
}

std::vector<int32_t> lockedSum(Backend &b, int64_t blocks) {
  KernelHandle k = b.compile(request("locked_sum", {}, {{"lock", {"int32", 1}}, {"total", {"int32", 1}}}));
  Buffer lock = b.upload(std::vector<int32_t>{0}), total = b.upload(std::vector<int32_t>{0});
  b.launch(k, rt::Grid(blocks), {lock.array(rt::DType::Int32, {1}), total.array(rt::DType::Int32, {1})});
  b.synchronize();
  std::vector<int32_t> r = total.toHost<int32_t>();
  r.push_back(lock.toHost<int32_t>()[0]);
  return r;
}

std::vector<int32_t> firstOver(Backend &b, float limit) {
  std::vector<float> x(1024);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 7);
  KernelHandle k = b.compile(request("first_over", {{"T", int64_t(128)}},
                                     {{"x", {"float32", 1}}, {"out", {"int32", 1}}, {"limit", {"float32", 0}}}));
  Buffer dx = b.upload(x), out = b.upload(std::vector<int32_t>(4, -7));
  b.launch(k, rt::Grid(4), {dx.array(rt::DType::Float32, {1024}), out.array(rt::DType::Int32, {4}), limit});
  b.synchronize();
  return out.toHost<int32_t>();
}

std::vector<float> strided(Backend &b) {
  std::vector<float> x(64 * 20);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i);
  KernelHandle k =
      b.compile(request("strided", {{"T", int64_t(64)}}, {{"x", {"float32", 1}}, {"out", {"float32", 1}}}));
  Buffer dx = b.upload(x), out = b.upload(std::vector<float>(x.size(), -1.0f));
  int64_t n = int64_t(x.size());
  b.launch(k, rt::Grid(3), {dx.array(rt::DType::Float32, {n}), out.array(rt::DType::Float32, {n})});
  b.synchronize();
  return out.toHost<float>();
}

} // namespace

TEST_CASE("gpu: cuTile-style locks, early exits and persistent loops agree with the interpreter",
          "[gpu][codegen][cutile]") {
  TILE_REQUIRE_GPU(device);
  Backend gpu = make(BackendOptions::Choice::Gpu), cpu = make(BackendOptions::Choice::Interpreter);
  // 256 blocks add 1 + 2 + ... + 256 under the lock, which ends free.
  for (Backend *b : {&gpu, &cpu}) {
    INFO("backend " << backendName(b->kind()));
    CHECK(lockedSum(*b, 256) == std::vector<int32_t>{256 * 257 / 2, 0});
    // Tiles of 128 elements of i % 7 hold 18 whole cycles (378) and two more elements: they
    // sum to 379, 383, 387, ...; the first over 384.5 is tile 2. A limit of 1000 is never
    // reached, so every block returns before its store.
    std::vector<int32_t> hit = firstOver(*b, 384.5f);
    CHECK(hit == std::vector<int32_t>(4, 2));
    CHECK(firstOver(*b, 1000.0f) == std::vector<int32_t>(4, -7));
    std::vector<float> s = strided(*b);
    for (size_t i = 0; i < s.size(); ++i) {
      INFO("element " << i);
      REQUIRE(s[i] == ((i / 64) % 3 == 2 ? -1.0f : float(i) + 1.0f));
    }
  }
}
