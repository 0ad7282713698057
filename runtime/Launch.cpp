#include "runtime/Launch.h"

#include "runtime/Error.h"
#include "runtime/Native.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace tile::rt {

using namespace cuda;

namespace {

// TILE_PDL=0 launches every kernel the plain way (each waits for the one before it to finish;
// griddepcontrol.wait then returns at once): a switch for comparisons and for ruling PDL out.
bool programmaticLaunchAllowed() {
  static const bool allowed = [] {
    const char *v = std::getenv("TILE_PDL");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  return allowed;
}

CUtensorMapDataType tensorMapType(DType dtype) {
  switch (dtype) {
  case DType::Int16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16; // TMA copies bits
  case DType::UInt16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case DType::Int32:
  case DType::UInt32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32; // TMA copies bits
  case DType::Int64:
  case DType::UInt64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case DType::Float16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::BFloat16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::Float32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::Float64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case DType::TFloat32:
    return CU_TENSOR_MAP_DATA_TYPE_TFLOAT32;
  default:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8; // bool, int8, uint8, float8
  }
}

// Descriptors encoded once per (array, box, swizzle, fill): a launch on the same arrays copies
// the 128 bytes instead of calling the driver. Bounded: the cache starts over when it is full.
constexpr std::size_t kMaxCachedTensorMaps = 4096;
std::mutex tensorMapMutex;
std::map<std::vector<std::uint64_t>, CUtensorMap> tensorMapCache;
std::atomic<std::size_t> tensorMapEncodings{0};

void encode(const TensorMapRequest &r, LaunchPlan &plan, const std::string &context) {
  auto *slot = reinterpret_cast<CUtensorMap *>(plan.params.at(r.offset));
  std::vector<std::uint64_t> key = r.key();
  {
    std::lock_guard<std::mutex> lock(tensorMapMutex);
    if (auto it = tensorMapCache.find(key); it != tensorMapCache.end()) {
      std::memcpy(slot, &it->second, sizeof(CUtensorMap));
      return;
    }
  }
  const detail::Driver &d = detail::driver();
  if (!d.cuTensorMapEncodeTiled)
    throw Error(Error::Kind::NoDriver,
                fmt::format("{}: the CUDA driver lacks cuTensorMapEncodeTiled (CUDA 12.0+)", context));
  // A rank-1 map has no strides; the driver still gets a valid pointer.
  std::uint64_t noStride = 0;
  const std::uint64_t *strides = r.globalStrides.empty() ? &noStride : r.globalStrides.data();
  d.check(d.cuTensorMapEncodeTiled(slot, tensorMapType(r.dtype), std::uint32_t(r.globalDim.size()),
                                   reinterpret_cast<void *>(r.address), r.globalDim.data(), strides, r.box.data(),
                                   r.elementStrides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
                                   CUtensorMapSwizzle(int(r.swizzle)), CUtensorMapL2promotion(int(r.l2Promotion)),
                                   r.oobFill == TmaOobFill::NaN ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                                                : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
          "cuTensorMapEncodeTiled", fmt::format("{}: tma[{}] over '{}'", context, r.tmaIndex, r.param));
  ++tensorMapEncodings;
  std::lock_guard<std::mutex> lock(tensorMapMutex);
  if (tensorMapCache.size() >= kMaxCachedTensorMaps)
    tensorMapCache.clear();
  tensorMapCache.emplace(std::move(key), *slot);
}

} // namespace

std::size_t tensorMapsEncoded() { return tensorMapEncodings.load(); }

void launch(const Kernel &kernel, const Grid &grid, const std::vector<Arg> &args, const Stream &stream) {
  const detail::KernelState &k = detail::Native::kernel(kernel);
  const KernelMetadata &md = k.metadata;
  std::string context = fmt::format("launch of '{}'", md.name);
  if (stream.device().ordinal() != k.module->device->ordinal)
    throw Error(Error::Kind::InvalidArgument,
                fmt::format("{}: the stream is on cuda:{}, the kernel on cuda:{}", context, stream.device().ordinal(),
                            k.module->device->ordinal));
  LaunchPlan plan = planLaunch(md, args, grid, k.limits);
  const detail::Driver &d = detail::driver();
  k.module->device->makeCurrent();
  for (const TensorMapRequest &r : plan.tensorMaps)
    encode(r, plan, context);
  std::vector<void *> params = plan.params.pointers();
  CUstream s = detail::Native::stream(stream);
  auto tpb = unsigned(md.threadsPerBlock), smem = unsigned(md.dynamicSharedMemory);
  bool clustered = plan.cluster != std::array<unsigned, 3>{1, 1, 1};
  // Programmatic dependent launch where the kernel waits for its predecessors itself; a driver
  // without cuLaunchKernelEx launches it the plain way (its wait is then a no-op).
  bool programmatic = md.programmaticLaunch && d.cuLaunchKernelEx && programmaticLaunchAllowed();
  if (!clustered && !programmatic) {
    d.check(d.cuLaunchKernel(k.function, plan.grid[0], plan.grid[1], plan.grid[2], tpb, 1, 1, smem, s, params.data(),
                             nullptr),
            "cuLaunchKernel", context);
    return;
  }
  if (!d.cuLaunchKernelEx)
    throw Error(Error::Kind::NoDriver,
                fmt::format("{}: thread-block clusters need cuLaunchKernelEx (CUDA 12.0+)", context));
  CUlaunchAttribute attrs[2]{};
  unsigned numAttrs = 0;
  if (clustered) {
    attrs[numAttrs].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[numAttrs++].value.clusterDim = {plan.cluster[0], plan.cluster[1], plan.cluster[2]};
  }
  if (programmatic) {
    attrs[numAttrs].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attrs[numAttrs++].value.programmaticStreamSerializationAllowed = 1;
  }
  CUlaunchConfig config{};
  config.gridDimX = plan.grid[0];
  config.gridDimY = plan.grid[1];
  config.gridDimZ = plan.grid[2];
  config.blockDimX = tpb;
  config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = smem;
  config.hStream = s;
  config.attrs = attrs;
  config.numAttrs = numAttrs;
  d.check(d.cuLaunchKernelEx(&config, k.function, params.data(), nullptr), "cuLaunchKernelEx", context);
}

void launch(const Kernel &kernel, const Grid &grid, const std::vector<Arg> &args) {
  launch(kernel, grid, args, Stream::defaultStream(kernel.device()));
}

} // namespace tile::rt
