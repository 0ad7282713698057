// Calling a built-in, and the built-ins that are not computations on tile values.
//
// This file: argument binding (`bind`) and the checked argument accessors every built-in uses
// (constInt, constShape, axisArg, dtypeArg, toTile, ...); `callBuiltin`, which looks a `ct.*`
// (or Python) name up in the built-in table (Builtins.h); and the compile-time and Python
// built-ins: dict/Config, static_eval, static_assert, print/printf, len, int, float, bool, min,
// max, abs, item.
//
// The other families: IRGenMemoryOps.cpp (the grid and memory), IRGenBuiltinOps.cpp (math,
// reductions and scans), IRGenShapeOps.cpp (creation, shapes and matrix products),
// IRGenNamedOps.cpp (the named operators).

#include "compiler/frontend/Builtins.h"

#include <cctype>
#include <cstdlib>
#include <limits>

#include "dialect/TileDialect.h"
#include "dialect/TileTraits.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tile::frontend {

//===----------------------------------------------------------------------===//
// Argument binding
//===----------------------------------------------------------------------===//

bool KernelIRGen::bind(const CallArgs &args, ArrayRef<const char *> params, Bound &out) {
  std::vector<std::string> names;
  std::vector<bool> optional;
  for (const char *p : params) {
    std::string n = p;
    bool opt = !n.empty() && n.back() == '?';
    if (opt)
      n.pop_back();
    names.push_back(n);
    optional.push_back(opt);
  }
  const std::string &fn = args.callee;
  if (args.positional.size() > names.size()) {
    // Count as the user wrote the call: a method's tile is not among its arguments.
    size_t implicit = args.hasSelf ? 1 : 0;
    size_t most = names.size() - implicit, given = args.positional.size() - implicit;
    error(args.positional[names.size()].range, fn + "() takes at most " + std::to_string(most) +
                                                   " positional argument" + (most == 1 ? "" : "s") + " (" +
                                                   std::to_string(given) + " given)");
    return false;
  }
  for (size_t i = 0; i < args.positional.size(); ++i)
    out.args[names[i]] = args.positional[i];
  for (const auto &[name, arg] : args.keywords) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      std::string expected;
      for (const std::string &n : names)
        expected += (expected.empty() ? "" : ", ") + n;
      error(arg.range, fn + "() got an unexpected keyword argument '" + name + "' (parameters: " + expected + ")");
      return false;
    }
    if (out.args.count(name)) {
      error(arg.range, fn + "() got multiple values for argument '" + name + "'");
      return false;
    }
    out.args[name] = arg;
  }
  for (size_t i = 0; i < names.size(); ++i)
    if (!optional[i] && !out.args.count(names[i])) {
      error(args.callRange, fn + "() is missing required argument '" + names[i] + "'");
      return false;
    }
  // An explicit None is the same as leaving an optional argument out.
  for (size_t i = 0; i < names.size(); ++i)
    if (optional[i])
      if (auto it = out.args.find(names[i]); it != out.args.end() && it->second.value.isNone())
        out.args.erase(it);
  return true;
}

//===----------------------------------------------------------------------===//
// Checked accessors
//===----------------------------------------------------------------------===//

std::optional<int64_t> KernelIRGen::constInt(const Arg &a, const std::string &what) {
  if (a.value.isInt())
    return a.value.intValue();
  if (!a.value.isError())
    error(a.range, what + " must be a compile-time integer, got " + describe(a.value));
  return std::nullopt;
}

std::optional<SmallVector<int64_t>> KernelIRGen::constShape(const Arg &a, const std::string &what) {
  SmallVector<int64_t> shape;
  auto add = [&](const KValue &v) {
    if (!v.isInt()) {
      error(a.range, what + " must be a tuple of compile-time integers, got " + describe(v));
      return false;
    }
    if (v.intValue() <= 0 || !llvm::isPowerOf2_64(v.intValue())) {
      error(a.range, what + " has dimension " + std::to_string(v.intValue()) +
                         ", which is not a power of two (tile dimensions must be powers of two)");
      return false;
    }
    shape.push_back(v.intValue());
    return true;
  };
  if (a.value.isTuple()) {
    for (const KValue &v : a.value.elements())
      if (!add(v))
        return std::nullopt;
  } else if (!add(a.value)) {
    return std::nullopt;
  }
  if (!checkTileSize(shape, a.range, what))
    return std::nullopt;
  return shape;
}

