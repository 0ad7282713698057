//===- TileTraits.h - tile dialect op traits --------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILETRAITS_H
#define TILE_DIALECT_TILETRAITS_H

#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace mlir::tile {

/// The most elements one tile may hold (2^20, as Triton's limit). A tile is distributed over
/// one block's registers; anything larger cannot be held and would only exhaust the compiler.
constexpr int64_t kMaxTileElements = int64_t(1) << 20;

/// The element count of a static shape, or nothing when the product overflows 64 bits.
std::optional<int64_t> tileElementCount(llvm::ArrayRef<int64_t> shape);

/// Checks one tile type: every dimension a power of two, at most kMaxTileElements
/// elements and a supported element type. `role` names the value in the message ("result", "operand #1").
LogicalResult verifyTileType(Operation *op, RankedTensorType type, llvm::StringRef role);

/// Whether `type` may be a tile element (or array element) type.
bool isTileElementType(Type type);

/// Applies verifyTileType to every ranked-tensor operand and result.
LogicalResult verifyPowerOfTwoShapes(Operation *op);

template <typename ConcreteType>
class TilePowerOfTwoShapes : public OpTrait::TraitBase<ConcreteType, TilePowerOfTwoShapes> {
public:
  static LogicalResult verifyTrait(Operation *op) { return verifyPowerOfTwoShapes(op); }
};

} // namespace mlir::tile

#endif // TILE_DIALECT_TILETRAITS_H
