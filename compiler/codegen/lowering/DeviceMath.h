// Transcendental functions on the device: the PTX approximate instructions (ex2.approx,
// lg2.approx, sin/cos.approx, rsqrt.approx; ~2 ulp on f32), which the Mamba-2 kernels need for
// speed. f16/bf16 compute in f32. f64 has no approximate path and is refused for now.
#pragma once

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace tile::codegen {

/// If `op` (a math-dialect op) has a device implementation here, emits it on the scalar
/// `operands` and returns the result; returns null for ops the generic lowering handles
/// (sqrt, abs, floor, ceil, fma: LLVM intrinsics NVPTX supports). Fails for unsupported types.
mlir::FailureOr<mlir::Value> lowerDeviceMath(mlir::OpBuilder &b, mlir::Operation *op, mlir::ValueRange operands);

} // namespace tile::codegen
