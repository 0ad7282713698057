// The built-ins of the grid and of memory: bid, num_blocks, cdiv, num_tiles, load and store of
// tiles, gather and scatter of elements and the atomics (atomic_add, atomic_cas, ...).
//
// IRGenBuiltins.cpp holds argument binding, the dispatch (callBuiltin) and the compile-time
// built-ins.

#include "compiler/frontend/Builtins.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tile::frontend {

//===----------------------------------------------------------------------===//
// The grid
//===----------------------------------------------------------------------===//

std::optional<uint32_t> KernelIRGen::gridAxis(const CallArgs &args) {
  Bound b;
  if (!bind(args, {"axis"}, b))
    return std::nullopt;
  auto axis = constInt(*b.get("axis"), "the grid axis");
  if (!axis)
    return std::nullopt;
  if (*axis < 0 || *axis > 2) {
    error(b.get("axis")->range, "grid axis " + std::to_string(*axis) + " is out of range; a grid has axes 0, 1, 2");
    return std::nullopt;
  }
  return static_cast<uint32_t>(*axis);
}

KValue KernelIRGen::builtinBid(const std::string &name, const CallArgs &args) {
  auto axis = gridAxis(args);
  if (!axis)
    return KValue::error();
  return KValue::runtime(mlir::tile::BlockIdOp::create(builder_, loc(args.callRange), builder_.getI32Type(), *axis));
}

KValue KernelIRGen::builtinNumBlocks(const std::string &name, const CallArgs &args) {
  auto axis = gridAxis(args);
  if (!axis)
    return KValue::error();
  return KValue::runtime(mlir::tile::NumBlocksOp::create(builder_, loc(args.callRange), builder_.getI32Type(), *axis));
}

KValue KernelIRGen::builtinCdiv(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"a", "b"}, b))
    return KValue::error();
  const Arg x = scalarOf(*b.get("a")), y = scalarOf(*b.get("b"));
  if (x.value.isInt() && y.value.isInt()) {
    if (y.value.intValue() == 0) {
      error(y.range, "ct.cdiv by zero");
      return KValue::error();
    }
    int64_t a = x.value.intValue(), d = y.value.intValue();
    int64_t q = a / d, m = a % d;
    return KValue::integer(q + ((m != 0 && ((m > 0) == (d > 0))) ? 1 : 0));
  }
  for (const Arg *v : {&x, &y})
    if (!(v->value.isInt() || (v->value.isScalar() && isa<IntegerType>(v->value.elementType())))) {
      error(v->range, "ct.cdiv needs integers, got " + describe(v->value));
      return KValue::error();
    }
  Type t = promote(x, y, args.callRange);
  Value a = coerce(x, t, {}, args.callRange), d = coerce(y, t, {}, args.callRange);
  if (!a || !d)
    return KValue::error();
  if (isUnsignedInteger(t))
    return KValue::runtime(withType(arith::CeilDivUIOp::create(builder_, l, signless(a, l), signless(d, l)), t, l));
  return KValue::runtime(arith::CeilDivSIOp::create(builder_, l, a, d));
}

KValue KernelIRGen::builtinNumTiles(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"array", "axis", "shape"}, b) || !expectArray(*b.get("array"), "the 'array' argument"))
    return KValue::error();
  auto array = cast<mlir::tile::ArrayType>(b.get("array")->value.value().getType());
  auto axis = constInt(*b.get("axis"), "axis");
  auto shape = constShape(*b.get("shape"), "shape");
  if (!axis || !shape)
    return KValue::error();
  if (*axis < 0 || *axis >= array.getRank() || static_cast<int64_t>(shape->size()) != array.getRank()) {
    error(args.callRange, "ct.num_tiles: axis " + std::to_string(*axis) + " and a shape of rank " +
                              std::to_string(shape->size()) + " do not fit an array of rank " +
                              std::to_string(array.getRank()));
    return KValue::error();
  }
  Value dim = mlir::tile::DimOp::create(builder_, l, builder_.getI64Type(), b.get("array")->value.value(),
                                        static_cast<uint32_t>(*axis));
  Value tileSize = arith::ConstantOp::create(builder_, l, builder_.getI64IntegerAttr((*shape)[*axis]));
  Value n = arith::CeilDivSIOp::create(builder_, l, dim, tileSize);
  return KValue::runtime(arith::TruncIOp::create(builder_, l, builder_.getI32Type(), n));
}

