// Launching a kernel: planLaunch's checks (LaunchPlan.h), TMA descriptors, then the driver.
#pragma once

#include "runtime/Args.h"
#include "runtime/Kernel.h"
#include "runtime/LaunchPlan.h"
#include "runtime/Stream.h"

#include <vector>

namespace tile::rt {

/// Launches `kernel` on `grid` blocks of metadata().threadsPerBlock threads on `stream`.
/// Arguments follow the source parameters (arrays: ArrayArg or DLPack; scalars: typed) and are
/// checked first: a mismatch throws Error(InvalidArgument) naming the parameter. Asynchronous:
/// synchronize the stream (or copy back through DeviceBuffer) to wait for the kernel.
void launch(const Kernel &kernel, const Grid &grid, const std::vector<Arg> &args, const Stream &stream);
/// The same on the device's legacy default stream.
void launch(const Kernel &kernel, const Grid &grid, const std::vector<Arg> &args);

/// How many TMA descriptors launches have encoded with the driver so far in this process:
/// each (array, box, swizzle, fill) is encoded once and cached.
std::size_t tensorMapsEncoded();

} // namespace tile::rt
