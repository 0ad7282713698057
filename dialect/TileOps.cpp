//===- TileOps.cpp - tile dialect op verifiers ----------------------------===//

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "dialect/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
  return s + (shape.size() == 1 ? ",)" : ")");
}

// Axis attributes are signless i32; read them as signed so -1 reports as -1.
static LogicalResult verifyAxis(Operation *op, int32_t axis, int64_t rank, StringRef what = "axis") {
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << what << " " << axis << " is out of range for rank " << rank << " (expected 0.."
                             << rank - 1 << ")";
  return success();
}

static LogicalResult verifyPermutation(Operation *op, ArrayRef<int32_t> perm, int64_t rank, StringRef what) {
  if (static_cast<int64_t>(perm.size()) != rank)
    return op->emitOpError() << what << " has " << perm.size() << " entries but the rank is " << rank;
  SmallVector<bool> seen(rank, false);
  for (int32_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return op->emitOpError() << what << " " << llvm::interleaved_array(perm) << " is not a permutation of 0.."
                               << rank - 1;
    seen[p] = true;
  }
  return success();
}

static LogicalResult verifyLatency(Operation *op, std::optional<int32_t> latency) {
  if (latency && (*latency < 1 || *latency > 10))
    return op->emitOpError() << "latency " << *latency << " is out of range [1, 10]";
  return success();
}

// A tile matches its array's element type, or is the signless integer of an unsigned array's
// width (tiles of unsigned data are signless once the kernel is built).
static bool elementsMatch(Type tile, Type array) {
  if (tile == array)
    return true;
  auto t = dyn_cast<IntegerType>(tile), a = dyn_cast<IntegerType>(array);
  return t && a && a.isUnsigned() && t.isSignless() && t.getWidth() == a.getWidth();
}

// The checks shared by tile.load and tile.store: index count, rank, element
// type, order and hints. `tileType` is the loaded or stored tile.
static LogicalResult verifyTileAccess(Operation *op, ArrayType array, ValueRange indices, RankedTensorType tileType,
                                      std::optional<ArrayRef<int32_t>> order, std::optional<int32_t> latency,
                                      StringRef tileRole) {
  int64_t rank = array.getRank();
  if (static_cast<int64_t>(indices.size()) != rank)
    return op->emitOpError() << "expected " << rank << " tile indices for a rank-" << rank << " array, got "
                             << indices.size();
  if (tileType.getRank() != rank)
    return op->emitOpError() << tileRole << " " << tileType << " has rank " << tileType.getRank()
                             << " but the array has rank " << rank;
  if (!elementsMatch(tileType.getElementType(), array.getElementType()))
    return op->emitOpError() << tileRole << " element type " << tileType.getElementType()
                             << " does not match the array element type " << array.getElementType();
  if (order && failed(verifyPermutation(op, *order, rank, "order")))
    return failure();
  return verifyLatency(op, latency);
}

