// Module scope, decorators, kernel parameters and the kernel op (see IRGen.h).

#include "compiler/frontend/IRGen.h"

#include "compiler/frontend/Frontend.h"

#include "dialect/TileDialect.h"
#include "runtime/GpuArch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <algorithm>
#include <functional>

using namespace mlir;

namespace tile::frontend {

KernelIRGen::KernelIRGen(const Module &module, MLIRContext &context, DiagnosticEngine &diags,
                         const ImportedModules *imports)
    : module_(module), imports_(imports), current_(&module), context_(context), diags_(diags), builder_(&context) {
  fileName_ = StringAttr::get(&context, module.file ? module.file->name() : "<unknown>");
}

Location KernelIRGen::loc(SourceRange range) {
  FullLoc full = diags_.sources().decompose(range.begin);
  if (!full.isValid())
    return FileLineColLoc::get(fileName_, 0, 0);
  // Code inlined from an imported module points into that module's file.
  StringAttr file = full.file == module_.file ? fileName_ : StringAttr::get(&context_, full.file->name());
  return FileLineColLoc::get(file, full.line, full.column);
}

DiagBuilder KernelIRGen::error(SourceRange range, std::string message) {
  return diags_.error(range, std::move(message));
}

// Verifier messages start with "'tile.mma' op "; the front end names the source construct.
static std::string stripOpPrefix(std::string message) {
  size_t pos = message.find("' op ");
  if (!message.empty() && message[0] == '\'' && pos != std::string::npos)
    return message.substr(pos + 5);
  return message;
}

bool KernelIRGen::verifyBuilt(Operation *op, SourceRange range, const std::string &what) {
  std::string message;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler handler(&context_, [&](mlir::Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && message.empty())
        message = stripOpPrefix(diag.str());
      return success();
    });
    result = mlir::verify(op, /*verifyRecursively=*/false);
  }
  if (succeeded(result))
    return true;
  error(range, what + ": " + message);
  op->erase();
  return false;
}

KValue KernelIRGen::verifiedResult(Operation *op, const CallArgs &args) {
  if (!verifyBuilt(op, args.callRange, args.callee))
    return KValue::error();
  return KValue::runtime(op->getResult(0));
}

mlir::Type KernelIRGen::dtypeFromName(const std::string &name) {
  MLIRContext *ctx = &context_;
  if (name == "bool_")
    return IntegerType::get(ctx, 1);
  if (name == "int8")
    return IntegerType::get(ctx, 8);
  if (name == "int16")
    return IntegerType::get(ctx, 16);
  if (name == "int32")
    return IntegerType::get(ctx, 32);
  if (name == "int64")
    return IntegerType::get(ctx, 64);
  // Unsigned integers are typed ui8..ui64 while the kernel is built; dropSignedness() leaves
  // that only on arrays (IRGenUnsigned.cpp).
  if (name.rfind("uint", 0) == 0 && (name == "uint8" || name == "uint16" || name == "uint32" || name == "uint64"))
    return IntegerType::get(ctx, std::stoi(name.substr(4)), IntegerType::Unsigned);
  if (name == "float16")
    return Float16Type::get(ctx);
  if (name == "bfloat16")
    return BFloat16Type::get(ctx);
  if (name == "float32")
    return Float32Type::get(ctx);
  if (name == "float64")
    return Float64Type::get(ctx);
  if (name == "tfloat32")
    return FloatTF32Type::get(ctx);
  if (name == "float8_e4m3fn")
    return Float8E4M3FNType::get(ctx);
  if (name == "float8_e5m2")
    return Float8E5M2Type::get(ctx);
  return {};
}

//===----------------------------------------------------------------------===//
// Module scope
//===----------------------------------------------------------------------===//

bool KernelIRGen::collectModuleScope() {
  scopes_.clear();
  functionModules_.clear();
  importedNames_.clear();
  missingImports_.clear();
  if (imports_)
    for (const ImportedModules::Entry &e : imports_->modules())
      collectModuleScope(*e.module);
  collectModuleScope(module_);
  return true;
}

