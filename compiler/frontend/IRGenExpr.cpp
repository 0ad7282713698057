// Expressions: names, operators, attributes, subscripts and calls.

#include "compiler/frontend/IRGen.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tile::frontend {

KValue KernelIRGen::eval(const Expr &e) {
  if (diags_.stopped())
    return KValue::error();
  switch (e.kind()) {
  case ExprKind::Name:
    return evalName(e.as<NameExpr>());
  case ExprKind::IntLit:
    return KValue::integer(e.as<IntLitExpr>().value);
  case ExprKind::FloatLit:
    return KValue::floating(e.as<FloatLitExpr>().value);
  case ExprKind::StrLit:
    return KValue::string(e.as<StrLitExpr>().value);
  case ExprKind::BoolLit:
    return KValue::boolean(e.as<BoolLitExpr>().value);
  case ExprKind::NoneLit:
    return KValue::none();
  case ExprKind::Tuple:
  case ExprKind::List: {
    const ExprList &elts = e.isa<TupleExpr>() ? e.as<TupleExpr>().elts : e.as<ListExpr>().elts;
    std::vector<KValue> values;
    for (const ExprPtr &x : elts) {
      values.push_back(eval(*x));
      if (values.back().isError())
        return KValue::error();
    }
    return KValue::tuple(std::move(values));
  }
  case ExprKind::Dict: {
    const auto &d = e.as<DictExpr>();
    std::vector<std::string> keys;
    std::vector<KValue> values;
    for (size_t i = 0; i < d.keys.size(); ++i) {
      KValue k = eval(*d.keys[i]);
      if (!k.isStr()) {
        if (!k.isError())
          error(d.keys[i]->range, "dict keys must be strings, got " + describe(k));
        return KValue::error();
      }
      keys.push_back(k.name());
      values.push_back(eval(*d.values[i]));
    }
    return KValue::dict(std::move(keys), std::move(values));
  }
  case ExprKind::BinOp:
    return evalBinOp(e.as<BinOpExpr>());
  case ExprKind::UnaryOp:
    return evalUnaryOp(e.as<UnaryOpExpr>());
  case ExprKind::BoolOp:
    return evalBoolOp(e.as<BoolOpExpr>());
  case ExprKind::Compare:
    return evalCompare(e.as<CompareExpr>());
  case ExprKind::IfExp:
    return evalIfExp(e.as<IfExpExpr>());
  case ExprKind::Call:
    return evalCall(e.as<CallExpr>());
  case ExprKind::Attribute:
    return evalAttribute(e.as<AttributeExpr>());
  case ExprKind::Subscript:
    return evalSubscript(e.as<SubscriptExpr>());
  case ExprKind::Ellipsis:
    error(e.range, "'...' is not supported here");
    return KValue::error();
  case ExprKind::Slice:
    error(e.range, "a slice is only allowed inside a subscript");
    return KValue::error();
  case ExprKind::FString:
    return evalFString(e.as<FStringExpr>());
  case ExprKind::Error:
    return KValue::error();
  }
  return KValue::error();
}

KValue KernelIRGen::evalName(const NameExpr &e) {
  if (scope_) {
    auto it = scope_->find(e.id);
    if (it != scope_->end())
      return it->second;
  }
  if (undefined_) {
    auto it = undefined_->find(e.id);
    if (it != undefined_->end()) {
      error(e.range, "'" + e.id + "' is not defined here: " + it->second);
      return KValue::error();
    }
  }
  if (std::optional<KValue> v = lookupGlobal(*current_, e.id, e.range))
    return *v;
  error(e.range, "name '" + e.id + "' is not defined");
  return KValue::error();
}

KValue KernelIRGen::evalBinOp(const BinOpExpr &e) {
  KValue a = eval(*e.lhs);
  KValue b = eval(*e.rhs);
  return binary(e.op, {a, e.lhs->range}, {b, e.rhs->range}, e.opRange);
}

