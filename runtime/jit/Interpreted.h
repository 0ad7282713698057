// The JIT's CPU path: a KernelRequest run by the interpreter over host memory instead of being
// compiled for a GPU. Applications and tests use it through jit::Backend (Backend.h), which
// takes the GPU's launch arguments and picks the backend at run time (TILE_INTERPRET=1, an
// explicit option, or no GPU); this is the layer underneath, on interpreter arguments.
//
//   tile::jit::interpret(request, {4, 2, 1}, {LaunchArg::of(x), LaunchArg::i64(n)});
#pragma once

#include "compiler/interpreter/HostArray.h"
#include "runtime/jit/Jit.h"

#include <vector>

namespace tile::jit {

/// True when the environment variable TILE_INTERPRET is set to anything but "", "0", "false",
/// "no" or "off": run kernels with the interpreter even where a GPU exists.
bool interpretRequested();

/// Compiles `request` to tile IR for the interpreter, if this process has not yet, so that a
/// timed interpret() does not include compiling. Returns the kernel's parameters in order
/// (name; array with dtype and rank, or scalar with dtype), as a GPU kernel's metadata lists
/// them. Throws like interpret().
std::vector<rt::ParamInfo> compileForInterpreter(const KernelRequest &request);

/// Compiles `request` to tile IR (once per request and process: later calls with the same
/// source, kernel, constants, argument types and config reuse the module) and runs it on `grid`
/// with the interpreter. Throws rt::Error(InvalidArgument) holding the compile diagnostics, or
/// the interpreter's message (source location, block) when the launch fails. Calls from several
/// threads are serialized: the modules share one MLIR context.
void interpret(const KernelRequest &request, interp::Dim3 grid, const std::vector<interp::LaunchArg> &args);

} // namespace tile::jit
