// jit::Backend on the interpreter (what CI, without a GPU, runs): kernels end to end through
// the launch API the GPU uses, backend selection by TILE_INTERPRET and by option, argument
// checks that name the parameter, and bounds: an out-of-bounds store through a wrong stride
// stops with the source location and writes nothing.

#include "runtime/jit/Backend.h"
#include "runtime/jit/HostHeap.h"
#include "test/unit/jit/BackendTestUtil.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <optional>

using namespace tile;
using namespace tile::jit;
using tile::jit::test::runSaxpy;
using tile::jit::test::runScaleRows;
using tile::jit::test::saxpyRequest;

namespace {

// Sets (or unsets, for null) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

Backend interpreter() {
  BackendOptions options;
  options.choice = BackendOptions::Choice::Interpreter;
  return Backend(options);
}

std::string launchError(Backend &backend, const KernelHandle &k, const rt::Grid &grid,
                        const std::vector<rt::Arg> &args) {
  try {
    backend.launch(k, grid, args);
  } catch (const rt::Error &e) {
    CHECK(e.kind() == rt::Error::Kind::InvalidArgument);
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST_CASE("backend: the interpreter runs a kernel through the launch API", "[jit][backend]") {
  Backend backend = interpreter();
  CHECK(backend.kind() == BackendKind::Interpreter);
  CHECK(backend.reason() == "requested");
  CHECK(backend.description() == "the interpreter (requested)");
  CHECK(backend.jit() == nullptr);
  CHECK(backend.device() == nullptr);

  const int64_t n = 1000; // 8 blocks, the last one ragged
  std::vector<float> out = runSaxpy(backend, n);
  REQUIRE(out.size() == size_t(n));
  for (int64_t i = 0; i < n; ++i)
    REQUIRE(out[size_t(i)] == 2.0f * float(i % 1000) + 1.0f);

  KernelHandle k = backend.compile(saxpyRequest());
  CHECK(k.name() == "saxpy");
  CHECK(k.backend() == BackendKind::Interpreter);
  REQUIRE(k.params().size() == 4);
  CHECK(k.params()[2].name == "out");
  CHECK(k.params()[2].isArray());
  CHECK(k.params()[2].rank == 1);
  CHECK(k.params()[3].name == "a");
  CHECK(k.params()[3].dtype == rt::DType::Float32);
}

TEST_CASE("backend: 2-D strided views, ragged edges and a bf16 output on the interpreter", "[jit][backend]") {
  Backend backend = interpreter();
  const int64_t m = 37, n = 70;
  std::vector<uint16_t> out = runScaleRows(backend, m, n);
  REQUIRE(out.size() == size_t(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float expected = (float(i * 7 + j) / 3.0f) * (0.25f * float(i + 1));
      uint32_t bits;
      std::memcpy(&bits, &expected, 4);
      bits += 0x7fff + ((bits >> 16) & 1); // round to nearest even (values are finite)
      INFO("element (" << i << ", " << j << ")");
      REQUIRE(out[size_t(i * n + j)] == uint16_t(bits >> 16));
    }
}

TEST_CASE("backend: TILE_INTERPRET and the options pick the backend", "[jit][backend]") {
  {
    ScopedEnv env("TILE_INTERPRET", "1");
    Backend backend;
    CHECK(backend.kind() == BackendKind::Interpreter);
    CHECK(backend.reason() == "TILE_INTERPRET is set");
    CHECK(backend.description() == "the interpreter (TILE_INTERPRET is set)");
    CHECK(runSaxpy(backend, 300)[299] == 2.0f * 299 + 1);
  }
  {
    // Auto without TILE_INTERPRET: the GPU where there is one, else the interpreter saying why.
    ScopedEnv env("TILE_INTERPRET", "0");
    Backend backend;
    std::string why;
    if (rt::Device::available(0, &why)) {
      CHECK(backend.kind() == BackendKind::Gpu);
      CHECK(backend.jit() != nullptr);
    } else {
      CHECK(backend.kind() == BackendKind::Interpreter);
      CHECK(backend.reason() == "no GPU: " + why);
    }
  }
  {
    // An explicit choice wins over the environment.
    ScopedEnv env("TILE_INTERPRET", "yes");
    std::string why;
    if (!rt::Device::available(0, &why)) {
      BackendOptions options;
      options.choice = BackendOptions::Choice::Gpu;
      try {
        Backend gpu(options);
        FAIL("expected no GPU");
      } catch (const rt::Error &e) {
        CHECK(e.noGpu());
      }
    }
  }
}

TEST_CASE("backend: bad arguments are refused naming the parameter", "[jit][backend]") {
  Backend backend = interpreter();
  KernelHandle k = backend.compile(saxpyRequest());
  const int64_t n = 256;
  Buffer x = backend.allocate(n * 4), y = backend.allocate(n * 4), out = backend.allocate(n * 4);
  x.fillBytes(0);
  y.fillBytes(0);
  rt::ArrayArg ax = x.array(rt::DType::Float32, {n}), ay = y.array(rt::DType::Float32, {n}),
               aout = out.array(rt::DType::Float32, {n});
  rt::Grid grid(2);

  CHECK_THAT(launchError(backend, k, grid, {ax, ay, out.array(rt::DType::Float64, {n / 2}), 2.0f}),
             Catch::Equals("launch of 'saxpy': argument 2 ('out'): dtype is float64, the kernel expects float32"));
  CHECK_THAT(launchError(backend, k, grid, {ax, y.array(rt::DType::Float32, {16, 16}), aout, 2.0f}),
             Catch::Equals("launch of 'saxpy': argument 1 ('y'): rank is 2, the kernel expects 1"));
  CHECK_THAT(launchError(backend, k, grid, {ax, ay, aout, 2.0}),
             Catch::Equals("launch of 'saxpy': argument 3 ('a'): got a float64 scalar, the kernel expects float32"));
  CHECK_THAT(launchError(backend, k, grid, {ax, ay, 1.0f, 2.0f}),
             Catch::Equals("launch of 'saxpy': argument 2 ('out'): expected a float32 array of rank 1, got a float32 "
                           "scalar"));
  CHECK_THAT(launchError(backend, k, grid, {ax, ay, aout}),
             Catch::Equals("launch of 'saxpy': the kernel takes 4 arguments (x, y, out, a), got 3"));
  CHECK_THAT(launchError(backend, k, rt::Grid(0), {ax, ay, aout, 2.0f}),
             Catch::Equals("launch of 'saxpy': grid.x = 0 is out of range [1, 2147483647]"));
  CHECK_THAT(launchError(backend, k, grid, {ax, ay, out.array(rt::DType::Float32, {n}, {}, 2), 2.0f}),
             Catch::Contains("argument 2 ('out'): address 0x") && Catch::Contains("is not a multiple of the 4-byte"));

  // Memory the backend did not allocate: a device pointer, or a host vector.
  rt::ArrayArg device = aout;
  device.data = 0x7f0000200000;
  CHECK_THAT(launchError(backend, k, grid, {ax, ay, device, 2.0f}),
             Catch::StartsWith("launch of 'saxpy': argument 2 ('out'): address 0x7f0000200000 is not in a buffer of "
                               "the interpreter backend"));
  std::vector<float> host(n);
  rt::ArrayArg foreign = ax;
  foreign.data = reinterpret_cast<rt::DevicePtr>(host.data());
  CHECK_THAT(launchError(backend, k, grid, {foreign, ay, aout, 2.0f}),
             Catch::Contains("argument 0 ('x'): address") && Catch::Contains("not in a buffer of the interpreter"));
  // A freed buffer's address is no longer one of the backend's.
  rt::DevicePtr freed;
  {
    Buffer gone = backend.allocate(n * 4);
    freed = gone.data();
  }
  rt::ArrayArg stale = ax;
  stale.data = freed;
  CHECK_THAT(launchError(backend, k, grid, {ax, stale, aout, 2.0f}),
             Catch::Contains("argument 1 ('y'): address") && Catch::Contains("not in a buffer"));

  // DLPack: CPU tensors are taken (bounded by their own extent), device ones refused.
  std::vector<float> hostOut(n, -1.0f);
  int64_t shape[1] = {n};
  DLTensor cpu{hostOut.data(), {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, nullptr, 0};
  backend.launch(k, grid, {ax, ay, &cpu, 2.0f});
  CHECK(hostOut[0] == 0.0f);
  CHECK(hostOut[n - 1] == 0.0f);
  DLTensor cuda = cpu;
  cuda.device = {kDLCUDA, 0};
  CHECK_THAT(launchError(backend, k, grid, {ax, ay, &cuda, 2.0f}),
             Catch::StartsWith("launch of 'saxpy': argument 2 ('out'): DLPack tensor is not in host memory"));
}

TEST_CASE("backend: an out-of-bounds store stops with its source location and writes nothing", "[jit][backend]") {
  Backend backend = interpreter();
  KernelHandle k = backend.compile(saxpyRequest());
  const int64_t n = 128;
  std::vector<float> ones(n, 1.0f);
  Buffer x = backend.upload(ones), y = backend.upload(ones), out = backend.allocate(n * 4);
  out.fillBytes(0x5a);
  // A wrong stride: 128 elements two apart need 255 elements of memory, the buffer holds 128.
  std::string error = launchError(backend, k, rt::Grid(1),
                                  {x.array(rt::DType::Float32, {n}), y.array(rt::DType::Float32, {n}),
                                   out.array(rt::DType::Float32, {n}, {2}), 2.0f});
  CHECK_THAT(error, Catch::Contains("the interpreter stopped in kernel 'saxpy' (saxpy.py)"));
  CHECK_THAT(error, Catch::Contains("saxpy.py:8:5: error: store out of bounds") &&
                        Catch::Contains("error: store out of bounds at index (64,) of array argument 'out'") &&
                        Catch::Contains("lies outside the array's allocation (block (0, 0, 0))"));
  for (unsigned char byte : out.toHost<unsigned char>())
    REQUIRE(byte == 0x5a);
}

TEST_CASE("backend: compile errors carry the diagnostics", "[jit][backend]") {
  Backend backend = interpreter();
  KernelRequest r = saxpyRequest(100); // not a power of two
  try {
    backend.compile(r);
    FAIL("expected a compile error");
  } catch (const rt::Error &e) {
    CHECK(e.kind() == rt::Error::Kind::InvalidArgument);
    CHECK_THAT(e.what(), Catch::Contains("saxpy.py:") && Catch::Contains("error:"));
  }
}

TEST_CASE("backend: buffers copy within bounds and report misuse", "[jit][backend]") {
  Backend backend = interpreter();
  Buffer b = backend.allocate(16);
  CHECK(b.size() == 16);
  CHECK(b.data() % HostHeap::kAlignment == 0);
  CHECK(b.toHost<uint32_t>(1)[0] == 0xffffffffu); // fresh memory reads as NaN
  std::vector<uint32_t> v = {1, 2, 3, 4};
  b.copyFromHost(v.data(), 8, 8);
  CHECK(b.toHost<uint32_t>() == std::vector<uint32_t>{0xffffffffu, 0xffffffffu, 1, 2});
  CHECK_THROWS_WITH(b.copyFromHost(v.data(), 16, 4),
                    Catch::Equals("Buffer::copyFromHost: bytes [4, 20) are outside the 16-byte buffer"));
  CHECK_THROWS_WITH(b.array(rt::DType::Float32, {4}, {}, 17), Catch::Contains("past the end of the 16-byte buffer"));
  Buffer empty = backend.allocate(0);
  CHECK(empty.size() == 0);
  CHECK(empty.toHost<float>().empty());
  Buffer moved = std::move(b);
  CHECK_THROWS_WITH(b.toHost<float>(1), Catch::Contains("empty Buffer")); // NOLINT: use after move on purpose
}

TEST_CASE("backend: the host heap knows which allocation holds an address", "[jit][backend]") {
  HostHeap heap;
  void *a = heap.allocate(100);
  void *b = heap.allocate(0);
  auto at = [](void *p, size_t off) { return reinterpret_cast<uint64_t>(p) + off; };
  REQUIRE(heap.find(at(a, 0)));
  CHECK(heap.find(at(a, 99))->begin == a);
  CHECK(heap.find(at(a, 99))->size == 100);
  CHECK_FALSE(heap.find(at(a, 100)));
  CHECK_FALSE(heap.find(at(b, 0))); // an empty allocation holds no byte
  CHECK_FALSE(heap.find(0));
  heap.release(a);
  CHECK_FALSE(heap.find(at(a, 0)));
  heap.release(b);
}
