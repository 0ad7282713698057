// The built-ins that compute on tiles element by element or along an axis: astype, astile,
// bitcast, minimum, maximum, pow, atan2, where and the unary math functions; the reductions and
// scans (sum, max, min, prod, argmax, argmin, cumsum, cumprod, reduce, scan).
//
// IRGenBuiltins.cpp holds argument binding and the dispatch (callBuiltin); IRGenShapeOps.cpp
// the built-ins that create and reshape tiles.

#include "compiler/frontend/Builtins.h"

#include "dialect/NumericAttrs.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace tile::frontend {

//===----------------------------------------------------------------------===//
// Element-wise math
//===----------------------------------------------------------------------===//

KValue KernelIRGen::builtinAstype(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x", "dtype"}, b))
    return KValue::error();
  auto dtype = dtypeArg(*b.get("dtype"), "the dtype");
  const Arg &x = *b.get("x");
  if (!dtype)
    return KValue::error();
  if (x.value.isConstNumber())
    return constantFits(x.value, *dtype, x.range) ? KValue::runtime(constant(x.value, *dtype, l)) : KValue::error();
  if (!x.value.isTile() && !x.value.isScalar()) {
    error(x.range, "astype needs a tile or a scalar, got " + describe(x.value));
    return KValue::error();
  }
  return KValue::runtime(castElements(x.value.value(), *dtype, l));
}

// A number or scalar as a 0-d tile (a tile stays as it is), cast to `dtype` when given.
KValue KernelIRGen::builtinAstile(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x", "dtype?"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  std::optional<Type> dtype;
  if (const Arg *d = b.get("dtype"); d && !d->value.isNone()) {
    dtype = dtypeArg(*d, "the dtype");
    if (!dtype)
      return KValue::error();
    if (x.value.isConstNumber() && !constantFits(x.value, *dtype, x.range))
      return KValue::error();
  }
  Value t = toTile(x, "ct.astile() input");
  if (!t)
    return KValue::error();
  return KValue::runtime(dtype ? castElements(t, *dtype, l) : t);
}

// The same bits read as another dtype of the same width (no conversion).
KValue KernelIRGen::builtinBitcast(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x", "dtype"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  auto dtype = dtypeArg(*b.get("dtype"), "the dtype");
  if (!dtype)
    return KValue::error();
  if (!x.value.isTile() && !x.value.isScalar()) {
    error(x.range, "ct.bitcast needs a tile or a scalar, got " + describe(x.value));
    return KValue::error();
  }
  Type from = x.value.elementType();
  if (!hasWholeBytes(from) || !hasWholeBytes(*dtype) ||
      from.getIntOrFloatBitWidth() != dtype->getIntOrFloatBitWidth()) {
    error(args.callRange, "ct.bitcast needs dtypes of the same width (bool and tfloat32 excluded): " +
                              describe(x.value) + " to " + describe(KValue::dtype(*dtype)));
    return KValue::error();
  }
  Value v = x.value.value();
  Type result = *dtype;
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    result = RankedTensorType::get(t.getShape(), *dtype);
  // Integers of one width differ only in their type: no op; otherwise arith.bitcast on the
  // signless side (unsigned integers: IRGenUnsigned.cpp).
  if (isa<IntegerType>(from) && isa<IntegerType>(*dtype))
    return KValue::runtime(withType(v, result, l));
  Value sv = signless(v, l);
  Type bits = *dtype;
  if (auto i = dyn_cast<IntegerType>(bits); i && i.isUnsigned())
    bits = IntegerType::get(bits.getContext(), i.getWidth());
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    bits = RankedTensorType::get(t.getShape(), bits);
  return KValue::runtime(withType(arith::BitcastOp::create(builder_, l, bits, sv), result, l));
}

KValue KernelIRGen::builtinPow(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x", "y"}, b))
    return KValue::error();
  return binary(BinOpKind::Pow, *b.get("x"), *b.get("y"), args.callRange);
}

