//===- TileTraits.cpp - shared tile checks --------------------------------===//

#include "dialect/TileTraits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

bool tile::isTileElementType(Type type) {
  // Unsigned integers of 8-64 bits too (arrays keep them; tiles only while the front end
  // builds a kernel).
  if (auto intType = dyn_cast<IntegerType>(type))
    return !intType.isSigned() && llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth()) &&
           !(intType.isUnsigned() && intType.getWidth() == 1);
  return type.isIndex() || type.isF16() || type.isBF16() || type.isF32() || type.isF64() || type.isTF32() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

std::optional<int64_t> tile::tileElementCount(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    if (size < 0 || __builtin_mul_overflow(count, size, &count))
      return std::nullopt;
  return count;
}

LogicalResult tile::verifyTileType(Operation *op, RankedTensorType type, StringRef role) {
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    if (ShapedType::isDynamic(size))
      return op->emitOpError() << role << " " << type << " must have a static shape";
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return op->emitOpError() << role << " " << type << " has dimension " << dim << " of size " << size
                               << "; tile dimensions must be powers of two";
  }
  std::optional<int64_t> count = tileElementCount(type.getShape());
  if (!count || *count > kMaxTileElements)
    return op->emitOpError() << role << " " << type << " has "
                             << (count ? std::to_string(*count) : std::string("more than 2^63"))
                             << " elements; a tile holds at most " << kMaxTileElements << " (2^20)";
  if (!isTileElementType(type.getElementType()))
    return op->emitOpError() << role << " " << type << " has unsupported element type " << type.getElementType();
  return success();
}

LogicalResult tile::verifyPowerOfTwoShapes(Operation *op) {
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (auto type = dyn_cast<RankedTensorType>(operand.getType()))
      if (failed(verifyTileType(op, type, ("operand #" + llvm::Twine(i)).str())))
        return failure();
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    if (auto type = dyn_cast<RankedTensorType>(result.getType()))
      if (failed(verifyTileType(
              op, type, op->getNumResults() == 1 ? std::string("result") : ("result #" + llvm::Twine(i)).str())))
        return failure();
  return success();
}
