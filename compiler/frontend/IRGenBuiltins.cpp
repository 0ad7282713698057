// Calling a built-in, and the built-ins that are not computations on tile values.
//
// This file: argument binding (`bind`) and the checked argument accessors every built-in uses
// (constInt, constShape, axisArg, dtypeArg, toTile, ...); `callBuiltin`, which dispatches a
// `ct.*` (or Python) name to its family; and the families that touch the grid, memory or the
// compiler itself: builtinMemory (bid, num_blocks, cdiv, num_tiles, load, store, gather,
// scatter, atomic_add) and builtinMisc (dict/Config, static_assert, print/printf, len, int,
// float, bool, min, max, abs).
//
// IRGenBuiltinOps.cpp: the built-ins that compute on tiles (math, reductions and scans,
// creation, shape and matrix ops).

#include "compiler/frontend/IRGen.h"

#include <cctype>
#include <cstdlib>
#include <limits>

#include "dialect/TileDialect.h"
#include "dialect/TileTraits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
  if (name == "ct.item") {
    if (!args.positional.empty() && args.positional[0].value.isTile() && args.positional.size() == 1 &&
        args.keywords.empty()) {
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
    error(args.callRange, "item() takes no arguments");
    return KValue::error();
  }
  bool handled = true;
  KValue r = builtinNamed(name, args, handled);
  if (handled)
    return r;
  handled = true; // builtinMisc clears it when it does not know the name
  r = builtinMisc(name, args, handled);
  if (handled)
    return r;
  static const char *memory[] = {"ct.bid",        "ct.num_blocks",  "ct.cdiv",       "ct.num_tiles",
                                 "ct.load",       "ct.store",       "ct.gather",     "ct.scatter",
                                 "ct.atomic_add", "ct.atomic_xchg", "ct.atomic_max", "ct.atomic_min",
                                 "ct.atomic_and", "ct.atomic_or",   "ct.atomic_xor", "ct.atomic_cas"};
  for (const char *m : memory)
    if (name == m)
      return builtinMemory(name, args);
  if (name == "ct.reduce" || name == "ct.scan")
    return builtinReduceWith(name, args);
  static const char *reduce[] = {"ct.sum",    "ct.max",    "ct.min",    "ct.prod",
                                 "ct.argmax", "ct.argmin", "ct.cumsum", "ct.cumprod"};
  for (const char *m : reduce)
    if (name == m)
      return builtinReduce(name, args);
  static const char *shape[] = {"ct.arange",  "ct.full",      "ct.zeros",        "ct.ones",        "ct.reshape",
                                "ct.permute", "ct.transpose", "ct.broadcast_to", "ct.expand_dims", "ct.cat",
                                "ct.extract", "ct.mma",       "ct.matmul"};
  for (const char *m : shape)
    if (name == m)
      return builtinShape(name, args);
  return builtinMath(name, args);
}

//===----------------------------------------------------------------------===//
// Grid and memory
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

