#include "compiler/frontend/AST.h"

namespace tile::frontend {

const char *spelling(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add:
    return "+";
  case BinOpKind::Sub:
    return "-";
  case BinOpKind::Mult:
    return "*";
  case BinOpKind::Div:
    return "/";
  case BinOpKind::FloorDiv:
    return "//";
  case BinOpKind::Mod:
    return "%";
  case BinOpKind::Pow:
    return "**";
  case BinOpKind::MatMult:
    return "@";
  case BinOpKind::BitAnd:
    return "&";
  case BinOpKind::BitOr:
    return "|";
  case BinOpKind::BitXor:
    return "^";
  case BinOpKind::LShift:
    return "<<";
  case BinOpKind::RShift:
    return ">>";
  }
  return "?";
}

const char *spelling(UnaryOpKind op) {
  switch (op) {
  case UnaryOpKind::Neg:
    return "-";
  case UnaryOpKind::Pos:
    return "+";
  case UnaryOpKind::Invert:
    return "~";
  case UnaryOpKind::Not:
    return "not";
  }
  return "?";
}

const char *spelling(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }

const char *spelling(CmpOpKind op) {
  switch (op) {
  case CmpOpKind::Eq:
    return "==";
  case CmpOpKind::NotEq:
    return "!=";
  case CmpOpKind::Lt:
    return "<";
  case CmpOpKind::LtE:
    return "<=";
  case CmpOpKind::Gt:
    return ">";
  case CmpOpKind::GtE:
    return ">=";
  case CmpOpKind::Is:
    return "is";
  case CmpOpKind::IsNot:
    return "is not";
  case CmpOpKind::In:
    return "in";
  case CmpOpKind::NotIn:
    return "not in";
  }
  return "?";
}

const char *exprKindName(ExprKind kind) {
  switch (kind) {
#define TILE_X(kind)                                                                                                   \
  case ExprKind::kind:                                                                                                 \
    return #kind;
    TILE_FOREACH_EXPR_KIND(TILE_X)
#undef TILE_X
  }
  return "?";
}

const char *stmtKindName(StmtKind kind) {
  switch (kind) {
#define TILE_X(kind)                                                                                                   \
  case StmtKind::kind:                                                                                                 \
    return #kind;
    TILE_FOREACH_STMT_KIND(TILE_X)
#undef TILE_X
  }
  return "?";
}

const Keyword *CallExpr::findKeyword(const std::string &name) const {
  for (const Keyword &kw : keywords)
    if (kw.name == name)
      return &kw;
  return nullptr;
}

std::vector<const Expr *> SubscriptExpr::indices() const {
  std::vector<const Expr *> result;
  if (!index)
    return result;
  if (const auto *tuple = index->dynCast<TupleExpr>(); tuple && !tuple->parenthesized) {
    for (const ExprPtr &e : tuple->elts)
      result.push_back(e.get());
    return result;
  }
  result.push_back(index.get());
  return result;
}

const Param *FunctionDefStmt::findParam(const std::string &paramName) const {
  for (const Param &p : params)
    if (p.name == paramName)
      return &p;
  return nullptr;
}

std::string ImportAlias::boundName() const {
  if (!asName.empty())
    return asName;
  return name.substr(0, name.find('.'));
}

std::vector<const FunctionDefStmt *> Module::functions() const {
  std::vector<const FunctionDefStmt *> result;
  for (const StmtPtr &s : body)
    if (const auto *fn = s->dynCast<FunctionDefStmt>())
      result.push_back(fn);
  return result;
}

const FunctionDefStmt *Module::findFunction(const std::string &name) const {
  for (const StmtPtr &s : body)
    if (const auto *fn = s->dynCast<FunctionDefStmt>(); fn && fn->name == name)
      return fn;
  return nullptr;
}

std::string FunctionRef::qualifiedName() const {
  if (!fn)
    return "";
  return factory ? factory->name + "." + fn->name : fn->name;
}

bool isTileDecorator(const Expr &e) {
  const Expr *d = &e;
  if (auto *call = d->dynCast<CallExpr>())
    d = call->func.get();
  std::string last;
  if (auto *attr = d->dynCast<AttributeExpr>())
    last = attr->attr;
  else if (auto *name = d->dynCast<NameExpr>())
    last = name->id;
  return last == "kernel" || last == "function" || last == "autotune";
}

// Host functions nested in host code are never evaluated: only decorated ones are kernel code.
static bool hasTileDecorator(const FunctionDefStmt &fn) {
  for (const ExprPtr &e : fn.decorators)
    if (isTileDecorator(*e))
      return true;
  return false;
}

std::vector<FunctionRef> Module::nestedFunctions() const {
  std::vector<FunctionRef> result;
  for (const FunctionDefStmt *factory : functions())
    for (const StmtPtr &s : factory->body)
      if (const auto *fn = s->dynCast<FunctionDefStmt>(); fn && hasTileDecorator(*fn))
        result.push_back(FunctionRef{fn, factory});
  return result;
}

FunctionRef Module::resolveFunction(const std::string &name, std::vector<std::string> *ambiguous) const {
  if (const FunctionDefStmt *fn = findFunction(name))
    return FunctionRef{fn, nullptr};
  FunctionRef found;
  std::vector<std::string> plain;
  for (const FunctionRef &ref : nestedFunctions()) {
    if (ref.qualifiedName() == name)
      return ref;
    if (ref.fn->name == name) {
      plain.push_back(ref.qualifiedName());
      found = ref;
    }
  }
  if (plain.size() == 1)
    return found;
  if (ambiguous)
    *ambiguous = plain;
  return FunctionRef{};
}

const HostCode *Module::findHostCode(const std::string &name) const {
  for (const HostCode &h : hostCode)
    for (const std::string &n : h.names)
      if (n == name)
        return &h;
  return nullptr;
}

} // namespace tile::frontend