void KernelIRGen::collectModuleScope(const Module &m) {
  const Module *saved = current_;
  current_ = &m;
  Scope &scope = globals();
  for (const char *b : {"range", "min", "max", "abs", "int", "float", "bool", "len", "print", "dict"})
    scope[b] = KValue::builtin(b);
  // An import of a kernel module binds its name for lookupGlobal; anything else is a host
  // module, as before imports existed.
  auto kernelImport = [&](const ImportAlias &alias, const std::string &hostValue) {
    const ImportedModules::Binding *b = imports_ ? imports_->binding(alias) : nullptr;
    if (b && b->kind != ImportedModules::Binding::Kind::Missing) {
      scope.erase(alias.boundName());
      importedNames_[&m][alias.boundName()] = b;
      return true;
    }
    importedNames_[&m].erase(alias.boundName());
    if (b)
      missingImports_[&m][hostValue] = b;
    return false;
  };
  std::map<std::string, SourceRange> fromCtRanges; // where each `from cuda.tile import` name is
  for (const StmtPtr &stmt : m.body) {
    if (auto *imp = stmt->dynCast<ImportStmt>()) {
      for (const ImportAlias &alias : imp->names) {
        if (alias.name == "cuda.tile" && !alias.asName.empty())
          scope[alias.asName] = KValue::ns("ct");
        else if (alias.name == "cuda.tile" || alias.name == "cuda")
          scope["cuda"] = KValue::ns("cuda");
        else if (!kernelImport(alias, "extern:" + alias.name))
          scope[alias.boundName()] = KValue::ns("extern:" + alias.name);
      }
    } else if (auto *from = stmt->dynCast<ImportFromStmt>()) {
      for (const ImportAlias &alias : from->names) {
        std::string bound = alias.boundName();
        if (from->module == "cuda" && alias.name == "tile")
          scope[bound] = KValue::ns("ct");
        else if (from->module == "cuda.tile" || from->module == "cuda.tile._datatype" ||
                 from->module == "cuda.tile._stub") {
          // cuTile's private modules (its dtypes, its operations) as TileGym imports from them.
          scope[bound] = KValue::ns("from-ct:" + alias.name);
          fromCtRanges[bound] = alias.range;
        } else if (!kernelImport(alias, "extern:" + from->module + "." + alias.name))
          scope[bound] = KValue::ns("extern:" + from->module + "." + alias.name);
      }
    } else if (auto *fn = stmt->dynCast<FunctionDefStmt>()) {
      scope[fn->name] = KValue::function(fn);
      importedNames_[&m].erase(fn->name);
      functionModules_[fn] = &m;
    }
  }
  // Names imported with `from cuda.tile import load` resolve like ct.load.
  for (auto &[name, value] : scope)
    if (value.kind() == KValue::Kind::Namespace && value.name().rfind("from-ct:", 0) == 0) {
      KValue ct = KValue::ns("ct");
      Scope saved;
      std::string member = value.name().substr(8);
      // Evaluate `ct.<member>` through the attribute logic.
      const SourceRange at = fromCtRanges[name];
      AttributeExpr attr(at, std::make_unique<NameExpr>(at, "__ct__"), member, at);
      Scope tmp{{"__ct__", ct}};
      Scope *old = scope_;
      scope_ = &tmp;
      // A name tile-cc does not support stays unresolved: its error is reported where a kernel
      // uses it (lookupGlobal), so that the file's other kernels compile.
      DiagnosticEngine::Checkpoint cp = diags_.checkpoint();
      KValue resolved = evalAttribute(attr);
      if (diags_.numErrors() != cp.numErrors)
        diags_.takeSince(cp);
      else
        value = resolved;
      scope_ = old;
    }
  current_ = saved;
}

std::optional<KValue> KernelIRGen::lookupGlobal(const Module &m, const std::string &name, SourceRange use, bool quiet) {
  Scope &scope = scopes_[&m];
  if (auto g = scope.find(name); g != scope.end()) {
    // `from cuda.tile import X` of an X tile-cc does not support: its error, at this use.
    if (g->second.kind() == KValue::Kind::Namespace && g->second.name().rfind("from-ct:", 0) == 0) {
      if (quiet)
        return std::nullopt;
      AttributeExpr attr(use, std::make_unique<NameExpr>(use, "__ct__"), g->second.name().substr(8), use);
      Scope tmp{{"__ct__", KValue::ns("ct")}};
      Scope *old = scope_;
      scope_ = &tmp;
      KValue v = evalAttribute(attr);
      scope_ = old;
      return v;
    }
    return g->second;
  }
  const Module *saved = current_;
  current_ = &m;
  struct Restore {
    const Module *&current;
    const Module *saved;
    ~Restore() { current = saved; }
  } restore{current_, saved};
  // A name a kernel module's import binds: the module, or a name it defines.
  if (auto mi = importedNames_.find(&m); mi != importedNames_.end())
    if (auto it = mi->second.find(name); it != mi->second.end()) {
      const ImportedModules::Binding &b = *it->second;
      if (b.kind == ImportedModules::Binding::Kind::Module) {
        KValue v = KValue::ns("kmod:" + std::to_string(imports_->indexOf(b.module)));
        scope[name] = v;
        return v;
      }
      // `from x import y as name`: `y` of x; the alias's own name is looked up there.
      std::string target = name;
      for (const StmtPtr &s : m.body)
        if (auto *from = s->dynCast<ImportFromStmt>())
          for (const ImportAlias &alias : from->names)
            if (imports_->binding(alias) == &b)
              target = alias.name;
      if (!resolving_.insert({&m, name}).second) {
        if (!quiet)
          error(b.where, "cannot import name '" + target + "' from '" + b.from + "': the imports of '" + target +
                             "' form a cycle");
        return quiet ? std::nullopt : std::optional<KValue>(KValue::error());
      }
      std::optional<KValue> v = lookupGlobal(*b.module, target, use, quiet);
      resolving_.erase({&m, name});
      if (!v) {
        if (quiet)
          return std::nullopt;
        error(b.where, "cannot import name '" + target + "' from '" + b.from + "' (" + b.module->file->name() + ")")
            .note(use, "'" + name + "' is used here");
        return KValue::error();
      }
      if (!v->isError())
        scope[name] = *v;
      return v;
    }
  // Module-level constants (`LOG2E = 1.4426950408889634`) are evaluated on first use, so host
  // code elsewhere in the file does not have to be understood.
  for (const StmtPtr &s : m.body) {
    const auto *a = s->dynCast<AssignStmt>();
    if (!a)
      continue;
    for (const ExprPtr &t : a->targets)
      if (auto *n = t->dynCast<NameExpr>(); n && n->id == name) {
        Scope *savedScope = scope_;
        auto *savedUndef = undefined_;
        Scope empty;
        scope_ = &empty;
        undefined_ = nullptr;
        KValue v = eval(*a->value);
        scope_ = savedScope;
        undefined_ = savedUndef;
        if (v.isRuntime()) {
          error(use, "module-level '" + name + "' is not a compile-time value");
          return KValue::error();
        }
        scope[name] = v;
        return v;
      }
  }
  if (const HostCode *host = m.findHostCode(name)) {
    if (quiet)
      return std::nullopt;
    return hostCodeError(*host, name, use);
  }
  return std::nullopt;
}

