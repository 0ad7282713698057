#include "compiler/interpreter/Interpreter.h"

#include "compiler/interpreter/ArgCheck.h"
#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <iostream>
#include <limits>

using namespace mlir;

namespace tile::interp {
namespace {

bool isSupportedType(Type type) {
  if (auto array = dyn_cast<mlir::tile::ArrayType>(type))
    return dtypeOf(array.getElementType()).has_value();
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape() && (!tensor.getEncoding() || isa<mlir::tile::MmaLayoutAttr>(tensor.getEncoding())) &&
           dtypeOf(tensor.getElementType());
  return dtypeOf(type).has_value();
}

// Rejects, before anything runs, ops and types the interpreter cannot execute, so a launch
// never stops half-way through for that reason.
LogicalResult checkSupported(mlir::tile::KernelOp kernel, std::string &error) {
  const OpTable &table = opTable();
  WalkResult walk = kernel.getBody().walk([&](Operation *op) {
    auto fail = [&](const std::string &message) {
      std::string where = locationString(op->getLoc());
      error = (where.empty() ? "" : where + ": ") + "error: " + message;
      return WalkResult::interrupt();
    };
    StringRef name = op->getName().getStringRef();
    if (!table.lookup(name))
      return fail("the interpreter does not support '" + name.str() + "'");
    for (Type type : op->getOperandTypes())
      if (!isSupportedType(type)) {
        std::string s;
        llvm::raw_string_ostream(s) << type;
        return fail("the interpreter does not support values of type " + s + " (in '" + name.str() + "')");
      }
    for (Type type : op->getResultTypes())
      if (!isSupportedType(type) || isa<mlir::tile::ArrayType>(type)) {
        std::string s;
        llvm::raw_string_ostream(s) << type;
        return fail("the interpreter does not support results of type " + s + " (in '" + name.str() + "')");
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

// The interpreter trusts types and shapes, so IR that does not verify never runs.
LogicalResult verifyKernel(mlir::tile::KernelOp kernel, std::string &error) {
  std::string first;
  ScopedDiagnosticHandler handler(kernel->getContext(), [&](Diagnostic &diag) {
    if (first.empty() && diag.getSeverity() == DiagnosticSeverity::Error) {
      std::string where = locationString(diag.getLocation());
      first = (where.empty() ? "" : where + ": ") + "error: the kernel does not verify: " + diag.str();
    }
    return success();
  });
  if (succeeded(verify(kernel)))
    return success();
  error = first.empty() ? "error: the kernel does not verify" : first;
  return failure();
}

Tensor scalarArg(const LaunchArg &arg) {
  return isFloat(arg.dtype) ? Tensor::scalarFloat(arg.dtype, arg.floatValue)
                            : Tensor::scalarInt(arg.dtype, arg.intValue);
}

} // namespace

LogicalResult interpret(mlir::tile::KernelOp kernel, Dim3 grid, ArrayRef<LaunchArg> args,
                        const InterpreterOptions &options, std::string &error) {
  error.clear();
  for (int64_t extent : {grid.x, grid.y, grid.z})
    if (extent < 1 || extent > std::numeric_limits<int32_t>::max()) {
      error = "error: grid (" + std::to_string(grid.x) + ", " + std::to_string(grid.y) + ", " + std::to_string(grid.z) +
              ") must have 1 to 2^31-1 blocks along each axis";
      return failure();
    }
  if (kernel.getBody().empty()) {
    error = "error: kernel '" + kernel.getSymName().str() + "' has no body";
    return failure();
  }
  if (failed(verifyKernel(kernel, error)) || failed(checkSupported(kernel, error)) ||
      failed(checkLaunchArgs(kernel, args, options, error)))
    return failure();

  ExecContext ctx(options, grid, options.printStream ? *options.printStream : std::cout);
  Block &entry = kernel.getBody().front();
  std::vector<BoundArray> arrays(args.size());
  for (unsigned i = 0; i < args.size(); ++i) {
    if (args[i].isArray) {
      arrays[i] = {args[i].array, argumentLabel(kernel, i, options)};
      ctx.bindArray(entry.getArgument(i), &arrays[i]);
    } else {
      ctx.bind(entry.getArgument(i), scalarArg(args[i]));
    }
  }
  // Values are rebound as each block defines them, so nothing is cleared between blocks.
  int64_t total = 1; // saturates: up to (2^31-1)^3 blocks, for messages only
  if (!options.onlyBlock &&
      (__builtin_mul_overflow(grid.x, grid.y, &total) || __builtin_mul_overflow(total, grid.z, &total)))
    total = std::numeric_limits<int64_t>::max();
  int64_t done = 0;
  for (int64_t z = 0; z < grid.z; ++z)
    for (int64_t y = 0; y < grid.y; ++y)
      for (int64_t x = 0; x < grid.x; ++x) {
        if (options.onlyBlock && (options.onlyBlock->x != x || options.onlyBlock->y != y || options.onlyBlock->z != z))
          continue;
        ctx.block = {x, y, z};
        if (failed(runBlock(ctx, entry, nullptr))) {
          error = ctx.error;
          return failure();
        }
        if (options.progress)
          options.progress(++done, total);
      }
  return success();
}

LogicalResult interpret(ModuleOp module, StringRef kernelName, Dim3 grid, ArrayRef<LaunchArg> args,
                        const InterpreterOptions &options, std::string &error) {
  std::vector<mlir::tile::KernelOp> kernels;
  for (auto k : module.getOps<mlir::tile::KernelOp>())
    kernels.push_back(k);
  std::string names;
  for (auto k : kernels)
    names += (names.empty() ? "" : ", ") + k.getSymName().str();
  for (auto k : kernels)
    if (kernelName.empty() ? kernels.size() == 1 : k.getSymName() == kernelName)
      return interpret(k, grid, args, options, error);
  if (kernelName.empty())
    error = "error: the module has " + std::to_string(kernels.size()) + " kernels" +
            (names.empty() ? "" : " (" + names + ")") + "; name the one to run";
  else
    error = "error: no kernel named '" + kernelName.str() + "' in the module" +
            (names.empty() ? "" : " (kernels: " + names + ")");
  return failure();
}

} // namespace tile::interp
