// The pure half of a launch: checks arguments, grid and kernel against the metadata and the
// device's limits, and lays out the kernel's parameter list. No driver calls, so every check
// is unit-tested without a GPU; launch() (Launch.h) only adds the driver calls.
#pragma once

#include "runtime/Args.h"
#include "runtime/KernelMetadata.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tile::rt {

/// Blocks in x, y, z (signed and 64-bit so that out-of-range values are caught, not wrapped).
struct Grid {
  Grid(std::int64_t x = 1, std::int64_t y = 1, std::int64_t z = 1) : x(x), y(y), z(z) {}
  std::int64_t x, y, z;
};

/// What a launch is checked against. Device::limits() gives the real ones.
struct DeviceLimits {
  int ordinal = 0;
  std::array<std::int64_t, 3> maxGrid{2147483647, 65535, 65535};
  int maxThreadsPerBlock = 1024;
  int maxDynamicSharedMemory = 227 * 1024; // per block, with the opt-in attribute
};

/// The parameter values of one launch, each at its natural alignment (TMA descriptors at
/// 128 bytes), in the kernel's parameter order.
class ParamBuffer {
public:
  /// Appends a parameter of `size` bytes copied from `bytes` (zeros if null); its offset.
  std::size_t add(const void *bytes, std::size_t size, std::size_t align);
  std::size_t count() const { return params_.size(); }
  std::size_t offset(std::size_t i) const { return params_[i].first; }
  std::size_t size(std::size_t i) const { return params_[i].second; }
  unsigned char *at(std::size_t offset) { return storage_.front().bytes + offset; }
  const unsigned char *at(std::size_t offset) const { return storage_.front().bytes + offset; }
  /// One pointer per parameter into this buffer: cuLaunchKernel's kernelParams.
  std::vector<void *> pointers();

private:
  struct alignas(128) Chunk {
    unsigned char bytes[128];
  };
  std::vector<Chunk> storage_;
  std::size_t used_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> params_; // offset, size
};

/// cuTensorMapEncodeTiled's arguments for one metadata "tma" entry, innermost dimension first.
struct TensorMapRequest {
  int tmaIndex = 0;
  std::string param;
  DType dtype = DType::Float32;
  DevicePtr address = 0;
  std::vector<std::uint64_t> globalDim;
  std::vector<std::uint64_t> globalStrides; // bytes, dimensions 1..rank-1
  std::vector<std::uint32_t> box;
  std::vector<std::uint32_t> elementStrides;
  TmaSwizzle swizzle = TmaSwizzle::None;
  TmaL2Promotion l2Promotion = TmaL2Promotion::None;
  TmaOobFill oobFill = TmaOobFill::Zero;
  std::size_t offset = 0; // of its 128-byte slot in the ParamBuffer

  /// Everything the encoded descriptor depends on (not the slot): equal keys encode alike.
  std::vector<std::uint64_t> key() const;
};

struct LaunchPlan {
  std::array<unsigned, 3> grid{1, 1, 1};
  /// Blocks per cluster along each axis ({1, 1, 1}: no clusters): the metadata's required
  /// shape, or its preferred size along the first grid axis that size divides.
  std::array<unsigned, 3> cluster{1, 1, 1};
  ParamBuffer params;
  std::vector<TensorMapRequest> tensorMaps; // to encode into params before launching
};

/// Checks everything a launch can get wrong and lays out the parameters; throws
/// Error(InvalidArgument) naming the kernel and the parameter, e.g.
/// "launch of 'scale_rows': argument 2 ('out'): dtype is float32, the kernel expects bfloat16".
LaunchPlan planLaunch(const KernelMetadata &metadata, const std::vector<Arg> &args, const Grid &grid,
                      const DeviceLimits &limits);

/// Why the kernel's block size or dynamic shared memory does not fit the device ("" if it does).
std::string kernelFitProblem(const KernelMetadata &metadata, const DeviceLimits &limits);

} // namespace tile::rt