//===----------------------------------------------------------------------===//
// Tiles: load and store
//===----------------------------------------------------------------------===//

// Tile-space indices: a tuple (or one value) of integers.
static std::vector<KernelIRGen::Arg> indexList(const KernelIRGen::Arg &a) {
  std::vector<KernelIRGen::Arg> out;
  if (a.value.isTuple())
    for (const KValue &v : a.value.elements())
      out.push_back({v, a.range});
  else
    out.push_back(a);
  return out;
}

bool KernelIRGen::tileAccess(const Bound &b, TileAccess &out) {
  out.array = b.get("array")->value.value();
  auto array = cast<mlir::tile::ArrayType>(out.array.getType());
  for (const Arg &i : indexList(*b.get("index"))) {
    Value v = indexScalar(i, "a tile index");
    if (!v)
      return false;
    out.indices.push_back(v);
  }
  if (static_cast<int64_t>(out.indices.size()) != array.getRank()) {
    error(b.get("index")->range, "the index has " + std::to_string(out.indices.size()) +
                                     (out.indices.size() == 1 ? " entry" : " entries") + " but the array has rank " +
                                     std::to_string(array.getRank()));
    return false;
  }
  if (const Arg *o = b.get("order")) {
    SmallVector<int32_t> perm;
    for (const Arg &e : indexList(*o)) {
      auto v = constInt(e, "order");
      if (!v)
        return false;
      perm.push_back(static_cast<int32_t>(*v));
    }
    out.order = builder_.getDenseI32ArrayAttr(perm);
  }
  if (!latencyHint(b.get("latency"), out.latency))
    return false;
  if (const Arg *t = b.get("allow_tma")) {
    if (!t->value.isBool()) {
      error(t->range, "allow_tma must be True or False, got " + describe(t->value));
      return false;
    }
    out.allowTma = builder_.getBoolAttr(t->value.boolValue());
  }
  return true;
}

KValue KernelIRGen::builtinLoad(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  TileAccess access;
  if (!bind(args, {"array", "index", "shape", "order?", "padding_mode?", "latency?", "allow_tma?"}, b) ||
      !expectArray(*b.get("array"), "the 'array' argument") || !tileAccess(b, access))
    return KValue::error();
  auto array = cast<mlir::tile::ArrayType>(access.array.getType());
  auto shape = constShape(*b.get("shape"), "the tile shape");
  if (!shape)
    return KValue::error();
  // shape=(): one element, as a 0-d tile (a tile of ones loaded, then reshaped).
  bool scalarTile = shape->empty() && array.getRank() > 0;
  if (scalarTile)
    shape->assign(array.getRank(), 1);
  if (static_cast<int64_t>(shape->size()) != array.getRank()) {
    error(b.get("shape")->range, "the tile shape has rank " + std::to_string(shape->size()) +
                                     " but the array has rank " + std::to_string(array.getRank()));
    return KValue::error();
  }
  auto padding = mlir::tile::PaddingMode::undetermined;
  if (const Arg *p = b.get("padding_mode")) {
    if (p->value.kind() != KValue::Kind::Padding) {
      error(p->range, "padding_mode must be a ct.PaddingMode member, got " + describe(p->value));
      return KValue::error();
    }
    padding = static_cast<mlir::tile::PaddingMode>(p->value.intValue());
  }
  auto type = RankedTensorType::get(*shape, array.getElementType());
  auto op = mlir::tile::LoadOp::create(builder_, l, type, access.array, access.indices, padding, access.order,
                                       access.latency, access.allowTma);
  if (!verifyBuilt(op, args.callRange, "ct.load"))
    return KValue::error();
  if (scalarTile)
    return KValue::runtime(
        mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get({}, array.getElementType()), op.getResult()));
  return KValue::runtime(op);
}