KValue KernelIRGen::evalUnaryOp(const UnaryOpExpr &e) {
  KValue v = eval(*e.operand);
  if (v.isError())
    return v;
  Arg arg{v, e.operand->range};
  switch (e.op) {
  case UnaryOpKind::Pos:
    if (v.isConstNumber() || v.isScalar() || v.isTile())
      return v.isBool() ? KValue::integer(v.intValue()) : v;
    break;
  case UnaryOpKind::Neg:
    if (v.isInt() || v.isBool()) {
      if (v.intValue() == INT64_MIN) {
        error(e.range, "integer overflow in a compile-time expression (64-bit)");
        return KValue::error();
      }
      return KValue::integer(-v.intValue());
    }
    if (v.isFloat())
      return KValue::floating(-v.floatValue());
    if (v.isScalar() || v.isTile()) {
      if (isa<FloatType>(v.elementType()))
        return KValue::runtime(arith::NegFOp::create(builder_, loc(e.range), v.value()));
      return binary(BinOpKind::Sub, {KValue::integer(0), e.opRange}, arg, e.opRange);
    }
    break;
  case UnaryOpKind::Invert:
    if (v.isInt())
      return KValue::integer(~v.intValue());
    if (v.isBool())
      return KValue::integer(~v.intValue());
    if ((v.isScalar() || v.isTile()) && isUnsignedInteger(v.elementType())) {
      // All ones of the width (a Python -1 is out of an unsigned type's range).
      Location l = loc(e.range);
      Value bits = signless(v.value(), l);
      return KValue::runtime(
          withType(arith::XOrIOp::create(builder_, l, bits, constant(KValue::integer(-1), bits.getType(), l)),
                   v.value().getType(), l));
    }
    if ((v.isScalar() || v.isTile()) && isa<IntegerType>(v.elementType()))
      return binary(BinOpKind::BitXor, arg, {KValue::integer(-1), e.opRange}, e.opRange);
    break;
  case UnaryOpKind::Not: {
    if (auto truth = constTruth(v))
      return KValue::boolean(!*truth);
    if (v.isTile() && v.elementType().isInteger(1))
      return binary(BinOpKind::BitXor, arg, {KValue::boolean(true), e.opRange}, e.opRange);
    if (Value c = runtimeCondition(arg))
      return KValue::runtime(
          arith::XOrIOp::create(builder_, loc(e.range), c, constant(KValue::boolean(true), c.getType(), loc(e.range))));
    return KValue::error();
  }
  }
  error(e.opRange, std::string("bad operand for unary '") + spelling(e.op) + "': " + describe(v));
  return KValue::error();
}

KValue KernelIRGen::evalBoolOp(const BoolOpExpr &e) {
  // Compile-time operands short-circuit as in Python; run-time ones must be booleans.
  bool isAnd = e.op == BoolOpKind::And;
  KValue acc;
  SourceRange accRange;
  for (size_t i = 0; i < e.values.size(); ++i) {
    KValue v = eval(*e.values[i]);
    if (v.isError())
      return v;
    if (auto truth = constTruth(v)) {
      if (acc.isError() && i > 0)
        return acc;
      if (isAnd != *truth && i == 0)
        return v; // `False and x` -> False, `True or x` -> True
      if (isAnd != *truth)
        return KValue::boolean(*truth);
      if (i == 0) {
        acc = v;
        accRange = e.values[i]->range;
      }
      continue;
    }
    bool isBoolValue = (v.isScalar() || v.isTile()) && v.elementType().isInteger(1);
    if (!isBoolValue) {
      error(e.values[i]->range, std::string("'") + spelling(e.op) + "' on run-time values needs booleans, got " +
                                    describe(v) + "; compare first (x > 0) or use & and |");
      return KValue::error();
    }
    if (i == 0 || (!acc.isRuntime() && constTruth(acc))) {
      acc = v;
      accRange = e.values[i]->range;
      continue;
    }
    acc = binary(isAnd ? BinOpKind::BitAnd : BinOpKind::BitOr, {acc, accRange}, {v, e.values[i]->range}, e.range);
    accRange = SourceRange::cover(accRange, e.values[i]->range);
  }
  return acc;
}

KValue KernelIRGen::evalCompare(const CompareExpr &e) {
  // a < b < c is (a < b) and (b < c), each operand evaluated once.
  KValue left = eval(*e.left);
  SourceRange leftRange = e.left->range;
  KValue result;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    KValue right = eval(*e.comparators[i]);
    KValue r = compare(e.ops[i], {left, leftRange}, {right, e.comparators[i]->range}, e.opRanges[i]);
    if (r.isError())
      return r;
    if (i == 0)
      result = r;
    else if (auto a = constTruth(result), b = constTruth(r); a && b)
      result = KValue::boolean(*a && *b);
    else
      result = binary(BinOpKind::BitAnd, {result, e.range}, {r, e.range}, e.opRanges[i]);
    left = right;
    leftRange = e.comparators[i]->range;
  }
  return result;
}

