//===- TileTypes.cpp - tile dialect types ---------------------------------===//

#include "dialect/TileDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_TYPEDEF_CLASSES
#include "dialect/TileTypes.cpp.inc"

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/TileTypes.cpp.inc"
      >();
}

// Arrays are limited to the ranks the kernel ABI and the runtime support.
static constexpr int64_t kMaxArrayRank = 8;

ArrayType ArrayType::getDynamic(Type elementType, int64_t rank) {
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  return ArrayType::get(elementType.getContext(), shape, elementType);
}

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
                                Type elementType) {
  if (static_cast<int64_t>(shape.size()) > kMaxArrayRank)
    return emitError() << "array rank " << shape.size() << " exceeds the maximum of " << kMaxArrayRank;
  for (auto [i, size] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(size) && size < 0)
      return emitError() << "array dimension " << i << " has negative size " << size;
  if (!isTileElementType(elementType) || elementType.isIndex())
    return emitError() << "unsupported array element type " << elementType
                       << "; expected i1/i8/i16/i32/i64, f16, bf16, f32, f64, tf32 or f8";
  return success();
}

// !tile.array<?x64xf32>; a rank-0 array is !tile.array<f32>.
Type ArrayType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/true, /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<ArrayType>(parser.getContext(), shape, elementType);
}

void ArrayType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t size : getShape()) {
    if (ShapedType::isDynamic(size))
      printer << "?";
    else
      printer << size;
    printer << "x";
  }
  printer << getElementType() << ">";
}

std::string mlir::tile::dtypeName(Type t) {
  if (t.isInteger(1))
    return "bool_";
  if (auto i = dyn_cast<IntegerType>(t))
    return (i.isUnsigned() ? "uint" : "int") + std::to_string(i.getWidth());
  if (t.isF16())
    return "float16";
  if (t.isBF16())
    return "bfloat16";
  if (t.isF32())
    return "float32";
  if (t.isF64())
    return "float64";
  if (t.isTF32())
    return "tfloat32";
  if (isa<Float8E4M3FNType>(t))
    return "float8_e4m3fn";
  if (isa<Float8E5M2Type>(t))
    return "float8_e5m2";
  return "unknown";
}