KValue KernelIRGen::builtinStore(const std::string &name, const CallArgs &args) {
  Bound b;
  TileAccess access;
  if (!bind(args, {"array", "index", "tile", "order?", "latency?", "allow_tma?"}, b) ||
      !expectArray(*b.get("array"), "the 'array' argument") || !tileAccess(b, access))
    return KValue::error();
  auto array = cast<mlir::tile::ArrayType>(access.array.getType());
  const Arg &t = *b.get("tile");
  if (!expectTile(t, "the stored value"))
    return KValue::error();
  Value stored = storedAs(t, array.getElementType(), "ct.store: the tile");
  if (!stored)
    return KValue::error();
  auto op = mlir::tile::StoreOp::create(builder_, loc(args.callRange), stored, access.array, access.indices,
                                        access.order, access.latency, access.allowTma);
  if (!verifyBuilt(op, args.callRange, "ct.store"))
    return KValue::error();
  return KValue::none();
}

//===----------------------------------------------------------------------===//
// Elements: gather, scatter and the atomics
//===----------------------------------------------------------------------===//

bool KernelIRGen::memorySemantics(const Arg *orderArg, const Arg *scopeArg, std::string &order, std::string &scope) {
  if (orderArg) {
    static const std::pair<const char *, const char *> orders[] = {
        {"RELAXED", "relaxed"}, {"ACQUIRE", "acquire"}, {"RELEASE", "release"}, {"ACQ_REL", "acq_rel"}};
    const KValue &o = orderArg->value;
    std::string member =
        o.kind() == KValue::Kind::Namespace && o.name().rfind("ct.MemoryOrder.", 0) == 0 ? o.name().substr(15) : "";
    order.clear();
    for (auto &[from, to] : orders)
      if (member == from)
        order = to;
    if (order.empty()) {
      error(orderArg->range, "memory_order must be ct.MemoryOrder.RELAXED, ACQUIRE, RELEASE or ACQ_REL, got " +
                                 (member.empty() ? describe(o) : "MemoryOrder." + member));
      return false;
    }
  }
  if (scopeArg) {
    const KValue &sc = scopeArg->value;
    std::string member =
        sc.kind() == KValue::Kind::Namespace && sc.name().rfind("ct.MemoryScope.", 0) == 0 ? sc.name().substr(15) : "";
    // CLUSTER scope is served by the (wider) device scope.
    scope = member == "BLOCK"                           ? "block"
            : member == "DEVICE" || member == "CLUSTER" ? "device"
            : member == "SYS"                           ? "sys"
                                                        : "";
    if (scope.empty()) {
      error(scopeArg->range, "memory_scope must be ct.MemoryScope.BLOCK, CLUSTER, DEVICE or SYS, got " +
                                 (member.empty() ? describe(sc) : "MemoryScope." + member));
      return false;
    }
  }
  return true;
}