bool KernelIRGen::checkTileSize(ArrayRef<int64_t> shape, SourceRange where, const std::string &what) {
  std::optional<int64_t> count = mlir::tile::tileElementCount(shape);
  if (count && *count <= mlir::tile::kMaxTileElements)
    return true;
  std::string dims;
  for (int64_t d : shape)
    dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  error(where, what + " (" + dims + ") has " + (count ? std::to_string(*count) : std::string("more than 2^63")) +
                   " elements; a tile holds at most " + std::to_string(mlir::tile::kMaxTileElements) +
                   " (2^20): split the work into smaller tiles");
  return false;
}

std::optional<int32_t> KernelIRGen::axisArg(const Arg &a, int64_t rank, const std::string &what) {
  auto v = constInt(a, what);
  if (!v)
    return std::nullopt;
  int64_t axis = *v < 0 ? *v + rank : *v;
  if (axis < 0 || axis >= rank) {
    error(a.range, what + " " + std::to_string(*v) + " is out of range for a tile of rank " + std::to_string(rank));
    return std::nullopt;
  }
  return static_cast<int32_t>(axis);
}

std::optional<Type> KernelIRGen::dtypeArg(const Arg &a, const std::string &what) {
  if (a.value.isDType())
    return a.value.dtypeValue();
  if (a.value.kind() == KValue::Kind::Builtin &&
      (a.value.name() == "int" || a.value.name() == "float" || a.value.name() == "bool"))
    return a.value.name() == "int"     ? builder_.getI32Type()
           : a.value.name() == "float" ? Type(builder_.getF32Type())
                                       : Type(builder_.getI1Type());
  if (!a.value.isError())
    error(a.range, what + " must be a dtype such as ct.float32, got " + describe(a.value));
  return std::nullopt;
}

bool KernelIRGen::expectTile(const Arg &a, const std::string &what) {
  if (a.value.isTile())
    return true;
  if (!a.value.isError())
    error(a.range, what + " must be a tile, got " + describe(a.value));
  return false;
}

bool KernelIRGen::expectArray(const Arg &a, const std::string &what) {
  if (a.value.isArray())
    return true;
  if (!a.value.isError())
    error(a.range, what + " must be an array (a kernel argument), got " + describe(a.value));
  return false;
}

KernelIRGen::Arg KernelIRGen::scalarOf(const Arg &a) {
  if (!a.value.isTile() || !a.value.shape().empty())
    return a;
  return {KValue::runtime(tensor::ExtractOp::create(builder_, loc(a.range), a.value.value(), ValueRange{})), a.range};
}

bool KernelIRGen::latencyHint(const Arg *a, IntegerAttr &out) {
  if (!a)
    return true;
  auto v = constInt(*a, "latency");
  if (!v)
    return false;
  if (*v < 1 || *v > 10) {
    error(a->range, "latency " + std::to_string(*v) + " is out of range [1, 10]");
    return false;
  }
  out = builder_.getI32IntegerAttr(static_cast<int32_t>(*v));
  return true;
}

Value KernelIRGen::storedAs(const Arg &tile, Type arrayType, const std::string &what) {
  Type from = tile.value.elementType();
  if (from == arrayType)
    return tile.value.value();
  if (promoteRuntimeTypes(from, arrayType) == arrayType)
    return castElements(tile.value.value(), arrayType, loc(tile.range));
  std::string want, got;
  llvm::raw_string_ostream(want) << arrayType;
  llvm::raw_string_ostream(got) << from;
  error(tile.range, what + " has dtype " + got + " but the array has dtype " + want +
                        ", which it does not widen to; convert it with .astype(array.dtype)");
  return {};
}

Value KernelIRGen::indexScalar(const Arg &a, const std::string &what) {
  const KValue &v = a.value;
  Location l = loc(a.range);
  if (v.isInt())
    return constant(v, defaultType(v), l);
  if (v.isScalar() && isa<IntegerType>(v.elementType()) && !v.elementType().isInteger(1)) {
    unsigned w = v.elementType().getIntOrFloatBitWidth();
    return w < 32 ? castElements(v.value(), builder_.getI32Type(), l) : v.value();
  }
  if (v.isTile() && v.shape().empty() && isa<IntegerType>(v.elementType()))
    return indexScalar({KValue::runtime(tensor::ExtractOp::create(builder_, l, v.value(), ValueRange{})), a.range},
                       what);
  if (!v.isError())
    error(a.range, what + " must be an integer, got " + describe(v));
  return {};
}