// minimum, maximum and atan2: the operands promoted and broadcast together.
KValue KernelIRGen::builtinBinaryMath(const std::string &name, const CallArgs &args, BinaryMath kind) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x", "y"}, b))
    return KValue::error();
  const Arg &x = *b.get("x"), &y = *b.get("y");
  bool isAtan2 = kind == BinaryMath::Atan2;
  if (isAtan2 && x.value.isConstNumber() && y.value.isConstNumber())
    return KValue::floating(std::atan2(x.value.numberAsDouble(), y.value.numberAsDouble()));
  bool isMin = kind == BinaryMath::Minimum;
  if (x.value.isConstNumber() && y.value.isConstNumber()) {
    bool takeX = isMin ? x.value.numberAsDouble() <= y.value.numberAsDouble()
                       : x.value.numberAsDouble() >= y.value.numberAsDouble();
    return takeX ? x.value : y.value;
  }
  for (const Arg *a : {&x, &y})
    if (!(a->value.isConstNumber() || a->value.isScalar() || a->value.isTile())) {
      error(a->range, args.callee + "() needs numbers, scalars or tiles, got " + describe(a->value));
      return KValue::error();
    }
  Type elt = promote(x, y, args.callRange);
  auto shape = broadcastShapes(x, y, args.callRange);
  if (!elt || !shape)
    return KValue::error();
  bool anyTile = x.value.isTile() || y.value.isTile();
  Value a = coerce(x, elt, *shape, args.callRange, anyTile), c = coerce(y, elt, *shape, args.callRange, anyTile);
  if (!a || !c)
    return KValue::error();
  if (isAtan2) {
    // atan2(x, y): the angle of the point (y, x), as numpy's arctan2(x1, x2) and cuTile's.
    if (!isa<FloatType>(elt)) {
      error(args.callRange, "atan2() needs floating-point operands, got " + describe(x.value) + " and " +
                                describe(y.value) + " (convert with .astype(ct.float32))");
      return KValue::error();
    }
    return KValue::runtime(math::Atan2Op::create(builder_, l, a, c));
  }
  if (isa<FloatType>(elt))
    return KValue::runtime(isMin ? Value(arith::MinimumFOp::create(builder_, l, a, c))
                                 : Value(arith::MaximumFOp::create(builder_, l, a, c)));
  if (isUnsignedInteger(elt)) {
    Value sa = signless(a, l), sc = signless(c, l);
    return KValue::runtime(withType(isMin ? Value(arith::MinUIOp::create(builder_, l, sa, sc))
                                          : Value(arith::MaxUIOp::create(builder_, l, sa, sc)),
                                    a.getType(), l));
  }
  return KValue::runtime(isMin ? Value(arith::MinSIOp::create(builder_, l, a, c))
                               : Value(arith::MaxSIOp::create(builder_, l, a, c)));
}

KValue KernelIRGen::builtinWhere(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"condition", "x", "y"}, b))
    return KValue::error();
  const Arg &c = *b.get("condition"), &x = *b.get("x"), &y = *b.get("y");
  if (auto truth = constTruth(c.value))
    return *truth ? x.value : y.value;
  if (!((c.value.isTile() || c.value.isScalar()) && c.value.elementType().isInteger(1))) {
    error(c.range, "ct.where needs a boolean condition, got " + describe(c.value));
    return KValue::error();
  }
  Type elt = promote(x, y, args.callRange);
  auto s1 = broadcastShapes(x, y, args.callRange);
  if (!elt || !s1)
    return KValue::error();
  auto shape = broadcastShapeVectors(*s1, c.value.shape());
  if (!shape) {
    error(c.range, "the condition " + describe(c.value) + " does not broadcast with the values");
    return KValue::error();
  }
  bool anyTile = c.value.isTile() || x.value.isTile() || y.value.isTile();
  Value cv = coerce(c, builder_.getI1Type(), *shape, c.range, anyTile);
  Value a = coerce(x, elt, *shape, x.range, anyTile), d = coerce(y, elt, *shape, y.range, anyTile);
  if (!cv || !a || !d)
    return KValue::error();
  return KValue::runtime(arith::SelectOp::create(builder_, l, cv, a, d));
}

