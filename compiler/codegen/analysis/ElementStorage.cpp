#include "compiler/codegen/analysis/ElementStorage.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>

using namespace mlir;

namespace tile::codegen {

bool isFloat8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

int64_t elementBytes(Type element) {
  if (element.isInteger(1))
    return 1; // booleans are stored as bytes
  if (element.isTF32())
    return 4; // 19 significant bits in an f32
  return std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

Type storageType(Type element) {
  if (element.isInteger(1))
    return IntegerType::get(element.getContext(), 8);
  return registerType(element);
}

Type registerType(Type element) {
  if (auto i = dyn_cast<IntegerType>(element); i && i.isUnsigned()) // an unsigned scalar parameter
    return IntegerType::get(element.getContext(), i.getWidth());
  if (isFloat8(element)) // its bits
    return IntegerType::get(element.getContext(), 8);
  return element.isTF32() ? Float32Type::get(element.getContext()) : element;
}

} // namespace tile::codegen