KValue KernelIRGen::evalIfExp(const IfExpExpr &e) {
  KValue cond = eval(*e.test);
  if (cond.isError())
    return cond;
  if (auto truth = constTruth(cond))
    return eval(*truth ? *e.body : *e.orelse);
  Value c = runtimeCondition({cond, e.test->range});
  KValue a = eval(*e.body), b = eval(*e.orelse);
  if (!c || a.isError() || b.isError())
    return KValue::error();
  Arg aa{a, e.body->range}, bb{b, e.orelse->range};
  Type elt = promote(aa, bb, e.range);
  auto shape = broadcastShapes(aa, bb, e.range);
  if (!elt || !shape)
    return KValue::error();
  bool anyTile = a.isTile() || b.isTile();
  Value x = coerce(aa, elt, *shape, e.range, anyTile), y = coerce(bb, elt, *shape, e.range, anyTile);
  if (!x || !y)
    return KValue::error();
  return KValue::runtime(arith::SelectOp::create(builder_, loc(e.range), c, x, y));
}

// dtype names under ct.
static const char *kDTypeNames[] = {"bool_",   "int8",     "int16",         "int32",      "int64",    "uint8",
                                    "uint16",  "uint32",   "uint64",        "float16",    "bfloat16", "float32",
                                    "float64", "tfloat32", "float8_e4m3fn", "float8_e5m2"};

// Functions under ct. (the language's operations).
static const char *kCtFunctions[] = {"kernel",
                                     "function",
                                     "autotune",
                                     "bid",
                                     "num_blocks",
                                     "cdiv",
                                     "num_tiles",
                                     "load",
                                     "store",
                                     "gather",
                                     "scatter",
                                     "atomic_add",
                                     "atomic_xchg",
                                     "atomic_max",
                                     "atomic_min",
                                     "atomic_and",
                                     "atomic_or",
                                     "atomic_xor",
                                     "atomic_cas",
                                     "mma",
                                     "matmul",
                                     "sum",
                                     "max",
                                     "min",
                                     "prod",
                                     "argmax",
                                     "argmin",
                                     "cumsum",
                                     "cumprod",
                                     "exp",
                                     "exp2",
                                     "log",
                                     "log2",
                                     "sqrt",
                                     "rsqrt",
                                     "sin",
                                     "cos",
                                     "tan",
                                     "sinh",
                                     "cosh",
                                     "tanh",
                                     "sigmoid",
                                     "abs",
                                     "floor",
                                     "ceil",
                                     "minimum",
                                     "maximum",
                                     "pow",
                                     "atan2",
                                     "where",
                                     "astype",
                                     "arange",
                                     "full",
                                     "zeros",
                                     "ones",
                                     "reshape",
                                     "permute",
                                     "transpose",
                                     "broadcast_to",
                                     "expand_dims",
                                     "cat",
                                     "extract",
                                     "static_assert",
                                     "printf",
                                     "print",
                                     "range",
                                     "static_iter",
                                     "Config",
                                     "astile",
                                     "bitcast",
                                     "pack_to_bytes",
                                     "unpack_from_bytes",
                                     "static_eval",
                                     "ensure_constant",
                                     "assume_divisible_by",
                                     "reduce",
                                     "scan"};

