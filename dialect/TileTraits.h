//===- TileTraits.h - tile dialect op traits --------------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILETRAITS_H
#define TILE_DIALECT_TILETRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::tile {

/// Checks one tile type: every dimension a power of two and a supported element
/// type. `role` names the value in the message ("result", "operand #1").
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
