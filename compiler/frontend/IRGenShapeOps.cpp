// The built-ins that create tiles, change their shape and multiply them: arange, full, zeros,
// ones, mma, matmul, cat, reshape, broadcast_to, permute, transpose, expand_dims and extract.
//
// IRGenBuiltins.cpp holds argument binding and the dispatch (callBuiltin).

#include "compiler/frontend/Builtins.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tile::frontend {

//===----------------------------------------------------------------------===//
// Creation and matrix products
//===----------------------------------------------------------------------===//

KValue KernelIRGen::builtinArange(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"n", "dtype?", "start?", "step?"}, b))
    return KValue::error();
  auto n = constShape(*b.get("n"), "the length");
  if (!n)
    return KValue::error();
  if (n->size() != 1) {
    error(b.get("n")->range, "ct.arange takes one length");
    return KValue::error();
  }
  Type elt = builder_.getI32Type();
  if (const Arg *d = b.get("dtype")) {
    auto t = dtypeArg(*d, "dtype");
    if (!t)
      return KValue::error();
    elt = *t;
  }
  Value iota = mlir::tile::IotaOp::create(builder_, l, RankedTensorType::get(*n, builder_.getI32Type()));
  KValue result = KValue::runtime(castElements(iota, elt, l));
  // arange(n, start=s, step=d): s + i*d (cuTile's keywords).
  if (const Arg *step = b.get("step"))
    result = binary(BinOpKind::Mult, {result, args.callRange}, *step, args.callRange);
  if (const Arg *start = b.get("start"); start && !result.isError())
    result = binary(BinOpKind::Add, {result, args.callRange}, *start, args.callRange);
  if (!result.isError() && result.elementType() != elt) {
    error(args.callRange, "arange(): start and step must not change the dtype " + describe(KValue::dtype(elt)));
    return KValue::error();
  }
  return result;
}

// ct.full, and ct.zeros and ct.ones (a float32 tile unless dtype= says otherwise).
KValue KernelIRGen::builtinFull(const std::string &name, const CallArgs &args, Fill fill) {
  Bound b;
  Location l = loc(args.callRange);
  bool isFull = fill == Fill::Full;
  if (!(isFull ? bind(args, {"shape", "fill_value", "dtype?"}, b) : bind(args, {"shape", "dtype?"}, b)))
    return KValue::error();
  auto shape = constShape(*b.get("shape"), "the shape");
  if (!shape)
    return KValue::error();
  KValue value = isFull ? scalarOf(*b.get("fill_value")).value : KValue::floating(fill == Fill::Ones ? 1.0 : 0.0);
  Type elt = isFull ? Type() : Type(builder_.getF32Type());
  if (const Arg *d = b.get("dtype")) {
    auto t = dtypeArg(*d, "dtype");
    if (!t)
      return KValue::error();
    elt = *t;
  }
  auto type = [&](Type e) { return RankedTensorType::get(*shape, e); };
  if (value.isConstNumber()) {
    Type resultType = type(elt ? elt : defaultType(value));
    if (!constantFits(value, resultType, b.get("fill_value") ? b.get("fill_value")->range : args.callRange))
      return KValue::error();
    return KValue::runtime(constant(value, resultType, l));
  }
  if (value.isScalar()) {
    Value v = elt ? castElements(value.value(), elt, l) : value.value();
    return KValue::runtime(broadcastValue(v, *shape, l));
  }
  error(b.get("fill_value")->range, "ct.full needs a number or a scalar fill value, got " + describe(value));
  return KValue::error();
}

