// Launch checks and parameter layout (planLaunch): everything but the driver call, no GPU.
#include "runtime/LaunchPlan.h"
#include "runtime/Error.h"
#include "test/unit/runtime/TestKernels.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace tile::rt;

namespace {

const KernelMetadata &axpy() {
  static const KernelMetadata md = parseKernelMetadata(test::kAxpy2dMetadata);
  return md;
}

ArrayArg f32(DevicePtr p, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides = {}) {
  return ArrayArg{p, DType::Float32, std::move(shape), std::move(strides)};
}

template <typename T> T read(const LaunchPlan &plan, std::size_t param) {
  REQUIRE(plan.params.size(param) == sizeof(T));
  T v;
  std::memcpy(&v, plan.params.at(plan.params.offset(param)), sizeof(T));
  return v;
}

// The message planLaunch throws (fails the test if it does not).
std::string errorOf(const KernelMetadata &md, const std::vector<Arg> &args, Grid grid = Grid(1),
                    DeviceLimits limits = {}) {
  try {
    planLaunch(md, args, grid, limits);
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::InvalidArgument);
    return e.what();
  }
  FAIL("no error");
  return "";
}

KernelMetadata withParams(const std::string &params, const std::string &extra = "") {
  return parseKernelMetadata(R"({"format": "tile-kernel/1", "kernel": "k", "name": "k",
      "arch": "sm_90a", "threads_per_block": 128, "params": )" +
                             params + extra + "}");
}

} // namespace

TEST_CASE("launch plan: arrays expand to pointer, shape and strides", "[runtime][launch]") {
  LaunchPlan plan = planLaunch(axpy(), {f32(0x1000, {2, 3}), f32(0x2000, {2, 3}, {1, 2}), f32(0x3000, {2, 3}), 2.5f},
                               Grid(7, 2, 3), DeviceLimits{});
  CHECK(plan.grid == std::array<unsigned, 3>{7, 2, 3});
  REQUIRE(plan.params.count() == 16);
  CHECK(read<std::uint64_t>(plan, 0) == 0x1000);
  CHECK(read<std::int64_t>(plan, 1) == 2);
  CHECK(read<std::int64_t>(plan, 2) == 3);
  CHECK(read<std::int64_t>(plan, 3) == 3); // contiguous strides, in elements
  CHECK(read<std::int64_t>(plan, 4) == 1);
  CHECK(read<std::uint64_t>(plan, 5) == 0x2000);
  CHECK(read<std::int64_t>(plan, 8) == 1); // given strides
  CHECK(read<std::int64_t>(plan, 9) == 2);
  CHECK(read<std::uint64_t>(plan, 10) == 0x3000);
  CHECK(read<float>(plan, 15) == 2.5f);
  CHECK(plan.params.offset(15) == 120);
  CHECK(plan.tensorMaps.empty());
  std::vector<void *> pointers = plan.params.pointers();
  REQUIRE(pointers.size() == 16);
  CHECK(pointers[15] == plan.params.at(120));
}

