// [gpu] tests: hand-written PTX kernels that follow the tile ABI, loaded through the driver's
// JIT and as cubins (ptxas at build time), launched on real memory and checked. They skip
// with a message where there is no CUDA driver or device.
#include "runtime/Runtime.h"
#include "test/unit/runtime/GpuTest.h"
#include "test/unit/runtime/TestKernels.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>

using namespace tile::rt;

namespace {

const KernelMetadata &axpyMetadata() {
  static const KernelMetadata md = parseKernelMetadata(test::kAxpy2dMetadata, "axpy2d.json");
  return md;
}

Kernel axpyFromPtx(const Device &device) { return Module::fromPtx(device, test::axpy2dPtx()).kernel(axpyMetadata()); }

std::int64_t blocksFor(std::int64_t elements, int threads) { return (elements + threads - 1) / threads; }

// out = x * alpha + y on [rows, cols] arrays (contiguous), checked element by element.
void checkAxpy(const Device &device, const Kernel &kernel, std::int64_t rows, std::int64_t cols) {
  std::int64_t n = rows * cols;
  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    x[size_t(i)] = float(i % 1000) * 0.5f;
    y[size_t(i)] = float(i % 7) - 3.0f;
  }
  DeviceBuffer dx = DeviceBuffer::fromHost(device, x), dy = DeviceBuffer::fromHost(device, y);
  DeviceBuffer dout(device, size_t(n) * 4);
  dout.fillBytes(0xff);
  launch(kernel, Grid(blocksFor(n, 256)),
         {dx.array(DType::Float32, {rows, cols}), dy.array(DType::Float32, {rows, cols}),
          dout.array(DType::Float32, {rows, cols}), 2.0f});
  std::vector<float> out = dout.toHost<float>();
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i)
    wrong += out[size_t(i)] != x[size_t(i)] * 2.0f + y[size_t(i)];
  CHECK(wrong == 0);
}

} // namespace

TEST_CASE("gpu: the device and its limits", "[runtime][gpu]") {
  TILE_REQUIRE_GPU(device);
  INFO(device.name());
  CHECK(Device::count() >= 1);
  CHECK(!device.name().empty());
  CHECK(device.computeCapabilityMajor() >= 7);
  CHECK(device.smCount() > 0);
  CHECK(device.totalMemory() > 0);
  CHECK(device.freeMemory() <= device.totalMemory());
  CHECK(device.limits().maxGrid[0] == 2147483647);
  CHECK(device.limits().maxThreadsPerBlock == 1024);
  CHECK(device.limits().maxDynamicSharedMemory >= 48 * 1024);
  CHECK(device.driverVersion() >= 12000);
  WARN("device: " << device.name() << ", sm_" << device.computeCapabilityMajor() << device.computeCapabilityMinor()
                  << ", " << device.smCount() << " SMs, " << device.totalMemory() / (1 << 20) << " MiB, driver "
                  << device.driverVersion() << ", dynamic shared memory up to "
                  << device.limits().maxDynamicSharedMemory << " bytes");
}

TEST_CASE("gpu: a kernel through the PTX JIT, ragged shapes", "[runtime][gpu]") {
  TILE_REQUIRE_GPU(device);
  Kernel kernel = axpyFromPtx(device);
  CHECK(kernel.numRegisters() > 0);
  CHECK(kernel.device().ordinal() == 0);
  checkAxpy(device, kernel, 37, 45);
  checkAxpy(device, kernel, 1, 1);
  checkAxpy(device, kernel, 300, 257);
}

