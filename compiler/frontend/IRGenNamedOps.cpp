// cuTile's named operator functions (ct.add, ct.truediv, ct.less, ct.bitwise_and, ...), their
// rounding_mode / flush_to_zero options, ct.isnan, ct.assert_, ct.ByTarget and the grid
// dependency controls (programmatic dependent launch).

#include "compiler/frontend/Builtins.h"

#include "dialect/TileDialect.h"
#include "runtime/GpuArch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;

namespace tile::frontend {

namespace {

const std::pair<const char *, BinOpKind> kBinary[] = {{"ct.add", BinOpKind::Add},
                                                      {"ct.sub", BinOpKind::Sub},
                                                      {"ct.mul", BinOpKind::Mult},
                                                      {"ct.truediv", BinOpKind::Div},
                                                      {"ct.floordiv", BinOpKind::FloorDiv},
                                                      {"ct.mod", BinOpKind::Mod},
                                                      {"ct.bitwise_and", BinOpKind::BitAnd},
                                                      {"ct.bitwise_or", BinOpKind::BitOr},
                                                      {"ct.bitwise_xor", BinOpKind::BitXor},
                                                      {"ct.bitwise_lshift", BinOpKind::LShift},
                                                      {"ct.bitwise_rshift", BinOpKind::RShift}};

const std::pair<const char *, CmpOpKind> kCompare[] = {
    {"ct.equal", CmpOpKind::Eq},       {"ct.not_equal", CmpOpKind::NotEq}, {"ct.less", CmpOpKind::Lt},
    {"ct.less_equal", CmpOpKind::LtE}, {"ct.greater", CmpOpKind::Gt},      {"ct.greater_equal", CmpOpKind::GtE}};

} // namespace

const char *const kCtNamedOps[] = {"add",
                                   "sub",
                                   "mul",
                                   "truediv",
                                   "floordiv",
                                   "mod",
                                   "bitwise_and",
                                   "bitwise_or",
                                   "bitwise_xor",
                                   "bitwise_lshift",
                                   "bitwise_rshift",
                                   "bitwise_not",
                                   "negative",
                                   "equal",
                                   "not_equal",
                                   "less",
                                   "less_equal",
                                   "greater",
                                   "greater_equal",
                                   "isnan",
                                   "assert_",
                                   "ByTarget",
                                   "divmod",
                                   "grid_dependency_control_wait",
                                   "grid_dependency_control_launch_dependents",
                                   nullptr};

bool KernelIRGen::stripNumericOptions(CallArgs &args) {
  std::vector<std::pair<std::string, Arg>> kept;
  for (auto &[name, arg] : args.keywords) {
    if (name == "flush_to_zero") {
      // Permission to flush subnormals to zero: the element-wise math functions then take the
      // .ftz instructions on the GPU (kFlushToZeroAttr); elsewhere the IEEE result is allowed.
      if (!arg.value.isBool()) {
        error(arg.range, "flush_to_zero must be a constant True or False, got " + describe(arg.value));
        return false;
      }
      args.flushToZero |= arg.value.boolValue();
      continue;
    }
    if (name == "rounding_mode") {
      if (arg.value.isNone())
        continue;
      const std::string prefix = "ct.RoundingMode.";
      if (arg.value.kind() != KValue::Kind::Namespace || arg.value.name().rfind(prefix, 0) != 0) {
        error(arg.range, "rounding_mode must be a ct.RoundingMode, got " + describe(arg.value));
        return false;
      }
      std::string mode = arg.value.name().substr(prefix.size());
      // RN is what tile-cc computes; FULL and APPROX allow less precise results than that.
      if (mode != "RN" && mode != "FULL" && mode != "APPROX") {
        error(arg.range, "rounding_mode=RoundingMode." + mode +
                             " is not supported (tile-cc rounds to nearest even; RN, FULL and APPROX are accepted)");
        return false;
      }
      continue;
    }
    kept.push_back({name, arg});
  }
  args.keywords = std::move(kept);
  return true;
}

KValue KernelIRGen::builtinBinary(const std::string &name, const CallArgs &args, BinOpKind op) {
  Bound b;
  if (!bind(args, {"x", "y"}, b))
    return KValue::error();
  return binary(op, *b.get("x"), *b.get("y"), args.callRange);
}

KValue KernelIRGen::builtinCompare(const std::string &name, const CallArgs &args, CmpOpKind op) {
  Bound b;
  if (!bind(args, {"x", "y"}, b))
    return KValue::error();
  return compare(op, *b.get("x"), *b.get("y"), args.callRange);
}

KValue KernelIRGen::builtinDivmod(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x", "y"}, b))
    return KValue::error();
  KValue q = binary(BinOpKind::FloorDiv, *b.get("x"), *b.get("y"), args.callRange);
  KValue r = binary(BinOpKind::Mod, *b.get("x"), *b.get("y"), args.callRange);
  if (q.isError() || r.isError())
    return KValue::error();
  return KValue::tuple({q, r});
}

KValue KernelIRGen::builtinNegative(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x"}, b))
    return KValue::error();
  return binary(BinOpKind::Sub, {KValue::integer(0), args.callRange}, *b.get("x"), args.callRange);
}

KValue KernelIRGen::builtinBitwiseNot(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  if (x.value.isInt())
    return KValue::integer(~x.value.intValue());
  if ((x.value.isTile() || x.value.isScalar()) && isa<IntegerType>(x.value.elementType()))
    return binary(BinOpKind::BitXor, x,
                  {x.value.elementType().isInteger(1) ? KValue::boolean(true) : KValue::integer(-1), args.callRange},
                  args.callRange);
  error(x.range, "bitwise_not() needs integers or booleans, got " + describe(x.value));
  return KValue::error();
}

KValue KernelIRGen::builtinIsnan(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"x"}, b))
    return KValue::error();
  const Arg &x = *b.get("x");
  if (x.value.isConstNumber())
    return KValue::boolean(x.value.isFloat() && std::isnan(x.value.floatValue()));
  if (!(x.value.isTile() || x.value.isScalar())) {
    error(x.range, "isnan() needs a number, a scalar or a tile, got " + describe(x.value));
    return KValue::error();
  }
  Location l = loc(args.callRange);
  Value v = x.value.value();
  if (!isa<FloatType>(x.value.elementType())) { // integers are never NaN
    Value f = constant(KValue::boolean(false), builder_.getI1Type(), l);
    return KValue::runtime(x.value.isTile() ? broadcastValue(f, x.value.shape(), l) : f);
  }
  return KValue::runtime(arith::CmpFOp::create(builder_, l, arith::CmpFPredicate::UNO, v, v));
}

