// How a tile's elements are held in memory and in registers: a query every code generation
// pass may ask (the planning passes size buffers with it, the lowering loads and stores with
// it), kept apart from the lowering so that planning does not depend on it.
#pragma once

#include "mlir/IR/Types.h"

#include <cstdint>

namespace tile::codegen {

/// Whether `t` is float8_e4m3fn or float8_e5m2 (held as its bits, an i8: LLVM has no 8-bit
/// float type).
bool isFloat8(mlir::Type t);

/// Bytes one element takes in memory: bool one byte, tf32 its f32's four, sub-byte types one.
int64_t elementBytes(mlir::Type element);

/// How an element is stored in memory: bool as a byte, tf32 as its f32 bits, an 8-bit float as
/// its bits.
mlir::Type storageType(mlir::Type element);

/// How an element is held in a register: tf32 as an f32 whose low 13 mantissa bits are zero,
/// an 8-bit float as its bits (i8), an unsigned scalar parameter as the signless integer of
/// its width.
mlir::Type registerType(mlir::Type element);

} // namespace tile::codegen