bool KernelIRGen::missingImportError(const std::string &ns, SourceRange use, const std::string &what) {
  const ImportedModules::Binding *b = nullptr;
  for (const Module *m : {current_, &module_})
    if (auto mi = missingImports_.find(m); !b && mi != missingImports_.end())
      if (auto it = mi->second.find(ns); it != mi->second.end())
        b = it->second;
  if (!b)
    return false;
  if (b->relative) // a relative import can only name a kernel module beside the file
    error(b->where, b->message).note(use, what + " is used here");
  else
    error(use, what + " cannot be used inside kernels").note(b->where, b->message);
  return true;
}

KValue KernelIRGen::evalDecorator(const Expr &e) {
  // A host library's decorator (`@pytest.fixture(...)`, `@torch.no_grad()`): named, not
  // evaluated, so a file's host functions never make errors.
  std::string dotted;
  const Expr *root = &e;
  while (const auto *attr = root->dynCast<AttributeExpr>()) {
    dotted = "." + attr->attr + dotted;
    root = attr->value.get();
  }
  if (const auto *name = root->dynCast<NameExpr>(); name && !dotted.empty())
    if (auto it = globals().find(name->id); it != globals().end() && it->second.kind() == KValue::Kind::Namespace &&
                                            it->second.name().rfind("extern:", 0) == 0)
      return KValue::ns(it->second.name() + dotted);
  // A name imported from a kernel module that is host code there (a host library's decorator
  // in a sibling module) is a host value here too, as it was before imports were followed.
  if (const auto *name = root->dynCast<NameExpr>()) {
    auto mi = importedNames_.find(current_);
    if (!globals().count(name->id) && mi != importedNames_.end() && mi->second.count(name->id) &&
        !lookupGlobal(*current_, name->id, name->range, /*quiet=*/true))
      return KValue::ns("extern:" + name->id + dotted);
  }
  Scope names = decoratorScope_ ? *decoratorScope_ : Scope();
  Scope *old = scope_;
  scope_ = &names;
  KValue v = eval(e);
  scope_ = old;
  return v;
}

//===----------------------------------------------------------------------===//
// Kernel inspection
//===----------------------------------------------------------------------===//

static std::optional<ConstantValue> toConstantValue(const KValue &v) {
  if (v.isBool())
    return ConstantValue(v.boolValue());
  if (v.isInt())
    return ConstantValue(v.intValue());
  if (v.isFloat())
    return ConstantValue(v.floatValue());
  return std::nullopt;
}

std::optional<KernelIRGen::KernelInfo> KernelIRGen::inspect(const std::string &kernel) {
  collectModuleScope();
  FunctionRef ref = module_.resolveFunction(kernel);
  if (!ref)
    return std::nullopt;
  const FunctionDefStmt *fn = ref.fn;
  KernelInfo info;
  info.def = fn;
  info.factory = ref.factory;
  for (const ExprPtr &dec : fn->decorators) {
    KValue d = evalDecorator(dec->isa<CallExpr>() ? *dec->as<CallExpr>().func : *dec);
    if (d.kind() != KValue::Kind::Builtin)
      continue;
    if (d.name() == "ct.kernel")
      info.isKernel = true;
    if (d.name() == "ct.autotune" && dec->isa<CallExpr>()) {
      const CallExpr &call = dec->as<CallExpr>();
      if (const Keyword *configs = call.findKeyword("configs")) {
        KValue list = evalDecorator(*configs->value);
        if (list.isTuple())
          for (const KValue &cfg : list.elements()) {
            std::map<std::string, ConstantValue> values;
            if (cfg.isDict())
              for (size_t i = 0; i < cfg.keys().size(); ++i)
                if (auto c = toConstantValue(cfg.elements()[i]))
                  values[cfg.keys()[i]] = *c;
            info.configs.push_back(std::move(values));
          }
      }
      if (const Keyword *key = call.findKeyword("key")) {
        KValue list = evalDecorator(*key->value);
        if (list.isTuple())
          for (const KValue &k : list.elements())
            if (k.isStr())
              info.autotuneKey.push_back(k.name());
      }
    }
  }
  if (ref.factory)
    for (const std::string &name : capturedFactoryNames(*ref.factory, *fn)) {
      // A local of the factory may be computed by it (bindFactoryConstants): as a default.
      const Param *p = ref.factory->findParam(name);
      info.constantParams.push_back(name);
      info.params.push_back(ParamDecl{name, true, !p || p->defaultValue != nullptr});
    }
  for (const Param &p : fn->params) {
    std::string kind;
    bool constant = constantAnnotation(p.annotation.get(), kind);
    (constant ? info.constantParams : info.runtimeParams).push_back(p.name);
    info.params.push_back(ParamDecl{p.name, constant, p.defaultValue != nullptr});
  }
  return info;
}

