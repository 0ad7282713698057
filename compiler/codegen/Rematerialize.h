// Tiles any thread can recompute on its own. Broadcasting such a tile, or having it in another
// layout, moves no data between threads: instead of a round trip through shared memory (a
// store, two barriers, a load per register), each thread evaluates the ops that build the tile
// at the elements its registers hold. tile-remove-layout-conversions decides which broadcasts
// do this (the tile.rematerialize attribute); the lowering evaluates them
// (KernelLoweringRemat.cpp).
#pragma once

#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tile::codegen {

/// On a tile.broadcast: its input is rematerialized at each element of the result.
inline constexpr llvm::StringLiteral kRematerializeAttr = "tile.rematerialize";

/// The most ops (counted once per use, reshapes free) a rematerialized tile may take to build, and the most
/// loads among them: each is repeated for every element a thread needs.
inline constexpr int64_t kMaxRematerializedOps = 12;
inline constexpr int64_t kMaxRematerializedLoads = 3;

/// Whether every element of tile `v` can be recomputed by any thread where `user` runs: `v` is
/// built from scalars, splat constants, iota, element-wise arith/math ops, reshapes,
/// expand_dims and broadcasts, and loads of arrays the kernel never writes (with no loop
/// between the load and `user`, so that a load copied into a pipeline stage is still in its
/// stage), within the limits above. Otherwise `why` (when given) says what stops it.
bool isRematerializable(mlir::Value v, mlir::Operation *user, std::string *why = nullptr);

} // namespace tile::codegen