TEST_CASE("launch plan: scalars are passed as their dtype", "[runtime][launch]") {
  KernelMetadata md = withParams(R"([
      {"name": "b", "kind": "scalar", "dtype": "bool_"},
      {"name": "i8", "kind": "scalar", "dtype": "int8"},
      {"name": "i16", "kind": "scalar", "dtype": "int16"},
      {"name": "i32", "kind": "scalar", "dtype": "int32"},
      {"name": "i64", "kind": "scalar", "dtype": "int64"},
      {"name": "h", "kind": "scalar", "dtype": "float16"},
      {"name": "bf", "kind": "scalar", "dtype": "bfloat16"},
      {"name": "f", "kind": "scalar", "dtype": "float32"},
      {"name": "d", "kind": "scalar", "dtype": "float64"},
      {"name": "tf", "kind": "scalar", "dtype": "tfloat32"},
      {"name": "f8", "kind": "scalar", "dtype": "float8_e4m3fn"}])");
  LaunchPlan plan = planLaunch(md,
                               {true, std::int8_t(-2), std::int16_t(-3), -4, std::int64_t(-5), Scalar::float16(1.0f),
                                Scalar::bfloat16(-2.0f), 0.5f, 0.25, Scalar::tfloat32(1.5f),
                                Scalar::fromBits(DType::Float8E4M3FN, 0x38)},
                               Grid(1), DeviceLimits{});
  REQUIRE(plan.params.count() == 11);
  CHECK(read<std::uint8_t>(plan, 0) == 1);
  CHECK(read<std::int8_t>(plan, 1) == -2);
  CHECK(read<std::int16_t>(plan, 2) == -3);
  CHECK(read<std::int32_t>(plan, 3) == -4);
  CHECK(read<std::int64_t>(plan, 4) == -5);
  CHECK(read<std::uint16_t>(plan, 5) == 0x3c00);
  CHECK(read<std::uint16_t>(plan, 6) == 0xc000);
  CHECK(read<float>(plan, 7) == 0.5f);
  CHECK(read<double>(plan, 8) == 0.25);
  CHECK(read<float>(plan, 9) == 1.5f);
  CHECK(read<std::uint8_t>(plan, 10) == 0x38);
  for (std::size_t i = 0; i < plan.params.count(); ++i) // natural alignment
    CHECK(plan.params.offset(i) % plan.params.size(i) == 0);
  CHECK(plan.params.offset(4) == 8); // b i8 i16 i32 at 0 1 2 4, then i64 at 8
}

TEST_CASE("launch plan: argument mismatches name the parameter", "[runtime][launch]") {
  const KernelMetadata &md = axpy();
  ArrayArg ok = f32(0x1000, {4, 4});
  CHECK(errorOf(md, {ok, ok, ok}) == "launch of 'axpy2d': the kernel takes 4 arguments (x, y, out, alpha), got 3");
  CHECK(errorOf(md, {1.0f, ok, ok, 1.0f}) ==
        "launch of 'axpy2d': argument 0 ('x'): expected a float32 array of rank 2, got a "
        "float32 scalar");
  CHECK(errorOf(md, {ok, ok, ok, ok}) ==
        "launch of 'axpy2d': argument 3 ('alpha'): expected a float32 scalar, got an array");
  CHECK(errorOf(md, {ok, ok, ok, 1.0}) ==
        "launch of 'axpy2d': argument 3 ('alpha'): got a float64 scalar, the kernel expects "
        "float32");
  CHECK(errorOf(md, {ok, ok, ok, 1}) ==
        "launch of 'axpy2d': argument 3 ('alpha'): got an int32 scalar, the kernel expects "
        "float32");
  ArrayArg half = ok;
  half.dtype = DType::Float16;
  CHECK(errorOf(md, {ok, half, ok, 1.0f}) ==
        "launch of 'axpy2d': argument 1 ('y'): dtype is float16, the kernel expects float32");
  CHECK(errorOf(md, {ok, ok, f32(0x1000, {16}), 1.0f}) ==
        "launch of 'axpy2d': argument 2 ('out'): rank is 1, the kernel expects 2");
  CHECK(errorOf(md, {f32(0x1000, {4, 4}, {4}), ok, ok, 1.0f}) ==
        "launch of 'axpy2d': argument 0 ('x'): 2 dimensions but 1 strides");
  CHECK(errorOf(md, {f32(0x1000, {4, -1}), ok, ok, 1.0f}) == "launch of 'axpy2d': argument 0 ('x'): shape[1] is -1");
  CHECK(errorOf(md, {f32(0, {4, 4}), ok, ok, 1.0f}) ==
        "launch of 'axpy2d': argument 0 ('x'): null data pointer for a non-empty array");
  // An empty array touches no memory: any pointer, any alignment.
  CHECK_NOTHROW(planLaunch(md, {f32(0, {0, 4}), ok, ok, 1.0f}, Grid(1), {}));
}

