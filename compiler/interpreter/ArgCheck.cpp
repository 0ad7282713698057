// Launch arguments against the kernel signature, before anything runs.

#include "compiler/interpreter/ArgCheck.h"
#include "compiler/interpreter/ExecContext.h"

#include "dialect/TileDialect.h"

using namespace mlir;

namespace tile::interp {

std::string argumentLabel(mlir::tile::KernelOp kernel, unsigned index, const InterpreterOptions &options) {
  if (index < options.argNames.size() && !options.argNames[index].empty())
    return "'" + options.argNames[index] + "'";
  return "'" + kernel.getParamName(index) + "'";
}

static std::string describeArg(const LaunchArg &arg) {
  if (arg.isArray)
    return std::string("an array of ") + dtypeName(arg.array.dtype) + " with rank " + std::to_string(arg.array.rank());
  return std::string("a scalar of ") + dtypeName(arg.dtype);
}

static LogicalResult checkArray(const std::string &label, mlir::tile::ArrayType type, DType dtype, const HostArray &a,
                                std::string &error) {
  auto fail = [&](const std::string &message) {
    error = "error: argument " + label + ": " + message;
    return failure();
  };
  if (a.dtype != dtype)
    return fail(std::string("expected an array of ") + dtypeName(dtype) + ", got " + dtypeName(a.dtype));
  if (a.rank() != type.getRank())
    return fail("expected rank " + std::to_string(type.getRank()) + ", got rank " + std::to_string(a.rank()) +
                " (shape " + shapeString(a.shape) + ")");
  if (a.strides.size() != a.shape.size())
    return fail("has " + std::to_string(a.strides.size()) + " strides for shape " + shapeString(a.shape));
  for (int64_t d = 0; d < a.rank(); ++d) {
    if (a.shape[d] < 0)
      return fail("shape " + shapeString(a.shape) + " has a negative dimension");
    if (!type.isDynamicDim(d) && type.getShape()[d] != a.shape[d])
      return fail("dimension " + std::to_string(d) + " must be " + std::to_string(type.getShape()[d]) +
                  " (static in the kernel), got " + std::to_string(a.shape[d]) + " (shape " + shapeString(a.shape) +
                  ")");
  }
  if (!a.data && a.numElements() > 0)
    return fail("data is null but the array has " + std::to_string(a.numElements()) + " elements");
  if ((a.allocBegin == nullptr) != (a.allocEnd == nullptr))
    return fail("set both allocation bounds or neither");
  return success();
}

LogicalResult checkLaunchArgs(mlir::tile::KernelOp kernel, ArrayRef<LaunchArg> args, const InterpreterOptions &options,
                              std::string &error) {
  ArrayRef<Type> types = kernel.getArgumentTypes();
  if (args.size() != types.size()) {
    std::string names;
    for (unsigned i = 0; i < types.size(); ++i)
      names += (i ? ", " : "") + argumentLabel(kernel, i, options);
    error = "error: kernel '" + kernel.getSymName().str() + "' takes " + std::to_string(types.size()) + " argument(s)" +
            (names.empty() ? "" : " (" + names + ")") + ", got " + std::to_string(args.size());
    return failure();
  }
  for (unsigned i = 0; i < types.size(); ++i) {
    std::string label = argumentLabel(kernel, i, options);
    const LaunchArg &arg = args[i];
    auto array = dyn_cast<mlir::tile::ArrayType>(types[i]);
    std::optional<DType> dtype = dtypeOf(array ? array.getElementType() : types[i]);
    if (!dtype) {
      error = "error: argument " + label + " has a type the interpreter does not support";
      return failure();
    }
    std::string expected =
        array ? std::string("an array of ") + dtypeName(*dtype) + " with rank " + std::to_string(array.getRank())
              : std::string("a scalar of ") + dtypeName(*dtype);
    if (arg.isArray != static_cast<bool>(array) || (!array && arg.dtype != *dtype)) {
      error = "error: argument " + label + ": the kernel expects " + expected + ", got " + describeArg(arg);
      return failure();
    }
    if (array && failed(checkArray(label, array, *dtype, arg.array, error)))
      return failure();
  }
  return success();
}

} // namespace tile::interp