// gather / scatter / the atomics: element indices (one integer tile per array dimension),
// broadcast together with the mask and the value.
KValue KernelIRGen::builtinElementAccess(const std::string &name, const CallArgs &args, ElementAccess kind) {
  using EA = ElementAccess;
  Bound b;
  Location l = loc(args.callRange);
  bool isGather = kind == EA::Gather, isCas = kind == EA::AtomicCas;
  bool ok =
      isGather ? bind(args, {"array", "indices", "mask?", "padding_value?", "check_bounds?", "latency?"}, b)
      : isCas  ? bind(args,
                      {"array", "indices", "expected", "desired", "mask?", "check_bounds?", "memory_order?",
                       "memory_scope?"},
                      b)
      : kind == EA::Scatter
          ? bind(args, {"array", "indices", "value", "mask?", "check_bounds?", "latency?"}, b)
          : bind(args, {"array", "indices", "update", "mask?", "check_bounds?", "memory_order?", "memory_scope?"}, b);
  // latency= is a hint (checked, then unused: element accesses are not pipelined).
  IntegerAttr unusedLatency;
  if (ok && !latencyHint(b.get("latency"), unusedLatency))
    ok = false;
  // check_bounds=False promises in-bounds indices; checking them anyway is always allowed.
  if (ok)
    if (const Arg *cb = b.get("check_bounds"); cb && !cb->value.isBool()) {
      error(cb->range, "check_bounds must be True or False, got " + describe(cb->value));
      ok = false;
    }
  if (!ok || !expectArray(*b.get("array"), "the 'array' argument"))
    return KValue::error();
  Value arrayValue = b.get("array")->value.value();
  auto array = cast<mlir::tile::ArrayType>(arrayValue.getType());
  std::vector<Arg> idx = indexList(*b.get("indices"));
  if (static_cast<int64_t>(idx.size()) != array.getRank()) {
    error(b.get("indices")->range, "expected " + std::to_string(array.getRank()) +
                                       " index tiles (one per array dimension), got " + std::to_string(idx.size()));
    return KValue::error();
  }
  // The common shape of indices, mask and value.
  std::vector<const Arg *> parts;
  for (const Arg &i : idx)
    parts.push_back(&i);
  const Arg *mask = b.get("mask");
  const Arg *value = isGather ? nullptr : b.get(kind == EA::Scatter ? "value" : isCas ? "desired" : "update");
  const Arg *expected = isCas ? b.get("expected") : nullptr;
  if (mask)
    parts.push_back(mask);
  if (value)
    parts.push_back(value);
  if (expected)
    parts.push_back(expected);
  SmallVector<int64_t> shape;
  for (const Arg *p : parts) {
    if (!(p->value.isTile() || p->value.isScalar() || p->value.isConstNumber())) {
      error(p->range, name + ": expected a tile or a number, got " + describe(p->value));
      return KValue::error();
    }
    auto s = broadcastShapeVectors(shape, p->value.shape());
    if (!s) {
      error(p->range, name + ": " + describe(p->value) + " does not broadcast with the other indices");
      return KValue::error();
    }
    shape = *s;
  }
  // Scalar (or 0-d) indices, mask and value: one element, and a 0-d result as in cuTile.
  bool zeroD = shape.empty();
  if (zeroD)
    shape.push_back(1);
  auto asResult = [&](Value r) -> Value {
    return zeroD ? mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get({}, array.getElementType()), r) : r;
  };
  SmallVector<Value> indexTiles;
  for (const Arg &i : idx) {
    Type elt = i.value.isRuntime() ? i.value.elementType() : builder_.getI32Type();
    if (!isa<IntegerType>(elt) || elt.isInteger(1)) {
      error(i.range, name + ": indices must be integers, got " + describe(i.value));
      return KValue::error();
    }
    Value v = coerce(i, elt, shape, i.range);
    if (!v)
      return KValue::error();
    indexTiles.push_back(v);
  }
  Value maskTile;
  if (mask) {
    maskTile = coerce(*mask, builder_.getI1Type(), shape, mask->range);
    if (!maskTile)
      return KValue::error();
  }
  if (isGather) {
    Value pad;
    if (const Arg *p = b.get("padding_value")) {
      pad = coerce(*p, array.getElementType(), {}, p->range);
      if (!pad)
        return KValue::error();
    }
    auto type = RankedTensorType::get(shape, array.getElementType());
    auto op = mlir::tile::GatherOp::create(builder_, l, type, arrayValue, indexTiles, maskTile, pad);
    if (!verifyBuilt(op, args.callRange, name))
      return KValue::error();
    return KValue::runtime(asResult(op));
  }
  Arg converted = *value;
  if (value->value.isTile()) {
    Value widened = storedAs(*value, array.getElementType(), name + ": the value");
    if (!widened)
      return KValue::error();
    converted.value = KValue::runtime(widened);
  }
  Value v = coerce(converted, array.getElementType(), shape, value->range);
  if (!v)
    return KValue::error();
  if (kind == EA::Scatter) {
    auto op = mlir::tile::ScatterOp::create(builder_, l, v, arrayValue, indexTiles, maskTile);
    if (!verifyBuilt(op, args.callRange, name))
      return KValue::error();
    return KValue::none();
  }
  const Arg *orderArg = b.get("memory_order"), *scopeArg = b.get("memory_scope");
  if (kind == EA::AtomicAdd && !orderArg && !scopeArg) {
    auto op = mlir::tile::AtomicAddOp::create(builder_, l, v.getType(), v, arrayValue, indexTiles, maskTile);
    if (!verifyBuilt(op, args.callRange, name))
      return KValue::error();
    return KValue::runtime(asResult(op));
  }
  // cuTile's defaults: acq_rel at device scope.
  std::string order = "acq_rel", scope = "device";
  if (!memorySemantics(orderArg, scopeArg, order, scope))
    return KValue::error();
  Operation *op;
  if (isCas) {
    Value e = coerce(*expected, array.getElementType(), shape, expected->range);
    if (!e)
      return KValue::error();
    op = mlir::tile::AtomicCASOp::create(builder_, l, v.getType(), e, v, arrayValue, indexTiles, maskTile,
                                         builder_.getStringAttr(order), builder_.getStringAttr(scope));
  } else {
    if (kind == EA::AtomicMinMax && isUnsignedInteger(array.getElementType())) {
      error(args.callRange, name + " on an array of " + describe(KValue::dtype(array.getElementType())) +
                                " is not supported (unsigned atomic order); add, and, or, xor, xchg and cas are");
      return KValue::error();
    }
    op = mlir::tile::AtomicRMWOp::create(builder_, l, v.getType(), v, arrayValue, indexTiles, maskTile,
                                         builder_.getStringAttr(name.substr(10)), builder_.getStringAttr(order),
                                         builder_.getStringAttr(scope));
  }
  if (!verifyBuilt(op, args.callRange, name))
    return KValue::error();
  return KValue::runtime(asResult(op->getResult(0)));
}