TEST_CASE("launch plan: alignment and unit stride the kernel was compiled for", "[runtime][launch]") {
  KernelMetadata md = withParams(R"([{"name": "a", "kind": "array", "dtype": "float32",
      "rank": 2, "alignment": 16, "unit_stride_last": true}])");
  CHECK_NOTHROW(planLaunch(md, {f32(0x1000, {3, 8})}, Grid(1), {}));
  CHECK(errorOf(md, {f32(0x1004, {3, 8})}) ==
        "launch of 'k': argument 0 ('a'): address 0x1004 is not a multiple of 16 bytes, the "
        "alignment the kernel was compiled for");
  CHECK(errorOf(md, {f32(0x1000, {3, 7})}) ==
        "launch of 'k': argument 0 ('a'): strides[0] is 7 elements (28 bytes), not a multiple "
        "of the 16-byte alignment the kernel was compiled for");
  CHECK(errorOf(md, {f32(0x1000, {3, 4}, {8, 2})}) ==
        "launch of 'k': argument 0 ('a'): the last dimension has stride 2; the kernel requires "
        "stride 1");
  // Strides of size-1 dimensions are never stepped along, so they are not checked.
  CHECK_NOTHROW(planLaunch(md, {f32(0x1000, {1, 7})}, Grid(1), {}));
  CHECK_NOTHROW(planLaunch(md, {f32(0x1000, {4, 1}, {4, 3})}, Grid(1), {}));
  // Negative strides are fine when aligned.
  CHECK_NOTHROW(planLaunch(md, {f32(0x1000, {3, 4}, {-4, 1})}, Grid(1), {}));
}

TEST_CASE("launch plan: grid, block and shared memory limits", "[runtime][launch]") {
  const KernelMetadata &md = axpy();
  ArrayArg a = f32(0x1000, {4, 4});
  std::vector<Arg> args = {a, a, a, 1.0f};
  CHECK(errorOf(md, args, Grid(0)) == "launch of 'axpy2d': grid.x = 0 is out of range [1, 2147483647]");
  CHECK(errorOf(md, args, Grid(-1)) == "launch of 'axpy2d': grid.x = -1 is out of range [1, 2147483647]");
  CHECK(errorOf(md, args, Grid(std::int64_t(1) << 31)) ==
        "launch of 'axpy2d': grid.x = 2147483648 is out of range [1, 2147483647]");
  CHECK(errorOf(md, args, Grid(1, 65536)) == "launch of 'axpy2d': grid.y = 65536 is out of range [1, 65535]");
  CHECK(errorOf(md, args, Grid(1, 1, 0)) == "launch of 'axpy2d': grid.z = 0 is out of range [1, 65535]");
  DeviceLimits small;
  small.maxThreadsPerBlock = 128;
  CHECK(errorOf(md, args, Grid(1), small) ==
        "launch of 'axpy2d': the kernel uses 256 threads per block, the device allows at most "
        "128");

  KernelMetadata big = md;
  big.dynamicSharedMemory = 300 * 1024;
  CHECK(errorOf(big, args) == "launch of 'axpy2d': the kernel needs 307200 bytes of dynamic shared memory, the device "
                              "allows at most 232448");
  CHECK(kernelFitProblem(md, DeviceLimits{}) == "");

  KernelMetadata clustered = md;
  clustered.cluster = {2, 1, 1};
  CHECK_NOTHROW(planLaunch(clustered, args, Grid(4), DeviceLimits{}));
  CHECK(errorOf(clustered, args, Grid(3)) ==
        "launch of 'axpy2d': grid (3, 1, 1) is not a multiple of the cluster shape (2, 1, 1)");
  CHECK(planLaunch(clustered, args, Grid(4), DeviceLimits{}).cluster == std::array<unsigned, 3>{2, 1, 1});
  CHECK(planLaunch(md, args, Grid(4), DeviceLimits{}).cluster == std::array<unsigned, 3>{1, 1, 1});

  // num_ctas= is a hint: clusters along the first axis the size divides, none if it divides none.
  KernelMetadata preferred = md;
  preferred.preferredClusterSize = 4;
  CHECK(planLaunch(preferred, args, Grid(8, 3), DeviceLimits{}).cluster == std::array<unsigned, 3>{4, 1, 1});
  CHECK(planLaunch(preferred, args, Grid(6, 12), DeviceLimits{}).cluster == std::array<unsigned, 3>{1, 4, 1});
  CHECK(planLaunch(preferred, args, Grid(3, 5, 4), DeviceLimits{}).cluster == std::array<unsigned, 3>{1, 1, 4});
  CHECK(planLaunch(preferred, args, Grid(3, 5, 7), DeviceLimits{}).cluster == std::array<unsigned, 3>{1, 1, 1});
  // A required shape wins over the hint.
  preferred.cluster = {2, 1, 1};
  CHECK(planLaunch(preferred, args, Grid(8), DeviceLimits{}).cluster == std::array<unsigned, 3>{2, 1, 1});
}

