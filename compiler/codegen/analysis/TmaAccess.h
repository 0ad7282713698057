// What the Tensor Memory Accelerator needs of an array access, whichever way it copies: the
// checks tile-place-tma makes of loads (PlaceTma.cpp) and of stores (TmaStore.cpp).
#pragma once

#include "compiler/codegen/analysis/GpuTarget.h"
#include "dialect/TileDialect.h"

#include <optional>
#include <string>

namespace tile::codegen {

/// TMA's limits: a descriptor's rank and one box dimension.
inline constexpr int64_t kMaxTmaRank = 5;
inline constexpr int64_t kMaxTmaBoxDim = 256;

/// Why TMA cannot access a tile of `shape` in `array` on `target` (allow_tma=False, not an
/// aligned kernel argument, dimensions not in memory order, a rank TMA or the driver refuses),
/// or an empty string, with the argument's index in `arg`.
std::string tmaAccessRefusal(mlir::Value array, std::optional<llvm::ArrayRef<int32_t>> order,
                             std::optional<bool> allowTma, llvm::ArrayRef<int64_t> shape, mlir::tile::KernelOp kernel,
                             const GpuTarget &target, unsigned &arg);

/// Why `box` (of `elementBytes`-byte elements) is not a TMA box, or an empty string.
std::string tmaBoxRefusal(llvm::ArrayRef<int64_t> box, int64_t elementBytes);

/// Whether TMA fills out-of-bounds `element`s with NaN when asked: float types TMA knows (8-bit
/// floats travel as bytes, filled with zeros).
bool tmaFillsNan(mlir::Type element);

} // namespace tile::codegen