/// One element-wise function of one argument: its value on a compile-time number, the op it
/// emits on floats, and what it does to integers.
struct KernelIRGen::UnaryMath {
  double (*fold)(double);
  Value (*emit)(KernelIRGen &irgen, Location l, Value v, bool flushToZero);
  /// Integers: computed in f32 (as NumPy's float), kept as they are, or |x|.
  enum IntegerRule { InF32, Unchanged, Absolute } onIntegers;
};

template <typename Op> static Value emitMath(KernelIRGen &irgen, Location l, Value v, bool) {
  return Op::create(irgen.builder(), l, v);
}

// sigmoid(x) = 1 / (1 + exp(-x)); flush_to_zero applies to the exp.
static Value emitSigmoid(KernelIRGen &irgen, Location l, Value v, bool flushToZero) {
  OpBuilder &b = irgen.builder();
  Value one = irgen.splat(1.0, v.getType(), l);
  Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, v));
  if (flushToZero)
    e.getDefiningOp()->setAttr(mlir::tile::kFlushToZeroAttr, b.getUnitAttr());
  return arith::DivFOp::create(b, l, one, arith::AddFOp::create(b, l, one, e));
}

KValue KernelIRGen::builtinUnaryMath(const std::string &name, const CallArgs &args, const UnaryMath *fn) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  if (x.value.isConstNumber()) {
    if (fn->onIntegers == UnaryMath::Absolute && !x.value.isFloat())
      return KValue::integer(std::llabs(x.value.intValue()));
    return KValue::floating(fn->fold(x.value.numberAsDouble()));
  }
  if (!x.value.isTile() && !x.value.isScalar()) {
    error(x.range, args.callee + "() needs a number, scalar or tile, got " + describe(x.value));
    return KValue::error();
  }
  Value v = x.value.value();
  Type elt = x.value.elementType();
  if (isa<IntegerType>(elt)) {
    if (fn->onIntegers == UnaryMath::Absolute)
      return isUnsignedInteger(elt) ? x.value : KValue::runtime(math::AbsIOp::create(builder_, l, v));
    if (fn->onIntegers == UnaryMath::Unchanged)
      return x.value;
    v = castElements(v, builder_.getF32Type(), l); // integers compute in f32, as NumPy's float
  }
  Value r = fn->emit(*this, l, v, args.flushToZero);
  if (Operation *def = r.getDefiningOp(); args.flushToZero && isa<math::MathDialect>(def->getDialect()))
    def->setAttr(mlir::tile::kFlushToZeroAttr, builder_.getUnitAttr());
  return KValue::runtime(r);
}

