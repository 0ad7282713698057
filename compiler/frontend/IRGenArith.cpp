// Values, dtype promotion, NumPy broadcasting and the arithmetic the operators lower to.

#include "compiler/frontend/ASTPrinter.h"
#include "compiler/frontend/IRGen.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;

namespace tile::frontend {

//===----------------------------------------------------------------------===//
// KValue
//===----------------------------------------------------------------------===//

bool KValue::isArray() const { return isRuntime() && isa<mlir::tile::ArrayType>(value_.getType()); }
bool KValue::isTile() const { return isRuntime() && isa<RankedTensorType>(value_.getType()); }
bool KValue::isScalar() const { return isRuntime() && (isa<IntegerType, FloatType, IndexType>(value_.getType())); }
Type KValue::elementType() const {
  if (!isRuntime())
    return {};
  Type t = value_.getType();
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return tensor.getElementType();
  if (auto array = dyn_cast<mlir::tile::ArrayType>(t))
    return array.getElementType();
  return t;
}
ArrayRef<int64_t> KValue::shape() const {
  if (isTile())
    return cast<RankedTensorType>(value_.getType()).getShape();
  return {};
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string describe(const KValue &v) {
  switch (v.kind()) {
  case KValue::Kind::Error:
    return "an invalid value";
  case KValue::Kind::None:
    return "None";
  case KValue::Kind::Int:
    return "int " + std::to_string(v.intValue());
  case KValue::Kind::Float:
    return "float " + formatFloat(v.floatValue());
  case KValue::Kind::Bool:
    return std::string("bool ") + (v.boolValue() ? "True" : "False");
  case KValue::Kind::Str:
    return "string \"" + v.name() + "\"";
  case KValue::Kind::Tuple: {
    // Spelled like Python, so two tuples in one message can be told apart: "tuple (16, 32)".
    std::string s = "tuple (";
    const std::vector<KValue> &elts = v.elements();
    for (size_t i = 0; i < elts.size(); ++i) {
      const KValue &e = elts[i];
      s += i ? ", " : "";
      if (i == 8) {
        s += "...";
        break;
      }
      if (e.isInt())
        s += std::to_string(e.intValue());
      else if (e.isFloat())
        s += formatFloat(e.floatValue());
      else if (e.isBool())
        s += e.boolValue() ? "True" : "False";
      else if (e.isNone())
        s += "None";
      else
        s += describe(e);
    }
    return s + (elts.size() == 1 ? ",)" : ")");
  }
  case KValue::Kind::Dict:
    return "a dict";
  case KValue::Kind::DType:
    return "dtype " + typeString(v.dtypeValue());
  case KValue::Kind::Namespace:
    return "module " + v.name();
  case KValue::Kind::Builtin:
    return "function " + v.name();
  case KValue::Kind::Function:
    return "function " + v.functionDef()->name;
  case KValue::Kind::Padding:
    return "padding mode " + v.name();
  case KValue::Kind::ConstantAnnotation:
    return "ct.Constant";
  case KValue::Kind::TiledView:
    return "a tiled view of " + describe(*v.self()) + " in tiles of " + describe(KValue::tuple(v.elements()));
  case KValue::Kind::Runtime: {
    Type t = v.value().getType();
    if (auto tensor = dyn_cast<RankedTensorType>(t)) {
      std::string s = "tile<";
      for (int64_t d : tensor.getShape())
        s += std::to_string(d) + "x";
      return s + typeString(tensor.getElementType()) + ">";
    }
    if (auto array = dyn_cast<mlir::tile::ArrayType>(t))
      return "array<" + typeString(array.getElementType()) + ", rank " + std::to_string(array.getRank()) + ">";
    return "scalar " + typeString(t);
  }
  }
  return "a value";
}

//===----------------------------------------------------------------------===//
// Constants and conversions
//===----------------------------------------------------------------------===//

Type KernelIRGen::defaultType(const KValue &c) {
  if (c.isBool())
    return builder_.getI1Type();
  if (c.isFloat())
    return builder_.getF32Type();
  int64_t v = c.intValue();
  return (v >= INT32_MIN && v <= INT32_MAX) ? builder_.getI32Type() : builder_.getI64Type();
}

Value KernelIRGen::constant(const KValue &c, Type type, Location l) {
  if (isUnsignedInteger(type)) {
    // arith constants are signless: the same bits, given the unsigned type.
    auto elt = cast<IntegerType>(getElementTypeOrSelf(type));
    Type bits = IntegerType::get(type.getContext(), elt.getWidth());
    auto tensor = dyn_cast<RankedTensorType>(type);
    return withType(constant(c, tensor ? Type(tensor.clone(bits)) : bits, l), type, l);
  }
  Type elt = getElementTypeOrSelf(type);
  TypedAttr scalar;
  if (auto intType = dyn_cast<IntegerType>(elt)) {
    int64_t v = c.isFloat() ? static_cast<int64_t>(c.floatValue()) : c.intValue();
    if (intType.getWidth() == 1)
      v = v != 0;
    scalar = builder_.getIntegerAttr(elt, APInt(intType.getWidth(), v, /*isSigned=*/true, /*implicitTrunc=*/true));
  } else if (auto floatType = dyn_cast<FloatType>(elt)) {
    scalar = builder_.getFloatAttr(elt, c.numberAsDouble());
  } else {
    scalar = builder_.getIndexAttr(c.intValue());
  }
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(builder_, l, tensor, SplatElementsAttr::get(tensor, scalar));
  return arith::ConstantOp::create(builder_, l, type, scalar);
}

Value KernelIRGen::splat(double value, Type type, Location l) { return constant(KValue::floating(value), type, l); }

Value KernelIRGen::castElements(Value v, Type to, Location l) {
  Type from = getElementTypeOrSelf(v.getType());
  if (from == to)
    return v;
  if (isUnsignedInteger(from) || isUnsignedInteger(to)) {
    // On the signless types of the same widths, choosing the unsigned conversions for the
    // unsigned side: zero extension from an unsigned integer (sign extension from a signed
    // one, so int8 -1 becomes uint32 4294967295 as in NumPy), uitofp / fptoui; integers of
    // one width and the other signedness keep their bits.
    bool fromUnsigned = isUnsignedInteger(from), toUnsigned = isUnsignedInteger(to);
    auto fromInt = dyn_cast<IntegerType>(from), toInt = dyn_cast<IntegerType>(to);
    Type toBits = toInt ? Type(IntegerType::get(to.getContext(), toInt.getWidth())) : to;
    Type target = toBits;
    if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
      target = tensor.clone(toBits);
    Value x = signless(v, l), r;
    if (toInt && toInt.getWidth() == 1)
      r = castElements(x, toBits, l);
    else if (fromInt && toInt && fromInt.getWidth() < toInt.getWidth())
      r = fromUnsigned || fromInt.getWidth() == 1 ? Value(arith::ExtUIOp::create(builder_, l, target, x))
                                                  : Value(arith::ExtSIOp::create(builder_, l, target, x));
    else if (fromInt && toInt && fromInt.getWidth() > toInt.getWidth())
      r = arith::TruncIOp::create(builder_, l, target, x);
    else if (fromInt && toInt)
      r = x;
    else if (fromInt && fromUnsigned)
      r = arith::UIToFPOp::create(builder_, l, target, x);
    else if (fromInt)
      r = castElements(x, to, l);
    else if (toUnsigned && isa<FloatType>(from))
      r = arith::FPToUIOp::create(builder_, l, target, x);
    if (!r)
      return {};
    Type result = to;
    if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
      result = tensor.clone(to);
    return withType(r, result, l);
  }
  Type target = to;
  if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
    target = tensor.clone(to);
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (toInt && toInt.getWidth() == 1) {
    // Truth value: nonzero.
    Value zero = fromFloat ? splat(0.0, v.getType(), l) : constant(KValue::integer(0), v.getType(), l);
    if (fromFloat)
      return arith::CmpFOp::create(builder_, l, arith::CmpFPredicate::UNE, v, zero);
    return arith::CmpIOp::create(builder_, l, arith::CmpIPredicate::ne, v, zero);
  }
  if (fromInt && toInt) {
    if (fromInt.getWidth() == 1)
      return arith::ExtUIOp::create(builder_, l, target, v);
    if (fromInt.getWidth() < toInt.getWidth())
      return arith::ExtSIOp::create(builder_, l, target, v);
    return arith::TruncIOp::create(builder_, l, target, v);
  }
  if (fromInt && toFloat) {
    if (fromInt.getWidth() == 1)
      return arith::UIToFPOp::create(builder_, l, target, v);
    return arith::SIToFPOp::create(builder_, l, target, v);
  }
  if (fromFloat && toInt)
    return arith::FPToSIOp::create(builder_, l, target, v);
  if (fromFloat && toFloat) {
    unsigned fw = fromFloat.getWidth(), tw = toFloat.getWidth();
    if (fw < tw)
      return arith::ExtFOp::create(builder_, l, target, v);
    if (fw > tw)
      return arith::TruncFOp::create(builder_, l, target, v);
    // Same width, different formats (f16 <-> bf16): go through f32.
    return castElements(castElements(v, builder_.getF32Type(), l), to, l);
  }
  return {};
}

Value KernelIRGen::broadcastValue(Value v, ArrayRef<int64_t> shape, Location l) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  Type elt = getElementTypeOrSelf(v.getType());
  auto target = RankedTensorType::get(shape, elt);
  if (!tensor)
    return mlir::tile::BroadcastOp::create(builder_, l, target, v);
  if (tensor.getShape() == shape)
    return v;
  if (tensor.getRank() < static_cast<int64_t>(shape.size())) {
    // Align to the right: prepend size-1 dimensions.
    SmallVector<int64_t> padded(shape.size() - tensor.getRank(), 1);
    padded.append(tensor.getShape().begin(), tensor.getShape().end());
    v = mlir::tile::ReshapeOp::create(builder_, l, RankedTensorType::get(padded, elt), v);
    if (ArrayRef<int64_t>(padded) == shape)
      return v;
  }
  return mlir::tile::BroadcastOp::create(builder_, l, target, v);
}

std::optional<SmallVector<int64_t>> broadcastShapeVectors(ArrayRef<int64_t> sa, ArrayRef<int64_t> sb) {
  size_t rank = std::max(sa.size(), sb.size());
  SmallVector<int64_t> out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - sa.size() ? 1 : sa[i - (rank - sa.size())];
    int64_t db = i < rank - sb.size() ? 1 : sb[i - (rank - sb.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[i] = std::max(da, db);
  }
  return out;
}

std::optional<SmallVector<int64_t>> KernelIRGen::broadcastShapes(const Arg &a, const Arg &b, SourceRange where) {
  ArrayRef<int64_t> sa = a.value.shape(), sb = b.value.shape();
  size_t rank = std::max(sa.size(), sb.size());
  SmallVector<int64_t> out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - sa.size() ? 1 : sa[i - (rank - sa.size())];
    int64_t db = i < rank - sb.size() ? 1 : sb[i - (rank - sb.size())];
    if (da != db && da != 1 && db != 1) {
      error(where, "shapes do not broadcast: " + describe(a.value) + " and " + describe(b.value) +
                       " differ in dimension " + std::to_string(i) + " (" + std::to_string(da) + " vs " +
                       std::to_string(db) + ")")
          .note(a.range, "left operand here")
          .note(b.range, "right operand here");
      return std::nullopt;
    }
    out[i] = std::max(da, db);
  }
  if (!checkTileSize(out, where, "the broadcast result"))
    return std::nullopt;
  return out;
}

static bool isFloatLike(Type t) { return isa<FloatType>(t); }

Type KernelIRGen::promoteRuntimeTypes(Type ta, Type tb) {
  if (ta == tb)
    return ta;
  bool fa = isFloatLike(ta), fb = isFloatLike(tb);
  if (fa && fb) {
    unsigned wa = cast<FloatType>(ta).getWidth(), wb = cast<FloatType>(tb).getWidth();
    if (wa == wb || std::max(wa, wb) < 32)
      return builder_.getF32Type(); // f16 + bf16, tf32 + f16, ... meet in f32
    return wa > wb ? ta : tb;
  }
  if (fa != fb)
    return fa ? ta : tb;
  if (isa<IntegerType>(ta) && isa<IntegerType>(tb)) {
    auto ia = cast<IntegerType>(ta), ib = cast<IntegerType>(tb);
    // Bools count as either; otherwise signed meets unsigned only in a wider signed type,
    // which holds every value of both (int64 + uint8 is int64); int32 + uint32 has no such
    // type and is refused (cast one of them).
    if (ia.getWidth() == 1 || ib.getWidth() == 1 || ia.isUnsigned() == ib.isUnsigned())
      return ia.getWidth() >= ib.getWidth() ? ta : tb;
    IntegerType s = ia.isUnsigned() ? ib : ia, u = ia.isUnsigned() ? ia : ib;
    return s.getWidth() > u.getWidth() ? Type(s) : Type();
  }
  return {};
}

Type KernelIRGen::promote(const Arg &lhs, const Arg &rhs, SourceRange where) {
  const KValue &a = lhs.value, &b = rhs.value;
  auto typeOf = [](const KValue &v) { return v.elementType(); };
  if (a.isRuntime() && b.isRuntime()) {
    if (Type t = promoteRuntimeTypes(typeOf(a), typeOf(b)))
      return t;
    if (isa<IntegerType>(typeOf(a)) && isa<IntegerType>(typeOf(b)) &&
        isUnsignedInteger(typeOf(a)) != isUnsignedInteger(typeOf(b))) {
      error(where, "cannot combine " + describe(a) + " and " + describe(b) +
                       ": no integer type of this width holds the values of both; cast one with astype()");
      return {};
    }
    error(where, "cannot combine " + describe(a) + " and " + describe(b));
    return {};
  }
  // A Python number adapts to the other operand's dtype when its kind allows ("weak" typing).
  const KValue &rt = a.isRuntime() ? a : b;
  const KValue &c = a.isRuntime() ? b : a;
  if (!c.isConstNumber()) {
    error(where, "cannot combine " + describe(a) + " and " + describe(b));
    return {};
  }
  if (!rt.isRuntime())
    return defaultType(c.isFloat() ? c : (a.isFloat() ? a : b));
  Type t = typeOf(rt);
  if (c.isFloat() && !isFloatLike(t))
    return builder_.getF32Type();
  if (c.isInt() && t.isInteger(1))
    return builder_.getI32Type();
  if (c.isInt() && isa<IntegerType>(t) && !isUnsignedInteger(t) &&
      (c.intValue() < INT32_MIN || c.intValue() > INT32_MAX) && cast<IntegerType>(t).getWidth() < 64)
    return builder_.getI64Type();
  return t;
}

// A Python number never wraps silently into a narrower integer dtype (NumPy 2 refuses
// int8(300) too); bools are truth values and always fit.
bool KernelIRGen::constantFits(const KValue &v, Type type, SourceRange where) {
  auto intType = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  if (!intType || intType.getWidth() == 1 || v.isBool() || !v.isConstNumber())
    return true;
  unsigned width = intType.getWidth();
  bool fits;
  if (intType.isUnsigned()) {
    double d = v.numberAsDouble();
    fits = v.isFloat() ? std::isfinite(d) && d >= 0 && d < std::ldexp(1.0, width)
                       : v.intValue() >= 0 && (width >= 64 || llvm::isUIntN(width, v.intValue()));
    if (!fits)
      error(where, describe(v) + " does not fit in " + typeString(intType) + " (range 0 to " +
                       (width >= 64 ? std::string("2**64 - 1") : std::to_string(llvm::maxUIntN(width))) + ")");
    return fits;
  }
  if (v.isFloat()) {
    double d = v.floatValue();
    fits = std::isfinite(d) && d >= -std::ldexp(1.0, width - 1) && d < std::ldexp(1.0, width - 1);
  } else {
    fits = width >= 64 || llvm::isIntN(width, v.intValue());
  }
  if (fits)
    return true;
  error(where, describe(v) + " does not fit in " + typeString(intType) +
                   (width < 64 ? " (range " + std::to_string(llvm::minIntN(width)) + " to " +
                                     std::to_string(llvm::maxIntN(width)) + ")"
                               : std::string()));
  return false;
}

Value KernelIRGen::coerce(const Arg &arg, Type elementType, ArrayRef<int64_t> shape, SourceRange where, bool asTile) {
  const KValue &v = arg.value;
  Location l = loc(arg.range);
  Value r;
  if (v.isConstNumber()) {
    if (!constantFits(v, elementType, arg.range))
      return {};
    if (shape.empty() && !asTile)
      return constant(v, elementType, l);
    return constant(v, RankedTensorType::get(shape, elementType), l);
  }
  if (!v.isRuntime() || v.isArray()) {
    error(arg.range, "expected a number, scalar or tile here, got " + describe(v));
    return {};
  }
  r = castElements(v.value(), elementType, l);
  if (!r) {
    error(where, "cannot convert " + describe(v) + " to " + typeString(elementType));
    return {};
  }
  if (!shape.empty() || v.isTile() || asTile)
    r = broadcastValue(r, shape, l);
  return r;
}

std::optional<bool> KernelIRGen::constTruth(const KValue &v) {
  if (v.isBool() || v.isInt())
    return v.intValue() != 0;
  if (v.isFloat())
    return v.floatValue() != 0.0;
  if (v.isNone())
    return false;
  if (v.isTuple() || v.isStr())
    return v.isTuple() ? !v.elements().empty() : !v.name().empty();
  if (v.isDType() || v.kind() == KValue::Kind::Builtin || v.kind() == KValue::Kind::Function)
    return true;
  return std::nullopt;
}

Value KernelIRGen::runtimeCondition(const Arg &cond) {
  const KValue &v = cond.value;
  if (v.isError())
    return {};
  if (v.isScalar())
    return castElements(v.value(), builder_.getI1Type(), loc(cond.range));
  if (v.isTile() && v.shape().empty()) {
    Value scalar = tensor::ExtractOp::create(builder_, loc(cond.range), v.value(), ValueRange{});
    return castElements(scalar, builder_.getI1Type(), loc(cond.range));
  }
  if (v.isTile())
    error(cond.range, "the condition is " + describe(v) +
                          "; a condition must be a scalar (use ct.where for element-wise selection, "
                          "or reduce the tile first)");
  else
    error(cond.range, "the condition is " + describe(v) + ", which has no truth value");
  return {};
}

//===----------------------------------------------------------------------===//
// Compile-time arithmetic
//===----------------------------------------------------------------------===//

static std::optional<KValue> foldConstants(BinOpKind op, const KValue &a, const KValue &b, std::string &err) {
  bool ints = !a.isFloat() && !b.isFloat();
  if (ints) {
    int64_t x = a.intValue(), y = b.intValue(), r = 0;
    bool overflow = false;
    switch (op) {
    case BinOpKind::Add:
      overflow = __builtin_add_overflow(x, y, &r);
      break;
    case BinOpKind::Sub:
      overflow = __builtin_sub_overflow(x, y, &r);
      break;
    case BinOpKind::Mult:
      overflow = __builtin_mul_overflow(x, y, &r);
      break;
    case BinOpKind::Div:
      if (y == 0) {
        err = "division by zero";
        return std::nullopt;
      }
      return KValue::floating(static_cast<double>(x) / static_cast<double>(y));
    case BinOpKind::FloorDiv:
    case BinOpKind::Mod: {
      if (y == 0) {
        err = "integer division or modulo by zero";
        return std::nullopt;
      }
      if (x == INT64_MIN && y == -1) {
        overflow = true;
        break;
      }
      int64_t q = x / y, m = x % y;
      if (m != 0 && ((m < 0) != (y < 0))) {
        q -= 1;
        m += y;
      }
      r = op == BinOpKind::FloorDiv ? q : m;
      break;
    }
    case BinOpKind::Pow: {
      if (y < 0)
        return KValue::floating(std::pow(static_cast<double>(x), static_cast<double>(y)));
      r = 1;
      for (int64_t i = 0; i < y && !overflow; ++i)
        overflow = __builtin_mul_overflow(r, x, &r);
      break;
    }
    case BinOpKind::BitAnd:
      r = x & y;
      break;
    case BinOpKind::BitOr:
      r = x | y;
      break;
    case BinOpKind::BitXor:
      r = x ^ y;
      break;
    case BinOpKind::LShift:
      if (y < 0 || y >= 63) {
        err = "shift count " + std::to_string(y) + " is out of range";
        return std::nullopt;
      }
      overflow = (x << y) >> y != x;
      r = x << y;
      break;
    case BinOpKind::RShift:
      if (y < 0) {
        err = "negative shift count";
        return std::nullopt;
      }
      r = y >= 63 ? (x < 0 ? -1 : 0) : x >> y;
      break;
    case BinOpKind::MatMult:
      err = "'@' needs tiles";
      return std::nullopt;
    }
    if (overflow) {
      err = "integer overflow in a compile-time expression (64-bit)";
      return std::nullopt;
    }
    if (a.isBool() && b.isBool() && (op == BinOpKind::BitAnd || op == BinOpKind::BitOr || op == BinOpKind::BitXor))
      return KValue::boolean(r != 0);
    return KValue::integer(r);
  }
  double x = a.numberAsDouble(), y = b.numberAsDouble();
  switch (op) {
  case BinOpKind::Add:
    return KValue::floating(x + y);
  case BinOpKind::Sub:
    return KValue::floating(x - y);
  case BinOpKind::Mult:
    return KValue::floating(x * y);
  case BinOpKind::Div:
    if (y == 0) {
      err = "float division by zero";
      return std::nullopt;
    }
    return KValue::floating(x / y);
  case BinOpKind::FloorDiv:
    if (y == 0) {
      err = "float division by zero";
      return std::nullopt;
    }
    return KValue::floating(std::floor(x / y));
  case BinOpKind::Mod: {
    if (y == 0) {
      err = "float modulo by zero";
      return std::nullopt;
    }
    double m = std::fmod(x, y);
    if (m != 0 && ((m < 0) != (y < 0)))
      m += y;
    return KValue::floating(m);
  }
  case BinOpKind::Pow:
    return KValue::floating(std::pow(x, y));
  default:
    err = std::string("unsupported operand types for '") + spelling(op) + "': float";
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Run-time arithmetic
//===----------------------------------------------------------------------===//

KValue KernelIRGen::binary(BinOpKind op, const Arg &lhs, const Arg &rhs, SourceRange opRange) {
  const KValue &a = lhs.value, &b = rhs.value;
  if (a.isError() || b.isError())
    return KValue::error();
  SourceRange whole = SourceRange::cover(lhs.range, rhs.range);
  if (a.isConstNumber() && b.isConstNumber()) {
    std::string err;
    if (auto r = foldConstants(op, a, b, err))
      return *r;
    error(opRange, err);
    return KValue::error();
  }
  // Tuples concatenate and repeat at compile time.
  if (op == BinOpKind::Add && a.isTuple() && b.isTuple()) {
    std::vector<KValue> elts = a.elements();
    elts.insert(elts.end(), b.elements().begin(), b.elements().end());
    return KValue::tuple(std::move(elts));
  }
  if (op == BinOpKind::MatMult) {
    CallArgs args;
    args.positional = {lhs, rhs};
    args.callRange = whole;
    args.callee = "'@'";
    return callBuiltin("ct.matmul", nullptr, args);
  }
  auto operandOk = [&](const Arg &x) {
    if (x.value.isConstNumber() || x.value.isScalar() || x.value.isTile())
      return true;
    error(x.range, std::string("unsupported operand for '") + spelling(op) + "': " + describe(x.value));
    return false;
  };
  if (!operandOk(lhs) || !operandOk(rhs))
    return KValue::error();
  Type elt = promote(lhs, rhs, opRange);
  if (!elt)
    return KValue::error();
  bool isFloat = isFloatLike(elt);
  switch (op) {
  case BinOpKind::Div:
    if (!isFloat) {
      elt = builder_.getF32Type();
      isFloat = true;
    } // true division
    break;
  case BinOpKind::BitAnd:
  case BinOpKind::BitOr:
  case BinOpKind::BitXor:
  case BinOpKind::LShift:
  case BinOpKind::RShift:
    if (isFloat) {
      error(opRange, std::string("'") + spelling(op) + "' needs integer or boolean operands, got " + describe(a) +
                         " and " + describe(b));
      return KValue::error();
    }
    break;
  case BinOpKind::Add:
  case BinOpKind::Sub:
  case BinOpKind::Mult:
  case BinOpKind::FloorDiv:
  case BinOpKind::Mod:
  case BinOpKind::Pow:
    if (elt.isInteger(1))
      elt = builder_.getI32Type(); // arithmetic on booleans counts them
    break;
  case BinOpKind::MatMult:
    break;
  }
  auto shape = broadcastShapes(lhs, rhs, opRange);
  if (!shape)
    return KValue::error();
  bool anyTile = a.isTile() || b.isTile();
  SmallVector<int64_t> s = *shape;
  Value x = coerce(lhs, elt, s, opRange, anyTile), y = coerce(rhs, elt, s, opRange, anyTile);
  if (!x || !y)
    return KValue::error();
  (void)anyTile;
  Location l = loc(opRange);
  Value r;
  if (isFloat) {
    switch (op) {
    case BinOpKind::Add:
      r = arith::AddFOp::create(builder_, l, x, y);
      break;
    case BinOpKind::Sub:
      r = arith::SubFOp::create(builder_, l, x, y);
      break;
    case BinOpKind::Mult:
      r = arith::MulFOp::create(builder_, l, x, y);
      break;
    case BinOpKind::Div:
      r = arith::DivFOp::create(builder_, l, x, y);
      break;
    case BinOpKind::FloorDiv:
      r = math::FloorOp::create(builder_, l, arith::DivFOp::create(builder_, l, x, y));
      break;
    case BinOpKind::Mod: {
      // Python's sign convention: the result takes the divisor's sign.
      Value m = arith::RemFOp::create(builder_, l, x, y);
      Value zero = splat(0.0, x.getType(), l);
      Value mNeg = arith::CmpFOp::create(builder_, l, arith::CmpFPredicate::OLT, m, zero);
      Value yNeg = arith::CmpFOp::create(builder_, l, arith::CmpFPredicate::OLT, y, zero);
      Value mNonZero = arith::CmpFOp::create(builder_, l, arith::CmpFPredicate::UNE, m, zero);
      Value fix = arith::AndIOp::create(builder_, l, mNonZero, arith::XOrIOp::create(builder_, l, mNeg, yNeg));
      r = arith::SelectOp::create(builder_, l, fix, arith::AddFOp::create(builder_, l, m, y), m);
      break;
    }
    case BinOpKind::Pow:
      if (b.isConstNumber() && b.numberAsDouble() == 2.0)
        r = arith::MulFOp::create(builder_, l, x, x);
      else
        r = math::PowFOp::create(builder_, l, x, y);
      break;
    default:
      break;
    }
  } else {
    // Unsigned integers compute on the same bits as signless values, with the unsigned
    // division, remainder (Python's floor semantics need no sign fix) and logical right
    // shift; the result gets the unsigned type back.
    bool isUnsigned = isUnsignedInteger(elt);
    Type resultType = x.getType();
    x = signless(x, l);
    y = signless(y, l);
    switch (op) {
    case BinOpKind::Add:
      r = arith::AddIOp::create(builder_, l, x, y);
      break;
    case BinOpKind::Sub:
      r = arith::SubIOp::create(builder_, l, x, y);
      break;
    case BinOpKind::Mult:
      r = arith::MulIOp::create(builder_, l, x, y);
      break;
    case BinOpKind::FloorDiv:
      r = isUnsigned ? Value(arith::DivUIOp::create(builder_, l, x, y))
                     : Value(arith::FloorDivSIOp::create(builder_, l, x, y));
      break;
    case BinOpKind::Mod: {
      if (isUnsigned) {
        r = arith::RemUIOp::create(builder_, l, x, y);
        break;
      }
      Value m = arith::RemSIOp::create(builder_, l, x, y);
      Value zero = constant(KValue::integer(0), x.getType(), l);
      Value mNeg = arith::CmpIOp::create(builder_, l, arith::CmpIPredicate::slt, m, zero);
      Value yNeg = arith::CmpIOp::create(builder_, l, arith::CmpIPredicate::slt, y, zero);
      Value mNonZero = arith::CmpIOp::create(builder_, l, arith::CmpIPredicate::ne, m, zero);
      Value fix = arith::AndIOp::create(builder_, l, mNonZero, arith::XOrIOp::create(builder_, l, mNeg, yNeg));
      r = arith::SelectOp::create(builder_, l, fix, arith::AddIOp::create(builder_, l, m, y), m);
      break;
    }
    case BinOpKind::Pow:
      if (b.isInt() && b.intValue() >= 0 && b.intValue() <= 8) {
        // Small constant exponents multiply out: x**2 is x*x.
        r = b.intValue() == 0 ? constant(KValue::integer(1), x.getType(), l) : x;
        for (int64_t i = 1; i < b.intValue(); ++i)
          r = arith::MulIOp::create(builder_, l, r, x);
      } else {
        r = math::IPowIOp::create(builder_, l, x, y);
      }
      break;
    case BinOpKind::BitAnd:
      r = arith::AndIOp::create(builder_, l, x, y);
      break;
    case BinOpKind::BitOr:
      r = arith::OrIOp::create(builder_, l, x, y);
      break;
    case BinOpKind::BitXor:
      r = arith::XOrIOp::create(builder_, l, x, y);
      break;
    case BinOpKind::LShift:
      r = arith::ShLIOp::create(builder_, l, x, y);
      break;
    case BinOpKind::RShift:
      r = isUnsigned ? Value(arith::ShRUIOp::create(builder_, l, x, y))
                     : Value(arith::ShRSIOp::create(builder_, l, x, y));
      break;
    default:
      break;
    }
    if (r)
      r = withType(r, resultType, l);
  }
  return r ? KValue::runtime(r) : KValue::error();
}

KValue KernelIRGen::compare(CmpOpKind op, const Arg &lhs, const Arg &rhs, SourceRange opRange) {
  const KValue &a = lhs.value, &b = rhs.value;
  if (a.isError() || b.isError())
    return KValue::error();
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    bool same = (a.isNone() && b.isNone()) || (a.isDType() && b.isDType() && a.dtypeValue() == b.dtypeValue());
    if (!(a.isNone() || b.isNone() || (a.isDType() && b.isDType()))) {
      error(opRange, "'is' compares only with None or between dtypes");
      return KValue::error();
    }
    return KValue::boolean(op == CmpOpKind::Is ? same : !same);
  }
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
    if (!b.isTuple()) {
      error(opRange, "'in' needs a compile-time tuple on the right, got " + describe(b));
      return KValue::error();
    }
    bool found = false;
    for (const KValue &e : b.elements()) {
      KValue eq = compare(CmpOpKind::Eq, lhs, {e, rhs.range}, opRange);
      if (eq.isBool() && eq.boolValue())
        found = true;
    }
    return KValue::boolean(op == CmpOpKind::In ? found : !found);
  }
  // Tuples (shapes) compare element by element at compile time.
  if (a.isTuple() && b.isTuple() && (op == CmpOpKind::Eq || op == CmpOpKind::NotEq)) {
    bool eq = a.elements().size() == b.elements().size();
    for (size_t i = 0; eq && i < a.elements().size(); ++i) {
      KValue e = compare(CmpOpKind::Eq, {a.elements()[i], lhs.range}, {b.elements()[i], rhs.range}, opRange);
      if (!e.isBool()) {
        if (!e.isError())
          error(opRange, "tuples can only be compared when their elements are compile-time values");
        return KValue::error();
      }
      eq = e.boolValue();
    }
    return KValue::boolean(op == CmpOpKind::Eq ? eq : !eq);
  }
  // dtypes and strings compare at compile time.
  if ((a.isDType() && b.isDType()) || (a.isStr() && b.isStr())) {
    bool eq = a.isDType() ? a.dtypeValue() == b.dtypeValue() : a.name() == b.name();
    if (op == CmpOpKind::Eq)
      return KValue::boolean(eq);
    if (op == CmpOpKind::NotEq)
      return KValue::boolean(!eq);
  }
  if (a.isConstNumber() && b.isConstNumber()) {
    // Ints compare exactly (no rounding through double); anything with a float as doubles.
    auto cmp = [op](auto x, auto y) {
      switch (op) {
      case CmpOpKind::Eq:
        return x == y;
      case CmpOpKind::NotEq:
        return x != y;
      case CmpOpKind::Lt:
        return x < y;
      case CmpOpKind::LtE:
        return x <= y;
      case CmpOpKind::Gt:
        return x > y;
      default:
        return x >= y;
      }
    };
    bool r =
        (!a.isFloat() && !b.isFloat()) ? cmp(a.intValue(), b.intValue()) : cmp(a.numberAsDouble(), b.numberAsDouble());
    return KValue::boolean(r);
  }
  for (const Arg *x : {&lhs, &rhs})
    if (!(x->value.isConstNumber() || x->value.isScalar() || x->value.isTile())) {
      error(x->range, std::string("cannot compare ") + describe(x->value) + " with '" + spelling(op) + "'");
      return KValue::error();
    }
  Type elt = promote(lhs, rhs, opRange);
  auto shape = broadcastShapes(lhs, rhs, opRange);
  if (!elt || !shape)
    return KValue::error();
  bool anyTile = lhs.value.isTile() || rhs.value.isTile();
  Value x = coerce(lhs, elt, *shape, opRange, anyTile), y = coerce(rhs, elt, *shape, opRange, anyTile);
  if (!x || !y)
    return KValue::error();
  Location l = loc(opRange);
  if (isFloatLike(elt)) {
    arith::CmpFPredicate p;
    switch (op) {
    case CmpOpKind::Eq:
      p = arith::CmpFPredicate::OEQ;
      break;
    case CmpOpKind::NotEq:
      p = arith::CmpFPredicate::UNE;
      break;
    case CmpOpKind::Lt:
      p = arith::CmpFPredicate::OLT;
      break;
    case CmpOpKind::LtE:
      p = arith::CmpFPredicate::OLE;
      break;
    case CmpOpKind::Gt:
      p = arith::CmpFPredicate::OGT;
      break;
    default:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    return KValue::runtime(arith::CmpFOp::create(builder_, l, p, x, y));
  }
  bool u = isUnsignedInteger(elt);
  arith::CmpIPredicate p;
  switch (op) {
  case CmpOpKind::Eq:
    p = arith::CmpIPredicate::eq;
    break;
  case CmpOpKind::NotEq:
    p = arith::CmpIPredicate::ne;
    break;
  case CmpOpKind::Lt:
    p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CmpOpKind::LtE:
    p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CmpOpKind::Gt:
    p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  default:
    p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return KValue::runtime(arith::CmpIOp::create(builder_, l, p, signless(x, l), signless(y, l)));
}

} // namespace tile::frontend