// "; did you mean 'ct.bid'?" for a name under ct. that is not ours: first the spellings of
// Triton and other tile languages (ct.program_id, ct.dot), then the nearest of our names by
// edit distance (a typo such as ct.lod); "" when nothing is close.
static std::string ctSuggestion(const std::string &attr) {
  static const std::pair<const char *, const char *> kOtherSpellings[] = {{"program_id", "bid"},
                                                                          {"num_programs", "num_blocks"},
                                                                          {"dot", "mma"},
                                                                          {"trans", "transpose"},
                                                                          {"view", "reshape"},
                                                                          {"broadcast", "broadcast_to"},
                                                                          {"multiple_of", "assume_divisible_by"},
                                                                          {"static_range", "static_iter"},
                                                                          {"constexpr", "Constant"},
                                                                          {"zeros_like", "zeros"},
                                                                          {"full_like", "full"},
                                                                          {"associative_scan", "scan"},
                                                                          {"cast", "astype"},
                                                                          {"concatenate", "cat"},
                                                                          {"device_print", "printf"},
                                                                          {"static_print", "static_eval"},
                                                                          {"int1", "bool_"},
                                                                          {"bf16", "bfloat16"},
                                                                          {"fp16", "float16"},
                                                                          {"fp32", "float32"}};
  for (auto &[other, ours] : kOtherSpellings)
    if (attr == other)
      return std::string("; did you mean 'ct.") + ours + "'?";
  std::string best;
  unsigned bestDistance = ~0u;
  auto consider = [&](llvm::StringRef name) {
    unsigned d = llvm::StringRef(attr).edit_distance(name, /*AllowReplacements=*/true, /*MaxEditDistance=*/3);
    if (d < bestDistance)
      bestDistance = d, best = name.str();
  };
  for (const char *f : kCtFunctions)
    consider(f);
  for (const char *const *n = kCtNamedOps; *n; ++n)
    consider(*n);
  for (const char *d : kDTypeNames)
    consider(d);
  // Close means at most a third of the name changed (one edit in a short name).
  if (best.empty() || bestDistance == 0 || bestDistance > std::max<size_t>(1, attr.size() / 3))
    return "";
  return "; did you mean 'ct." + best + "'?";
}

// Methods of tiles (t.astype(...)) and their ct. equivalents.
static const char *kTileMethods[] = {"astype",      "reshape",      "permute", "transpose", "sum",    "max",
                                     "min",         "prod",         "argmax",  "argmin",    "cumsum", "cumprod",
                                     "expand_dims", "broadcast_to", "exp",     "exp2",      "abs"};

