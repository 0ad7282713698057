// A GPU and its primary context (the one the CUDA runtime and PyTorch share), retained for
// as long as any Device, Stream, buffer, module or kernel on it is alive.
#pragma once

#include "runtime/LaunchPlan.h"

#include <cstddef>
#include <memory>
#include <string>

namespace tile::rt {

namespace detail {
struct DeviceState;
struct Native;
} // namespace detail

class Device {
public:
  /// Number of CUDA devices; throws Error(NoDriver/NoDevice) when there is no usable driver.
  static int count();
  /// Whether device `ordinal` can be opened; otherwise `why` (if given) says why not. Never
  /// throws: this is how GPU tests decide to skip.
  static bool available(int ordinal = 0, std::string *why = nullptr);

  /// Opens device `ordinal` (Error(NoDriver/NoDevice) when absent) and makes its primary
  /// context current on this thread.
  explicit Device(int ordinal = 0);

  int ordinal() const;
  const std::string &name() const;
  int computeCapabilityMajor() const;
  int computeCapabilityMinor() const;
  int smCount() const;
  std::size_t totalMemory() const;
  std::size_t freeMemory() const;
  /// Grid, block and shared-memory limits launches are checked against.
  const DeviceLimits &limits() const;
  /// The CUDA driver's version, e.g. 13000.
  int driverVersion() const;
  /// Waits for all work on the device's context.
  void synchronize() const;

private:
  friend struct detail::Native;
  explicit Device(std::shared_ptr<detail::DeviceState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::DeviceState> state_;
};

} // namespace tile::rt