Value KernelIRGen::toTile(const Arg &a, const std::string &what) {
  if (a.value.isTile())
    return a.value.value();
  if (a.value.isScalar())
    return broadcastValue(a.value.value(), {}, loc(a.range));
  if (a.value.isConstNumber())
    return constant(a.value, RankedTensorType::get({}, defaultType(a.value)), loc(a.range));
  if (!a.value.isError())
    error(a.range, what + " must be a tile, got " + describe(a.value));
  return {};
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

KValue KernelIRGen::callBuiltin(const std::string &name, const KValue *self, const CallArgs &argsIn) {
  if (self && (name == "array.tiled_view" || name.rfind("tiled_view.", 0) == 0))
    return callTiledView(name, *self, argsIn);
  CallArgs args = argsIn;
  if (self) {
    args.positional.insert(args.positional.begin(), {*self, args.callRange});
    args.callee = name.substr(3); // messages name the method as written: "astype()"
    args.hasSelf = true;
  }
  if (name == "ct.kernel" || name == "ct.function" || name == "ct.autotune") {
    error(args.callRange, name + " is a decorator, not a function to call inside a kernel");
    return KValue::error();
  }
  if (name.rfind("math.", 0) == 0 || name.rfind("numpy.", 0) == 0)
    return callHostModule(name, args);
  if (name == "range" || name == "ct.range" || name == "ct.static_iter") {
    error(args.callRange, (name == "ct.static_iter" ? std::string("ct.static_iter()") : std::string("range()")) +
                              " can only be used as the iterable of a for loop");
    return KValue::error();
  }
  if (!stripNumericOptions(args))
    return KValue::error();
  if (const BuiltinHandler *handler = builtinTable().lookup(name))
    return (*handler)(*this, name, args);
  // A name that evaluates to a built-in but that no family implements.
  error(args.callRange, "'" + name + "' is not a supported operation");
  return KValue::error();
}

//===----------------------------------------------------------------------===//
// Python builtins, static checks and printing
//===----------------------------------------------------------------------===//

// printf conversion for an element type.
static const char *conversionFor(Type t) {
  if (isa<FloatType>(t))
    return "%f";
  // Widths as tile.print's verifier checks them: 64-bit integers and index take %ll.
  const bool wide = t.isIndex() || t.getIntOrFloatBitWidth() > 32;
  if (isUnsignedInteger(t))
    return wide ? "%llu" : "%u";
  if (wide)
    return "%lld";
  return "%d";
}

// Compile-time values: the numbers, booleans, strings, dtypes and None the front end folds,
// and tuples of them.
static bool isCompileTime(const KValue &v) {
  if (v.isTuple())
    return llvm::all_of(v.elements(), isCompileTime);
  return v.isConstNumber() || v.isStr() || v.isDType() || v.isNone();
}

KValue KernelIRGen::builtinDict(const std::string &name, const CallArgs &args) {
  if (!args.positional.empty()) {
    error(args.positional[0].range, name + "() takes keyword arguments only");
    return KValue::error();
  }
  std::vector<std::string> keys;
  std::vector<KValue> values;
  for (const auto &[k, v] : args.keywords) {
    keys.push_back(k);
    values.push_back(v.value);
  }
  return KValue::dict(std::move(keys), std::move(values));
}

// static_eval(expr): the expression's value at compile time (the front end folds constant
// expressions anyway); ensure_constant(x): x, refused unless it is such a value.
KValue KernelIRGen::builtinStaticEval(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  if (!isCompileTime(x.value)) {
    error(x.range, name + " needs a compile-time value, got " + describe(x.value));
    return KValue::error();
  }
  return x.value;
}

// A hint that an integer is a multiple of `divisor`: the code generated does not depend on it,
// so the value passes through; the divisor must be a positive compile-time integer.
KValue KernelIRGen::builtinAssumeDivisibleBy(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x", "divisor"}, b))
    return KValue::error();
  const Arg &x = *b.get("x"), &d = *b.get("divisor");
  if (!d.value.isInt() || d.value.intValue() <= 0) {
    error(d.range, "ct.assume_divisible_by needs a positive compile-time integer divisor, got " + describe(d.value));
    return KValue::error();
  }
  if (!(x.value.isInt() || ((x.value.isScalar() || x.value.isTile()) && isa<IntegerType>(x.value.elementType())))) {
    error(x.range, "ct.assume_divisible_by needs an integer, got " + describe(x.value));
    return KValue::error();
  }
  if (x.value.isInt() && x.value.intValue() % d.value.intValue() != 0) {
    error(x.range, std::to_string(x.value.intValue()) + " is not divisible by " + std::to_string(d.value.intValue()));
    return KValue::error();
  }
  return x.value;
}

KValue KernelIRGen::builtinStaticAssert(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"condition", "message?"}, b))
    return KValue::error();
  const Arg &c = *b.get("condition");
  auto truth = constTruth(c.value);
  if (!truth) {
    error(c.range, "ct.static_assert needs a compile-time condition, got " + describe(c.value));
    return KValue::error();
  }
  if (!*truth) {
    std::string msg = "static assertion failed";
    if (const Arg *m = b.get("message"); m && m->value.isStr())
      msg += ": " + m->value.name();
    error(c.range, msg);
  }
  return KValue::none();
}