// Kernels defined in factories: the factory's names the kernel uses are its constants.

// The names `s` (a statement of a factory's body) binds, in order.
static void boundNamesOf(const Stmt &s, std::vector<std::string> &names) {
  std::function<void(const Expr &)> target = [&](const Expr &t) {
    if (auto *n = t.dynCast<NameExpr>())
      names.push_back(n->id);
    else if (auto *tup = t.dynCast<TupleExpr>())
      for (const ExprPtr &e : tup->elts)
        target(*e);
    else if (auto *l = t.dynCast<ListExpr>())
      for (const ExprPtr &e : l->elts)
        target(*e);
  };
  if (auto *a = s.dynCast<AssignStmt>())
    for (const ExprPtr &t : a->targets)
      target(*t);
  else if (auto *a = s.dynCast<AugAssignStmt>())
    target(*a->target);
  else if (auto *a = s.dynCast<AnnAssignStmt>())
    target(*a->target);
  else if (auto *f = s.dynCast<ForStmt>())
    target(*f->target);
  else if (auto *f = s.dynCast<FunctionDefStmt>())
    names.push_back(f->name);
  else if (auto *imp = s.dynCast<ImportStmt>())
    for (const ImportAlias &alias : imp->names)
      names.push_back(alias.boundName());
  else if (auto *from = s.dynCast<ImportFromStmt>())
    for (const ImportAlias &alias : from->names)
      names.push_back(alias.boundName());
  forEachChild(
      s, [](const Expr &) {},
      [&](const Stmt &inner) {
        if (!inner.isa<FunctionDefStmt>())
          boundNamesOf(inner, names);
      });
}

std::vector<std::string> KernelIRGen::capturedFactoryNames(const FunctionDefStmt &factory, const FunctionDefStmt &fn) {
  std::vector<std::string> factoryNames;
  for (const Param &p : factory.params)
    factoryNames.push_back(p.name);
  for (const StmtPtr &s : factory.body)
    boundNamesOf(*s, factoryNames);
  std::set<std::string> local;
  for (const Param &p : fn.params)
    local.insert(p.name);
  collectAssignedNames(fn.body, local);
  std::set<std::string> used;
  std::function<void(const Expr &)> onExpr = [&](const Expr &e) {
    if (auto *n = e.dynCast<NameExpr>())
      used.insert(n->id);
    forEachChild(e, onExpr);
  };
  std::function<void(const Stmt &)> onStmt = [&](const Stmt &s) { forEachChild(s, onExpr, onStmt); };
  for (const StmtPtr &s : fn.body)
    onStmt(*s);
  // The decorators' options too (`@ct.kernel(occupancy=occupancy)`).
  for (const ExprPtr &dec : fn.decorators)
    onExpr(*dec);
  std::vector<std::string> captured;
  for (const std::string &name : factoryNames)
    if (used.count(name) && !local.count(name) && std::find(captured.begin(), captured.end(), name) == captured.end())
      captured.push_back(name);
  return captured;
}

bool KernelIRGen::bindFactoryConstants(const FunctionDefStmt &factory, const FunctionDefStmt &fn,
                                       const Specialization &spec,
                                       std::vector<std::pair<std::string, KValue>> &constants,
                                       std::set<std::string> &factoryNames) {
  const std::string kernelName = factory.name + "." + fn.name;
  auto toKValue = [](const ConstantValue &c) {
    if (auto *b = std::get_if<bool>(&c))
      return KValue::boolean(*b);
    if (auto *i = std::get_if<int64_t>(&c))
      return KValue::integer(*i);
    return KValue::floating(std::get<double>(c));
  };
  Scope values;
  for (const Param &p : factory.params) {
    factoryNames.insert(p.name);
    if (auto it = spec.constants.find(p.name); it != spec.constants.end())
      values[p.name] = toKValue(it->second);
    else if (p.defaultValue) {
      KValue v = evalDecorator(*p.defaultValue);
      if (v.isError())
        return false;
      values[p.name] = v;
    }
  }
  // Locals: given, or `name = expr` before the kernel's definition that evaluates to a number
  // from the values known so far; anything else is host code, set aside.
  bool beforeKernel = true;
  std::map<std::string, SourceRange> localRanges;
  for (const StmtPtr &s : factory.body) {
    if (s.get() == &fn)
      beforeKernel = false;
    std::vector<std::string> bound;
    boundNamesOf(*s, bound);
    for (const std::string &name : bound) {
      factoryNames.insert(name);
      localRanges.emplace(name, s->range);
      if (auto it = spec.constants.find(name); it != spec.constants.end())
        values[name] = toKValue(it->second);
    }
    const auto *assign = s->dynCast<AssignStmt>();
    const auto *target = assign && assign->targets.size() == 1 ? assign->targets[0]->dynCast<NameExpr>() : nullptr;
    if (!beforeKernel || !target || spec.constants.count(target->id))
      continue;
    DiagnosticEngine::Checkpoint cp = diags_.checkpoint();
    Scope *saved = scope_;
    scope_ = &values;
    KValue v = eval(*assign->value);
    scope_ = saved;
    if (diags_.numErrors() != cp.numErrors || !v.isConstNumber()) {
      diags_.takeSince(cp);
      values.erase(target->id);
    } else {
      values[target->id] = v;
    }
  }
  const SpecOptionNames &names = spec.optionNames;
  std::vector<std::string> missingLocals;
  bool missingParams = false;
  for (const std::string &name : capturedFactoryNames(factory, fn)) {
    if (auto it = values.find(name); it != values.end()) {
      constants.emplace_back(name, it->second);
    } else if (const Param *p = factory.findParam(name)) {
      error(p->nameRange, "kernel '" + kernelName + "' needs a value for '" + name + "', a parameter of its factory '" +
                              factory.name + "' (pass " + names.constant + " " + name + "=VALUE)");
      missingParams = true;
    } else {
      missingLocals.push_back(name);
    }
  }
  // A local computed from a missing parameter is not reported again.
  if (!missingParams)
    for (const std::string &name : missingLocals)
      error(localRanges.count(name) ? localRanges[name] : factory.nameRange,
            "kernel '" + kernelName + "' needs a value for '" + name + "', which its factory '" + factory.name +
                "' computes in host code (pass " + names.constant + " " + name + "=VALUE)");
  return !missingParams && missingLocals.empty();
}