// The checks shared by gather, scatter and atomic_add: one index tile per array
// dimension, each (and the mask) of the data tile's shape.
static LogicalResult verifyElementAccess(Operation *op, ArrayType array, ValueRange indices, Value mask,
                                         RankedTensorType dataType, StringRef dataRole) {
  if (static_cast<int64_t>(indices.size()) != array.getRank())
    return op->emitOpError() << "expected " << array.getRank() << " index tiles for a rank-" << array.getRank()
                             << " array, got " << indices.size();
  if (!elementsMatch(dataType.getElementType(), array.getElementType()))
    return op->emitOpError() << dataRole << " element type " << dataType.getElementType()
                             << " does not match the array element type " << array.getElementType();
  for (auto [i, index] : llvm::enumerate(indices)) {
    auto indexType = cast<RankedTensorType>(index.getType());
    if (indexType.getShape() != dataType.getShape())
      return op->emitOpError() << "index tile #" << i << " has shape " << shapeString(indexType.getShape())
                               << " but the " << dataRole << " has shape " << shapeString(dataType.getShape());
    if (indexType.getElementType().isInteger(1))
      return op->emitOpError() << "index tile #" << i << " must hold integers, not i1";
  }
  if (mask && cast<RankedTensorType>(mask.getType()).getShape() != dataType.getShape())
    return op->emitOpError() << "mask has shape " << shapeString(cast<RankedTensorType>(mask.getType()).getShape())
                             << " but the " << dataRole << " has shape " << shapeString(dataType.getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Grid queries
//===----------------------------------------------------------------------===//

static LogicalResult verifyGridAxis(Operation *op, int32_t axis) {
  if (axis < 0 || axis > 2)
    return op->emitOpError() << "grid axis " << axis << " is out of range; a grid has axes 0, 1, 2";
  return success();
}

LogicalResult BlockIdOp::verify() { return verifyGridAxis(*this, getAxis()); }
LogicalResult NumBlocksOp::verify() { return verifyGridAxis(*this, getAxis()); }

LogicalResult DimOp::verify() { return verifyAxis(*this, getAxis(), getArray().getType().getRank()); }

LogicalResult StrideOp::verify() { return verifyAxis(*this, getAxis(), getArray().getType().getRank()); }

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  ArrayType array = getArray().getType();
  RankedTensorType type = getResult().getType();
  if (failed(verifyTileAccess(*this, array, getIndices(), type, getOrder(), getLatency(), "result")))
    return failure();
  PaddingMode padding = getPadding();
  bool needsFloat = padding == PaddingMode::nan || padding == PaddingMode::pos_inf || padding == PaddingMode::neg_inf ||
                    padding == PaddingMode::neg_zero;
  if (needsFloat && !isa<FloatType>(type.getElementType()))
    return emitOpError() << "padding " << stringifyPaddingMode(padding) << " needs a floating-point element type, not "
                         << type.getElementType();
  return success();
}

LogicalResult StoreOp::verify() {
  return verifyTileAccess(*this, getArray().getType(), getIndices(), getValue().getType(), getOrder(), getLatency(),
                          "stored tile");
}

LogicalResult GatherOp::verify() {
  RankedTensorType type = getResult().getType();
  if (failed(verifyElementAccess(*this, getArray().getType(), getIndices(), getMask(), type, "result")))
    return failure();
  if (getPadding() && getPadding().getType() != type.getElementType())
    return emitOpError() << "padding value has type " << getPadding().getType() << " but the element type is "
                         << type.getElementType();
  return success();
}

LogicalResult ScatterOp::verify() {
  return verifyElementAccess(*this, getArray().getType(), getIndices(), getMask(), getValue().getType(), "value");
}

LogicalResult AtomicAddOp::verify() {
  RankedTensorType type = getValue().getType();
  Type elt = type.getElementType();
  if (!(elt.isF16() || elt.isBF16() || elt.isF32() || elt.isF64() || elt.isInteger(32) || elt.isInteger(64)))
    return emitOpError() << "atomic_add supports f16, bf16, f32, f64, i32 and i64, not " << elt;
  return verifyElementAccess(*this, getArray().getType(), getIndices(), getMask(), type, "value");
}

static LogicalResult verifyMemoryModel(Operation *op, StringRef order, StringRef scope) {
  if (!llvm::is_contained({"relaxed", "acquire", "release", "acq_rel"}, order))
    return op->emitOpError() << "memory_order must be relaxed, acquire, release or acq_rel, not '" << order << "'";
  if (!llvm::is_contained({"block", "device", "sys"}, scope))
    return op->emitOpError() << "memory_scope must be block, device or sys, not '" << scope << "'";
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  RankedTensorType type = getValue().getType();
  Type elt = type.getElementType();
  StringRef kind = getKind();
  bool wide = elt.isInteger(32) || elt.isInteger(64);
  if (kind == "add") {
    if (!(wide || elt.isF16() || elt.isBF16() || elt.isF32() || elt.isF64()))
      return emitOpError() << "atomic add supports f16, bf16, f32, f64, i32 and i64, not " << elt;
  } else if (kind == "xchg") {
    if (!(wide || elt.isF32() || elt.isF64()))
      return emitOpError() << "atomic xchg supports i32, i64, f32 and f64, not " << elt;
  } else if (llvm::is_contained({"max", "min", "and", "or", "xor"}, kind)) {
    if (!wide)
      return emitOpError() << "atomic " << kind << " supports i32 and i64, not " << elt;
  } else {
    return emitOpError() << "unknown kind '" << kind << "' (expected xchg, add, max, min, and, or, xor)";
  }
  if (failed(verifyMemoryModel(*this, getMemoryOrder(), getMemoryScope())))
    return failure();
  return verifyElementAccess(*this, getArray().getType(), getIndices(), getMask(), type, "value");
}

LogicalResult AtomicCASOp::verify() {
  RankedTensorType type = getExpected().getType();
  Type elt = type.getElementType();
  if (!(elt.isInteger(32) || elt.isInteger(64)))
    return emitOpError() << "atomic_cas supports i32 and i64, not " << elt;
  if (failed(verifyMemoryModel(*this, getMemoryOrder(), getMemoryScope())))
    return failure();
  return verifyElementAccess(*this, getArray().getType(), getIndices(), getMask(), type, "expected");
}

//===----------------------------------------------------------------------===//
// Matrix product
//===----------------------------------------------------------------------===//

// The accumulator element type each operand element type may use.
static bool isSupportedMma(Type operand, Type acc) {
  if (operand.isBF16() || operand.isTF32() || isa<Float8E4M3FNType, Float8E5M2Type>(operand))
    return acc.isF32();
  if (operand.isF16())
    return acc.isF32() || acc.isF16();
  if (operand.isF32())
    return acc.isF32();
  if (operand.isF64())
    return acc.isF64();
  if (operand.isInteger(8))
    return acc.isInteger(32);
  return false;
}

LogicalResult MmaOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType(), acc = getAcc().getType();
  int64_t rank = a.getRank();
  if ((rank != 2 && rank != 3) || b.getRank() != rank || acc.getRank() != rank)
    return emitOpError() << "operands must all be 2-D (MxK, KxN, MxN) or all 3-D (batched), got ranks " << a.getRank()
                         << ", " << b.getRank() << ", " << acc.getRank();
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape(), cs = acc.getShape();
  int64_t m = as[rank - 2], k = as[rank - 1], kb = bs[rank - 2], n = bs[rank - 1];
  if (k != kb)
    return emitOpError() << "contraction sizes differ: a is " << shapeString(as) << " (K = " << k << ") but b is "
                         << shapeString(bs) << " (K = " << kb << ")";
  if (cs[rank - 2] != m || cs[rank - 1] != n)
    return emitOpError() << "accumulator has shape " << shapeString(cs) << " but a * b has M = " << m << ", N = " << n;
  if (rank == 3 && (as[0] != bs[0] || as[0] != cs[0]))
    return emitOpError() << "batch sizes differ: " << as[0] << ", " << bs[0] << ", " << cs[0];
  if (a.getElementType() != b.getElementType())
    return emitOpError() << "a and b must have the same element type, got " << a.getElementType() << " and "
                         << b.getElementType();
  if (!isSupportedMma(a.getElementType(), acc.getElementType()))
    return emitOpError() << "unsupported element types: " << a.getElementType() << " operands with a "
                         << acc.getElementType()
                         << " accumulator (supported: f16/bf16/tf32/f8 -> f32, f16 -> f16, "
                            "f32 -> f32, f64 -> f64, i8 -> i32)";
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

static bool isArgReduction(ReduceKind kind) { return kind == ReduceKind::argmax || kind == ReduceKind::argmin; }

LogicalResult ReduceOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (in.getRank() == 0)
    return emitOpError("cannot reduce a 0-D tile");
  if (failed(verifyAxis(*this, getAxis(), in.getRank())))
    return failure();
  SmallVector<int64_t> expected(in.getShape());
  if (getKeepdims())
    expected[getAxis()] = 1;
  else
    expected.erase(expected.begin() + getAxis());
  if (out.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape " << shapeString(out.getShape()) << " should be " << shapeString(expected)
                         << " when reducing " << shapeString(in.getShape()) << " along axis " << getAxis()
                         << (getKeepdims() ? " with keepdims" : "");
  Type want = isArgReduction(getKind()) ? Type(IntegerType::get(getContext(), 32)) : in.getElementType();
  if (out.getElementType() != want)
    return emitOpError() << "result element type " << out.getElementType() << " should be " << want << " for "
                         << stringifyReduceKind(getKind());
  if (in.getElementType().isInteger(1) && !isArgReduction(getKind()))
    return emitOpError() << stringifyReduceKind(getKind()) << " of i1 tiles is not supported; cast first";
  return success();
}

LogicalResult ScanOp::verify() {
  RankedTensorType in = getInput().getType();
  if (in.getRank() == 0)
    return emitOpError("cannot scan a 0-D tile");
  if (in.getElementType().isInteger(1))
    return emitOpError() << "scans of i1 tiles are not supported; cast first";
  return verifyAxis(*this, getAxis(), in.getRank());
}

//===----------------------------------------------------------------------===//
// Creation and shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  RankedTensorType type = getResult().getType();
  if (type.getRank() != 1)
    return emitOpError() << "result must be 1-D, got " << type;
  if (type.getElementType().isInteger(1))
    return emitOpError("result element type must be a wider integer than i1");
  return success();
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType out = getResult().getType();
  Type inType = getInput().getType();
  auto in = dyn_cast<RankedTensorType>(inType);
  if (!in) {
    if (inType != out.getElementType())
      return emitOpError() << "scalar of type " << inType << " cannot be broadcast to " << out
                           << "; the element types differ";
    return success();
  }
  if (in.getElementType() != out.getElementType())
    return emitOpError() << "element types differ: " << in.getElementType() << " and " << out.getElementType();
  if (in.getRank() != out.getRank())
    return emitOpError() << "input rank " << in.getRank() << " differs from result rank " << out.getRank()
                         << "; insert the missing dimensions with expand_dims";
  for (auto [d, pair] : llvm::enumerate(llvm::zip(in.getShape(), out.getShape())))
    if (std::get<0>(pair) != std::get<1>(pair) && std::get<0>(pair) != 1)
      return emitOpError() << "cannot broadcast " << shapeString(in.getShape()) << " to " << shapeString(out.getShape())
                           << ": dimension " << d << " is " << std::get<0>(pair) << ", not 1 or " << std::get<1>(pair);
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  int32_t axis = static_cast<int32_t>(getAxis());
  if (axis < 0 || axis > in.getRank())
    return emitOpError() << "axis " << axis << " is out of range for inserting into rank " << in.getRank()
                         << " (expected 0.." << in.getRank() << ")";
  SmallVector<int64_t> expected(in.getShape());
  expected.insert(expected.begin() + getAxis(), 1);
  if (out.getShape() != ArrayRef<int64_t>(expected) || out.getElementType() != in.getElementType())
    return emitOpError() << "result " << out << " should be " << RankedTensorType::get(expected, in.getElementType());
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (in.getShape() != out.getShape() || in.getElementType() != out.getElementType())
    return emitOpError() << "changes only the layout: " << in << " and " << out << " differ in shape or element type";
  for (RankedTensorType t : {in, out})
    if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(t.getEncoding())) {
      if (t.getRank() != 2 && t.getRank() != 3)
        return emitOpError() << "#tile.mma needs a 2-D or 3-D tile, not " << t;
      int64_t m = t.getDimSize(t.getRank() - 2), n = t.getDimSize(t.getRank() - 1);
      int64_t b = t.getRank() == 3 ? t.getDimSize(0) : 1;
      if (m % (16 * mma.getWarpsM()) || n % (8 * mma.getWarpsN()) || b % mma.getWarpsB())
        return emitOpError() << t << ": the warp grid does not divide the 16x8 tiles";
    } else if (auto rows = dyn_cast_or_null<MmaRowsLayoutAttr>(t.getEncoding())) {
      if ((t.getRank() != 2 && t.getRank() != 3) || t.getDimSize(t.getRank() - 1) != 1)
        return emitOpError() << "#tile.mma_rows needs a 2-D or 3-D tile of one column, not " << t;
      int64_t m = t.getDimSize(t.getRank() - 2), b = t.getRank() == 3 ? t.getDimSize(0) : 1;
      if (m % (16 * rows.getWarpsM()) || b % rows.getWarpsB())
        return emitOpError() << t << ": the warp grid does not divide the 16-row tiles";
    } else if (t.getEncoding()) {
      return emitOpError() << "unknown layout encoding in " << t;
    }
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError() << "element types differ: " << in.getElementType() << " and " << out.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << shapeString(in.getShape()) << " (" << in.getNumElements()
                         << " elements) to " << shapeString(out.getShape()) << " (" << out.getNumElements()
                         << " elements)";
  return success();
}

