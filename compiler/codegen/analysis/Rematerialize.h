// Tiles any thread can recompute on its own. Broadcasting such a tile, or having it in another
// layout, moves no data between threads: instead of a round trip through shared memory (a
// store, two barriers, a load per register), each thread evaluates the ops that build the tile
// at the elements its registers hold. tile-remove-layout-conversions decides which broadcasts
// do this (the tile.rematerialize attribute); the lowering evaluates them
// (KernelLoweringRemat.cpp).
#pragma once

#include "dialect/TileDialect.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tile::codegen {

/// On a tile.broadcast: its input is rematerialized at each element of the result.
inline constexpr llvm::StringLiteral kRematerializeAttr = "tile.rematerialize";

/// The most ops (counted once per use, reshapes free) a rematerialized tile may take to build, and the most
/// loads among them: each is repeated for every element a thread needs. A broadcast may need
/// more elements than the thread would hold of its input; a conversion needs exactly the
/// elements it holds in the target layout, as many evaluations as building the tile in the
/// canonical layout takes, so it may take more ops.
inline constexpr int64_t kMaxRematerializedOps = 16;
inline constexpr int64_t kMaxRematerializedConversionOps = 32;
inline constexpr int64_t kMaxRematerializedLoads = 4;

/// Whether every element of tile `v` can be recomputed by any thread where `user` runs: `v` is
/// built from scalars, splat constants, iota, element-wise arith/math ops, reshapes,
/// expand_dims, broadcasts and permutes, and loads of arrays the kernel never writes (with no loop
/// between the load and `user`, so that a load copied into a pipeline stage is still in its
/// stage), within the limits above. Otherwise `why` (when given) says what stops it.
/// `maxOps` is kMaxRematerializedOps for a broadcast, kMaxRematerializedConversionOps for a
/// conversion. With `heldLayout`, the question is whether the tile can be built in that layout:
/// a tile.convert_layout from it, reached through element-wise ops only, is free too (each
/// thread already holds those elements; tile-remove-layout-conversions cancels the pair).
bool isRematerializable(mlir::Value v, mlir::Operation *user, std::string *why = nullptr,
                        int64_t maxOps = kMaxRematerializedOps, mlir::Attribute heldLayout = {});

/// A broadcast of a scalar or a one-element tile (which every thread holds): free in any layout.
bool isBroadcastOfScalar(mlir::tile::BroadcastOp bc);

/// A broadcast every thread builds in registers, in any layout: of a scalar, or of a tile it
/// recomputes (tile.rematerialize).
bool isBuiltInPlace(mlir::tile::BroadcastOp bc);

/// A value that costs nothing to have in any layout where `user` runs: a splat constant, a
/// broadcast built in place, or a tile every thread can recompute (its conversion is marked
/// tile.rematerialize: each register evaluates its element).
/// `maxOps` as for isRematerializable: kMaxRematerializedConversionOps where the tile will be
/// converted (each register evaluates its own element).
bool isLayoutFree(mlir::Value v, mlir::Operation *user, int64_t maxOps = kMaxRematerializedOps);

} // namespace tile::codegen