KValue KernelIRGen::evalAttribute(const AttributeExpr &e) {
  KValue base = eval(*e.value);
  if (base.isError())
    return base;
  const std::string &attr = e.attr;
  if (base.kind() == KValue::Kind::Namespace) {
    const std::string &ns = base.name();
    if (ns == "cuda" && attr == "tile")
      return KValue::ns("ct");
    if (ns == "ct") {
      for (const char *d : kDTypeNames)
        if (attr == d)
          return KValue::dtype(dtypeFromName(d));
      if (attr == "bool")
        return KValue::dtype(builder_.getI1Type());
      for (const char *f : kCtFunctions)
        if (attr == f)
          return KValue::builtin("ct." + attr);
      for (const char *const *n = kCtNamedOps; *n; ++n)
        if (attr == *n)
          return KValue::builtin("ct." + attr);
      if (attr == "PaddingMode")
        return KValue::ns("ct.PaddingMode");
      if (attr == "RoundingMode" || attr == "MemoryOrder" || attr == "MemoryScope")
        return KValue::ns("ct." + attr);
      if (attr == "Constant")
        return KValue::constantAnnotation("");
      // cuTile's Blackwell block-scaled formats and their operations: named as such.
      static const char *const kBlackwellOnly[] = {"float4_e2m1fn", "float8_e8m0fnu", "mma_scaled"};
      for (const char *name : kBlackwellOnly)
        if (attr == name) {
          error(e.attrRange, "'ct." + attr +
                                 "' is not supported by tile-cc yet: it belongs to cuTile's block-scaled (fp4 and "
                                 "e8m0) formats, and code generation targets sm_70 ... sm_90a");
          return KValue::error();
        }
      error(e.attrRange, "'ct." + attr + "' is not a supported operation or dtype" + ctSuggestion(attr));
      return KValue::error();
    }
    if (ns == "ct.RoundingMode" || ns == "ct.MemoryOrder" || ns == "ct.MemoryScope") {
      static const std::vector<std::string> rounding = {"RN", "RZ", "RM", "RP", "RA", "FULL", "APPROX", "RZI"};
      static const std::vector<std::string> order = {"WEAK", "RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL"};
      static const std::vector<std::string> scope = {"NONE", "BLOCK", "CLUSTER", "DEVICE", "SYS"};
      const auto &members = ns == "ct.RoundingMode" ? rounding : ns == "ct.MemoryOrder" ? order : scope;
      if (std::find(members.begin(), members.end(), attr) != members.end())
        return KValue::ns(ns + "." + attr);
      std::string list;
      for (const std::string &m : members)
        list += (list.empty() ? "" : ", ") + m;
      error(e.attrRange, "unknown member '" + ns.substr(3) + "." + attr + "' (expected " + list + ")");
      return KValue::error();
    }
    if (ns == "ct.PaddingMode") {
      static const std::pair<const char *, mlir::tile::PaddingMode> modes[] = {
          {"UNDETERMINED", mlir::tile::PaddingMode::undetermined}, {"ZERO", mlir::tile::PaddingMode::zero},
          {"NEG_ZERO", mlir::tile::PaddingMode::neg_zero},         {"NAN", mlir::tile::PaddingMode::nan},
          {"POS_INF", mlir::tile::PaddingMode::pos_inf},           {"NEG_INF", mlir::tile::PaddingMode::neg_inf}};
      for (auto &[name, mode] : modes)
        if (attr == name)
          return KValue::padding(static_cast<int64_t>(mode), name);
      error(e.attrRange, "unknown padding mode 'PaddingMode." + attr +
                             "' (expected ZERO, NEG_ZERO, NAN, POS_INF, NEG_INF or UNDETERMINED)");
      return KValue::error();
    }
    if (ns.rfind("kmod:", 0) == 0) {
      // An imported kernel module: its names as its own code sees them.
      const ImportedModules::Entry &m = imports_->modules()[std::stoul(ns.substr(5))];
      if (std::optional<KValue> v = lookupGlobal(*m.module, attr, e.attrRange))
        return *v;
      error(e.attrRange, "module '" + m.path + "' has no name '" + attr + "'");
      return KValue::error();
    }
    if (std::string module; isHostModule(ns, module))
      return hostModuleAttribute(module, e);
    if (ns.rfind("extern:", 0) == 0) {
      if (!missingImportError(ns, e.range, "module '" + ns.substr(7) + "'"))
        error(e.range, "module '" + ns.substr(7) + "' cannot be used inside kernels");
      return KValue::error();
    }
  }
  if (base.isTile() || base.isArray() || base.isScalar()) {
    if (attr == "dtype")
      return KValue::dtype(base.elementType());
    if (attr == "ndim") {
      if (auto array = dyn_cast<mlir::tile::ArrayType>(base.value().getType()))
        return KValue::integer(array.getRank());
      return KValue::integer(static_cast<int64_t>(base.shape().size()));
    }
    if (attr == "shape") {
      std::vector<KValue> dims;
      if (auto array = dyn_cast<mlir::tile::ArrayType>(base.value().getType())) {
        // Array extents are known at run time (64-bit).
        for (int64_t i = 0; i < array.getRank(); ++i) {
          auto dim = mlir::tile::DimOp::create(builder_, loc(e.range), builder_.getI64Type(), base.value(),
                                               static_cast<uint32_t>(i));
          dims.push_back(KValue::runtime(dim));
        }
      } else {
        for (int64_t d : base.shape())
          dims.push_back(KValue::integer(d));
      }
      return KValue::tuple(std::move(dims));
    }
    if (base.isArray() && attr == "tiled_view")
      return KValue::builtin("array.tiled_view", std::make_shared<KValue>(base));
    if (base.isArray() && (attr == "slice" || attr == "get_raw_memory")) {
      error(e.attrRange, "Array." + attr + "() is not supported yet");
      return KValue::error();
    }
    if (attr == "strides" && base.isArray()) {
      // Element strides, known at run time (64-bit), like shape.
      std::vector<KValue> strides;
      auto array = cast<mlir::tile::ArrayType>(base.value().getType());
      for (int64_t i = 0; i < array.getRank(); ++i)
        strides.push_back(KValue::runtime(mlir::tile::StrideOp::create(builder_, loc(e.range), builder_.getI64Type(),
                                                                       base.value(), static_cast<uint32_t>(i))));
      return KValue::tuple(std::move(strides));
    }
    if (base.isScalar() && attr == "astype")
      return KValue::builtin("ct.astype", std::make_shared<KValue>(base));
    if (base.isTile()) {
      if (attr == "item") // Tile.item(): the 1-element tile as a 0-d tile (reshape(()))
        return KValue::builtin("ct.item", std::make_shared<KValue>(base));
      if (attr == "T") {
        CallArgs args;
        args.positional = {{base, e.value->range}};
        args.callRange = e.range;
        args.callee = "T";
        return callBuiltin("ct.transpose", nullptr, args);
      }
      for (const char *m : kTileMethods)
        if (attr == m)
          return KValue::builtin("ct." + attr, std::make_shared<KValue>(base));
    }
  }
  if (base.kind() == KValue::Kind::TiledView) {
    if (attr == "dtype")
      return KValue::dtype(base.self()->elementType());
    if (attr == "tile_shape" || attr == "traversal_steps") // tiles at multiples of their shape
      return KValue::tuple(base.elements());
    for (const char *m : {"load", "store", "num_tiles", "atomic_store_add", "atomic_store_max", "atomic_store_min",
                          "atomic_store_and", "atomic_store_or", "atomic_store_xor"})
      if (attr == m)
        return KValue::builtin("tiled_view." + attr, std::make_shared<KValue>(base));
  }
  if (base.isDType() && attr == "bitwidth") {
    Type t = base.dtypeValue();
    return KValue::integer(t.getIntOrFloatBitWidth());
  }
  error(e.attrRange, describe(base) + " has no attribute '" + attr + "'");
  return KValue::error();
}

