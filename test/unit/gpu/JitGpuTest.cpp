// [gpu] The JIT end to end: compile from a string, the memory and disk caches (hits, a second
// JIT instance, a corrupt entry), the PTX-through-the-driver path, compile errors, and an
// array of more than 2^31 elements (64-bit offsets).

#include "runtime/jit/Jit.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <sys/stat.h>

using namespace tile;

namespace {

const char *kScale = R"py(import cuda.tile as ct

@ct.kernel
def scale(x, y, alpha, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (ct.bid(0),), t * alpha)
)py";

jit::KernelRequest scaleRequest() {
  jit::KernelRequest r;
  r.source = kScale;
  r.fileName = "scale.py";
  r.kernel = "scale";
  r.constants["B"] = int64_t(256);
  r.args = {{"x", {"float32", 1}}, {"y", {"float32", 1}}, {"alpha", {"float32", 0}}};
  return r;
}

void checkScale(rt::Device &device, const rt::Kernel &kernel) {
  const int n = 1000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.5f * i;
  auto dx = rt::DeviceBuffer::fromHost(device, x);
  rt::DeviceBuffer dy(device, n * sizeof(float));
  rt::launch(kernel, rt::Grid((n + 255) / 256),
             {dx.array(rt::DType::Float32, {n}), dy.array(rt::DType::Float32, {n}), 3.0f});
  device.synchronize();
  std::vector<float> y = dy.toHost<float>();
  for (int i = 0; i < n; ++i)
    REQUIRE(y[i] == 1.5f * i);
}

std::string tempDir() {
  char dir[] = "/tmp/tile-jit-test-XXXXXX";
  REQUIRE(mkdtemp(dir));
  return dir;
}

} // namespace

TEST_CASE("gpu: the JIT compiles, caches in memory and on disk, and rebuilds corrupt entries", "[gpu][jit]") {
  TILE_REQUIRE_GPU(device);
  std::string dir = tempDir();
  {
    jit::Jit jit(device, {}, jit::DiskCache(dir));
    checkScale(device, jit.compile(scaleRequest()));
    checkScale(device, jit.compile(scaleRequest()));
    CHECK(jit.stats().compiles == 1);
    CHECK(jit.stats().memoryHits == 1);
  }
  {
    jit::Jit second(device, {}, jit::DiskCache(dir));
    auto start = std::chrono::steady_clock::now();
    rt::Kernel k = second.compile(scaleRequest());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("jit: kernel from the disk cache in %.2f ms\n", ms);
    checkScale(device, k);
    CHECK(second.stats().diskHits == 1);
    CHECK(second.stats().compiles == 0);
  }
  {
    std::string path = jit::DiskCache(dir).pathFor(
        jit::cacheKey(scaleRequest(), {},
                      jit::archForComputeCapability(device.computeCapabilityMajor(), device.computeCapabilityMinor())));
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    REQUIRE(f);
    f.seekp(100);
    f.put('\x5a');
  }
  jit::Jit third(device, {}, jit::DiskCache(dir));
  checkScale(device, third.compile(scaleRequest()));
  CHECK(third.stats().corruptEntries == 1);
  CHECK(third.stats().compiles == 1);
}

TEST_CASE("gpu: the JIT's PTX path goes through the driver", "[gpu][jit]") {
  TILE_REQUIRE_GPU(device);
  jit::JitOptions options;
  options.usePtx = true;
  jit::Jit jit(device, options, jit::DiskCache(""));
  checkScale(device, jit.compile(scaleRequest()));
}

TEST_CASE("gpu: compile errors come back with source locations", "[gpu][jit]") {
  TILE_REQUIRE_GPU(device);
  jit::Jit jit(device, {}, jit::DiskCache(""));
  jit::KernelRequest r = scaleRequest();
  r.constants["B"] = int64_t(100);
  try {
    jit.compile(r);
    FAIL("expected a compile error");
  } catch (const rt::Error &e) {
    CHECK_THAT(e.what(), Catch::Contains("scale.py:5:34: error: the tile shape has dimension 100"));
  }
}

TEST_CASE("gpu: arrays of more than 2^31 elements address correctly", "[gpu][jit]") {
  TILE_REQUIRE_GPU(device);
  const int64_t n = (int64_t(1) << 31) + 3000; // int8: ~2 GiB
  jit::Jit jit(device, {}, jit::DiskCache(""));
  jit::KernelRequest r;
  r.source = R"py(import cuda.tile as ct

@ct.kernel
def tail(x, y):
    last = ct.num_tiles(x, 0, (1024,)) - 1
    t = ct.load(x, (last,), (1024,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (0,), t + 1)
)py";
  r.kernel = "tail";
  r.args = {{"x", {"int8", 1}}, {"y", {"int8", 1}}};
  rt::Kernel k = jit.compile(r);
  rt::DeviceBuffer dx(device, n), dy(device, 1024);
  dx.fillBytes(0);
  // Mark the bytes of the last, ragged tile.
  int64_t lastStart = (n / 1024) * 1024;
  std::vector<int8_t> marks(n - lastStart);
  for (size_t i = 0; i < marks.size(); ++i)
    marks[i] = static_cast<int8_t>(i % 100);
  dx.copyFromHost(marks.data(), marks.size(), lastStart);
  rt::launch(k, rt::Grid(1), {dx.array(rt::DType::Int8, {n}), dy.array(rt::DType::Int8, {1024})});
  device.synchronize();
  std::vector<int8_t> y = dy.toHost<int8_t>();
  for (size_t i = 0; i < 1024; ++i)
    REQUIRE(y[i] == (i < marks.size() ? marks[i] + 1 : 1));
}

TEST_CASE("gpu: a directory at a cache key or an unwritable cache still compiles", "[gpu][jit]") {
  TILE_REQUIRE_GPU(device);
  std::string dir = tempDir();
  jit::DiskCache cache(dir);
  std::string arch = jit::archForComputeCapability(device.computeCapabilityMajor(), device.computeCapabilityMinor());
  // A directory at the key used to throw std::ios_base::failure out of compile().
  REQUIRE(mkdir(cache.pathFor(jit::cacheKey(scaleRequest(), {}, arch)).c_str(), 0755) == 0);
  jit::Jit jit(device, {}, cache);
  checkScale(device, jit.compile(scaleRequest()));
  CHECK(jit.stats().compiles == 1);
  CHECK(jit.stats().corruptEntries == 1);
  // A cache directory that cannot be created: compiles, and the disk cache is off.
  jit::DiskCache unwritable("/proc/no-such-dir/cache");
  jit::Jit second(device, {}, unwritable);
  checkScale(device, second.compile(scaleRequest()));
  CHECK_FALSE(unwritable.enabled());
}