void KernelIRGen::registerMathBuiltins(BuiltinTable &t) {
  t.add("ct.astype", &KernelIRGen::builtinAstype);
  t.add("ct.astile", &KernelIRGen::builtinAstile);
  t.add("ct.bitcast", &KernelIRGen::builtinBitcast);
  t.add("ct.pack_to_bytes", &KernelIRGen::builtinPackToBytes);
  t.add("ct.unpack_from_bytes", &KernelIRGen::builtinUnpackFromBytes);
  t.add("ct.pow", &KernelIRGen::builtinPow);
  t.add("ct.minimum", &KernelIRGen::builtinBinaryMath, BinaryMath::Minimum);
  t.add("ct.maximum", &KernelIRGen::builtinBinaryMath, BinaryMath::Maximum);
  t.add("ct.atan2", &KernelIRGen::builtinBinaryMath, BinaryMath::Atan2);
  t.add("ct.where", &KernelIRGen::builtinWhere);
  using U = UnaryMath;
  static const std::pair<const char *, UnaryMath> unary[] = {
      {"ct.exp", {[](double v) { return std::exp(v); }, emitMath<math::ExpOp>, U::InF32}},
      {"ct.exp2", {[](double v) { return std::exp2(v); }, emitMath<math::Exp2Op>, U::InF32}},
      {"ct.log", {[](double v) { return std::log(v); }, emitMath<math::LogOp>, U::InF32}},
      {"ct.log2", {[](double v) { return std::log2(v); }, emitMath<math::Log2Op>, U::InF32}},
      {"ct.sqrt", {[](double v) { return std::sqrt(v); }, emitMath<math::SqrtOp>, U::InF32}},
      {"ct.rsqrt", {[](double v) { return 1.0 / std::sqrt(v); }, emitMath<math::RsqrtOp>, U::InF32}},
      {"ct.sin", {[](double v) { return std::sin(v); }, emitMath<math::SinOp>, U::InF32}},
      {"ct.cos", {[](double v) { return std::cos(v); }, emitMath<math::CosOp>, U::InF32}},
      {"ct.tan", {[](double v) { return std::tan(v); }, emitMath<math::TanOp>, U::InF32}},
      {"ct.sinh", {[](double v) { return std::sinh(v); }, emitMath<math::SinhOp>, U::InF32}},
      {"ct.cosh", {[](double v) { return std::cosh(v); }, emitMath<math::CoshOp>, U::InF32}},
      {"ct.tanh", {[](double v) { return std::tanh(v); }, emitMath<math::TanhOp>, U::InF32}},
      {"ct.abs", {[](double v) { return std::fabs(v); }, emitMath<math::AbsFOp>, U::Absolute}},
      {"ct.floor", {[](double v) { return std::floor(v); }, emitMath<math::FloorOp>, U::Unchanged}},
      {"ct.ceil", {[](double v) { return std::ceil(v); }, emitMath<math::CeilOp>, U::Unchanged}},
      {"ct.sigmoid", {[](double v) { return 1.0 / (1.0 + std::exp(-v)); }, emitSigmoid, U::InF32}}};
  for (const auto &[name, fn] : unary)
    t.add(name, &KernelIRGen::builtinUnaryMath, &fn);
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

KValue KernelIRGen::builtinReduceWith(const std::string &name, const CallArgs &args, bool isScan) {
  Bound b;
  if (!bind(args, {"x", "axis", "func", "identity", isScan ? "reverse?" : "keepdims?"}, b))
    return KValue::error();
  const Arg &func = *b.get("func"), &identity = *b.get("identity");
  const std::string fn = func.value.kind() == KValue::Kind::Builtin ? func.value.name() : "";
  // The combining functions it knows, the reduction or scan each one makes, and its neutral
  // element (for max/min: -inf/+inf, or an integer dtype's extreme).
  using RK = mlir::tile::ReduceKind;
  using SK = mlir::tile::ScanKind;
  struct Known {
    const char *func, *reduce, *scan; // scan: null where ct.scan does not take the function
    RK reduceKind;
    SK scanKind; // where scan is set
    int neutral; // 0, 1, -1 (-inf or the smallest value), +2 (+inf or the largest)
  };
  static const Known known[] = {{"ct.add", "ct.sum", "ct.cumsum", RK::sum, SK::cumsum, 0},
                                {"ct.mul", "ct.prod", "ct.cumprod", RK::prod, SK::cumprod, 1},
                                {"ct.maximum", "ct.max", nullptr, RK::max, SK::cumsum, -1},
                                {"ct.minimum", "ct.min", nullptr, RK::min, SK::cumsum, 2}};
  const Known *k = nullptr;
  for (const Known &c : known)
    if (fn == c.func)
      k = &c;
  if (!k) {
    error(func.range, name + " supports the combining functions ct.add, ct.mul, ct.maximum and ct.minimum, got " +
                          describe(func.value) + " (lambdas and other functions are not supported yet)");
    return KValue::error();
  }
  if (isScan && !k->scan) {
    error(func.range, "ct.scan with " + fn + " is not supported yet (only ct.add and ct.mul scans)");
    return KValue::error();
  }
  // The identity must be the function's neutral element: the named reductions assume it.
  const KValue &id = identity.value;
  bool neutral = false;
  if (id.isConstNumber()) {
    double v = id.numberAsDouble();
    Type elt = b.get("x")->value.isTile() ? b.get("x")->value.elementType() : Type();
    auto intExtreme = [&](bool smallest) -> std::optional<double> {
      auto it = dyn_cast_or_null<IntegerType>(elt);
      if (!it || it.getWidth() == 1 || it.getWidth() > 53)
        return std::nullopt;
      double half = std::ldexp(1.0, int(it.getWidth()) - 1);
      return smallest ? -half : half - 1;
    };
    if (k->neutral == 0 || k->neutral == 1)
      neutral = v == k->neutral;
    else {
      bool smallest = k->neutral == -1;
      neutral = (std::isinf(v) && (v < 0) == smallest) || (intExtreme(smallest) && v == *intExtreme(smallest));
    }
  }
  if (!neutral) {
    const char *want = k->neutral == 0   ? "0"
                       : k->neutral == 1 ? "1"
                       : k->neutral < 0  ? "-inf (or an integer dtype's smallest value)"
                                         : "+inf (or an integer dtype's largest value)";
    error(identity.range,
          name + " with " + fn + " needs its neutral element " + want + " as the identity, got " + describe(id));
    return KValue::error();
  }
  CallArgs named;
  named.callRange = args.callRange;
  named.callee = std::string(isScan ? k->scan : k->reduce).substr(3);
  named.positional = {*b.get("x")};
  named.keywords.push_back({"axis", *b.get("axis")});
  if (const Arg *option = b.get(isScan ? "reverse" : "keepdims"))
    named.keywords.push_back({isScan ? "reverse" : "keepdims", *option});
  return isScan ? builtinScan(k->scan, named, k->scanKind) : builtinReduce(k->reduce, named, k->reduceKind);
}

Value KernelIRGen::reductionInput(const Arg &x, const CallArgs &args) {
  Value v = toTile(x, args.callee + "() input");
  if (v && cast<RankedTensorType>(v.getType()).getElementType().isInteger(1))
    v = castElements(v, builder_.getI32Type(), loc(args.callRange));
  return v;
}

KValue KernelIRGen::builtinScan(const std::string &name, const CallArgs &args, mlir::tile::ScanKind kind) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x", "axis?", "reverse?"}, b))
    return KValue::error();
  Value x = reductionInput(*b.get("x"), args);
  if (!x)
    return KValue::error();
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getRank() == 0) {
    error(b.get("x")->range, args.callee + "() needs a tile of rank >= 1");
    return KValue::error();
  }
  int32_t axis = 0;
  if (const Arg *a = b.get("axis")) {
    auto v = axisArg(*a, type.getRank(), "axis");
    if (!v)
      return KValue::error();
    axis = *v;
  }
  bool reverse = false;
  if (const Arg *r = b.get("reverse")) {
    if (!r->value.isBool()) {
      error(r->range, "reverse must be True or False");
      return KValue::error();
    }
    reverse = r->value.boolValue();
  }
  auto op = mlir::tile::ScanOp::create(builder_, l, type, kind, x, static_cast<uint32_t>(axis), reverse);
  return verifiedResult(op, args);
}

