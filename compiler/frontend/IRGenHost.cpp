// Python's `math` and `numpy` as kernels use them (compile-time constants, dtypes and math on
// constants), `float("inf")`, and the names that host code set aside by the parser defines.

#include "compiler/frontend/IRGen.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tile::frontend {

namespace {

struct UnaryFn {
  const char *name;
  double (*fn)(double);
};

// Functions of one number shared by math and numpy (numpy's spelling where it differs).
const UnaryFn kUnary[] = {
    {"sqrt", [](double x) { return std::sqrt(x); }},   {"exp", [](double x) { return std::exp(x); }},
    {"exp2", [](double x) { return std::exp2(x); }},   {"expm1", [](double x) { return std::expm1(x); }},
    {"log", [](double x) { return std::log(x); }},     {"log2", [](double x) { return std::log2(x); }},
    {"log10", [](double x) { return std::log10(x); }}, {"log1p", [](double x) { return std::log1p(x); }},
    {"sin", [](double x) { return std::sin(x); }},     {"cos", [](double x) { return std::cos(x); }},
    {"tan", [](double x) { return std::tan(x); }},     {"tanh", [](double x) { return std::tanh(x); }},
    {"asin", [](double x) { return std::asin(x); }},   {"acos", [](double x) { return std::acos(x); }},
    {"atan", [](double x) { return std::atan(x); }},   {"fabs", [](double x) { return std::fabs(x); }},
};

// ct functions that compute the same thing on run-time values.
const char *ctEquivalent(const std::string &fn) {
  static const std::pair<const char *, const char *> map[] = {
      {"sqrt", "ct.sqrt"}, {"exp", "ct.exp"},         {"exp2", "ct.exp2"},       {"log", "ct.log"},
      {"log2", "ct.log2"}, {"sin", "ct.sin"},         {"cos", "ct.cos"},         {"tanh", "ct.tanh"},
      {"tan", "ct.tan"},   {"floor", "ct.floor"},     {"ceil", "ct.ceil"},       {"fabs", "ct.abs"},
      {"abs", "ct.abs"},   {"maximum", "ct.maximum"}, {"minimum", "ct.minimum"}, {"where", "ct.where"}};
  for (auto &[from, to] : map)
    if (fn == from)
      return to;
  return nullptr;
}

} // namespace

bool KernelIRGen::isHostModule(const std::string &ns, std::string &module) {
  if (ns == "extern:math" || ns == "extern:numpy" || ns == "extern:torch") {
    module = ns.substr(7);
    return true;
  }
  return false;
}

KValue KernelIRGen::hostModuleAttribute(const std::string &module, const AttributeExpr &e) {
  const std::string &attr = e.attr;
  const double inf = std::numeric_limits<double>::infinity();
  static const std::pair<const char *, double> constants[] = {{"pi", M_PI},
                                                              {"e", M_E},
                                                              {"tau", 2 * M_PI},
                                                              {"inf", std::numeric_limits<double>::infinity()},
                                                              {"nan", std::numeric_limits<double>::quiet_NaN()}};
  for (auto &[name, value] : constants)
    if (attr == name)
      return KValue::floating(value);
  if (module == "numpy" || module == "torch") {
    if (attr == "NINF")
      return KValue::floating(-inf);
    if (attr == "PINF" || attr == "Inf" || attr == "infty")
      return KValue::floating(inf);
    static const std::pair<const char *, const char *> dtypes[] = {
        {"bool_", "bool_"},   {"int8", "int8"},       {"int16", "int16"},     {"int32", "int32"},
        {"int64", "int64"},   {"uint8", "uint8"},     {"uint16", "uint16"},   {"uint32", "uint32"},
        {"uint64", "uint64"}, {"float16", "float16"}, {"float32", "float32"}, {"float64", "float64"},
        {"half", "float16"},  {"single", "float32"},  {"double", "float64"},  {"bfloat16", "bfloat16"},
        {"bool", "bool_"},    {"float", "float32"}};
    for (auto &[name, ours] : dtypes)
      if (attr == name) {
        if (Type t = dtypeFromName(ours))
          return KValue::dtype(t);
      }
  }
  if (module == "torch") {
    error(e.attrRange, "'torch." + attr + "' cannot be used inside kernels (only torch's dtypes and constants can)");
    return KValue::error();
  }
  for (const UnaryFn &f : kUnary)
    if (attr == f.name)
      return KValue::builtin(module + "." + attr);
  static const char *others[] = {"floor", "ceil",    "pow",     "isnan", "isinf", "isfinite",
                                 "abs",   "maximum", "minimum", "where", "log"};
  for (const char *o : others)
    if (attr == o)
      return KValue::builtin(module + "." + attr);
  error(e.attrRange, "'" + module + "." + attr + "' is not supported in kernels (tile-cc knows " + module +
                         "'s constants" + (module == "numpy" ? ", dtypes" : "") +
                         " and its math functions on compile-time numbers)");
  return KValue::error();
}