KValue KernelIRGen::builtinMemory(const std::string &name, const CallArgs &args) {
  Bound b;
  Location l = loc(args.callRange);
  if (name == "ct.bid" || name == "ct.num_blocks") {
    if (!bind(args, {"axis"}, b))
      return KValue::error();
    auto axis = constInt(*b.get("axis"), "the grid axis");
    if (!axis)
      return KValue::error();
    if (*axis < 0 || *axis > 2) {
      error(b.get("axis")->range, "grid axis " + std::to_string(*axis) + " is out of range; a grid has axes 0, 1, 2");
      return KValue::error();
    }
    Value v =
        name == "ct.bid"
            ? Value(mlir::tile::BlockIdOp::create(builder_, l, builder_.getI32Type(), static_cast<uint32_t>(*axis)))
            : Value(mlir::tile::NumBlocksOp::create(builder_, l, builder_.getI32Type(), static_cast<uint32_t>(*axis)));
    return KValue::runtime(v);
  }
  if (name == "ct.cdiv") {
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
  if (name == "ct.num_tiles") {
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
  if (name == "ct.load" || name == "ct.store") {
    bool isLoad = name == "ct.load";
    bool ok = isLoad ? bind(args, {"array", "index", "shape", "order?", "padding_mode?", "latency?", "allow_tma?"}, b)
                     : bind(args, {"array", "index", "tile", "order?", "latency?", "allow_tma?"}, b);
    if (!ok || !expectArray(*b.get("array"), "the 'array' argument"))
      return KValue::error();
    Value arrayValue = b.get("array")->value.value();
    auto array = cast<mlir::tile::ArrayType>(arrayValue.getType());
    SmallVector<Value> indices;
    std::vector<Arg> idx = indexList(*b.get("index"));
    for (const Arg &i : idx) {
      Value v = indexScalar(i, "a tile index");
      if (!v)
        return KValue::error();
      indices.push_back(v);
    }
    if (static_cast<int64_t>(indices.size()) != array.getRank()) {
      error(b.get("index")->range, "the index has " + std::to_string(indices.size()) +
                                       (indices.size() == 1 ? " entry" : " entries") + " but the array has rank " +
                                       std::to_string(array.getRank()));
      return KValue::error();
    }
    DenseI32ArrayAttr order;
    if (const Arg *o = b.get("order")) {
      SmallVector<int32_t> perm;
      for (const Arg &e : indexList(*o)) {
        auto v = constInt(e, "order");
        if (!v)
          return KValue::error();
        perm.push_back(static_cast<int32_t>(*v));
      }
      order = builder_.getDenseI32ArrayAttr(perm);
    }
    IntegerAttr latency;
    if (!latencyHint(b.get("latency"), latency))
      return KValue::error();
    BoolAttr allowTma;
    if (const Arg *t = b.get("allow_tma")) {
      if (!t->value.isBool()) {
        error(t->range, "allow_tma must be True or False, got " + describe(t->value));
        return KValue::error();
      }
      allowTma = builder_.getBoolAttr(t->value.boolValue());
    }
    if (isLoad) {
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
      auto op = mlir::tile::LoadOp::create(builder_, l, type, arrayValue, indices, padding, order, latency, allowTma);
      if (!verifyBuilt(op, args.callRange, "ct.load"))
        return KValue::error();
      if (scalarTile)
        return KValue::runtime(mlir::tile::ReshapeOp::create(
            builder_, l, RankedTensorType::get({}, array.getElementType()), op.getResult()));
      return KValue::runtime(op);
    }
    const Arg &t = *b.get("tile");
    if (!expectTile(t, "the stored value"))
      return KValue::error();
    Value stored = storedAs(t, array.getElementType(), "ct.store: the tile");
    if (!stored)
      return KValue::error();
    auto op = mlir::tile::StoreOp::create(builder_, l, stored, arrayValue, indices, order, latency, allowTma);
    if (!verifyBuilt(op, args.callRange, "ct.store"))
      return KValue::error();
    return KValue::none();
  }
  // gather / scatter / atomic_add: element indices (one integer tile per array dimension),
  // broadcast together with the mask and the value.
  bool isGather = name == "ct.gather";
  bool isCas = name == "ct.atomic_cas";
  bool isAtomic = name.rfind("ct.atomic_", 0) == 0;
  bool ok =
      isGather ? bind(args, {"array", "indices", "mask?", "padding_value?", "check_bounds?", "latency?"}, b)
      : isCas  ? bind(args,
                      {"array", "indices", "expected", "desired", "mask?", "check_bounds?", "memory_order?",
                       "memory_scope?"},
                      b)
      : isAtomic
          ? bind(args, {"array", "indices", "update", "mask?", "check_bounds?", "memory_order?", "memory_scope?"}, b)
          : bind(args, {"array", "indices", "value", "mask?", "check_bounds?", "latency?"}, b);
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
  const Arg *value = isGather ? nullptr : b.get(name == "ct.scatter" ? "value" : isCas ? "desired" : "update");
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
  if (name == "ct.scatter") {
    auto op = mlir::tile::ScatterOp::create(builder_, l, v, arrayValue, indexTiles, maskTile);
    if (!verifyBuilt(op, args.callRange, name))
      return KValue::error();
    return KValue::none();
  }
  const Arg *orderArg = b.get("memory_order"), *scopeArg = b.get("memory_scope");
  if (name == "ct.atomic_add" && !orderArg && !scopeArg) {
    auto op = mlir::tile::AtomicAddOp::create(builder_, l, v.getType(), v, arrayValue, indexTiles, maskTile);
    if (!verifyBuilt(op, args.callRange, name))
      return KValue::error();
    return KValue::runtime(asResult(op));
  }
  // cuTile's defaults: acq_rel at device scope.
  std::string order = "acq_rel", scope = "device";
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
      return KValue::error();
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
      return KValue::error();
    }
  }
  Operation *op;
  if (isCas) {
    Value e = coerce(*expected, array.getElementType(), shape, expected->range);
    if (!e)
      return KValue::error();
    op = mlir::tile::AtomicCASOp::create(builder_, l, v.getType(), e, v, arrayValue, indexTiles, maskTile,
                                         builder_.getStringAttr(order), builder_.getStringAttr(scope));
  } else {
    if ((name == "ct.atomic_max" || name == "ct.atomic_min") && isUnsignedInteger(array.getElementType())) {
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

KValue KernelIRGen::builtinMisc(const std::string &name, const CallArgs &args, bool &handled) {
  Bound b;
  Location l = loc(args.callRange);
  if (name == "dict" || name == "ct.Config") {
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
  if (name == "ct.static_eval" || name == "ct.ensure_constant") {
    // static_eval(expr): the expression's value at compile time (the front end folds constant
    // expressions anyway); ensure_constant(x): x, refused unless it is such a value.
    if (!bind(args, {"x"}, b))
      return KValue::error();
    const Arg &x = *b.get("x");
    if (!isCompileTime(x.value)) {
      error(x.range, name + " needs a compile-time value, got " + describe(x.value));
      return KValue::error();
    }
    return x.value;
  }
  if (name == "ct.assume_divisible_by") {
    // A hint that an integer is a multiple of `divisor`: the code generated does not depend on
    // it, so the value passes through; the divisor must be a positive compile-time integer.
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
  if (name == "ct.static_assert") {
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
  if (name == "ct.printf" || name == "ct.print" || name == "print") {
    std::string format;
    std::vector<Arg> values = args.positional;
    // print(..., sep=" ", end="\n") as in Python; printf takes no keywords.
    std::string sep = " ", end = "\n";
    auto escape = [](const std::string &text) {
      std::string escaped;
      for (char ch : text)
        escaped += ch == '%' ? std::string("%%") : std::string(1, ch);
      return escaped;
    };
    for (const auto &[key, arg] : args.keywords) {
      if (name == "ct.printf" || (key != "sep" && key != "end")) {
        error(arg.range, args.callee + "() got an unexpected keyword argument '" + key + "'" +
                             (name == "ct.printf" ? "" : " (print takes sep= and end=)"));
        return KValue::error();
      }
      if (!arg.value.isStr() && !arg.value.isNone()) {
        error(arg.range, key + " must be a string constant, got " + describe(arg.value));
        return KValue::error();
      }
      if (arg.value.isStr())
        (key == "sep" ? sep : end) = arg.value.name();
    }
    if (name == "ct.printf") {
      if (values.empty() || !values[0].value.isStr()) {
        error(args.callRange, "ct.printf needs a format string as its first argument");
        return KValue::error();
      }
      format = values[0].value.name();
      values.erase(values.begin());
    } else {
      for (size_t i = 0; i < values.size(); ++i) {
        const KValue &v = values[i].value;
        format += i ? escape(sep) : "";
        if (v.isStr())
          format += escape(v.name());
        else
          format += v.isRuntime() ? conversionFor(v.elementType()) : conversionFor(defaultType(v));
      }
      format += escape(end);
      std::vector<Arg> kept;
      for (const Arg &a : values)
        if (!a.value.isStr())
          kept.push_back(a);
      values = kept;
    }
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
    auto op = mlir::tile::PrintOp::create(builder_, l, builder_.getStringAttr(format), operands);
    if (!verifyBuilt(op, args.callRange, name))
      return KValue::error();
    return KValue::none();
  }
  if (name == "len") {
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
  if (name == "int" || name == "float" || name == "bool") {
    if (!bind(args, {"x"}, b))
      return KValue::error();
    const Arg &x = *b.get("x");
    if (name == "float" && x.value.isStr()) { // float("inf"), float("-inf"), float("nan")
      std::string text;
      for (char ch : x.value.name())
        if (ch != ' ')
          text += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      bool neg = !text.empty() && text[0] == '-';
      std::string body = text.substr(!text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0);
      double inf = std::numeric_limits<double>::infinity();
      if (body == "inf" || body == "infinity")
        return KValue::floating(neg ? -inf : inf);
      if (body == "nan")
        return KValue::floating(std::numeric_limits<double>::quiet_NaN());
      char *end = nullptr;
      double v = std::strtod(text.c_str(), &end);
      if (!text.empty() && end && *end == '\0')
        return KValue::floating(v);
      error(x.range, "float() cannot convert the string '" + x.value.name() + "'");
      return KValue::error();
    }
    if (x.value.isConstNumber()) {
      if (name == "int")
        return KValue::integer(static_cast<int64_t>(x.value.numberAsDouble()));
      if (name == "float")
        return KValue::floating(x.value.numberAsDouble());
      return KValue::boolean(x.value.numberAsDouble() != 0);
    }
    if (!x.value.isScalar()) {
      error(x.range, name + "() needs a scalar, got " + describe(x.value));
      return KValue::error();
    }
    Type to = name == "int"     ? builder_.getI32Type()
              : name == "float" ? Type(builder_.getF32Type())
                                : builder_.getI1Type();
    return KValue::runtime(castElements(x.value.value(), to, l));
  }
  if (name == "min" || name == "max" || name == "abs") {
    if (name == "abs") {
      if (!bind(args, {"x"}, b))
        return KValue::error();
      CallArgs c = args;
      c.callee = "ct.abs";
      return builtinMath("ct.abs", c);
    }
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
      KValue r = builtinMath(name == "min" ? "ct.minimum" : "ct.maximum", pair);
      if (r.isError())
        return r;
      acc = {r, args.callRange};
    }
    return acc.value;
  }
  handled = false;
  return KValue::error();
}

} // namespace tile::frontend
