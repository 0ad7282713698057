// A launch as Backend::launch takes it (rt::Grid, rt::Arg) turned into what the interpreter
// runs (interp::Dim3, interp::LaunchArg), with the checks rt::launch makes and the same
// messages, so a wrong argument reads alike on both backends:
//   "launch of 'saxpy': argument 2 ('out'): dtype is float64, the kernel expects float32".
#pragma once

#include "compiler/interpreter/HostArray.h"
#include "runtime/Args.h"
#include "runtime/KernelMetadata.h"
#include "runtime/LaunchPlan.h"
#include "runtime/jit/HostHeap.h"

#include <string>
#include <vector>

namespace tile::jit {

/// The grid, checked against the limits a GPU launch has (DeviceLimits' defaults), so what
/// runs here also launches on a device.
interp::Dim3 toInterpreterGrid(const std::string &kernel, const rt::Grid &grid);

/// Checks `args` against `params` (count; array or scalar; dtype; rank; strides; extents; null
/// or misaligned data) and converts them. An array must point into a live allocation of
/// `heap`, and that allocation bounds every access the interpreter makes through it; anything
/// else (a device pointer, foreign host memory) is refused naming the parameter. A DLPack
/// tensor must be on the CPU (kDLCPU); outside the heap its own extent bounds it. Throws
/// rt::Error(InvalidArgument).
std::vector<interp::LaunchArg> toInterpreterArgs(const std::string &kernel, const std::vector<rt::ParamInfo> &params,
                                                 const std::vector<rt::Arg> &args, const HostHeap &heap);

} // namespace tile::jit