//===----------------------------------------------------------------------===//
// Decorators and parameters
//===----------------------------------------------------------------------===//

// num_threads is ours, not cuTile's: cuTile programs leave the block size to the compiler, as
// tile-cc does without it (tile-choose-threads).
// The compute capability x 10 of "sm_90a", "sm_80", ...; 0 when the target is not named that way.
static int archNumber(llvm::StringRef arch) {
  std::optional<rt::GpuArch> parsed = rt::GpuArch::parse(std::string_view(arch.data(), arch.size()));
  return parsed ? parsed->sm() : 0;
}

bool KernelIRGen::applyDecorators(const FunctionDefStmt &fn, Operation *kernel,
                                  std::map<std::string, ConstantValue> &configConstants, const Specialization &spec) {
  bool ok = true, isKernel = false;
  std::map<std::string, int64_t> options;
  std::map<std::string, SourceRange> optionRanges; // where each option was given
  std::set<std::string> configOptions;             // given by the chosen autotune config: they win
  for (const ExprPtr &dec : fn.decorators) {
    const CallExpr *call = dec->dynCast<CallExpr>();
    KValue d = evalDecorator(call ? *call->func : *dec);
    if (d.isError())
      return false;
    std::string name = d.kind() == KValue::Kind::Builtin ? d.name() : "";
    if (name == "ct.kernel") {
      isKernel = true;
      static const std::vector<Keyword> noKeywords;
      for (const Keyword &kw : call ? call->keywords : noKeywords) {
        KValue v = evalDecorator(*kw.value);
        if (v.isNone()) // ct.ByTarget without a value for this target: the default
          continue;
        if (!isKernelOption(kw.name)) {
          error(kw.nameRange, "unknown kernel option '" + kw.name +
                                  "' (expected occupancy, num_ctas, num_threads or warp_specialize)");
          ok = false;
        } else if (kw.name == "warp_specialize" ? !v.isBool() : !v.isInt()) {
          error(kw.value->range, "kernel option '" + kw.name + "' must be " +
                                     (kw.name == "warp_specialize" ? "True or False" : "an integer constant"));
          ok = false;
        } else if (!configOptions.count(kw.name)) {
          options[kw.name] = v.isBool() ? int64_t(v.boolValue()) : v.intValue();
          optionRanges[kw.name] = kw.range;
        }
      }
      if (call && !call->args.empty()) {
        error(call->args[0]->range, "@ct.kernel takes only keyword options");
        ok = false;
      }
    } else if (name == "ct.autotune") {
      if (!call) {
        error(dec->range, "@ct.autotune needs configs=[...]");
        return false;
      }
      const Keyword *configs = call->findKeyword("configs");
      for (const Keyword &kw : call->keywords)
        if (kw.name != "configs" && kw.name != "key") {
          error(kw.nameRange, "unknown @ct.autotune argument '" + kw.name + "' (expected configs, key)");
          ok = false;
        }
      if (!configs) {
        error(dec->range, "@ct.autotune needs configs=[...]");
        return false;
      }
      KValue list = evalDecorator(*configs->value);
      if (list.isError())
        return false;
      if (!list.isTuple() || list.elements().empty()) {
        error(configs->value->range, "configs must be a non-empty list of dict(...) configurations");
        return false;
      }
      unsigned index = spec.config.value_or(0);
      if (index >= list.elements().size()) {
        error(configs->value->range, "configuration " + std::to_string(index) + " was requested but the kernel has " +
                                         std::to_string(list.elements().size()) + " autotune configs");
        return false;
      }
      SmallVector<Attribute> configAttrs;
      for (const KValue &cfg : list.elements()) {
        if (!cfg.isDict()) {
          error(configs->value->range, "each autotune config must be dict(NAME=VALUE, ...), got " + describe(cfg));
          return false;
        }
        SmallVector<NamedAttribute> entries;
        for (size_t i = 0; i < cfg.keys().size(); ++i) {
          const KValue &v = cfg.elements()[i];
          Attribute a;
          if (v.isBool())
            a = builder_.getBoolAttr(v.boolValue());
          else if (v.isInt())
            a = builder_.getI64IntegerAttr(v.intValue());
          else if (v.isFloat())
            a = builder_.getF64FloatAttr(v.floatValue());
          if (!a) {
            error(configs->value->range, "autotune config value for '" + cfg.keys()[i] + "' must be a constant number");
            return false;
          }
          entries.push_back(builder_.getNamedAttr(cfg.keys()[i], a));
        }
        configAttrs.push_back(builder_.getDictionaryAttr(entries));
      }
      kernel->setAttr("tile.autotune_configs", builder_.getArrayAttr(configAttrs));
      kernel->setAttr("tile.autotune_config", builder_.getI32IntegerAttr(index));
      const KValue &chosen = list.elements()[index];
      for (size_t i = 0; i < chosen.keys().size(); ++i) {
        const std::string &key = chosen.keys()[i];
        auto c = toConstantValue(chosen.elements()[i]);
        bool isOption = isKernelOption(key);
        bool flag = key == "warp_specialize";
        if (isOption && (flag ? std::holds_alternative<bool>(*c) : std::holds_alternative<int64_t>(*c))) {
          options[key] = flag ? int64_t(std::get<bool>(*c)) : std::get<int64_t>(*c);
          optionRanges[key] = configs->value->range;
          configOptions.insert(key);
        } else if (!isOption && !spec.constants.count(key))
          configConstants[key] = *c;
      }
      if (const Keyword *key = call->findKeyword("key")) {
        KValue keys = evalDecorator(*key->value);
        SmallVector<Attribute> names;
        if (keys.isTuple())
          for (const KValue &k : keys.elements())
            if (k.isStr())
              names.push_back(builder_.getStringAttr(k.name()));
        kernel->setAttr("tile.autotune_key", builder_.getArrayAttr(names));
      }
    } else if (name == "ct.function") {
      error(dec->range, "'" + fn.name + "' is a @ct.function helper, not a kernel; call it from a kernel");
      return false;
    } else if (d.kind() == KValue::Kind::Builtin) {
      error(dec->range, "unsupported decorator on kernel '" + fn.name + "' (expected @ct.kernel or @ct.autotune)");
      ok = false;
    } else {
      // A decorator of the host program (TileGym's @experimental_kernel, a registry): it acts
      // on the Python function, not on the kernel body this compiles.
      diags_.warning(dec->range, "a decorator that is not cuTile's on kernel '" + fn.name +
                                     "': ignored (the kernel compiles as written)");
    }
  }
  if (!isKernel) {
    error(fn.nameRange, "'" + fn.name + "' is not a kernel (decorate it with @ct.kernel)");
    return false;
  }
  // Configuration 0 is the kernel as written; any other index needs @ct.autotune.
  if (spec.config.value_or(0) > 0 && !kernel->hasAttr("tile.autotune_configs")) {
    error(fn.nameRange, "configuration " + std::to_string(*spec.config) + " was requested but kernel '" + fn.name +
                            "' has no @ct.autotune configs");
    ok = false;
  }
  for (auto &[name, value] : options) {
    SourceRange where = optionRanges[name];
    if (name == "occupancy" && (value < 1 || value > 32)) {
      error(where, "occupancy " + std::to_string(value) + " is out of range [1, 32]");
      ok = false;
    } else if (name == "num_ctas" && (value < 1 || value > 16 || (value & (value - 1)))) {
      error(where, "num_ctas " + std::to_string(value) + " must be a power of two in [1, 16]");
      ok = false;
    } else if (name == "num_threads" && (value < 32 || value > 1024 || (value & (value - 1)))) {
      error(where, "num_threads " + std::to_string(value) + " must be a power of two from 32 to 1024");
      ok = false;
    } else if (name == "warp_specialize") {
      kernel->setAttr(name, builder_.getBoolAttr(value != 0));
    } else {
      kernel->setAttr(name, builder_.getI32IntegerAttr(static_cast<int32_t>(value)));
      // Clusters exist from sm_90 on; the launch forms them (preferred_cluster_size in the
      // metadata). An older target runs the blocks on their own: say so.
      if (name == "num_ctas" && value > 1 && archNumber(arch_) && archNumber(arch_) < 90)
        diags_.warning(where, "num_ctas=" + std::to_string(value) + " has no effect on " + arch_ +
                                  ": thread-block clusters need sm_90 or newer, so the blocks run unclustered");
    }
  }
  return ok;
}

