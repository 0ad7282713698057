// ct.pack_to_bytes and ct.unpack_from_bytes: a tile's raw bytes as a 1-D uint8 tile and back,
// little-endian as the GPU stores them. Built from ops every back end has: the elements'
// bits as an integer, shifted by 8 * byte and narrowed to bytes (packing), or widened,
// shifted into place and summed along the bytes of each element (unpacking: the bytes cover
// disjoint bits, so the sum is their bitwise or).

#include "compiler/frontend/Builtins.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tile::frontend {

bool hasWholeBytes(Type t) { return !t.isInteger(1) && !t.isTF32() && t.getIntOrFloatBitWidth() % 8 == 0; }

/// The byte offsets 0, 8, ..., 8 * (bytes - 1) as a [1, bytes] tile of `bits` integers,
/// broadcast to [rows, bytes].
static Value byteShifts(KernelIRGen &gen, OpBuilder &b, Type bits, int64_t rows, int64_t bytes, Location l) {
  Value iota = mlir::tile::IotaOp::create(b, l, RankedTensorType::get({bytes}, b.getI32Type()));
  Value eight = gen.broadcastValue(arith::ConstantOp::create(b, l, b.getI32IntegerAttr(8)), {bytes}, l);
  Value offsets = gen.castElements(arith::MulIOp::create(b, l, iota, eight), bits, l);
  return gen.broadcastValue(offsets, {rows, bytes}, l);
}

KValue KernelIRGen::builtinPackToBytes(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  if (!x.value.isTile()) {
    error(x.range, "ct.pack_to_bytes needs a tile, got " + describe(x.value));
    return KValue::error();
  }
  Type elt = x.value.elementType();
  if (!hasWholeBytes(elt)) {
    error(x.range, "ct.pack_to_bytes needs elements of whole bytes (not bool or tfloat32), got " + describe(x.value));
    return KValue::error();
  }
  auto type = cast<RankedTensorType>(x.value.value().getType());
  int64_t n = type.getNumElements(), bytes = elt.getIntOrFloatBitWidth() / 8;
  Type byte = builder_.getI8Type(), ubyte = IntegerType::get(builder_.getContext(), 8, IntegerType::Unsigned);
  Type bits = builder_.getIntegerType(bytes * 8);
  // The elements in row-major order, as signless integers of their width.
  Value v = signless(x.value.value(), l);
  if (type.getRank() != 1)
    v = mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get({n}, getElementTypeOrSelf(v.getType())), v);
  if (!isa<IntegerType>(elt))
    v = arith::BitcastOp::create(builder_, l, RankedTensorType::get({n}, bits), v);
  if (bytes == 1)
    return KValue::runtime(withType(v, RankedTensorType::get({n}, ubyte), l));
  Value rows =
      broadcastValue(mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get({n, 1}, bits), v), {n, bytes}, l);
  Value shifted = arith::ShRUIOp::create(builder_, l, rows, byteShifts(*this, builder_, bits, n, bytes, l));
  Value narrowed = arith::TruncIOp::create(builder_, l, RankedTensorType::get({n, bytes}, byte), shifted);
  Value flat = mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get({n * bytes}, byte), narrowed);
  return KValue::runtime(withType(flat, RankedTensorType::get({n * bytes}, ubyte), l));
}

KValue KernelIRGen::builtinUnpackFromBytes(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x", "dtype"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  auto dtype = dtypeArg(*b.get("dtype"), "the dtype");
  if (!dtype)
    return KValue::error();
  auto ubyte = IntegerType::get(builder_.getContext(), 8, IntegerType::Unsigned);
  if (!x.value.isTile() || x.value.elementType() != ubyte ||
      cast<RankedTensorType>(x.value.value().getType()).getRank() != 1) {
    error(x.range, "ct.unpack_from_bytes needs a 1-D tile of uint8, got " + describe(x.value));
    return KValue::error();
  }
  if (!hasWholeBytes(*dtype)) {
    error(b.get("dtype")->range, "ct.unpack_from_bytes needs a dtype of whole bytes (not bool or tfloat32), got " +
                                     describe(KValue::dtype(*dtype)));
    return KValue::error();
  }
  int64_t m = cast<RankedTensorType>(x.value.value().getType()).getNumElements();
  int64_t bytes = dtype->getIntOrFloatBitWidth() / 8;
  if (m % bytes) {
    error(args.callRange, "ct.unpack_from_bytes: " + std::to_string(m) + " bytes do not make whole " +
                              describe(KValue::dtype(*dtype)) + " elements (" + std::to_string(bytes) + " bytes each)");
    return KValue::error();
  }
  int64_t n = m / bytes;
  Type bits = builder_.getIntegerType(bytes * 8);
  Value v = signless(x.value.value(), l);
  if (bytes > 1) {
    Value rows = mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get({n, bytes}, builder_.getI8Type()), v);
    Value wide = arith::ExtUIOp::create(builder_, l, RankedTensorType::get({n, bytes}, bits), rows);
    Value placed = arith::ShLIOp::create(builder_, l, wide, byteShifts(*this, builder_, bits, n, bytes, l));
    v = mlir::tile::ReduceOp::create(builder_, l, RankedTensorType::get({n}, bits), mlir::tile::ReduceKind::sum, placed,
                                     /*axis=*/1u, false);
  }
  Type result = RankedTensorType::get({n}, *dtype);
  if (isa<IntegerType>(*dtype))
    return KValue::runtime(withType(v, result, l));
  return KValue::runtime(arith::BitcastOp::create(builder_, l, result, v));
}

} // namespace tile::frontend
