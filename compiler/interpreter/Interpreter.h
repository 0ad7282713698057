// Runs a specialized kernel's `tile` IR on the CPU, over host memory.
//
//   std::vector<float> x(100 * 70), y(100 * 70);
//   std::vector<LaunchArg> args = {
//       LaunchArg::of(HostArray::contiguous(x.data(), DType::Float32, {100, 70})),
//       LaunchArg::of(HostArray::contiguous(y.data(), DType::Float32, {100, 70}))};
//   std::string error;
//   if (failed(interpret(module, "copy", {2, 3, 1}, args, {}, error)))
//     std::cerr << error << "\n";
//
// Every block of the grid runs in turn. Elements are emulated exactly in their dtype: every op
// producing a bf16/f16/tf32/f8 value rounds it (to nearest even), mma multiplies exactly and
// accumulates in the accumulator's dtype. Out-of-bounds loads pad and stores skip as the ops
// define; everything else that would go wrong (an access outside an array's allocation, integer
// division by zero, a failed tile.assert, an op it does not know) stops the launch with an error
// naming the op's source location and the block. A store or scatter that would leave the
// allocation writes none of its elements.
#pragma once

#include "compiler/interpreter/HostArray.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tile {
class KernelOp;
}

namespace tile::interp {

/// What elements outside the array become when a load's padding is `undetermined`: zero by
/// default, as the generated code reads them (copies and masked loads fill zeros); Poison checks
/// that a kernel does not depend on them.
enum class UndeterminedPadding {
  Zero,
  Poison, // NaN for floats, the most negative value for integers, false for bool
};

struct InterpreterOptions {
  /// Where tile.print writes (default std::cout).
  std::ostream *printStream = nullptr;
  /// Parameter names for messages, in kernel-argument order. Without them the interpreter uses
  /// a `tile.name` string argument attribute, else "#<index>".
  std::vector<std::string> argNames;
  UndeterminedPadding undeterminedPadding = UndeterminedPadding::Zero;
  /// Run only this block (debugging); the grid still defines num_blocks.
  std::optional<Dim3> onlyBlock;
  /// Called after each block with the blocks run so far and the total (e.g. for a progress
  /// line on a long run); empty by default.
  std::function<void(int64_t done, int64_t total)> progress;
};

/// Checks `args` against the kernel's signature: count, array or scalar, dtype, rank, static
/// dimensions, shapes and strides. Messages name the parameter.
mlir::LogicalResult checkLaunchArgs(mlir::tile::KernelOp kernel, llvm::ArrayRef<LaunchArg> args,
                                    const InterpreterOptions &options, std::string &error);

/// Runs `kernel` over `grid`. On failure `error` holds "file:line:col: error: ... (block (x, y, z))".
mlir::LogicalResult interpret(mlir::tile::KernelOp kernel, Dim3 grid, llvm::ArrayRef<LaunchArg> args,
                              const InterpreterOptions &options, std::string &error);

/// The same for the kernel named `kernelName` in `module` (empty: the module's only kernel).
mlir::LogicalResult interpret(mlir::ModuleOp module, llvm::StringRef kernelName, Dim3 grid,
                              llvm::ArrayRef<LaunchArg> args, const InterpreterOptions &options, std::string &error);

} // namespace tile::interp