bool KernelIRGen::bindKernelParams(const FunctionDefStmt &fn, const Specialization &spec,
                                   const std::map<std::string, ConstantValue> &configConstants,
                                   SmallVectorImpl<Type> &argTypes,
                                   std::vector<std::pair<std::string, KValue>> &constants,
                                   std::vector<std::pair<std::string, size_t>> &runtimeArgs,
                                   const std::set<std::string> &factoryNames, const std::string &kernelName) {
  bool ok = true;
  const std::string shown = kernelName.empty() ? fn.name : kernelName;
  const SpecOptionNames &names = spec.optionNames;
  std::vector<std::string> missingConstants, missingArgs;
  std::set<std::string> paramNames;
  for (const Param &p : fn.params) {
    paramNames.insert(p.name);
    std::string kind;
    if (constantAnnotation(p.annotation.get(), kind)) {
      if (spec.args.count(p.name)) {
        error(p.nameRange,
              "'" + p.name + "' is a ct.Constant parameter; pass it with " + names.constant + ", not " + names.arg);
        ok = false;
        continue;
      }
      std::optional<ConstantValue> given;
      if (auto it = spec.constants.find(p.name); it != spec.constants.end())
        given = it->second;
      else if (auto cit = configConstants.find(p.name); cit != configConstants.end())
        given = cit->second;
      KValue value;
      if (given) {
        if (auto *b = std::get_if<bool>(&*given))
          value = KValue::boolean(*b);
        else if (auto *i = std::get_if<int64_t>(&*given))
          value = KValue::integer(*i);
        else
          value = KValue::floating(std::get<double>(*given));
      } else if (p.defaultValue) {
        value = evalDecorator(*p.defaultValue);
        if (value.isError()) {
          ok = false;
          continue;
        }
      } else {
        missingConstants.push_back(p.name);
        continue;
      }
      // Check and convert to the annotated kind.
      if (kind == "int" && !value.isInt()) {
        error(p.range, "constant '" + p.name + "' is declared ct.Constant[int] but was given " + describe(value));
        ok = false;
      } else if (kind == "bool" && !value.isBool()) {
        error(p.range, "constant '" + p.name + "' is declared ct.Constant[bool] but was given " + describe(value));
        ok = false;
      } else if (kind == "float" && !value.isFloat()) {
        if (value.isInt())
          value = KValue::floating(static_cast<double>(value.intValue()));
        else {
          error(p.range, "constant '" + p.name + "' is declared ct.Constant[float] but was given " + describe(value));
          ok = false;
        }
      } else if (!kind.empty() && kind != "int" && kind != "bool" && kind != "float") {
        error(p.annotation->range,
              "unsupported constant type '" + kind + "' (expected ct.Constant[int], [float] or [bool])");
        ok = false;
      }
      constants.emplace_back(p.name, value);
      continue;
    }
    if (p.defaultValue) {
      error(p.defaultValue->range, "only ct.Constant parameters may have default values");
      ok = false;
    }
    if (spec.constants.count(p.name)) {
      error(p.nameRange, "'" + p.name + "' is not a ct.Constant parameter; pass its type with " + names.arg + ", not " +
                             names.constant);
      ok = false;
      continue;
    }
    auto it = spec.args.find(p.name);
    if (it == spec.args.end()) {
      missingArgs.push_back(p.name);
      continue;
    }
    Type elt = dtypeFromName(it->second.dtype);
    if (!elt) {
      error(p.nameRange, "argument '" + p.name + "' has unknown dtype '" + it->second.dtype + "'");
      ok = false;
      continue;
    }

    // Scalar annotations (`n: int`) must agree with the given type.
    if (auto *ann = p.annotation ? p.annotation->dynCast<NameExpr>() : nullptr) {
      bool isInt = isa<IntegerType>(elt) && !elt.isInteger(1);
      bool mismatch = (ann->id == "int" && (!isInt || it->second.isArray())) ||
                      (ann->id == "float" && (!isa<FloatType>(elt) || it->second.isArray())) ||
                      (ann->id == "bool" && (!elt.isInteger(1) || it->second.isArray()));
      if (mismatch) {
        error(p.range, "argument '" + p.name + "' is annotated '" + ann->id + "' but was given " + it->second.dtype +
                           ":" + std::to_string(it->second.rank));
        ok = false;
        continue;
      }
    }
    Type type = it->second.isArray() ? Type(mlir::tile::ArrayType::getDynamic(elt, it->second.rank)) : elt;
    if (it->second.isList()) {
      // One parameter per element, NAME[i] (listElementName), the tuple NAME in the kernel.
      for (int64_t i = 0; i < it->second.listLength; ++i) {
        runtimeArgs.emplace_back(listElementName(p.name, i), argTypes.size());
        argTypes.push_back(type);
      }
      continue;
    }
    runtimeArgs.emplace_back(p.name, argTypes.size());
    argTypes.push_back(type);
  }
  auto join = [](const std::vector<std::string> &names) {
    std::string s;
    for (size_t i = 0; i < names.size(); ++i)
      s += (i ? ", " : "") + names[i];
    return s;
  };
  if (!missingConstants.empty()) {
    error(fn.nameRange, "kernel '" + shown + "' needs values for constants: " + join(missingConstants) + " (pass " +
                            names.constantForm + ")");
    ok = false;
  }
  if (!missingArgs.empty()) {
    error(fn.nameRange,
          "kernel '" + shown + "' needs types for arguments: " + join(missingArgs) + " (pass " + names.argForm + ")");
    ok = false;
  }
  for (const auto &[name, _] : spec.constants)
    if (!paramNames.count(name) && !factoryNames.count(name)) {
      error(fn.nameRange, "kernel '" + shown + "' has no parameter '" + name + "' (given with " + names.constant + ")");
      ok = false;
    }
  for (const auto &[name, _] : spec.args)
    if (!paramNames.count(name)) {
      error(fn.nameRange, "kernel '" + shown + "' has no parameter '" + name + "' (given with " + names.arg + ")");
      ok = false;
    }
  return ok;
}

