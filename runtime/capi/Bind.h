// A positional argument list of the C API bound to a kernel's declaration: the numbers given
// for ct.Constant parameters become the specialization's constants, tensors and the other
// numbers become the launch's arguments, typed as the compiler needs them.
#pragma once

#include "runtime/jit/Jit.h"
#include "runtime/jit/KernelDecl.h"
#include "tile/c/tilecc.h"

#include <string>
#include <vector>

namespace tile::capi {

struct BoundLaunch {
  /// Source, kernel, the constants given and every other argument's type (no config).
  jit::KernelRequest request;
  /// The non-constant arguments in parameter order.
  std::vector<rt::Arg> args;
  /// The kernel, constants and types as text: the key of a context's compiled kernels.
  std::string key;
  /// Integer values of the constant and scalar parameters, for an autotune key=.
  std::map<std::string, int64_t> integers;
};

/// Binds `args` (in `decl`'s parameter order) for `kernel` of `source`; throws
/// rt::Error(InvalidArgument) naming the argument that does not fit.
BoundLaunch bindArgs(const std::string &source, const std::string &fileName, const std::string &kernel,
                     const jit::KernelDecl &decl, const tilecc_arg *args, size_t numArgs);

/// The scalar a C argument stands for: `arg.dtype`, else int32 (int64 when the value needs it),
/// float32 or bool; throws rt::Error(InvalidArgument) for an unknown dtype, a value out of its
/// range, or a dtype of another kind.
rt::Scalar scalarOf(const tilecc_arg &arg);

} // namespace tile::capi