KValue KernelIRGen::evalSubscript(const SubscriptExpr &e) {
  KValue base = eval(*e.value);
  if (base.isError())
    return base;
  if (base.kind() == KValue::Kind::ConstantAnnotation) {
    const auto *n = e.index->dynCast<NameExpr>();
    return KValue::constantAnnotation(n ? n->id : "");
  }
  std::vector<const Expr *> indices = e.indices();
  if (base.isTuple()) {
    if (indices.size() != 1) {
      error(e.index->range, "a tuple takes one index");
      return KValue::error();
    }
    KValue idx = eval(*indices[0]);
    if (idx.isError())
      return idx;
    if (!idx.isInt()) {
      bool arrays = llvm::any_of(base.elements(), [](const KValue &v) { return v.isRuntime(); });
      error(indices[0]->range, arrays ? "a list of arrays is indexed by compile-time integers, got " + describe(idx) +
                                            " (a loop `for i in range(len(LIST))` is unrolled, so that its i is one)"
                                      : "tuple indices must be compile-time integers, got " + describe(idx));
      return KValue::error();
    }
    int64_t n = static_cast<int64_t>(base.elements().size()), i = idx.intValue();
    if (i < -n || i >= n) {
      error(indices[0]->range, "tuple index " + std::to_string(i) + " is out of range for a tuple of " +
                                   std::to_string(n) + (n == 1 ? " element" : " elements"));
      return KValue::error();
    }
    return base.elements()[i < 0 ? i + n : i];
  }
  if (base.isTile()) {
    // Only full slices and None (new axis) are supported: t[:, None].
    SmallVector<int64_t> shape;
    size_t dim = 0;
    ArrayRef<int64_t> in = base.shape();
    for (const Expr *idx : indices) {
      if (idx->isa<NoneLitExpr>()) {
        shape.push_back(1);
        continue;
      }
      const auto *slice = idx->dynCast<SliceExpr>();
      if (!slice || slice->lower || slice->upper || slice->step) {
        error(idx->range, "tiles can only be indexed with ':' and None (to add an axis); "
                          "use ct.extract for sub-tiles");
        return KValue::error();
      }
      if (dim >= in.size()) {
        error(idx->range, "too many indices for " + describe(base));
        return KValue::error();
      }
      shape.push_back(in[dim++]);
    }
    for (; dim < in.size(); ++dim)
      shape.push_back(in[dim]);
    auto type = RankedTensorType::get(shape, base.elementType());
    if (type == base.value().getType())
      return base;
    return KValue::runtime(mlir::tile::ReshapeOp::create(builder_, loc(e.range), type, base.value()));
  }
  error(e.value->range, describe(base) + " cannot be indexed");
  return KValue::error();
}

