// Element-wise ops touching 8-bit floats (Float8.h): their operands are widened to f32, the op
// runs in f32 (conversions from f32 to the result type), and an 8-bit float result is rounded
// back. Selects and bit casts move the bits as they are.

#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/lowering/DeviceMath.h"
#include "compiler/codegen/lowering/Float8.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tile::codegen {

FailureOr<Value> KernelLowering::lowerFloat8Elementwise(Operation *op, ValueRange operands) {
  auto float8 = [](Type t) { return isFloat8(getElementTypeOrSelf(t)); };
  Type resultElement = op->getNumResults() == 1 ? getElementTypeOrSelf(op->getResult(0).getType()) : Type();
  bool resultFloat8 = resultElement && isFloat8(resultElement);
  if (!resultFloat8 && !llvm::any_of(op->getOperandTypes(), float8))
    return Value();
  if (isa<arith::BitcastOp>(op))
    return Value(operands[0]); // i8 bits either way
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return Value(arith::SelectOp::create(b_, loc_, operands[0], operands[1], operands[2]));
  SmallVector<Value> wide;
  for (auto [v, type] : llvm::zip(operands, op->getOperandTypes()))
    wide.push_back(float8(type) ? float8ToF32(b_, loc_, v, getElementTypeOrSelf(type)) : v);
  Type f32 = b_.getF32Type();
  // A value of a float register type to `to` (f32 <-> f16, bf16, f64; tf32 is held as f32).
  auto floatTo = [&](Value v, Type to) -> Value {
    if (v.getType() == to)
      return v;
    if (v.getType().getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b_, loc_, to, v);
    return arith::TruncFOp::create(b_, loc_, to, v);
  };
  Value result;
  if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
    // f64 sources are rounded twice (to f32, then to 8 bits); every other source is exact in f32.
    result = floatTo(wide[0], resultFloat8 ? f32 : registerType(resultElement));
  } else {
    FailureOr<Value> special = lowerDeviceMath(b_, op, wide);
    if (failed(special))
      return failure();
    result = *special;
    if (!result) {
      OperationState state(loc_, op->getName(), wide, TypeRange{resultFloat8 ? f32 : registerType(resultElement)},
                           op->getAttrs());
      result = b_.create(state)->getResult(0);
    }
  }
  return resultFloat8 ? f32ToFloat8(b_, loc_, floatTo(result, f32), resultElement) : result;
}

} // namespace tile::codegen