KValue KernelIRGen::builtinMatmul(const std::string &name, const CallArgs &args, bool accumulates) {
  Bound b;
  Location l = loc(args.callRange);
  bool isMma = accumulates;
  if (!(isMma ? bind(args, {"a", "b", "acc"}, b) : bind(args, {"a", "b"}, b)))
    return KValue::error();
  const Arg &a = *b.get("a"), &bb = *b.get("b");
  if (!expectTile(a, "a") || !expectTile(bb, "b"))
    return KValue::error();
  for (const Arg *operand : {&a, &bb, b.get("acc")})
    if (operand && isUnsignedInteger(operand->value.elementType())) {
      error(operand->range, args.callee + " of unsigned integers (" + describe(operand->value) +
                                ") is not supported: convert the operands with astype()");
      return KValue::error();
    }
  ArrayRef<int64_t> as = a.value.shape(), bs = bb.value.shape();
  auto productRank = [](ArrayRef<int64_t> shape) { return shape.size() == 2 || shape.size() == 3; };
  if (!isMma && !(productRank(as) && productRank(bs))) {
    error(args.callRange, args.callee + ": operands must be 2-D or batched 3-D tiles, got " + describe(a.value) +
                              " and " + describe(bb.value));
    return KValue::error();
  }
  // Batch dimensions broadcast as in numpy's matmul: a 2-D operand, or a batch of one, takes
  // the batch size of the other operand (and of ct.mma's accumulator).
  auto batchOf = [](ArrayRef<int64_t> shape) { return shape.size() == 3 ? shape[0] : int64_t(1); };
  int64_t batch = std::max(batchOf(as), batchOf(bs));
  bool batched = as.size() == 3 || bs.size() == 3;
  Value acc;
  if (isMma) {
    if (!expectTile(*b.get("acc"), "acc"))
      return KValue::error();
    acc = b.get("acc")->value.value();
    ArrayRef<int64_t> cs = b.get("acc")->value.shape();
    // Other ranks are the verifier's to report.
    if (!productRank(as) || !productRank(bs) || !productRank(cs))
      batched = false;
    else if (cs.size() == 3) {
      batched = true;
      batch = std::max(batch, cs[0]);
    }
  }
  for (ArrayRef<int64_t> shape : {as, bs}) {
    if (batched && batchOf(shape) != 1 && batchOf(shape) != batch) {
      error(args.callRange, args.callee + ": batch sizes " + std::to_string(batchOf(as)) + " and " +
                                std::to_string(batchOf(bs)) + " do not broadcast (each must be 1 or the same)");
      return KValue::error();
    }
  }
  auto withBatch = [&](Value v, ArrayRef<int64_t> shape) {
    if (!batched || (shape.size() == 3 && shape[0] == batch))
      return v;
    return broadcastValue(v, {batch, shape[shape.size() - 2], shape.back()}, l);
  };
  Value av = withBatch(a.value.value(), as), bv = withBatch(bb.value.value(), bs);
  if (!isMma) {
    // The accumulator type a product of these operands takes.
    Type in = a.value.elementType(), accElt = builder_.getF32Type();
    if (in.isF64())
      accElt = in;
    else if (isa<IntegerType>(in))
      accElt = builder_.getI32Type();
    SmallVector<int64_t> shape;
    if (batched)
      shape.push_back(batch);
    shape.append({as[as.size() - 2], bs.back()});
    acc = constant(KValue::integer(0), RankedTensorType::get(shape, accElt), l);
  }
  auto op = mlir::tile::MmaOp::create(builder_, l, acc.getType(), av, bv, acc);
  return verifiedResult(op, args);
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

KValue KernelIRGen::builtinCat(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"tiles", "axis?"}, b))
    return KValue::error();
  const Arg &tiles = *b.get("tiles");
  if (!tiles.value.isTuple() || tiles.value.elements().size() != 2) {
    error(tiles.range, "ct.cat takes a tuple of two tiles");
    return KValue::error();
  }
  Arg x{tiles.value.elements()[0], tiles.range}, y{tiles.value.elements()[1], tiles.range};
  if (!expectTile(x, "the first tile") || !expectTile(y, "the second tile"))
    return KValue::error();
  int32_t axis = 0;
  if (const Arg *a = b.get("axis")) {
    auto v = axisArg(*a, x.value.shape().size(), "axis");
    if (!v)
      return KValue::error();
    axis = *v;
  }
  SmallVector<int64_t> shape(x.value.shape());
  if (y.value.shape().size() != shape.size()) {
    error(tiles.range, "ct.cat: " + describe(x.value) + " and " + describe(y.value) + " differ in rank");
    return KValue::error();
  }
  shape[axis] += y.value.shape()[axis];
  auto op = mlir::tile::CatOp::create(builder_, l, RankedTensorType::get(shape, x.value.elementType()), x.value.value(),
                                      y.value.value(), static_cast<uint32_t>(axis));
  if (!verifyBuilt(op, args.callRange, "ct.cat"))
    return KValue::error();
  return KValue::runtime(op);
}