// ct.printf(format, values...): the format as written; it takes no keywords.
KValue KernelIRGen::builtinPrintf(const std::string &name, const CallArgs &args) {
  if (!args.keywords.empty()) {
    const auto &[key, arg] = args.keywords.front();
    error(arg.range, args.callee + "() got an unexpected keyword argument '" + key + "'");
    return KValue::error();
  }
  std::vector<Arg> values = args.positional;
  if (values.empty() || !values[0].value.isStr()) {
    error(args.callRange, "ct.printf needs a format string as its first argument");
    return KValue::error();
  }
  std::string format = values[0].value.name();
  values.erase(values.begin());
  return emitPrint(name, args, format, values);
}

// print(..., sep=" ", end="\n") as in Python: strings go into the format, values become
// conversions.
KValue KernelIRGen::builtinPrint(const std::string &name, const CallArgs &args) {
  std::string sep = " ", end = "\n";
  for (const auto &[key, arg] : args.keywords) {
    if (key != "sep" && key != "end") {
      error(arg.range,
            args.callee + "() got an unexpected keyword argument '" + key + "'" + " (print takes sep= and end=)");
      return KValue::error();
    }
    if (!arg.value.isStr() && !arg.value.isNone()) {
      error(arg.range, key + " must be a string constant, got " + describe(arg.value));
      return KValue::error();
    }
    if (arg.value.isStr())
      (key == "sep" ? sep : end) = arg.value.name();
  }
  auto escape = [](const std::string &text) {
    std::string escaped;
    for (char ch : text)
      escaped += ch == '%' ? std::string("%%") : std::string(1, ch);
    return escaped;
  };
  std::string format;
  std::vector<Arg> values;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    const KValue &v = args.positional[i].value;
    format += i ? escape(sep) : "";
    if (v.isStr()) {
      format += escape(v.name());
      continue;
    }
    format += v.isRuntime() ? conversionFor(v.elementType()) : conversionFor(defaultType(v));
    values.push_back(args.positional[i]);
  }
  format += escape(end);
  return emitPrint(name, args, format, values);
}

KValue KernelIRGen::emitPrint(const std::string &name, const CallArgs &args, const std::string &format,
                              const std::vector<Arg> &values) {
  SmallVector<Value> operands;
  for (const Arg &a : values) {
    if (a.value.isConstNumber())
      operands.push_back(constant(a.value, defaultType(a.value), loc(a.range)));
    else if (a.value.isScalar() || a.value.isTile())
      operands.push_back(a.value.value());
    else {
      error(a.range, "cannot print " + describe(a.value));
      return KValue::error();
    }
  }
  auto op = mlir::tile::PrintOp::create(builder_, loc(args.callRange), builder_.getStringAttr(format), operands);
  if (!verifyBuilt(op, args.callRange, name))
    return KValue::error();
  return KValue::none();
}

KValue KernelIRGen::builtinLen(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"obj"}, b))
    return KValue::error();
  const KValue &v = b.get("obj")->value;
  if (v.isTuple())
    return KValue::integer(static_cast<int64_t>(v.elements().size()));
  if (v.isTile() && !v.shape().empty())
    return KValue::integer(v.shape()[0]);
  error(b.get("obj")->range, "len() needs a tuple or a tile, got " + describe(v));
  return KValue::error();
}