KValue KernelIRGen::evalCall(const CallExpr &e) {
  KValue callee = eval(*e.func);
  if (callee.isError())
    return callee;
  CallArgs args;
  args.callRange = e.range;
  for (const ExprPtr &a : e.args) {
    KValue v = eval(*a);
    if (v.isError())
      return v;
    args.positional.push_back({v, a->range});
  }
  for (const Keyword &kw : e.keywords) {
    KValue v = eval(*kw.value);
    if (v.isError())
      return v;
    args.keywords.push_back({kw.name, {v, kw.range}});
  }
  if (callee.kind() == KValue::Kind::Builtin) {
    args.callee = callee.name();
    return callBuiltin(callee.name(), callee.self(), args);
  }
  if (callee.kind() == KValue::Kind::Function) {
    args.callee = callee.functionDef()->name;
    return callFunction(*callee.functionDef(), args);
  }
  if (callee.isDType()) {
    // ct.float32(x): a conversion.
    CallArgs conv = args;
    conv.positional.push_back({callee, e.func->range});
    conv.callee = "astype";
    return callBuiltin("ct.astype", nullptr, conv);
  }
  if (callee.kind() == KValue::Kind::Namespace && callee.name().rfind("extern:", 0) == 0 &&
      missingImportError(callee.name(), e.func->range,
                         "'" + (e.func->isa<NameExpr>() ? e.func->as<NameExpr>().id : callee.name().substr(7)) + "'"))
    return KValue::error();
  error(e.func->range, describe(callee) + " is not callable");
  return KValue::error();
}

// Inlines a @ct.function helper: parameters bind to the argument values (compile-time values
// stay compile-time, so helpers are generic), the body runs in a fresh scope.
KValue KernelIRGen::callFunction(const FunctionDefStmt &fn, const CallArgs &args) {
  // A helper of an imported module sees that module's names.
  const Module *savedModule = current_;
  struct Restore {
    const Module *&current;
    const Module *saved;
    ~Restore() { current = saved; }
  } restoreModule{current_, savedModule};
  if (auto it = functionModules_.find(&fn); it != functionModules_.end())
    current_ = it->second;
  bool isHelper = false;
  for (const ExprPtr &dec : fn.decorators) {
    KValue d = evalDecorator(dec->isa<CallExpr>() ? *dec->as<CallExpr>().func : *dec);
    if (d.kind() == KValue::Kind::Builtin && d.name() == "ct.function")
      isHelper = true;
    if (d.kind() == KValue::Kind::Builtin && d.name() == "ct.kernel") {
      error(args.callRange, "kernel '" + fn.name + "' cannot be called from a kernel; make it a @ct.function");
      return KValue::error();
    }
  }
  // A plain Python function called from a kernel is inlined like a @ct.function helper
  // (cuTile compiles such functions too).
  (void)isHelper;
  if (inlineDepth_ >= 64) {
    error(args.callRange, "helper calls nested too deeply (recursion is not supported)");
    return KValue::error();
  }
  Scope scope;
  std::set<std::string> bound;
  if (args.positional.size() > fn.params.size()) {
    error(args.callRange, "'" + fn.name + "' takes " + std::to_string(fn.params.size()) + " arguments but " +
                              std::to_string(args.positional.size()) + " were given");
    return KValue::error();
  }
  for (size_t i = 0; i < args.positional.size(); ++i) {
    scope[fn.params[i].name] = args.positional[i].value;
    bound.insert(fn.params[i].name);
  }
  for (const auto &[name, arg] : args.keywords) {
    if (!fn.findParam(name)) {
      error(arg.range, "'" + fn.name + "' has no parameter '" + name + "'");
      return KValue::error();
    }
    if (bound.count(name)) {
      error(arg.range, "'" + fn.name + "' got multiple values for parameter '" + name + "'");
      return KValue::error();
    }
    scope[name] = arg.value;
    bound.insert(name);
  }
  for (const Param &p : fn.params) {
    if (bound.count(p.name))
      continue;
    if (!p.defaultValue) {
      error(args.callRange, "'" + fn.name + "' is missing argument '" + p.name + "'")
          .note(p.nameRange, "parameter declared here");
      return KValue::error();
    }
    scope[p.name] = evalDecorator(*p.defaultValue);
  }
  Scope *savedScope = scope_;
  auto *savedUndef = undefined_;
  std::map<std::string, std::string> undefined;
  unsigned savedRegionDepth = regionDepth_, savedLoopDepth = loopDepth_;
  scope_ = &scope;
  undefined_ = &undefined;
  regionDepth_ = 0;
  loopDepth_ = 0; // `break` in a helper does not leave the caller's loop
  ++inlineDepth_;
  frames_.push_back({&fn, std::nullopt, false});
  emitBlock(fn.body);
  FunctionFrame frame = frames_.back();
  frames_.pop_back();
  --inlineDepth_;
  regionDepth_ = savedRegionDepth;
  loopDepth_ = savedLoopDepth;
  scope_ = savedScope;
  undefined_ = savedUndef;
  return frame.returnValue.value_or(KValue::none());
}

} // namespace tile::frontend