std::optional<SmallVector<int64_t>> KernelIRGen::targetShape(const Arg &s, Value x, bool allowInferred) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape;
  int inferred = -1;
  for (const KValue &d : s.value.isTuple() ? s.value.elements() : std::vector<KValue>{s.value}) {
    if (!d.isInt()) {
      error(s.range, "the shape must be a tuple of compile-time integers, got " + describe(d));
      return std::nullopt;
    }
    if (d.intValue() == -1 && allowInferred) {
      if (inferred >= 0) {
        error(s.range, "the shape can have only one -1 (inferred) dimension");
        return std::nullopt;
      }
      inferred = static_cast<int>(shape.size());
      shape.push_back(1);
      continue;
    }
    if (d.intValue() <= 0 || (d.intValue() & (d.intValue() - 1))) {
      error(s.range, "the shape has dimension " + std::to_string(d.intValue()) +
                         ", which is not a power of two (tile dimensions must be powers of two)");
      return std::nullopt;
    }
    shape.push_back(d.intValue());
  }
  if (!checkTileSize(shape, s.range, "the shape"))
    return std::nullopt;
  if (inferred >= 0) {
    int64_t known = 1;
    for (int64_t d : shape)
      known *= d;
    if (type.getNumElements() % known != 0) {
      error(s.range, "the -1 dimension cannot be inferred: " + describe(KValue::runtime(x)) + " has " +
                         std::to_string(type.getNumElements()) + " elements, which is not a multiple of " +
                         std::to_string(known));
      return std::nullopt;
    }
    shape[inferred] = type.getNumElements() / known;
  }
  return shape;
}

KValue KernelIRGen::builtinReshape(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x", "shape"}, b))
    return KValue::error();
  Value x = toTile(*b.get("x"), args.callee + "() input");
  if (!x)
    return KValue::error();
  auto shape = targetShape(*b.get("shape"), x, /*allowInferred=*/true);
  if (!shape)
    return KValue::error();
  auto type = RankedTensorType::get(*shape, cast<RankedTensorType>(x.getType()).getElementType());
  auto op = mlir::tile::ReshapeOp::create(builder_, loc(args.callRange), type, x);
  return verifiedResult(op, args);
}

KValue KernelIRGen::builtinBroadcastTo(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x", "shape"}, b))
    return KValue::error();
  const Arg &xa = *b.get("x");
  Value x = toTile(xa, args.callee + "() input");
  if (!x)
    return KValue::error();
  auto shape = targetShape(*b.get("shape"), x, /*allowInferred=*/false);
  if (!shape)
    return KValue::error();
  ArrayRef<int64_t> from = cast<RankedTensorType>(x.getType()).getShape();
  auto target = broadcastShapeVectors(from, *shape);
  if (!target || ArrayRef<int64_t>(*target) != ArrayRef<int64_t>(*shape) || shape->size() < from.size()) {
    error(args.callRange, "cannot broadcast " + describe(xa.value) + " to the shape given");
    return KValue::error();
  }
  return KValue::runtime(broadcastValue(x, *shape, loc(args.callRange)));
}

KValue KernelIRGen::permuted(Value x, ArrayRef<int32_t> perm, const CallArgs &args) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape;
  for (int32_t p : perm)
    shape.push_back(p >= 0 && p < rank ? type.getDimSize(p) : 1);
  auto op =
      mlir::tile::PermuteOp::create(builder_, loc(args.callRange), RankedTensorType::get(shape, type.getElementType()),
                                    x, builder_.getDenseI32ArrayAttr(perm));
  return verifiedResult(op, args);
}

// axes=: a permutation (negative axes count from the end); the verifier checks the rest.
std::optional<SmallVector<int32_t>> KernelIRGen::permutationArg(const Arg &axes, int64_t rank) {
  SmallVector<int32_t> perm;
  for (const KValue &d : axes.value.isTuple() ? axes.value.elements() : std::vector<KValue>{axes.value}) {
    if (!d.isInt()) {
      error(axes.range, "axes must be compile-time integers");
      return std::nullopt;
    }
    perm.push_back(static_cast<int32_t>(d.intValue() < 0 ? d.intValue() + rank : d.intValue()));
  }
  return perm;
}

KValue KernelIRGen::builtinPermute(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x", "axes"}, b))
    return KValue::error();
  Value x = toTile(*b.get("x"), args.callee + "() input");
  if (!x)
    return KValue::error();
  auto perm = permutationArg(*b.get("axes"), cast<RankedTensorType>(x.getType()).getRank());
  if (!perm)
    return KValue::error();
  return permuted(x, *perm, args);
}