//===----------------------------------------------------------------------===//
// Entry
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> KernelIRGen::emit(const Specialization &spec) {
  arch_ = spec.arch;
  collectModuleScope();
  std::vector<std::string> ambiguous;
  FunctionRef ref = module_.resolveFunction(spec.kernel, &ambiguous);
  const FunctionDefStmt *fn = ref.fn;
  if (!fn && ambiguous.size() > 1) {
    std::string candidates;
    for (const std::string &name : ambiguous)
      candidates += (candidates.empty() ? "" : ", ") + name;
    error(SourceRange(), "kernel name '" + spec.kernel + "' is ambiguous in " +
                             (module_.file ? module_.file->name() : "the source") + ": name one of " + candidates);
    return nullptr;
  }
  if (!fn) {
    std::string kernels;
    for (const FunctionDefStmt *f : module_.functions())
      kernels += (kernels.empty() ? "" : ", ") + f->name;
    for (const FunctionRef &nested : module_.nestedFunctions())
      kernels += ", " + nested.qualifiedName();
    // No location: the start of the file (a comment or an import) is not where the problem is.
    error(SourceRange(), "no kernel named '" + spec.kernel + "' in " +
                             (module_.file ? module_.file->name() : "the source") +
                             (kernels.empty() ? " (it defines no functions)" : " (functions: " + kernels + ")"));
    return nullptr;
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(loc(fn->range));
  builder_.setInsertionPointToEnd(module->getBody());
  auto kernel = mlir::tile::KernelOp::create(builder_, loc(fn->nameRange), fn->name, builder_.getFunctionType({}, {}));
  SmallVector<Type> argTypes;
  std::vector<std::pair<std::string, KValue>> constants;
  std::vector<std::pair<std::string, size_t>> runtimeArgs;
  std::set<std::string> factoryNames;
  if (ref.factory && !bindFactoryConstants(*ref.factory, *fn, spec, constants, factoryNames))
    return nullptr;
  // The decorators see the factory's constants.
  Scope factoryScope(constants.begin(), constants.end());
  decoratorScope_ = &factoryScope;
  std::map<std::string, ConstantValue> configConstants;
  const bool decorated = applyDecorators(*fn, kernel, configConstants, spec);
  decoratorScope_ = nullptr;
  if (!decorated)
    return nullptr;
  if (!bindKernelParams(*fn, spec, configConstants, argTypes, constants, runtimeArgs, factoryNames,
                        ref.qualifiedName()))
    return nullptr;
  kernel.setFunctionType(builder_.getFunctionType(argTypes, {}));
  SmallVector<NamedAttribute> constAttrs;
  for (auto &[name, value] : constants) {
    if (value.isBool())
      constAttrs.push_back(builder_.getNamedAttr(name, builder_.getBoolAttr(value.boolValue())));
    else if (value.isInt())
      constAttrs.push_back(builder_.getNamedAttr(name, builder_.getI64IntegerAttr(value.intValue())));
    else if (value.isFloat())
      constAttrs.push_back(builder_.getNamedAttr(name, builder_.getF64FloatAttr(value.floatValue())));
  }
  if (!constAttrs.empty())
    kernel.setConstantsAttr(builder_.getDictionaryAttr(constAttrs));

  Block *entry = kernel.addEntryBlock();
  // The facts the caller promised about an array (Specialization.h), for the code generator.
  for (auto &[name, index] : runtimeArgs)
    if (const ArgType &type = spec.args.at(listParamName(name)); type.aligned && type.isArray())
      kernel.setArgAttr(unsigned(index), mlir::tile::kAlignedArgAttr, builder_.getUnitAttr());
  for (auto &[name, index] : runtimeArgs)
    // A NameLoc carries the parameter name to the launch metadata (and runtime messages).
    entry->getArgument(index).setLoc(
        NameLoc::get(builder_.getStringAttr(name), loc(fn->findParam(listParamName(name))->nameRange)));
  Scope scope;
  std::map<std::string, std::string> undefined;
  for (auto &[name, value] : constants)
    scope[name] = value;
  scope[kReturnFlag] = KValue::boolean(false);
  std::map<std::string, std::vector<KValue>> lists;
  for (auto &[name, index] : runtimeArgs) {
    if (name != listParamName(name))
      lists[listParamName(name)].push_back(KValue::runtime(entry->getArgument(index)));
    else
      scope[name] = KValue::runtime(entry->getArgument(index));
  }
  for (auto &[name, type] : spec.args)
    if (type.isList())
      scope[name] = KValue::tuple(lists[name]); // (empty for an empty list)
  scope_ = &scope;
  undefined_ = &undefined;
  frames_.push_back({fn, std::nullopt, false});
  builder_.setInsertionPointToEnd(entry);
  emitBlock(fn->body);
  frames_.pop_back();
  builder_.setInsertionPointToEnd(entry);
  mlir::tile::ReturnOp::create(builder_, loc(SourceRange(fn->range.end)));
  scope_ = nullptr;
  undefined_ = nullptr;
  if (diags_.hasErrors() || !dropSignedness(*module))
    return nullptr;

  // Everything was checked while generating; a verifier failure here is a front-end bug, but
  // it still becomes a diagnostic with the op's source location, never a crash.
  bool verified = true;
  {
    ScopedDiagnosticHandler handler(&context_, [&](mlir::Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        error(sourceRangeOf(diags_.sources(), diag.getLocation()),
              "internal error: generated IR does not verify: " + diag.str());
      return success();
    });
    verified = succeeded(mlir::verify(*module));
  }
  if (!verified)
    return nullptr;
  return module;
}

} // namespace tile::frontend