TEST_CASE("launch plan: DLPack tensors as arrays", "[runtime][launch][dlpack]") {
  const KernelMetadata &md = axpy();
  std::int64_t shape[2] = {2, 3}, strides[2] = {1, 2};
  DLTensor t{};
  t.data = reinterpret_cast<void *>(0x10000);
  t.device = {kDLCUDA, 0};
  t.ndim = 2;
  t.dtype = {kDLFloat, 32, 1};
  t.shape = shape;
  t.byte_offset = 64;
  DLManagedTensor managed{t, nullptr, nullptr};
  managed.dl_tensor.strides = strides;
  ArrayArg out = f32(0x1000, {2, 3});

  LaunchPlan plan = planLaunch(md, {&t, &managed, out, 1.0f}, Grid(1), DeviceLimits{});
  CHECK(read<std::uint64_t>(plan, 0) == 0x10040); // data + byte_offset
  CHECK(read<std::int64_t>(plan, 3) == 3);        // NULL strides: contiguous
  CHECK(read<std::int64_t>(plan, 4) == 1);
  CHECK(read<std::int64_t>(plan, 8) == 1); // the managed tensor's strides
  CHECK(read<std::int64_t>(plan, 9) == 2);

  DLTensor cpu = t;
  cpu.device = {kDLCPU, 0};
  CHECK(errorOf(md, {&cpu, out, out, 1.0f}) ==
        "launch of 'axpy2d': argument 0 ('x'): DLPack tensor is not in CUDA device memory "
        "(device type 1, CPU)");
  DLTensor other = t;
  other.device = {kDLCUDA, 1};
  CHECK(errorOf(md, {out, &other, out, 1.0f}) ==
        "launch of 'axpy2d': argument 1 ('y'): DLPack tensor is on cuda:1, the kernel is loaded "
        "on cuda:0");
  DLTensor u8 = t;
  u8.dtype = {kDLUInt, 8, 1};
  CHECK(errorOf(md, {&u8, out, out, 1.0f}) == "launch of 'axpy2d': argument 0 ('x'): dtype is uint8, the kernel "
                                              "expects float32");
  DLTensor u4 = t;
  u4.dtype = {kDLUInt, 4, 1};
  CHECK(errorOf(md, {&u4, out, out, 1.0f}) ==
        "launch of 'axpy2d': argument 0 ('x'): DLPack tensor has type uint4, which is not a "
        "cuTile dtype");
  DLTensor f64 = t;
  f64.dtype = {kDLFloat, 64, 1};
  CHECK(errorOf(md, {&f64, out, out, 1.0f}) ==
        "launch of 'axpy2d': argument 0 ('x'): dtype is float64, the kernel expects float32");
  DLTensor rank1 = t;
  rank1.ndim = 1;
  CHECK(errorOf(md, {&rank1, out, out, 1.0f}) ==
        "launch of 'axpy2d': argument 0 ('x'): rank is 1, the kernel expects 2");
  const DLTensor *null = nullptr;
  CHECK(errorOf(md, {null, out, out, 1.0f}) == "launch of 'axpy2d': argument 0 ('x'): null DLTensor pointer");
}