KValue KernelIRGen::builtinReduce(const std::string &name, const CallArgs &args, mlir::tile::ReduceKind kind) {
  Bound b;
  Location l = loc(args.callRange);
  if (!bind(args, {"x", "axis?", "keepdims?"}, b))
    return KValue::error();
  Value x = reductionInput(*b.get("x"), args);
  if (!x)
    return KValue::error();
  auto type = cast<RankedTensorType>(x.getType());
  bool keepdims = false;
  if (const Arg *k = b.get("keepdims")) {
    if (!k->value.isBool()) {
      error(k->range, "keepdims must be True or False");
      return KValue::error();
    }
    keepdims = k->value.boolValue();
  }
  if (type.getRank() == 0) {
    error(b.get("x")->range, args.callee + "() needs a tile of rank >= 1, got " + describe(b.get("x")->value));
    return KValue::error();
  }
  bool isArg = kind == mlir::tile::ReduceKind::argmax || kind == mlir::tile::ReduceKind::argmin;
  // Unsigned maxima and minima: with the sign bit flipped, unsigned order is signed order, so
  // the signed reduction runs on the flipped bits and the result is flipped back.
  Type unsignedElt; // set when the bits are flipped
  auto flip = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    APInt sign = APInt::getSignMask(t.getElementTypeBitWidth());
    Value bit = arith::ConstantOp::create(builder_, l, t,
                                          SplatElementsAttr::get(t, builder_.getIntegerAttr(t.getElementType(), sign)));
    return arith::XOrIOp::create(builder_, l, v, bit).getResult();
  };
  if (isUnsignedInteger(type) && kind != mlir::tile::ReduceKind::sum && kind != mlir::tile::ReduceKind::prod) {
    unsignedElt = type.getElementType();
    x = flip(signless(x, l));
    type = cast<RankedTensorType>(x.getType());
  }
  Type resultElt = isArg ? Type(builder_.getI32Type()) : type.getElementType();
  SmallVector<int64_t> originalShape(type.getShape());
  int32_t axis;
  if (const Arg *a = b.get("axis")) {
    auto v = axisArg(*a, type.getRank(), "axis");
    if (!v)
      return KValue::error();
    axis = *v;
  } else {
    // axis=None reduces everything: flatten first.
    if (type.getRank() > 1) {
      auto flat = RankedTensorType::get({type.getNumElements()}, type.getElementType());
      x = mlir::tile::ReshapeOp::create(builder_, l, flat, x);
      type = flat;
    }
    axis = 0;
  }
  SmallVector<int64_t> shape(type.getShape());
  if (keepdims)
    shape[axis] = 1;
  else
    shape.erase(shape.begin() + axis);
  auto op = mlir::tile::ReduceOp::create(builder_, l, RankedTensorType::get(shape, resultElt), kind, x,
                                         static_cast<uint32_t>(axis), keepdims);
  if (!verifyBuilt(op, args.callRange, args.callee))
    return KValue::error();
  Value r = op;
  if (!b.get("axis") && keepdims && originalShape.size() > 1) {
    SmallVector<int64_t> ones(originalShape.size(), 1);
    r = mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get(ones, resultElt), r);
  }
  if (unsignedElt && !isArg)
    r = withType(flip(r), cast<RankedTensorType>(r.getType()).clone(unsignedElt), l);
  return KValue::runtime(r);
}

void KernelIRGen::registerReduceBuiltins(BuiltinTable &t) {
  using RK = mlir::tile::ReduceKind;
  t.add("ct.reduce", &KernelIRGen::builtinReduceWith, /*isScan=*/false);
  t.add("ct.scan", &KernelIRGen::builtinReduceWith, /*isScan=*/true);
  static const std::pair<const char *, RK> reductions[] = {{"ct.sum", RK::sum},       {"ct.max", RK::max},
                                                           {"ct.min", RK::min},       {"ct.prod", RK::prod},
                                                           {"ct.argmax", RK::argmax}, {"ct.argmin", RK::argmin}};
  for (auto [name, kind] : reductions)
    t.add(name, &KernelIRGen::builtinReduce, kind);
  t.add("ct.cumsum", &KernelIRGen::builtinScan, mlir::tile::ScanKind::cumsum);
  t.add("ct.cumprod", &KernelIRGen::builtinScan, mlir::tile::ScanKind::cumprod);
}

} // namespace tile::frontend