// transpose(x) swaps the last two axes, transpose(x, axis0, axis1) two others, and
// transpose(x, axes) permutes them.
KValue KernelIRGen::builtinTranspose(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x", "axis0?", "axis1?", "axes?"}, b))
    return KValue::error();
  const Arg &xa = *b.get("x");
  Value x = toTile(xa, args.callee + "() input");
  if (!x)
    return KValue::error();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  SmallVector<int32_t> perm;
  const Arg *axis0 = b.get("axis0"), *axis1 = b.get("axis1");
  if (axis0 && axis0->value.isTuple() && !axis1 && !b.get("axes")) {
    b.args["axes"] = *axis0; // transpose(x, (1, 0)): a permutation
    axis0 = nullptr;
  }
  if (axis0 || axis1) {
    // cuTile's transpose(x, axis0, axis1): swap two axes.
    if (!axis0 || !axis1) {
      error(args.callRange, "transpose() needs both axis0 and axis1 (or neither, to swap the last two axes)");
      return KValue::error();
    }
    auto a0 = axisArg(*axis0, rank, "axis0"), a1 = axisArg(*axis1, rank, "axis1");
    if (!a0 || !a1)
      return KValue::error();
    for (int64_t i = 0; i < rank; ++i)
      perm.push_back(static_cast<int32_t>(i));
    std::swap(perm[*a0], perm[*a1]);
  } else if (const Arg *axes = b.get("axes")) {
    auto given = permutationArg(*axes, rank);
    if (!given)
      return KValue::error();
    perm = *given;
  } else {
    if (rank < 2) {
      error(xa.range, "transpose needs a tile of rank >= 2, got " + describe(xa.value));
      return KValue::error();
    }
    for (int64_t i = 0; i < rank; ++i)
      perm.push_back(static_cast<int32_t>(i));
    std::swap(perm[rank - 1], perm[rank - 2]); // swap the last two axes
  }
  return permuted(x, perm, args);
}

KValue KernelIRGen::builtinExpandDims(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x", "axis"}, b))
    return KValue::error();
  Value x = toTile(*b.get("x"), args.callee + "() input");
  if (!x)
    return KValue::error();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  auto axis = constInt(*b.get("axis"), "axis");
  if (!axis)
    return KValue::error();
  int64_t a = *axis < 0 ? *axis + rank + 1 : *axis;
  if (a < 0 || a > rank) {
    error(b.get("axis")->range, "axis " + std::to_string(*axis) +
                                    " is out of range for inserting into a tile of rank " + std::to_string(rank));
    return KValue::error();
  }
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + a, 1);
  auto op = mlir::tile::ExpandDimsOp::create(
      builder_, loc(args.callRange), RankedTensorType::get(shape, type.getElementType()), x, static_cast<uint32_t>(a));
  return verifiedResult(op, args);
}

KValue KernelIRGen::builtinExtract(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x", "index", "shape"}, b))
    return KValue::error();
  Value x = toTile(*b.get("x"), args.callee + "() input");
  if (!x)
    return KValue::error();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  auto shape = constShape(*b.get("shape"), "the sub-tile shape");
  if (!shape)
    return KValue::error();
  const Arg &ia = *b.get("index");
  std::vector<KValue> entries = ia.value.isTuple() ? ia.value.elements() : std::vector<KValue>{ia.value};
  if (static_cast<int64_t>(entries.size()) != rank || static_cast<int64_t>(shape->size()) != rank) {
    SmallVector<int64_t> index(entries.size(), 0); // the op's verifier says what is wrong
    auto op = mlir::tile::ExtractOp::create(builder_, l, RankedTensorType::get(*shape, type.getElementType()), x,
                                            builder_.getDenseI64ArrayAttr(index));
    if (verifyBuilt(op, args.callRange, args.callee))
      error(args.callRange, "ct.extract needs one index and one sub-tile size per dimension of the tile");
    return KValue::error();
  }
  // Compile-time indices select statically (tile.extract); a run-time index keeps its
  // dimension whole there, and the sub-tile is then picked out along it below.
  SmallVector<int64_t> index, staticShape(*shape);
  SmallVector<std::pair<int64_t, Value>> runtimeIndices;
  for (int64_t d = 0; d < rank; ++d) {
    Arg entry = scalarOf({entries[d], ia.range});
    if (entry.value.isInt()) {
      index.push_back(entry.value.intValue());
      continue;
    }
    Value i = indexScalar(entry, "a ct.extract index");
    if (!i)
      return KValue::error();
    index.push_back(0);
    staticShape[d] = type.getDimSize(d);
    runtimeIndices.push_back({d, i});
  }
  Value v = x;
  if (ArrayRef<int64_t>(staticShape) != type.getShape()) {
    auto ex = mlir::tile::ExtractOp::create(builder_, l, RankedTensorType::get(staticShape, type.getElementType()), x,
                                            builder_.getDenseI64ArrayAttr(index));
    if (!verifyBuilt(ex, args.callRange, args.callee))
      return KValue::error();
    v = ex;
  }
  for (auto [d, i] : runtimeIndices)
    if (!(v = extractAtRuntimeIndex(v, d, (*shape)[d], i, l)))
      return KValue::error();
  return KValue::runtime(v);
}