TEST_CASE("gpu: a kernel from a cubin, and loadKernel from files", "[runtime][gpu]") {
  TILE_REQUIRE_GPU(device);
  if (tile_test_axpy2d_cubin_size == 0)
    TILE_SKIP("no cubin (ptxas was absent at build time)");
  Module module = Module::fromCubin(device, tile_test_axpy2d_cubin, tile_test_axpy2d_cubin_size);
  CHECK(!module.isPtx());
  checkAxpy(device, module.kernel(axpyMetadata()), 37, 45);

  // The compiler's layout: k.cubin next to k.json.
  std::string dir = "/tmp/tile-runtime-test-" + std::to_string(getpid());
  REQUIRE(std::system(("mkdir -p " + dir).c_str()) == 0);
  std::ofstream(dir + "/axpy2d.cubin", std::ios::binary)
      .write(reinterpret_cast<const char *>(tile_test_axpy2d_cubin), std::streamsize(tile_test_axpy2d_cubin_size));
  std::ofstream(dir + "/axpy2d.ptx") << test::axpy2dPtx();
  std::ofstream(dir + "/axpy2d.json") << test::kAxpy2dMetadata;
  checkAxpy(device, loadKernel(device, dir + "/axpy2d.cubin"), 5, 70);
  checkAxpy(device, loadKernel(device, dir + "/axpy2d.ptx"), 5, 70);
  std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("gpu: strided and broadcast views", "[runtime][gpu]") {
  TILE_REQUIRE_GPU(device);
  Kernel kernel = axpyFromPtx(device);
  const std::int64_t rows = 64, cols = 50;
  // x: every other column of a [64, 100] array; y: a [64, 50] view of a transposed [50, 64]
  // array; out: rows 1..64 of a [65, 53] array, columns 3..52.
  std::vector<float> xs(64 * 100), ys(50 * 64);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = float(i);
  for (size_t i = 0; i < ys.size(); ++i)
    ys[i] = float(i) * 0.25f;
  DeviceBuffer dx = DeviceBuffer::fromHost(device, xs), dy = DeviceBuffer::fromHost(device, ys);
  DeviceBuffer dout(device, 65 * 53 * 4);
  dout.fillBytes(0);
  launch(kernel, Grid(blocksFor(rows * cols, 256)),
         {dx.array(DType::Float32, {rows, cols}, {100, 2}), dy.array(DType::Float32, {rows, cols}, {1, 64}),
          dout.array(DType::Float32, {rows, cols}, {53, 1}, (53 + 3) * 4), -1.0f});
  std::vector<float> out = dout.toHost<float>();
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < 65; ++i)
    for (std::int64_t j = 0; j < 53; ++j) {
      bool inside = i >= 1 && j >= 3;
      float want = inside ? -xs[size_t((i - 1) * 100 + (j - 3) * 2)] + ys[size_t((j - 3) * 64 + i - 1)] : 0.0f;
      wrong += out[size_t(i * 53 + j)] != want;
    }
  CHECK(wrong == 0);

  // A broadcast (stride 0) operand: y is one value.
  DeviceBuffer one = DeviceBuffer::fromHost(device, std::vector<float>{10.0f});
  DeviceBuffer dense(device, rows * cols * 4);
  launch(kernel, Grid(blocksFor(rows * cols, 256)),
         {dx.array(DType::Float32, {rows, cols}, {100, 2}), one.array(DType::Float32, {rows, cols}, {0, 0}),
          dense.array(DType::Float32, {rows, cols}), 1.0f});
  std::vector<float> d = dense.toHost<float>();
  wrong = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      wrong += d[size_t(i * cols + j)] != xs[size_t(i * 100 + j * 2)] + 10.0f;
  CHECK(wrong == 0);
}

TEST_CASE("gpu: DLPack arguments, streams and events", "[runtime][gpu][dlpack]") {
  TILE_REQUIRE_GPU(device);
  Kernel kernel = axpyFromPtx(device);
  const std::int64_t rows = 33, cols = 65, n = rows * cols;
  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    x[size_t(i)] = float(i);
    y[size_t(i)] = 1.0f;
  }
  // x sits 256 bytes into its allocation (byte_offset); all tensors have NULL strides.
  DeviceBuffer dx(device, size_t(n) * 4 + 256), dy = DeviceBuffer::fromHost(device, y);
  dx.copyFromHost(x.data(), size_t(n) * 4, 256);
  DeviceBuffer dout(device, size_t(n) * 4);
  std::int64_t shape[2] = {rows, cols};
  auto tensor = [&](const DeviceBuffer &b, std::uint64_t byteOffset) {
    DLTensor t{};
    t.data = reinterpret_cast<void *>(b.data());
    t.device = {kDLCUDA, 0};
    t.ndim = 2;
    t.dtype = {kDLFloat, 32, 1};
    t.shape = shape;
    t.byte_offset = byteOffset;
    return t;
  };
  DLTensor tx = tensor(dx, 256), tout = tensor(dout, 0);
  DLManagedTensor my{tensor(dy, 0), nullptr, nullptr};

  Stream stream(device, Stream::Flags::NonBlocking);
  Event start(device), end(device);
  start.record(stream);
  launch(kernel, Grid(blocksFor(n, 256)), {&tx, &my, &tout, 3.0f}, stream);
  end.record(stream);
  stream.synchronize();
  float ms = Event::elapsedMs(start, end);
  CHECK(ms >= 0.0f);
  std::vector<float> out = dout.toHost<float>();
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i)
    wrong += out[size_t(i)] != x[size_t(i)] * 3.0f + 1.0f;
  CHECK(wrong == 0);

  // Mismatches are refused before anything reaches the driver.
  DLTensor cpu = tx;
  cpu.device = {kDLCPU, 0};
  CHECK_THROWS_WITH(launch(kernel, Grid(1), {&cpu, &my, &tout, 3.0f}, stream),
                    "launch of 'axpy2d': argument 0 ('x'): DLPack tensor is not in CUDA device "
                    "memory (device type 1, CPU)");
  CHECK_THROWS_WITH(launch(kernel, Grid(1), {&tx, &my, &tout, 3.0}, stream),
                    Catch::Contains("argument 3 ('alpha'): got a float64 scalar"));
}

