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

#endif // TILE_DIALECT_TILEDIALECT_H
