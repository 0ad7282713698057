#include "compiler/interpreter/ExecContext.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"

using namespace mlir;

namespace tile::interp {

int64_t ExecContext::intScalar(Value v) const {
  const Tensor &t = tensor(v);
  return t.isFloat() ? static_cast<int64_t>(t.f[0]) : signedValue(t.i[0], t.dtype);
}

LogicalResult ExecContext::fail(Operation *op, const Twine &message) { return fail(op->getLoc(), message); }

LogicalResult ExecContext::fail(Location loc, const Twine &message) {
  if (!error.empty())
    return failure(); // keep the first error
  std::string where = locationString(loc);
  error = (where.empty() ? "" : where + ": ") + "error: " + message.str() + " (block (" + std::to_string(block.x) +
          ", " + std::to_string(block.y) + ", " + std::to_string(block.z) + "))";
  return failure();
}

static std::optional<FileLineColLoc> findFileLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto name = dyn_cast<NameLoc>(loc))
    return findFileLoc(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return findFileLoc(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto file = findFileLoc(inner))
        return file;
  return std::nullopt;
}

std::string locationString(Location loc) {
  auto file = findFileLoc(loc);
  if (!file)
    return "";
  return file->getFilename().str() + ":" + std::to_string(file->getLine()) + ":" + std::to_string(file->getColumn());
}

std::optional<DType> dtypeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  if (type.isIndex())
    return DType::Int64;
  if (auto i = dyn_cast<IntegerType>(type)) // unsigned: arrays and scalar parameters
    return rt::integerDType(i.getWidth(), i.isUnsigned());
  if (type.isF16())
    return DType::Float16;
  if (type.isBF16())
    return DType::BFloat16;
  if (type.isF32())
    return DType::Float32;
  if (type.isF64())
    return DType::Float64;
  if (type.isTF32())
    return DType::TFloat32;
  if (isa<Float8E4M3FNType>(type))
    return DType::Float8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return DType::Float8E5M2;
  return std::nullopt;
}

DType elementDType(Value v) { return dtypeOf(v.getType()).value_or(DType::Float64); }

std::vector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return std::vector<int64_t>(tensor.getShape().begin(), tensor.getShape().end());
  return {};
}

} // namespace tile::interp
