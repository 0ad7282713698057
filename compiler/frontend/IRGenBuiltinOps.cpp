// The built-ins that compute on tiles: builtinMath (astype, minimum, maximum, pow, where, and
// the unary math functions), builtinReduce (sum, max, min, prod, argmax, argmin, cumsum,
// cumprod) and builtinShape (arange, full, zeros, ones, mma, matmul, reshape, permute,
// transpose, broadcast_to, expand_dims, cat, extract).
//
// IRGenBuiltins.cpp holds argument binding, the dispatch (callBuiltin) and the grid, memory and
// compile-time built-ins.

#include "compiler/frontend/IRGen.h"

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

KValue KernelIRGen::builtinMath(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (name == "ct.astype") {
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
  if (name == "ct.astile") {
    // A number or scalar as a 0-d tile (a tile stays as it is), cast to `dtype` when given.
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
  if (name == "ct.bitcast") {
    // The same bits read as another dtype of the same width (no conversion).
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
    auto plain = [](Type t) { return !t.isInteger(1) && !t.isTF32() && t.getIntOrFloatBitWidth() >= 8; };
    if (!plain(from) || !plain(*dtype) || from.getIntOrFloatBitWidth() != dtype->getIntOrFloatBitWidth()) {
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
  if (name == "ct.minimum" || name == "ct.maximum" || name == "ct.pow" || name == "ct.atan2") {
    if (!bind(args, {"x", "y"}, b))
      return KValue::error();
    const Arg &x = *b.get("x"), &y = *b.get("y");
    if (name == "ct.pow")
      return binary(BinOpKind::Pow, x, y, args.callRange);
    bool isAtan2 = name == "ct.atan2";
    if (isAtan2 && x.value.isConstNumber() && y.value.isConstNumber())
      return KValue::floating(std::atan2(x.value.numberAsDouble(), y.value.numberAsDouble()));
    bool isMin = name == "ct.minimum";
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
  if (name == "ct.where") {
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
  static const char *unary[] = {"ct.exp", "ct.exp2",  "ct.log",  "ct.log2",   "ct.sqrt", "ct.rsqrt",
                                "ct.sin", "ct.cos",   "ct.tan",  "ct.sinh",   "ct.cosh", "ct.tanh",
                                "ct.abs", "ct.floor", "ct.ceil", "ct.sigmoid"};
  bool isUnary = false;
  for (const char *u : unary)
    isUnary |= name == u;
  if (!isUnary) {
    error(args.callRange, "'" + name + "' is not a supported operation");
    return KValue::error();
  }
  if (!bind(args, {"x"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  std::string op = name.substr(3);
  if (x.value.isConstNumber()) {
    double v = x.value.numberAsDouble();
    if (op == "abs")
      return x.value.isFloat() ? KValue::floating(std::fabs(v)) : KValue::integer(std::llabs(x.value.intValue()));
    double r = op == "exp"       ? std::exp(v)
               : op == "exp2"    ? std::exp2(v)
               : op == "log"     ? std::log(v)
               : op == "log2"    ? std::log2(v)
               : op == "sqrt"    ? std::sqrt(v)
               : op == "rsqrt"   ? 1.0 / std::sqrt(v)
               : op == "sin"     ? std::sin(v)
               : op == "cos"     ? std::cos(v)
               : op == "tan"     ? std::tan(v)
               : op == "sinh"    ? std::sinh(v)
               : op == "cosh"    ? std::cosh(v)
               : op == "tanh"    ? std::tanh(v)
               : op == "sigmoid" ? 1.0 / (1.0 + std::exp(-v))
               : op == "floor"   ? std::floor(v)
                                 : std::ceil(v);
    return KValue::floating(r);
  }
  if (!x.value.isTile() && !x.value.isScalar()) {
    error(x.range, args.callee + "() needs a number, scalar or tile, got " + describe(x.value));
    return KValue::error();
  }
  Value v = x.value.value();
  Type elt = x.value.elementType();
  if (isa<IntegerType>(elt)) {
    if (op == "abs")
      return isUnsignedInteger(elt) ? x.value : KValue::runtime(math::AbsIOp::create(builder_, l, v));
    if (op == "floor" || op == "ceil")
      return x.value;
    v = castElements(v, builder_.getF32Type(), l); // integers compute in f32, as NumPy's float
  }
  Value r;
  if (op == "exp")
    r = math::ExpOp::create(builder_, l, v);
  else if (op == "exp2")
    r = math::Exp2Op::create(builder_, l, v);
  else if (op == "log")
    r = math::LogOp::create(builder_, l, v);
  else if (op == "log2")
    r = math::Log2Op::create(builder_, l, v);
  else if (op == "sqrt")
    r = math::SqrtOp::create(builder_, l, v);
  else if (op == "rsqrt")
    r = math::RsqrtOp::create(builder_, l, v);
  else if (op == "sin")
    r = math::SinOp::create(builder_, l, v);
  else if (op == "cos")
    r = math::CosOp::create(builder_, l, v);
  else if (op == "tan")
    r = math::TanOp::create(builder_, l, v);
  else if (op == "sinh")
    r = math::SinhOp::create(builder_, l, v);
  else if (op == "cosh")
    r = math::CoshOp::create(builder_, l, v);
  else if (op == "tanh")
    r = math::TanhOp::create(builder_, l, v);
  else if (op == "abs")
    r = math::AbsFOp::create(builder_, l, v);
  else if (op == "floor")
    r = math::FloorOp::create(builder_, l, v);
  else if (op == "ceil")
    r = math::CeilOp::create(builder_, l, v);
  else { // sigmoid(x) = 1 / (1 + exp(-x))
    Value one = splat(1.0, v.getType(), l);
    Value e = math::ExpOp::create(builder_, l, arith::NegFOp::create(builder_, l, v));
    if (args.flushToZero)
      e.getDefiningOp()->setAttr(mlir::tile::kFlushToZeroAttr, builder_.getUnitAttr());
    r = arith::DivFOp::create(builder_, l, one, arith::AddFOp::create(builder_, l, one, e));
  }
  if (Operation *def = r.getDefiningOp(); args.flushToZero && isa<math::MathDialect>(def->getDialect()))
    def->setAttr(mlir::tile::kFlushToZeroAttr, builder_.getUnitAttr());
  return KValue::runtime(r);
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

KValue KernelIRGen::builtinReduceWith(const std::string &name, const CallArgs &args) {
  Bound b;
  bool isScan = name == "ct.scan";
  if (!bind(args, {"x", "axis", "func", "identity", isScan ? "reverse?" : "keepdims?"}, b))
    return KValue::error();
  const Arg &func = *b.get("func"), &identity = *b.get("identity");
  const std::string fn = func.value.kind() == KValue::Kind::Builtin ? func.value.name() : "";
  // The combining functions it knows, the reduction or scan each one makes, and its neutral
  // element (for max/min: -inf/+inf, or an integer dtype's extreme).
  struct Known {
    const char *func, *reduce, *scan;
    int neutral; // 0, 1, -1 (-inf or the smallest value), +2 (+inf or the largest)
  };
  static const Known known[] = {{"ct.add", "ct.sum", "ct.cumsum", 0},
                                {"ct.mul", "ct.prod", "ct.cumprod", 1},
                                {"ct.maximum", "ct.max", nullptr, -1},
                                {"ct.minimum", "ct.min", nullptr, 2}};
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
  return builtinReduce(isScan ? k->scan : k->reduce, named);
}

KValue KernelIRGen::builtinReduce(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  bool isScan = name == "ct.cumsum" || name == "ct.cumprod";
  bool ok = isScan ? bind(args, {"x", "axis?", "reverse?"}, b) : bind(args, {"x", "axis?", "keepdims?"}, b);
  if (!ok)
    return KValue::error();
  Value x = toTile(*b.get("x"), args.callee + "() input");
  if (!x)
    return KValue::error();
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getElementType().isInteger(1))
    x = castElements(x, builder_.getI32Type(), l), type = cast<RankedTensorType>(x.getType());
  if (isScan) {
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
    auto kind = name == "ct.cumsum" ? mlir::tile::ScanKind::cumsum : mlir::tile::ScanKind::cumprod;
    auto op = mlir::tile::ScanOp::create(builder_, l, type, kind, x, static_cast<uint32_t>(axis), reverse);
    if (!verifyBuilt(op, args.callRange, args.callee))
      return KValue::error();
    return KValue::runtime(op);
  }
  mlir::tile::ReduceKind kind = name == "ct.sum"      ? mlir::tile::ReduceKind::sum
                                : name == "ct.prod"   ? mlir::tile::ReduceKind::prod
                                : name == "ct.max"    ? mlir::tile::ReduceKind::max
                                : name == "ct.min"    ? mlir::tile::ReduceKind::min
                                : name == "ct.argmax" ? mlir::tile::ReduceKind::argmax
                                                      : mlir::tile::ReduceKind::argmin;
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

//===----------------------------------------------------------------------===//
// Creation, shapes and matrix products
//===----------------------------------------------------------------------===//

KValue KernelIRGen::builtinShape(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (name == "ct.arange") {
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
  if (name == "ct.full" || name == "ct.zeros" || name == "ct.ones") {
    bool isFull = name == "ct.full";
    if (!(isFull ? bind(args, {"shape", "fill_value", "dtype?"}, b) : bind(args, {"shape", "dtype?"}, b)))
      return KValue::error();
    auto shape = constShape(*b.get("shape"), "the shape");
    if (!shape)
      return KValue::error();
    KValue value = isFull ? scalarOf(*b.get("fill_value")).value : KValue::floating(name == "ct.ones" ? 1.0 : 0.0);
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
  if (name == "ct.mma" || name == "ct.matmul") {
    bool isMma = name == "ct.mma";
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
    if (!verifyBuilt(op, args.callRange, args.callee))
      return KValue::error();
    return KValue::runtime(op);
  }
  // Shape manipulation of one tile.
  std::vector<const char *> params;
  if (name == "ct.reshape" || name == "ct.broadcast_to")
    params = {"x", "shape"};
  else if (name == "ct.permute")
    params = {"x", "axes"};
  else if (name == "ct.transpose")
    params = {"x", "axis0?", "axis1?", "axes?"};
  else if (name == "ct.expand_dims")
    params = {"x", "axis"};
  else if (name == "ct.cat")
    params = {"tiles", "axis?"};
  else if (name == "ct.extract")
    params = {"x", "index", "shape"};
  if (!bind(args, params, b))
    return KValue::error();
  if (name == "ct.cat") {
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
    auto op = mlir::tile::CatOp::create(builder_, l, RankedTensorType::get(shape, x.value.elementType()),
                                        x.value.value(), y.value.value(), static_cast<uint32_t>(axis));
    if (!verifyBuilt(op, args.callRange, "ct.cat"))
      return KValue::error();
    return KValue::runtime(op);
  }
  const Arg &xa = *b.get("x");
  Value x = toTile(xa, args.callee + "() input");
  if (!x)
    return KValue::error();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  Operation *op = nullptr;
  if (name == "ct.reshape" || name == "ct.broadcast_to") {
    // reshape accepts one -1 (inferred) dimension.
    const Arg &s = *b.get("shape");
    SmallVector<int64_t> shape;
    int inferred = -1;
    for (const KValue &d : s.value.isTuple() ? s.value.elements() : std::vector<KValue>{s.value}) {
      if (!d.isInt()) {
        error(s.range, "the shape must be a tuple of compile-time integers, got " + describe(d));
        return KValue::error();
      }
      if (d.intValue() == -1 && name == "ct.reshape") {
        if (inferred >= 0) {
          error(s.range, "the shape can have only one -1 (inferred) dimension");
          return KValue::error();
        }
        inferred = static_cast<int>(shape.size());
        shape.push_back(1);
        continue;
      }
      if (d.intValue() <= 0 || (d.intValue() & (d.intValue() - 1))) {
        error(s.range, "the shape has dimension " + std::to_string(d.intValue()) +
                           ", which is not a power of two (tile dimensions must be powers of two)");
        return KValue::error();
      }
      shape.push_back(d.intValue());
    }
    if (!checkTileSize(shape, s.range, "the shape"))
      return KValue::error();
    if (inferred >= 0) {
      int64_t known = 1;
      for (int64_t d : shape)
        known *= d;
      if (type.getNumElements() % known != 0) {
        error(s.range, "the -1 dimension cannot be inferred: " + describe(KValue::runtime(x)) + " has " +
                           std::to_string(type.getNumElements()) + " elements, which is not a multiple of " +
                           std::to_string(known));
        return KValue::error();
      }
      shape[inferred] = type.getNumElements() / known;
    }
    auto resultType = RankedTensorType::get(shape, type.getElementType());
    if (name == "ct.reshape")
      op = mlir::tile::ReshapeOp::create(builder_, l, resultType, x);
    else {
      auto target = broadcastShapeVectors(type.getShape(), shape);
      if (!target || ArrayRef<int64_t>(*target) != ArrayRef<int64_t>(shape) || shape.size() < type.getShape().size()) {
        error(args.callRange, "cannot broadcast " + describe(xa.value) + " to the shape given");
        return KValue::error();
      }
      return KValue::runtime(broadcastValue(x, shape, l));
    }
  } else if (name == "ct.permute" || name == "ct.transpose") {
    SmallVector<int32_t> perm;
    const Arg *axis0 = name == "ct.transpose" ? b.get("axis0") : nullptr;
    const Arg *axis1 = name == "ct.transpose" ? b.get("axis1") : nullptr;
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
      for (const KValue &d : axes->value.isTuple() ? axes->value.elements() : std::vector<KValue>{axes->value}) {
        if (!d.isInt()) {
          error(axes->range, "axes must be compile-time integers");
          return KValue::error();
        }
        perm.push_back(static_cast<int32_t>(d.intValue() < 0 ? d.intValue() + rank : d.intValue()));
      }
    } else {
      if (rank < 2) {
        error(xa.range, "transpose needs a tile of rank >= 2, got " + describe(xa.value));
        return KValue::error();
      }
      for (int64_t i = 0; i < rank; ++i)
        perm.push_back(static_cast<int32_t>(i));
      std::swap(perm[rank - 1], perm[rank - 2]); // swap the last two axes
    }
    SmallVector<int64_t> shape;
    for (int32_t p : perm)
      shape.push_back(p >= 0 && p < rank ? type.getDimSize(p) : 1);
    op = mlir::tile::PermuteOp::create(builder_, l, RankedTensorType::get(shape, type.getElementType()), x,
                                       builder_.getDenseI32ArrayAttr(perm));
  } else if (name == "ct.expand_dims") {
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
    op = mlir::tile::ExpandDimsOp::create(builder_, l, RankedTensorType::get(shape, type.getElementType()), x,
                                          static_cast<uint32_t>(a));
  } else if (name == "ct.extract") {
    auto shape = constShape(*b.get("shape"), "the sub-tile shape");
    if (!shape)
      return KValue::error();
    const Arg &ia = *b.get("index");
    std::vector<KValue> entries = ia.value.isTuple() ? ia.value.elements() : std::vector<KValue>{ia.value};
    if (static_cast<int64_t>(entries.size()) != rank || static_cast<int64_t>(shape->size()) != rank) {
      SmallVector<int64_t> index(entries.size(), 0); // the op's verifier says what is wrong
      op = mlir::tile::ExtractOp::create(builder_, l, RankedTensorType::get(*shape, type.getElementType()), x,
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
  if (!op || !verifyBuilt(op, args.callRange, args.callee))
    return KValue::error();
  return KValue::runtime(op->getResult(0));
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

} // namespace tile::frontend
