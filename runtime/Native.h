// The driver handles behind the public classes. Internal: only runtime/*.cpp include this.
#pragma once

#include "runtime/Device.h"
#include "runtime/Driver.h"
#include "runtime/Kernel.h"
#include "runtime/KernelMetadata.h"
#include "runtime/Stream.h"

#include <memory>
#include <string>

namespace tile::rt::detail {

struct DeviceState {
  int ordinal = 0;
  cuda::CUdevice device = 0;
  cuda::CUcontext context = nullptr;
  std::string name;
  int ccMajor = 0, ccMinor = 0, smCount = 0;
  std::size_t totalMemory = 0;
  DeviceLimits limits;

  DeviceState() = default;
  DeviceState(const DeviceState &) = delete;
  DeviceState &operator=(const DeviceState &) = delete;
  ~DeviceState(); // releases the primary context
  /// Makes the primary context current on the calling thread (cheap; done before each call).
  void makeCurrent() const;
};

struct ModuleState {
  std::shared_ptr<DeviceState> device;
  cuda::CUmodule module = nullptr;
  bool isPtx = false;
  ~ModuleState();
};

struct KernelState {
  std::shared_ptr<ModuleState> module;
  cuda::CUfunction function = nullptr;
  KernelMetadata metadata;
  DeviceLimits limits; // the device's, narrowed by this function's registers and static smem
  int numRegisters = 0;
  int staticSharedMemory = 0;
};

/// Reaches the private state of the public classes.
struct Native {
  static const std::shared_ptr<DeviceState> &state(const Device &d) { return d.state_; }
  static cuda::CUstream stream(const Stream &s) { return static_cast<cuda::CUstream>(s.handle_); }
  static Device device(std::shared_ptr<DeviceState> s) { return Device(std::move(s)); }
  static const KernelState &kernel(const Kernel &k) { return *k.state_; }
  static Kernel makeKernel(std::shared_ptr<const KernelState> s) { return Kernel(std::move(s)); }
};

} // namespace tile::rt::detail