KValue KernelIRGen::builtinGridDependency(const std::string &name, const CallArgs &args,
                                          mlir::tile::GridDependencyAction action) {
  Bound b;
  if (!bind(args, {}, b))
    return KValue::error();
  mlir::tile::GridDependencyControlOp::create(builder_, loc(args.callRange), action);
  return KValue::none();
}

KValue KernelIRGen::builtinAssert(const std::string &name, const CallArgs &args) {
  Bound b;
  if (!bind(args, {"cond", "message?"}, b))
    return KValue::error();
  const Arg &c = *b.get("cond");
  std::string message = "assertion failed";
  if (const Arg *m = b.get("message")) {
    if (!m->value.isStr()) {
      error(m->range, "the assert_ message must be a string constant");
      return KValue::error();
    }
    message = m->value.name();
  }
  if (auto truth = constTruth(c.value)) {
    if (!*truth)
      error(c.range, "assertion failed at compile time: " + message);
    return KValue::none();
  }
  Value cond = c.value.isTile() && c.value.elementType().isInteger(1) ? c.value.value() : runtimeCondition(c);
  if (!cond)
    return KValue::error();
  auto op = mlir::tile::AssertOp::create(builder_, loc(args.callRange), cond, builder_.getStringAttr(message));
  if (!verifyBuilt(op, args.callRange, "assert_"))
    return KValue::error();
  return KValue::none();
}

// ByTarget(sm_100=2, default=1): the value for this target ("sm_90a" also matches sm_90), else
// the default, else None (the option keeps its own default).
KValue KernelIRGen::builtinByTarget(const std::string &name, const CallArgs &args) {
  if (!args.positional.empty()) {
    error(args.positional[0].range, "ct.ByTarget takes keyword arguments only (sm_XX=value, default=value)");
    return KValue::error();
  }
  std::string base = arch_;
  if (!base.empty() && base.back() == 'a')
    base.pop_back();
  const Arg *exact = nullptr, *family = nullptr, *fallback = nullptr;
  for (const auto &[key, arg] : args.keywords) {
    if (key == "default")
      fallback = &arg;
    else if (!rt::GpuArch::parse(key)) {
      error(arg.range, "ct.ByTarget keys are architectures like sm_90 or sm_100, or 'default'; got '" + key + "'");
      return KValue::error();
    } else if (key == arch_)
      exact = &arg;
    else if (key == base)
      family = &arg;
  }
  const Arg *chosen = exact ? exact : family ? family : fallback;
  return chosen ? chosen->value : KValue::none();
}

void KernelIRGen::registerNamedBuiltins(BuiltinTable &t) {
  for (auto &[name, op] : kBinary)
    t.add(name, &KernelIRGen::builtinBinary, op);
  for (auto &[name, op] : kCompare)
    t.add(name, &KernelIRGen::builtinCompare, op);
  t.add("ct.divmod", &KernelIRGen::builtinDivmod);
  t.add("ct.negative", &KernelIRGen::builtinNegative);
  t.add("ct.bitwise_not", &KernelIRGen::builtinBitwiseNot);
  t.add("ct.isnan", &KernelIRGen::builtinIsnan);
  t.add("ct.grid_dependency_control_wait", &KernelIRGen::builtinGridDependency, mlir::tile::GridDependencyAction::wait);
  t.add("ct.grid_dependency_control_launch_dependents", &KernelIRGen::builtinGridDependency,
        mlir::tile::GridDependencyAction::launch_dependents);
  t.add("ct.assert_", &KernelIRGen::builtinAssert);
  t.add("ct.ByTarget", &KernelIRGen::builtinByTarget);
}

} // namespace tile::frontend
