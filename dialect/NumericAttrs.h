// Attributes the front end puts on arith/math ops for cuTile's numeric options.
#pragma once

#include "llvm/ADT/StringRef.h"

namespace mlir::tile {

/// On a math op: the source asked for flush_to_zero=True, so subnormal inputs and results may
/// read as zero. The GPU lowering then uses the .ftz forms of the approximate instructions
/// (ex2.approx.ftz.f32 is one MUFU.EX2 where the IEEE form adds a range check and two
/// multiplications); the interpreter computes the IEEE result, which the option also allows.
inline constexpr llvm::StringLiteral kFlushToZeroAttr = "tile.flush_to_zero";

} // namespace mlir::tile
