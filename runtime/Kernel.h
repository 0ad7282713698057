// A kernel ready to launch: a function of a loaded module plus its metadata. Copies share the
// module, which stays loaded while any kernel taken from it is alive.
#pragma once

#include "runtime/Device.h"
#include "runtime/KernelMetadata.h"
#include "runtime/LaunchPlan.h"

#include <memory>

namespace tile::rt {

namespace detail {
struct KernelState;
struct Native;
} // namespace detail

class Kernel {
public:
  const KernelMetadata &metadata() const;
  /// The limits launches of this kernel are checked against.
  const DeviceLimits &limits() const;
  /// The device the kernel's module is loaded on.
  Device device() const;
  int numRegisters() const;
  int staticSharedMemory() const;

private:
  friend struct detail::Native;
  explicit Kernel(std::shared_ptr<const detail::KernelState> state) : state_(std::move(state)) {}
  std::shared_ptr<const detail::KernelState> state_;
};

} // namespace tile::rt
