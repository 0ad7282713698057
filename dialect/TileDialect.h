//===- TileDialect.h - the tile dialect -------------------------*- C++ -*-===//
//
// Everything a user of the tile dialect includes: the dialect, its types,
// attributes, traits and operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEDIALECT_H
#define TILE_DIALECT_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/TileDialect.h.inc"
#include "dialect/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/TileTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/TileAttrs.h.inc"

#include "dialect/TileTraits.h"

#define GET_OP_CLASSES
#include "dialect/TileOps.h.inc"

namespace mlir::tile {
/// cuTile's name of an element type ("float32", "bfloat16", "int8", "bool_", "float8_e4m3fn"),
/// as launch metadata and messages spell it; "unknown" for a type cuTile has no name for.
std::string dtypeName(Type element);

/// A unit attribute on a tile.kernel array argument: its base address and the stride of every
/// dimension but the last are multiples of 16 bytes, the last stride is 1 and every dimension
/// is below 2^31 (the caller's promise, `--arg NAME=DTYPE:RANK:aligned`; the runtime checks it
/// at launch). Vector accesses then need no run-time alignment check, and tile-place-tma may
/// copy the array's tiles with TMA.
inline constexpr llvm::StringLiteral kAlignedArgAttr = "tile.aligned";
} // namespace mlir::tile

#endif // TILE_DIALECT_TILEDIALECT_H
