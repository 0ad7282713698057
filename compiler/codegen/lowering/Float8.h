// 8-bit floats (float8_e4m3fn, float8_e5m2) in generated code. LLVM has no 8-bit float type, so
// they are held as i8 bit patterns in registers and in memory, and converted through f32 in
// integer arithmetic that every target runs. Rounding is the interpreter's: to nearest even;
// overflow gives infinity, or NaN for e4m3fn, which has no infinity.
#pragma once

#include "compiler/codegen/analysis/ElementStorage.h"

#include "mlir/IR/Builders.h"

namespace tile::codegen {

/// The f32 value of `bits` (i8) read as `float8` (exact).
mlir::Value float8ToF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bits, mlir::Type float8);

/// `x` (f32) rounded into `float8`, as its bits (i8).
mlir::Value f32ToFloat8(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Type float8);

/// The bits (an i8 constant) of `value` rounded into `float8`.
mlir::Value float8Constant(mlir::OpBuilder &b, mlir::Location loc, llvm::APFloat value, mlir::Type float8);

} // namespace tile::codegen