TEST_CASE("gpu: an array of more than 2^31 elements (64-bit offsets)", "[runtime][gpu]") {
  TILE_REQUIRE_GPU(device);
  const std::int64_t n = (std::int64_t(1) << 31) + 4096; // 8 GiB of float32 per array
  if (device.freeMemory() < size_t(2 * n * 4 + (std::int64_t(1) << 30)))
    TILE_SKIP("needs 17 GiB of free device memory");
  Kernel kernel = axpyFromPtx(device);
  DeviceBuffer x(device, size_t(n) * 4), out(device, size_t(n) * 4);
  float oneF = 1.0f;
  std::uint32_t one;
  std::memcpy(&one, &oneF, 4);
  x.fill32(one);
  // Distinct values around element 2^31 and at the very end catch truncated offsets.
  const std::int64_t mid = std::int64_t(1) << 31;
  std::vector<float> marks(16);
  for (int k = 0; k < 16; ++k)
    marks[size_t(k)] = 100.0f + float(k);
  x.copyFromHost(marks.data(), 64, size_t(mid - 8) * 4);
  for (int k = 0; k < 16; ++k)
    marks[size_t(k)] = 200.0f + float(k);
  x.copyFromHost(marks.data(), 64, size_t(n - 16) * 4);
  DeviceBuffer y = DeviceBuffer::fromHost(device, std::vector<float>{2.0f}); // broadcast

  launch(kernel, Grid(blocksFor(n, 256)),
         {x.array(DType::Float32, {1, n}), y.array(DType::Float32, {1, n}, {0, 0}), out.array(DType::Float32, {1, n}),
          3.0f});
  CHECK(out.toHost<float>(4, 0) == std::vector<float>(4, 5.0f));
  std::vector<float> around = out.toHost<float>(16, size_t(mid - 8));
  std::vector<float> end = out.toHost<float>(16, size_t(n - 16));
  for (int k = 0; k < 16; ++k) {
    CHECK(around[size_t(k)] == 3.0f * (100.0f + float(k)) + 2.0f);
    CHECK(end[size_t(k)] == 3.0f * (200.0f + float(k)) + 2.0f);
  }
  CHECK(out.toHost<float>(4, size_t(mid + 1000)) == std::vector<float>(4, 5.0f));
}

TEST_CASE("gpu: a TMA descriptor built from the metadata", "[runtime][gpu][tma]") {
  TILE_REQUIRE_GPU(device);
  KernelMetadata md = parseKernelMetadata(test::kTmaCopy2dMetadata, "tma_copy2d.json");
  const std::int64_t rows = 37, cols = 100; // neither a multiple of the 8x32 box
  std::vector<float> x(size_t(rows * cols));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i) + 0.5f;
  DeviceBuffer dx = DeviceBuffer::fromHost(device, x), dout(device, x.size() * 4);
  auto run = [&](const Kernel &kernel) {
    dout.fillBytes(0);
    launch(kernel, Grid((cols + 31) / 32, (rows + 7) / 8),
           {dx.array(DType::Float32, {rows, cols}), dout.array(DType::Float32, {rows, cols})});
    CHECK(dout.toHost<float>() == x);
  };
  std::size_t encoded = tensorMapsEncoded();
  run(Module::fromPtx(device, test::tmaCopy2dPtx()).kernel(md));
  CHECK(tensorMapsEncoded() <= encoded + 1);
  // The same array again (another kernel with the same descriptor too): the cached descriptor.
  encoded = tensorMapsEncoded();
  run(Module::fromPtx(device, test::tmaCopy2dPtx()).kernel(md));
  if (tile_test_tma_copy2d_cubin_size)
    run(Module::fromCubin(device, tile_test_tma_copy2d_cubin, tile_test_tma_copy2d_cubin_size).kernel(md));
  CHECK(tensorMapsEncoded() == encoded);
  // Another view of the array is another descriptor.
  dout.fillBytes(0);
  launch(Module::fromPtx(device, test::tmaCopy2dPtx()).kernel(md), Grid((cols + 31) / 32, (rows - 1 + 7) / 8),
         {dx.array(DType::Float32, {rows - 1, cols}), dout.array(DType::Float32, {rows - 1, cols})});
  CHECK(tensorMapsEncoded() == encoded + 1);
  std::vector<float> got = dout.toHost<float>();
  CHECK(std::equal(x.begin(), x.begin() + (rows - 1) * cols, got.begin()));
}

