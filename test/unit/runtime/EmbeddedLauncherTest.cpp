// The launcher tile-cc --emit=launcher generates for kernels/examples/scale_rows.py
// (test/unit/CMakeLists.txt), compiled into this binary as an application compiles it: its
// metadata without a GPU, and on a GPU the typed launch function end to end — the image chosen
// for the device, the result, and the runtime's argument checks.
#include "runtime/DeviceBuffer.h"
#include "runtime/Error.h"
#include "test/unit/kernels/scale_rows_launcher.h"
#include "test/unit/runtime/GpuTest.h"

#include <catch2/catch.hpp>

using namespace tile::rt;

TEST_CASE("launcher: the generated scale_rows launcher's metadata", "[runtime][embedded]") {
  const KernelMetadata &md = tile_test::scale_rows_metadata();
  CHECK(md.name == "scale_rows");
  CHECK(md.threadsPerBlock == 128);
  CHECK(std::get<std::int64_t>(md.constants.at("TM")) == 64);
  CHECK(std::get<std::int64_t>(md.constants.at("TN")) == 32);
  REQUIRE(md.params.size() == 3);
  CHECK(md.params[0].name == "x");
  CHECK(md.params[2].dtype == DType::BFloat16);
  CHECK(md.params[2].rank == 2);
  // The first image is the first --arch.
  CHECK(md.arch == "sm_80");
}

TEST_CASE("gpu: the generated scale_rows launcher", "[runtime][gpu][embedded]") {
  TILE_REQUIRE_GPU(device);
  const Kernel kernel = tile_test::scale_rows_kernel(device);
  INFO("device " << device.name() << ", image " << kernel.metadata().arch);
  // sm_80 and sm_90a images (cubins, or PTX without ptxas), sm_90 PTX: Hopper takes sm_90a.
  if (device.computeCapabilityMajor() == 9 && device.computeCapabilityMinor() == 0)
    CHECK(kernel.metadata().arch == "sm_90a");
  Stream stream(device);
  const std::int64_t rows = 100, cols = 70; // ragged in both dimensions
  std::vector<float> x(static_cast<size_t>(rows * cols)), s(static_cast<size_t>(rows));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i % 97) - 48) * 0.37f;
  for (size_t i = 0; i < s.size(); ++i)
    s[i] = 0.5f + float(i) * 0.01f;
  DeviceBuffer dx = DeviceBuffer::fromHost(device, x), ds = DeviceBuffer::fromHost(device, s);
  DeviceBuffer dout(device, x.size() * 2);
  dout.fillBytes(0xff);
  const Grid grid((rows + 63) / 64, (cols + 31) / 32);
  tile_test::launch_scale_rows(stream, grid, dx.array(DType::Float32, {rows, cols}), ds.array(DType::Float32, {rows}),
                               dout.array(DType::BFloat16, {rows, cols}));
  stream.synchronize();
  const std::vector<std::uint16_t> out = dout.toHost<std::uint16_t>();
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      wrong += out[size_t(i * cols + j)] != Scalar::bfloat16(x[size_t(i * cols + j)] * s[size_t(i)]).bits();
  CHECK(wrong == 0);

  // The launch function's checks are rt::launch's, with its messages.
  CHECK_THROWS_WITH(tile_test::launch_scale_rows(stream, grid, dx.array(DType::Float32, {rows, cols}),
                                                 ds.array(DType::Float32, {rows}),
                                                 dout.array(DType::Float32, {rows, cols / 2})),
                    "launch of 'scale_rows': argument 2 ('out'): dtype is float32, the kernel expects bfloat16");
  CHECK_THROWS_WITH(tile_test::launch_scale_rows(stream, grid, dx.array(DType::Float32, {rows, cols}), 1.0f,
                                                 dout.array(DType::BFloat16, {rows, cols})),
                    Catch::Contains("argument 1 ('s')"));
}