LogicalResult PermuteOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  if (failed(verifyPermutation(*this, getPermutation(), in.getRank(), "permutation")))
    return failure();
  SmallVector<int64_t> expected;
  for (int32_t p : getPermutation())
    expected.push_back(in.getDimSize(p));
  if (out.getShape() != ArrayRef<int64_t>(expected) || out.getElementType() != in.getElementType())
    return emitOpError() << "result " << out << " should be " << RankedTensorType::get(expected, in.getElementType());
  return success();
}

LogicalResult CatOp::verify() {
  RankedTensorType lhs = getLhs().getType(), rhs = getRhs().getType(), out = getResult().getType();
  if (lhs.getRank() != rhs.getRank() || lhs.getRank() != out.getRank())
    return emitOpError() << "operands and result must have the same rank";
  if (failed(verifyAxis(*this, getAxis(), lhs.getRank())))
    return failure();
  if (lhs.getElementType() != rhs.getElementType() || lhs.getElementType() != out.getElementType())
    return emitOpError() << "operands and result must have the same element type";
  SmallVector<int64_t> expected(lhs.getShape());
  for (int64_t d = 0; d < lhs.getRank(); ++d) {
    if (d == getAxis())
      continue;
    if (lhs.getDimSize(d) != rhs.getDimSize(d))
      return emitOpError() << "operand shapes " << shapeString(lhs.getShape()) << " and " << shapeString(rhs.getShape())
                           << " differ in dimension " << d << ", which is not the concatenation axis";
  }
  expected[getAxis()] += rhs.getDimSize(getAxis());
  if (out.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape " << shapeString(out.getShape()) << " should be " << shapeString(expected);
  return success();
}

LogicalResult ExtractOp::verify() {
  RankedTensorType in = getInput().getType(), out = getResult().getType();
  ArrayRef<int64_t> indices = getIndices();
  if (in.getRank() != out.getRank())
    return emitOpError() << "result rank " << out.getRank() << " differs from input rank " << in.getRank();
  if (static_cast<int64_t>(indices.size()) != in.getRank())
    return emitOpError() << "expected " << in.getRank() << " indices, got " << indices.size();
  if (in.getElementType() != out.getElementType())
    return emitOpError() << "element types differ: " << in.getElementType() << " and " << out.getElementType();
  for (int64_t d = 0; d < in.getRank(); ++d) {
    int64_t count = in.getDimSize(d) / out.getDimSize(d);
    if (out.getDimSize(d) > in.getDimSize(d))
      return emitOpError() << "sub-tile " << shapeString(out.getShape()) << " is larger than "
                           << shapeString(in.getShape()) << " in dimension " << d;
    if (indices[d] < 0 || indices[d] >= count)
      return emitOpError() << "index " << indices[d] << " in dimension " << d << " is out of range: the tile holds "
                           << count << " sub-tiles there";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

namespace {
// One printf conversion: its letter and its length modifier ("", "h", "l", "ll", ...).
struct Conversion {
  char letter;
  StringRef length;
  StringRef text; // "%5.2f"
};
} // namespace

// The printf conversions of `format` ("%%" excluded); false for a malformed one.
static bool parseConversions(StringRef format, SmallVectorImpl<Conversion> &out) {
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%')
      continue;
    const size_t start = i;
    if (++i < format.size() && format[i] == '%')
      continue;
    while (i < format.size() && StringRef("-+ #0123456789.").contains(format[i]))
      ++i;
    size_t lengthStart = i;
    while (i < format.size() && StringRef("hlLzjt").contains(format[i]))
      ++i;
    if (i >= format.size() || !StringRef("diouxXeEfFgGaAcsp").contains(format[i]))
      return false;
    out.push_back({format[i], format.slice(lengthStart, i), format.slice(start, i + 1)});
  }
  return true;
}

static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

// Why conversion `c` cannot print a value of element type `type` as the GPU passes it (floats
// as double, integers below 32 bits as int, i64 and index as 64 bits), or "".
static std::string conversionMismatch(const Conversion &c, Type type) {
  const std::string spec = c.text.str();
  if (c.letter == 's' || c.letter == 'p')
    return spec + " reads a string or pointer, but tile values are numbers (use %d for integers, %f or %g for "
                  "floats)";
  const bool floatConversion = StringRef("eEfFgGaA").contains(c.letter);
  if (floatConversion) {
    if (!isa<FloatType>(type))
      return spec + " prints a float, but the argument is " + typeText(type) + " (use %d or %lld)";
    if (!c.length.empty())
      return spec + ": floats are passed as double, printed with no length modifier (%f, %g)";
    return "";
  }
  if (!isa<IntegerType, IndexType>(type))
    return spec + " prints an integer, but the argument is " + typeText(type) + " (use %f or %g)";
  const bool wide = isa<IndexType>(type) || type.getIntOrFloatBitWidth() > 32;
  const bool wideLength = c.length == "l" || c.length == "ll" || c.length == "j" || c.length == "z" || c.length == "t";
  if (c.length == "L")
    return spec + ": the L modifier is for long double, which the GPU does not print";
  if (wide && !wideLength)
    return spec + " reads 32 bits, but the argument is " + typeText(type) + " (64 bits): use %" + "ll" +
           Twine(c.letter).str();
  if (!wide && wideLength)
    return spec + " reads 64 bits, but the argument is " + typeText(type) + " (passed as 32 bits): use %" +
           Twine(c.letter).str();
  return "";
}

LogicalResult PrintOp::verify() {
  SmallVector<Conversion> conversions;
  if (!parseConversions(getFormat(), conversions))
    return emitOpError() << "malformed conversion in format \"" << getFormat() << "\"";
  if (conversions.size() != getArgs().size())
    return emitOpError() << "format \"" << getFormat() << "\" has " << conversions.size() << " conversion(s) but "
                         << getArgs().size() << " argument(s) were given";
  for (auto [i, arg] : llvm::enumerate(getArgs())) {
    Type type = arg.getType();
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      type = tensor.getElementType();
    if (!isa<IntegerType, FloatType, IndexType>(type))
      return emitOpError() << "argument #" << i << " of type " << arg.getType() << " cannot be printed";
    if (std::string why = conversionMismatch(conversions[i], type); !why.empty())
      return emitOpError() << "argument #" << i << ": " << why;
  }
  return success();
}