// float("inf"), float("-inf"), float("nan") and decimal strings; nullopt (and a diagnostic)
// for other text.
static std::optional<double> floatFromString(const std::string &str) {
  std::string text;
  for (char ch : str)
    if (ch != ' ')
      text += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  bool neg = !text.empty() && text[0] == '-';
  std::string body = text.substr(!text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0);
  double inf = std::numeric_limits<double>::infinity();
  if (body == "inf" || body == "infinity")
    return neg ? -inf : inf;
  if (body == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (!text.empty() && end && *end == '\0')
    return v;
  return std::nullopt;
}

// int(x), float(x), bool(x): folded on numbers, a conversion of a run-time scalar.
KValue KernelIRGen::builtinPyNumber(const std::string &name, const CallArgs &args, PyNumber to) {
  Bound b;
  if (!bind(args, {"x"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  if (to == PyNumber::Float && x.value.isStr()) {
    if (std::optional<double> v = floatFromString(x.value.name()))
      return KValue::floating(*v);
    error(x.range, "float() cannot convert the string '" + x.value.name() + "'");
    return KValue::error();
  }
  if (x.value.isConstNumber()) {
    double v = x.value.numberAsDouble();
    return to == PyNumber::Int     ? KValue::integer(static_cast<int64_t>(v))
           : to == PyNumber::Float ? KValue::floating(v)
                                   : KValue::boolean(v != 0);
  }
  if (!x.value.isScalar()) {
    error(x.range, name + "() needs a scalar, got " + describe(x.value));
    return KValue::error();
  }
  Type type = to == PyNumber::Int     ? builder_.getI32Type()
              : to == PyNumber::Float ? Type(builder_.getF32Type())
                                      : builder_.getI1Type();
  return KValue::runtime(castElements(x.value.value(), type, loc(args.callRange)));
}

// abs(x): ct.abs under Python's name.
KValue KernelIRGen::builtinAbs(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x"}, b))
    return KValue::error();
  CallArgs c = args;
  c.callee = "ct.abs";
  return (*builtinTable().lookup("ct.abs"))(*this, "ct.abs", c);
}

KValue KernelIRGen::builtinPyMinMax(const std::string &name, const CallArgs &args, bool isMin) {
  if (args.positional.size() < 2 || !args.keywords.empty()) {
    error(args.callRange, name + "() needs two or more positional arguments");
    return KValue::error();
  }
  Arg acc = args.positional[0];
  for (size_t i = 1; i < args.positional.size(); ++i) {
    CallArgs pair;
    pair.positional = {acc, args.positional[i]};
    pair.callRange = args.callRange;
    pair.callee = name;
    const char *ct = isMin ? "ct.minimum" : "ct.maximum";
    KValue r = builtinBinaryMath(ct, pair, isMin ? BinaryMath::Minimum : BinaryMath::Maximum);
    if (r.isError())
      return r;
    acc = {r, args.callRange};
  }
  return acc.value;
}

// t.item(): a tile of one element as a 0-d tile.
KValue KernelIRGen::builtinItem(const std::string &name, const CallArgs &args) {
  if (args.positional.empty() || !args.positional[0].value.isTile() || args.positional.size() != 1 ||
      !args.keywords.empty()) {
    error(args.callRange, "item() takes no arguments");
    return KValue::error();
  }
  const Arg &x = args.positional[0];
  int64_t n = 1;
  for (int64_t d : x.value.shape())
    n *= d;
  if (n != 1) {
    error(args.callRange, "item() needs a tile of one element, got " + describe(x.value));
    return KValue::error();
  }
  auto type = RankedTensorType::get({}, x.value.elementType());
  if (type == x.value.value().getType())
    return x.value;
  return KValue::runtime(mlir::tile::ReshapeOp::create(builder_, loc(args.callRange), type, x.value.value()));
}

void KernelIRGen::registerMiscBuiltins(BuiltinTable &t) {
  t.add("dict", &KernelIRGen::builtinDict);
  t.add("ct.Config", &KernelIRGen::builtinDict);
  t.add("ct.static_eval", &KernelIRGen::builtinStaticEval);
  t.add("ct.ensure_constant", &KernelIRGen::builtinStaticEval);
  t.add("ct.assume_divisible_by", &KernelIRGen::builtinAssumeDivisibleBy);
  t.add("ct.static_assert", &KernelIRGen::builtinStaticAssert);
  t.add("ct.printf", &KernelIRGen::builtinPrintf);
  t.add("ct.print", &KernelIRGen::builtinPrint);
  t.add("print", &KernelIRGen::builtinPrint);
  t.add("len", &KernelIRGen::builtinLen);
  t.add("int", &KernelIRGen::builtinPyNumber, PyNumber::Int);
  t.add("float", &KernelIRGen::builtinPyNumber, PyNumber::Float);
  t.add("bool", &KernelIRGen::builtinPyNumber, PyNumber::Bool);
  t.add("abs", &KernelIRGen::builtinAbs);
  t.add("min", &KernelIRGen::builtinPyMinMax, true);
  t.add("max", &KernelIRGen::builtinPyMinMax, false);
  t.add("ct.item", &KernelIRGen::builtinItem);
}

} // namespace tile::frontend