TEST_CASE("launch plan: TMA descriptors follow the parameters", "[runtime][launch][tma]") {
  KernelMetadata md = parseKernelMetadata(test::kTmaCopy2dMetadata);
  ArrayArg x = f32(0x10000, {37, 100});
  LaunchPlan plan = planLaunch(md, {x, f32(0x20000, {37, 100})}, Grid(4, 5), DeviceLimits{});
  REQUIRE(plan.params.count() == 11);
  REQUIRE(plan.tensorMaps.size() == 1);
  const TensorMapRequest &r = plan.tensorMaps[0];
  CHECK(r.param == "x");
  CHECK(r.dtype == DType::Float32);
  CHECK(r.address == 0x10000);
  CHECK(r.globalDim == std::vector<std::uint64_t>{100, 37}); // innermost first
  CHECK(r.globalStrides == std::vector<std::uint64_t>{400}); // bytes, outer dimensions
  CHECK(r.box == std::vector<std::uint32_t>{32, 8});
  CHECK(r.elementStrides == std::vector<std::uint32_t>{1, 1});
  CHECK(r.offset == plan.params.offset(10));
  CHECK(r.offset % 128 == 0);
  CHECK(plan.params.size(10) == 128);

  // A size-1 dimension gets a valid stride whatever the array says.
  LaunchPlan one = planLaunch(md, {f32(0x10000, {1, 100}, {7, 1}), f32(0x20000, {1, 100})}, Grid(1), DeviceLimits{});
  CHECK(one.tensorMaps[0].globalStrides == std::vector<std::uint64_t>{400});

  CHECK(errorOf(md, {f32(0x10000, {0, 100}), f32(0x20000, {0, 100})}) ==
        "launch of 'tma_copy2d': argument 0 ('x'): tma[0]: shape[0] = 0 is out of the TMA range "
        "[1, 2^31)");
  // Tile coordinates are signed 32-bit.
  CHECK(errorOf(md, {f32(0x10000, {std::int64_t(1) << 31, 100}), f32(0x20000, {37, 100})})
            .find("tma[0]: shape[0] = 2147483648 is out of the TMA range [1, 2^31)") != std::string::npos);
  CHECK(errorOf(md, {f32(0x10000, {4, 8}, {-8, 1}), f32(0x20000, {4, 8})}) ==
        "launch of 'tma_copy2d': argument 0 ('x'): tma[0]: strides[0] = -32 bytes; TMA needs a "
        "positive multiple of 16 below 2^40");
}

TEST_CASE("arrays: the aligned facts an aligned kernel argument needs", "[runtime][launch][tma]") {
  CHECK(f32(0x1000, {3, 8}).isAligned());
  CHECK(f32(0x1000, {3, 4}, {8, 1}).isAligned());        // padded rows of 32 bytes
  CHECK(f32(0x1000, {1, 7}, {5, 1}).isAligned());        // a size-1 dimension never steps
  CHECK(f32(0x1000, {4, 1}, {4, 3}).isAligned());        // nor does the last one here
  CHECK_FALSE(f32(0x1004, {3, 8}).isAligned());          // misaligned base
  CHECK_FALSE(f32(0x1000, {3, 7}).isAligned());          // 28-byte rows
  CHECK_FALSE(f32(0x1000, {3, 4}, {8, 2}).isAligned());  // strided last dimension
  CHECK_FALSE(f32(0x1000, {3, 4}, {-4, 1}).isAligned()); // TMA strides are positive
  CHECK_FALSE(f32(0x1000, {0, 8}).isAligned());          // empty: no descriptor can cover it
  CHECK_FALSE(f32(0x1000, {}).isAligned());
  CHECK_FALSE(f32(0x1000, {std::int64_t(1) << 31, 1}).isAligned()); // past TMA's coordinates
  CHECK(ArrayArg{0x1000, DType::BFloat16, {5, 8}, {}}.isAligned());
  CHECK_FALSE(ArrayArg{0x1000, DType::BFloat16, {5, 4}, {}}.isAligned());
}