KValue KernelIRGen::callHostModule(const std::string &name, const CallArgs &args) {
  std::string module = name.substr(0, name.find('.'));
  std::string fn = name.substr(name.find('.') + 1);
  bool allConst = !args.positional.empty() && args.keywords.empty();
  for (const Arg &a : args.positional)
    allConst &= a.value.isConstNumber();
  if (allConst) {
    double x = args.positional[0].value.numberAsDouble();
    size_t n = args.positional.size();
    for (const UnaryFn &f : kUnary)
      if (fn == f.name && (n == 1 || (fn == "log" && n == 2)))
        return KValue::floating(n == 2 ? f.fn(x) / std::log(args.positional[1].value.numberAsDouble()) : f.fn(x));
    if ((fn == "floor" || fn == "ceil") && n == 1) {
      double r = fn == "floor" ? std::floor(x) : std::ceil(x);
      // math.floor returns an int; numpy.floor a float.
      if (module == "math" && std::isfinite(r) && std::fabs(r) < 9.2e18)
        return KValue::integer(static_cast<int64_t>(r));
      return KValue::floating(r);
    }
    if (fn == "pow" && n == 2)
      return KValue::floating(std::pow(x, args.positional[1].value.numberAsDouble()));
    if (fn == "isnan" && n == 1)
      return KValue::boolean(std::isnan(x));
    if (fn == "isinf" && n == 1)
      return KValue::boolean(std::isinf(x));
    if (fn == "isfinite" && n == 1)
      return KValue::boolean(std::isfinite(x));
  }
  if (const char *ct = ctEquivalent(fn)) {
    CallArgs forwarded = args;
    forwarded.callee = name;
    return callBuiltin(ct, nullptr, forwarded);
  }
  error(args.callRange, name + "() is evaluated only on compile-time numbers in kernels; use the ct. function on "
                               "run-time values");
  return KValue::error();
}

KValue KernelIRGen::hostCodeError(const HostCode &host, const std::string &name, SourceRange use) {
  auto builder = error(use, "'" + name + "' is defined by host code that tile-cc cannot compile");
  if (!host.diagnostics.empty()) {
    const Diagnostic &first = host.diagnostics.front();
    builder.note(first.range, first.message);
  } else {
    builder.note(host.range, "defined here");
  }
  return KValue::error();
}

// `ct.Constant[int]`, `Constant`, or a module-level alias of one (`ConstInt = ct.Constant[int]`).
bool KernelIRGen::constantAnnotation(const Expr *e, std::string &kind, unsigned depth) {
  if (!e || depth > 8)
    return false;
  const Expr *base = e;
  kind.clear();
  if (auto *sub = e->dynCast<SubscriptExpr>()) {
    base = sub->value.get();
    if (auto *n = sub->index->dynCast<NameExpr>())
      kind = n->id;
  }
  if (auto *attr = base->dynCast<AttributeExpr>())
    return attr->attr == "Constant";
  auto *name = base->dynCast<NameExpr>();
  if (!name)
    return false;
  if (name->id == "Constant")
    return true;
  if (base != e)
    return false;
  for (const StmtPtr &s : current_->body)
    if (auto *a = s->dynCast<AssignStmt>())
      for (const ExprPtr &t : a->targets)
        if (auto *n = t->dynCast<NameExpr>(); n && n->id == name->id)
          return constantAnnotation(a->value.get(), kind, depth + 1);
  return false;
}

} // namespace tile::frontend