void KernelIRGen::registerMemoryBuiltins(BuiltinTable &t) {
  using EA = ElementAccess;
  t.add("ct.bid", &KernelIRGen::builtinBid);
  t.add("ct.num_blocks", &KernelIRGen::builtinNumBlocks);
  t.add("ct.cdiv", &KernelIRGen::builtinCdiv);
  t.add("ct.num_tiles", &KernelIRGen::builtinNumTiles);
  t.add("ct.load", &KernelIRGen::builtinLoad);
  t.add("ct.store", &KernelIRGen::builtinStore);
  t.add("ct.gather", &KernelIRGen::builtinElementAccess, EA::Gather);
  t.add("ct.scatter", &KernelIRGen::builtinElementAccess, EA::Scatter);
  t.add("ct.atomic_add", &KernelIRGen::builtinElementAccess, EA::AtomicAdd);
  // The read-modify-write's kind is the name's tail ("xchg", "max", ...).
  for (const char *rmw : {"ct.atomic_xchg", "ct.atomic_and", "ct.atomic_or", "ct.atomic_xor"})
    t.add(rmw, &KernelIRGen::builtinElementAccess, EA::AtomicRMW);
  t.add("ct.atomic_max", &KernelIRGen::builtinElementAccess, EA::AtomicMinMax);
  t.add("ct.atomic_min", &KernelIRGen::builtinElementAccess, EA::AtomicMinMax);
  t.add("ct.atomic_cas", &KernelIRGen::builtinElementAccess, EA::AtomicCas);
}

} // namespace tile::frontend