// Sub-tile `i` (a run-time index) of size `size` along dimension `d` of `v`: the dimension is
// split into (tiles, size), every tile but the i-th is replaced by zeros and the tiles are
// summed (exact: one non-zero term; a selected -0.0 reads as +0.0). An index outside the tile
// gives zeros.
Value KernelIRGen::extractAtRuntimeIndex(Value v, int64_t d, int64_t size, Value i, Location l) {
  auto type = cast<RankedTensorType>(v.getType());
  Type elt = type.getElementType();
  int64_t tiles = type.getDimSize(d) / size;
  if (tiles == 1)
    return v;
  bool isBool = elt.isInteger(1);
  if (isBool) // summed as i8
    v = castElements(v, builder_.getI8Type(), l), elt = builder_.getI8Type();
  SmallVector<int64_t> split(type.getShape());
  split[d] = size;
  split.insert(split.begin() + d, tiles);
  Value parts = mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get(split, elt), v);
  SmallVector<int64_t> column(split.size(), 1);
  column[d] = tiles;
  Value iota = mlir::tile::IotaOp::create(builder_, l, RankedTensorType::get({tiles}, builder_.getI32Type()));
  iota = mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get(column, builder_.getI32Type()), iota);
  Value want = castElements(i, builder_.getI32Type(), l);
  Value hit = arith::CmpIOp::create(builder_, l, arith::CmpIPredicate::eq, iota, broadcastValue(want, column, l));
  hit = broadcastValue(hit, split, l);
  Value zero =
      constant(isa<FloatType>(elt) ? KValue::floating(0.0) : KValue::integer(0), RankedTensorType::get(split, elt), l);
  Value picked = arith::SelectOp::create(builder_, l, hit, parts, zero);
  SmallVector<int64_t> out(type.getShape());
  out[d] = size;
  Value r = mlir::tile::ReduceOp::create(builder_, l, RankedTensorType::get(out, elt), mlir::tile::ReduceKind::sum,
                                         picked, static_cast<uint32_t>(d), false);
  return isBool ? castElements(r, builder_.getI1Type(), l) : r;
}

void KernelIRGen::registerShapeBuiltins(BuiltinTable &t) {
  t.add("ct.arange", &KernelIRGen::builtinArange);
  t.add("ct.full", &KernelIRGen::builtinFull, Fill::Full);
  t.add("ct.zeros", &KernelIRGen::builtinFull, Fill::Zeros);
  t.add("ct.ones", &KernelIRGen::builtinFull, Fill::Ones);
  t.add("ct.mma", &KernelIRGen::builtinMatmul, /*accumulates=*/true);
  t.add("ct.matmul", &KernelIRGen::builtinMatmul, /*accumulates=*/false);
  t.add("ct.cat", &KernelIRGen::builtinCat);
  t.add("ct.reshape", &KernelIRGen::builtinReshape);
  t.add("ct.broadcast_to", &KernelIRGen::builtinBroadcastTo);
  t.add("ct.permute", &KernelIRGen::builtinPermute);
  t.add("ct.transpose", &KernelIRGen::builtinTranspose);
  t.add("ct.expand_dims", &KernelIRGen::builtinExpandDims);
  t.add("ct.extract", &KernelIRGen::builtinExtract);
}

} // namespace tile::frontend