TEST_CASE("gpu: load and launch errors are clear", "[runtime][gpu]") {
  TILE_REQUIRE_GPU(device);
  // PTX the JIT rejects: the message carries the JIT log.
  try {
    Module::fromPtx(device, ".version 8.0\n.target sm_90a\n.address_size 64\n"
                            ".visible .entry broken() {\n  bogus.instruction;\n  ret;\n}\n");
    FAIL("loaded");
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::Driver);
    CHECK_THAT(e.what(), Catch::Contains("cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX"));
    CHECK_THAT(e.what(), Catch::Contains("JIT log:"));
    WARN("JIT error as reported: " << e.what());
  }
  Module module = Module::fromPtx(device, test::axpy2dPtx());
  KernelMetadata md = axpyMetadata();
  md.kernel = "no_such_kernel";
  CHECK_THROWS_WITH(module.kernel(md), Catch::StartsWith("kernel 'axpy2d' (no_such_kernel): the module has no such "
                                                         "kernel: cuModuleGetFunction: CUDA_ERROR_NOT_FOUND"));
  md = axpyMetadata();
  md.dynamicSharedMemory = 1 << 20;
  CHECK_THROWS_WITH(module.kernel(md), Catch::Contains("needs 1048576 bytes of dynamic shared memory, the device "
                                                       "allows at most"));
  // Over 48 KiB the kernel opts in, and launches.
  md.dynamicSharedMemory = 100 * 1024;
  checkAxpy(device, module.kernel(md), 3, 3);
  md = axpyMetadata();
  md.arch = "sm_100a";
  CHECK_THROWS_WITH(module.kernel(md), Catch::Contains("code for sm_100a runs only on compute "
                                                       "capability 10.0"));
  Kernel kernel = module.kernel(axpyMetadata());
  DeviceBuffer b(device, 64);
  CHECK_THROWS_WITH(
      launch(kernel, Grid(1, 70000),
             {b.array(DType::Float32, {4, 4}), b.array(DType::Float32, {4, 4}), b.array(DType::Float32, {4, 4}), 1.0f}),
      "launch of 'axpy2d': grid.y = 70000 is out of range [1, 65535]");
  CHECK_THROWS_WITH(b.copyToHost(nullptr, 65), "DeviceBuffer::copyToHost: bytes [0, 65) are "
                                               "outside the 64-byte buffer");
}

TEST_CASE("gpu: a kernel compiled by tile-cc, with its metadata", "[runtime][gpu][e2e]") {
  TILE_REQUIRE_GPU(device);
  if (tile_test_scale_rows_cubin_size == 0)
    TILE_SKIP("no cubin (ptxas was absent at build time)");
  // kernels/examples/scale_rows.py: out[i, j] = bfloat16(x[i, j] * s[i]), 64x32 tiles.
  KernelMetadata md = parseKernelMetadata(
      std::string_view(reinterpret_cast<const char *>(tile_test_scale_rows_json), tile_test_scale_rows_json_size),
      "scale_rows.json");
  Kernel kernel = Module::fromCubin(device, tile_test_scale_rows_cubin, tile_test_scale_rows_cubin_size).kernel(md);
  const std::int64_t rows = 100, cols = 70; // ragged in both dimensions
  std::vector<float> x(static_cast<size_t>(rows * cols)), s(static_cast<size_t>(rows));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i % 97) - 48) * 0.37f;
  for (size_t i = 0; i < s.size(); ++i)
    s[i] = 0.5f + float(i) * 0.01f;
  DeviceBuffer dx = DeviceBuffer::fromHost(device, x), ds = DeviceBuffer::fromHost(device, s);
  DeviceBuffer dout(device, x.size() * 2);
  dout.fillBytes(0xff);
  launch(kernel, Grid((rows + 63) / 64, (cols + 31) / 32),
         {dx.array(DType::Float32, {rows, cols}), ds.array(DType::Float32, {rows}),
          dout.array(DType::BFloat16, {rows, cols})});
  std::vector<std::uint16_t> out = dout.toHost<std::uint16_t>();
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      float product = x[size_t(i * cols + j)] * s[size_t(i)];
      wrong += out[size_t(i * cols + j)] != Scalar::bfloat16(product).bits();
    }
  CHECK(wrong == 0);
}
