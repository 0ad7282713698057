// Whether ops in a scope write an array: reading such an array ahead of time (a copy issued
// iterations early, an element re-read later) could see the wrong value.
#pragma once

#include "dialect/TileDialect.h"

#include "llvm/ADT/STLExtras.h"

namespace tile::codegen {

/// Whether a store, scatter or atomic inside `scope` takes `array` as an operand.
inline bool writesArray(mlir::Operation *scope, mlir::Value array) {
  bool written = false;
  scope->walk([&](mlir::Operation *op) {
    if (llvm::isa<mlir::tile::StoreOp, mlir::tile::ScatterOp, mlir::tile::AtomicAddOp, mlir::tile::AtomicRMWOp,
                  mlir::tile::AtomicCASOp>(op) &&
        llvm::is_contained(op->getOperands(), array))
      written = true;
  });
  return written;
}

} // namespace tile::codegen
