// The abstract syntax tree of the kernel language.
//
// Shaped like Python's `ast` module (same node and field names where sensible) so anyone who
// knows Python's AST can walk it. Nodes are plain structs with public fields, owned through
// std::unique_ptr; every node has a source range. Dispatch on kind() with a switch, with
// node->dynCast<CallExpr>() / isa<>() / as<>() (classof() is also there, so llvm::isa and
// llvm::dyn_cast work too), with ExprVisitor / StmtVisitor, or walk with forEachChild().
//
// After a syntax error the parser may leave an ErrorExpr where an expression could not be
// built; sema should treat it as "already diagnosed" and stay silent about it.
#pragma once

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/Source.h"

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tile::frontend {

class Expr;
class Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using ExprList = std::vector<ExprPtr>;
using StmtList = std::vector<StmtPtr>;

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

enum class BinOpKind : uint8_t {
  Add,
  Sub,
  Mult,
  Div,
  FloorDiv,
  Mod,
  Pow,
  MatMult,
  BitAnd,
  BitOr,
  BitXor,
  LShift,
  RShift
};
enum class UnaryOpKind : uint8_t { Neg, Pos, Invert, Not };
enum class BoolOpKind : uint8_t { And, Or };
enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// Source spellings: "+", "//", "not", "and", "is not", "not in", ...
const char *spelling(BinOpKind op);
const char *spelling(UnaryOpKind op);
const char *spelling(BoolOpKind op);
const char *spelling(CmpOpKind op);

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

// X(Kind): the node class is Kind##Expr.
// clang-format off
#define TILE_FOREACH_EXPR_KIND(X)                                                          \
  X(Name) X(IntLit) X(FloatLit) X(StrLit) X(BoolLit) X(NoneLit) X(Ellipsis) X(Tuple)       \
  X(List) X(Dict) X(BinOp) X(UnaryOp) X(BoolOp) X(Compare) X(IfExp) X(Call) X(Attribute)   \
  X(Subscript) X(Slice) X(FString) X(Error)
// clang-format on

enum class ExprKind : uint8_t {
#define TILE_X(kind) kind,
  TILE_FOREACH_EXPR_KIND(TILE_X)
#undef TILE_X
};
/// "Name", "BinOp", ...
const char *exprKindName(ExprKind kind);

class Expr {
public:
  virtual ~Expr() = default;
  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;

  ExprKind kind() const { return kind_; }
  SourceLoc loc() const { return range.begin; }

  template <class T> bool isa() const { return T::classof(this); }
  template <class T> T *dynCast() { return isa<T>() ? static_cast<T *>(this) : nullptr; }
  template <class T> const T *dynCast() const { return isa<T>() ? static_cast<const T *>(this) : nullptr; }
  template <class T> T &as() {
    assert(isa<T>() && "wrong expression kind");
    return static_cast<T &>(*this);
  }
  template <class T> const T &as() const {
    assert(isa<T>() && "wrong expression kind");
    return static_cast<const T &>(*this);
  }

  /// The source text the node covers. A parenthesized expression's range includes the
  /// parentheses.
  SourceRange range;

protected:
  Expr(ExprKind kind, SourceRange range) : range(range), kind_(kind) {}

private:
  const ExprKind kind_;
};

// clang-format off
#define TILE_EXPR_CLASSOF(K)                                                               \
  static bool classof(const Expr *e) { return e->kind() == ExprKind::K; }
// clang-format on

/// `x`
class NameExpr : public Expr {
public:
  NameExpr(SourceRange r, std::string id) : Expr(ExprKind::Name, r), id(std::move(id)) {}
  TILE_EXPR_CLASSOF(Name)
  std::string id;
};

/// `42`, `0x_ff`: always fits in int64 (larger literals are a parse error).
class IntLitExpr : public Expr {
public:
  IntLitExpr(SourceRange r, int64_t value) : Expr(ExprKind::IntLit, r), value(value) {}
  TILE_EXPR_CLASSOF(IntLit)
  int64_t value;
};

/// `1.0`, `1e-3`, `.5`
class FloatLitExpr : public Expr {
public:
  FloatLitExpr(SourceRange r, double value) : Expr(ExprKind::FloatLit, r), value(value) {}
  TILE_EXPR_CLASSOF(FloatLit)
  double value;
};

/// `"x.dtype"`; adjacent literals are already concatenated, escapes decoded (UTF-8).
class StrLitExpr : public Expr {
public:
  StrLitExpr(SourceRange r, std::string value) : Expr(ExprKind::StrLit, r), value(std::move(value)) {}
  TILE_EXPR_CLASSOF(StrLit)
  std::string value;
};

/// `f"got {n} vs {m:>4}"`: literal text around fields, each an expression with its conversion
/// ('r', 's', 'a', or 0 for none) and format spec; text[i] comes before fields[i], and text
/// has one more entry than fields.
class FStringExpr : public Expr {
public:
  struct Field {
    ExprPtr value;
    char conversion = 0;
    std::string spec;
  };
  FStringExpr(SourceRange r, std::vector<std::string> text, std::vector<Field> fields)
      : Expr(ExprKind::FString, r), text(std::move(text)), fields(std::move(fields)) {}
  TILE_EXPR_CLASSOF(FString)
  std::vector<std::string> text;
  std::vector<Field> fields;
};

/// `True`, `False`
class BoolLitExpr : public Expr {
public:
  BoolLitExpr(SourceRange r, bool value) : Expr(ExprKind::BoolLit, r), value(value) {}
  TILE_EXPR_CLASSOF(BoolLit)
  bool value;
};

/// `None` (also the new-axis marker in `t[:, None]`)
class NoneLitExpr : public Expr {
public:
  explicit NoneLitExpr(SourceRange r) : Expr(ExprKind::NoneLit, r) {}
  TILE_EXPR_CLASSOF(NoneLit)
};

/// `...`
class EllipsisExpr : public Expr {
public:
  explicit EllipsisExpr(SourceRange r) : Expr(ExprKind::Ellipsis, r) {}
  TILE_EXPR_CLASSOF(Ellipsis)
};

/// `(a, b)`, `a, b` (unparenthesized in assignments, returns and subscripts), `()`
class TupleExpr : public Expr {
public:
  TupleExpr(SourceRange r, ExprList elts, bool parenthesized)
      : Expr(ExprKind::Tuple, r), elts(std::move(elts)), parenthesized(parenthesized) {}
  TILE_EXPR_CLASSOF(Tuple)
  ExprList elts;
  bool parenthesized;
};

/// `[a, b]`
class ListExpr : public Expr {
public:
  ListExpr(SourceRange r, ExprList elts) : Expr(ExprKind::List, r), elts(std::move(elts)) {}
  TILE_EXPR_CLASSOF(List)
  ExprList elts;
};

/// `{k: v, ...}`; keys.size() == values.size()
class DictExpr : public Expr {
public:
  DictExpr(SourceRange r, ExprList keys, ExprList values)
      : Expr(ExprKind::Dict, r), keys(std::move(keys)), values(std::move(values)) {}
  TILE_EXPR_CLASSOF(Dict)
  ExprList keys;
  ExprList values;
};

/// `lhs op rhs`
class BinOpExpr : public Expr {
public:
  BinOpExpr(SourceRange r, BinOpKind op, SourceRange opRange, ExprPtr lhs, ExprPtr rhs)
      : Expr(ExprKind::BinOp, r), op(op), opRange(opRange), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  TILE_EXPR_CLASSOF(BinOp)
  BinOpKind op;
  SourceRange opRange; // the operator token
  ExprPtr lhs;
  ExprPtr rhs;
};

/// `-x`, `+x`, `~x`, `not x`
class UnaryOpExpr : public Expr {
public:
  UnaryOpExpr(SourceRange r, UnaryOpKind op, SourceRange opRange, ExprPtr operand)
      : Expr(ExprKind::UnaryOp, r), op(op), opRange(opRange), operand(std::move(operand)) {}
  TILE_EXPR_CLASSOF(UnaryOp)
  UnaryOpKind op;
  SourceRange opRange;
  ExprPtr operand;
};

/// `a and b and c` (one node for a run of the same operator, as in Python)
class BoolOpExpr : public Expr {
public:
  BoolOpExpr(SourceRange r, BoolOpKind op, ExprList values)
      : Expr(ExprKind::BoolOp, r), op(op), values(std::move(values)) {}
  TILE_EXPR_CLASSOF(BoolOp)
  BoolOpKind op;
  ExprList values; // at least two
};

/// `left op0 comparators[0] op1 comparators[1] ...`: a chain `a < b <= c` is one node with
/// two operators, kept as written so sema can reject or expand it.
class CompareExpr : public Expr {
public:
  CompareExpr(SourceRange r, ExprPtr left) : Expr(ExprKind::Compare, r), left(std::move(left)) {}
  TILE_EXPR_CLASSOF(Compare)
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  std::vector<SourceRange> opRanges;
  ExprList comparators; // same length as ops
};

/// `body if test else orelse`
class IfExpExpr : public Expr {
public:
  IfExpExpr(SourceRange r, ExprPtr test, ExprPtr body, ExprPtr orelse)
      : Expr(ExprKind::IfExp, r), test(std::move(test)), body(std::move(body)), orelse(std::move(orelse)) {}
  TILE_EXPR_CLASSOF(IfExp)
  ExprPtr test;
  ExprPtr body;
  ExprPtr orelse;
};

/// A keyword argument `name=value` of a call.
struct Keyword {
  std::string name;
  SourceRange nameRange;
  ExprPtr value;
  SourceRange range; // name through value
};

/// `func(args..., name=value, ...)`
class CallExpr : public Expr {
public:
  CallExpr(SourceRange r, ExprPtr func) : Expr(ExprKind::Call, r), func(std::move(func)) {}
  TILE_EXPR_CLASSOF(Call)
  /// The keyword argument called `name`, or nullptr.
  const Keyword *findKeyword(const std::string &name) const;

  ExprPtr func;
  ExprList args;
  std::vector<Keyword> keywords;
};

/// `value.attr`
class AttributeExpr : public Expr {
public:
  AttributeExpr(SourceRange r, ExprPtr value, std::string attr, SourceRange attrRange)
      : Expr(ExprKind::Attribute, r), value(std::move(value)), attr(std::move(attr)), attrRange(attrRange) {}
  TILE_EXPR_CLASSOF(Attribute)
  ExprPtr value;
  std::string attr;
  SourceRange attrRange;
};

/// `value[index]`. As in Python, `t[i, j]` has an unparenthesized TupleExpr index whose
/// elements may be SliceExpr or NoneLitExpr (new axis); indices() flattens that.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SourceRange r, ExprPtr value, ExprPtr index)
      : Expr(ExprKind::Subscript, r), value(std::move(value)), index(std::move(index)) {}
  TILE_EXPR_CLASSOF(Subscript)
  /// The index expressions: the elements of an unparenthesized tuple index, else {index}.
  std::vector<const Expr *> indices() const;

  ExprPtr value;
  ExprPtr index;
};

/// `lower:upper:step` inside a subscript; each part may be null.
class SliceExpr : public Expr {
public:
  SliceExpr(SourceRange r, ExprPtr lower, ExprPtr upper, ExprPtr step)
      : Expr(ExprKind::Slice, r), lower(std::move(lower)), upper(std::move(upper)), step(std::move(step)) {}
  TILE_EXPR_CLASSOF(Slice)
  ExprPtr lower;
  ExprPtr upper;
  ExprPtr step;
};

/// Placeholder for an expression that was diagnosed (unsupported construct, bad literal).
class ErrorExpr : public Expr {
public:
  explicit ErrorExpr(SourceRange r) : Expr(ExprKind::Error, r) {}
  TILE_EXPR_CLASSOF(Error)
};

#undef TILE_EXPR_CLASSOF

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

// X(Kind): the node class is Kind##Stmt.
// clang-format off
#define TILE_FOREACH_STMT_KIND(X)                                                          \
  X(FunctionDef) X(Import) X(ImportFrom) X(Assign) X(AugAssign) X(AnnAssign) X(Expr) X(For) \
  X(If) X(While) X(Return) X(Pass) X(Break) X(Continue) X(Assert)
// clang-format on

enum class StmtKind : uint8_t {
#define TILE_X(kind) kind,
  TILE_FOREACH_STMT_KIND(TILE_X)
#undef TILE_X
};
/// "FunctionDef", "Assign", ...
const char *stmtKindName(StmtKind kind);

class Stmt {
public:
  virtual ~Stmt() = default;
  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;

  StmtKind kind() const { return kind_; }
  SourceLoc loc() const { return range.begin; }

  template <class T> bool isa() const { return T::classof(this); }
  template <class T> T *dynCast() { return isa<T>() ? static_cast<T *>(this) : nullptr; }
  template <class T> const T *dynCast() const { return isa<T>() ? static_cast<const T *>(this) : nullptr; }
  template <class T> T &as() {
    assert(isa<T>() && "wrong statement kind");
    return static_cast<T &>(*this);
  }
  template <class T> const T &as() const {
    assert(isa<T>() && "wrong statement kind");
    return static_cast<const T &>(*this);
  }

  /// From the statement's first token (the keyword for compound statements; `def` for
  /// functions, decorators excluded) to the end of its last token or last body statement.
  SourceRange range;

protected:
  Stmt(StmtKind kind, SourceRange range) : range(range), kind_(kind) {}

private:
  const StmtKind kind_;
};

// clang-format off
#define TILE_STMT_CLASSOF(K)                                                               \
  static bool classof(const Stmt *s) { return s->kind() == StmtKind::K; }
// clang-format on

/// A parameter `name: annotation = default` of a function definition.
struct Param {
  std::string name;
  SourceRange nameRange;
  ExprPtr annotation;   // may be null
  ExprPtr defaultValue; // may be null
  SourceRange range;    // name through annotation/default
};

/// `@decorator... def name(params) -> returns: body`
class FunctionDefStmt : public Stmt {
public:
  FunctionDefStmt(SourceRange r, std::string name, SourceRange nameRange)
      : Stmt(StmtKind::FunctionDef, r), name(std::move(name)), nameRange(nameRange) {}
  TILE_STMT_CLASSOF(FunctionDef)
  const Param *findParam(const std::string &name) const;

  std::string name;
  SourceRange nameRange;
  /// Decorator expressions in source order, e.g. `ct.kernel`, `ct.kernel(occupancy=2)`,
  /// `ct.autotune(configs=[...], key=[...])` (an AttributeExpr or a CallExpr of one).
  ExprList decorators;
  std::vector<Param> params;
  ExprPtr returns; // `-> annotation`, may be null
  StmtList body;
};

/// One name of an import: `cuda.tile as ct` (name "cuda.tile", asName "ct").
struct ImportAlias {
  std::string name;   // dotted
  std::string asName; // empty without `as`
  SourceRange range;
  /// The name the import binds: asName, else (for `import a.b`) the first component.
  std::string boundName() const;
};

/// `import a.b as c, d`
class ImportStmt : public Stmt {
public:
  explicit ImportStmt(SourceRange r) : Stmt(StmtKind::Import, r) {}
  TILE_STMT_CLASSOF(Import)
  std::vector<ImportAlias> names;
};

/// `from ..module import a as b, c`
class ImportFromStmt : public Stmt {
public:
  ImportFromStmt(SourceRange r, std::string module, unsigned level)
      : Stmt(StmtKind::ImportFrom, r), module(std::move(module)), level(level) {}
  TILE_STMT_CLASSOF(ImportFrom)
  std::string module; // dotted; empty for `from . import x`
  unsigned level;     // number of leading dots
  std::vector<ImportAlias> names;
};

/// `targets[0] = targets[1] = ... = value`; a target may be a TupleExpr (unpacking).
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceRange r, ExprList targets, ExprPtr value)
      : Stmt(StmtKind::Assign, r), targets(std::move(targets)), value(std::move(value)) {}
  TILE_STMT_CLASSOF(Assign)
  ExprList targets;
  ExprPtr value;
};

/// `target op= value`
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SourceRange r, ExprPtr target, BinOpKind op, SourceRange opRange, ExprPtr value)
      : Stmt(StmtKind::AugAssign, r), target(std::move(target)), op(op), opRange(opRange), value(std::move(value)) {}
  TILE_STMT_CLASSOF(AugAssign)
  ExprPtr target;
  BinOpKind op;
  SourceRange opRange; // the `+=` token
  ExprPtr value;
};

/// `target: annotation = value` (value may be null)
class AnnAssignStmt : public Stmt {
public:
  AnnAssignStmt(SourceRange r, ExprPtr target, ExprPtr annotation, ExprPtr value)
      : Stmt(StmtKind::AnnAssign, r), target(std::move(target)), annotation(std::move(annotation)),
        value(std::move(value)) {}
  TILE_STMT_CLASSOF(AnnAssign)
  ExprPtr target;
  ExprPtr annotation;
  ExprPtr value;
};

/// An expression used as a statement (usually a call such as `ct.store(...)`).
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceRange r, ExprPtr value) : Stmt(StmtKind::Expr, r), value(std::move(value)) {}
  TILE_STMT_CLASSOF(Expr)
  ExprPtr value;
};

/// `for target in iter: body` (`else` clauses are rejected by the parser)
class ForStmt : public Stmt {
public:
  ForStmt(SourceRange r, ExprPtr target, ExprPtr iter)
      : Stmt(StmtKind::For, r), target(std::move(target)), iter(std::move(iter)) {}
  TILE_STMT_CLASSOF(For)
  ExprPtr target; // a NameExpr or a TupleExpr of targets
  ExprPtr iter;
  StmtList body;
};

/// `while test: body` (`else` clauses are rejected by the parser)
class WhileStmt : public Stmt {
public:
  WhileStmt(SourceRange r, ExprPtr test) : Stmt(StmtKind::While, r), test(std::move(test)) {}
  TILE_STMT_CLASSOF(While)
  ExprPtr test;
  StmtList body;
};

/// One `if` or `elif` arm.
struct IfBranch {
  SourceRange keywordRange; // the `if` / `elif` token
  ExprPtr test;
  StmtList body;
};

/// `if a: ... elif b: ... else: ...` as one node: the arms in order, then the else body.
/// (Kept flat, unlike Python's nested orelse, so long elif chains do not nest.)
class IfStmt : public Stmt {
public:
  explicit IfStmt(SourceRange r) : Stmt(StmtKind::If, r) {}
  TILE_STMT_CLASSOF(If)
  std::vector<IfBranch> branches; // at least one; branches[0] is the `if`
  SourceRange elseRange;          // the `else` token; invalid without an else
  StmtList orelse;
};

/// `return` or `return value` (a TupleExpr for `return a, b`)
class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceRange r, ExprPtr value) : Stmt(StmtKind::Return, r), value(std::move(value)) {}
  TILE_STMT_CLASSOF(Return)
  ExprPtr value; // may be null
};

class PassStmt : public Stmt {
public:
  explicit PassStmt(SourceRange r) : Stmt(StmtKind::Pass, r) {}
  TILE_STMT_CLASSOF(Pass)
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(SourceRange r) : Stmt(StmtKind::Break, r) {}
  TILE_STMT_CLASSOF(Break)
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(SourceRange r) : Stmt(StmtKind::Continue, r) {}
  TILE_STMT_CLASSOF(Continue)
};

/// `assert test, msg`
class AssertStmt : public Stmt {
public:
  AssertStmt(SourceRange r, ExprPtr test, ExprPtr msg)
      : Stmt(StmtKind::Assert, r), test(std::move(test)), msg(std::move(msg)) {}
  TILE_STMT_CLASSOF(Assert)
  ExprPtr test;
  ExprPtr msg; // may be null
};

#undef TILE_STMT_CLASSOF

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// A top-level statement of host code the parser could not read (a `class`, a function with
/// `raise` or a comprehension, ...): set aside so that only a kernel that uses one of the
/// names it defines gets the error.
struct HostCode {
  std::vector<std::string> names; // the names it would define (may be empty)
  SourceRange range;              // its first token
  std::vector<Diagnostic> diagnostics;
};

/// True for decorators that make a function part of the kernel language, by their spelling:
/// `@ct.kernel`, `@ct.kernel(...)`, `@ct.function`, `@ct.autotune(...)`, `@kernel` (imported
/// from cuda.tile).
bool isTileDecorator(const Expr &e);

/// A function found by name: a top-level one, or one defined directly in the body of a
/// top-level function (a kernel made by a factory: `def make(n): @ct.kernel def k(x): ...`).
struct FunctionRef {
  const FunctionDefStmt *fn = nullptr;
  /// The top-level function whose body defines `fn`; null when `fn` is itself top-level.
  const FunctionDefStmt *factory = nullptr;
  /// `fn`'s name, qualified by its factory's as Python's __qualname__ is without `<locals>`
  /// ("make_scale.scale").
  std::string qualifiedName() const;
  explicit operator bool() const { return fn != nullptr; }
};

/// A parsed source file: its top-level statements in order (imports, function definitions,
/// and whatever else appeared; sema decides what is allowed at module level).
class Module {
public:
  explicit Module(const SourceFile *file) : file(file) {}

  /// The top-level function definitions, in source order.
  std::vector<const FunctionDefStmt *> functions() const;
  /// The top-level function called `name`, or nullptr.
  const FunctionDefStmt *findFunction(const std::string &name) const;

  /// The decorated functions defined directly in the bodies of top-level functions (kernels of
  /// factories), in source order.
  std::vector<FunctionRef> nestedFunctions() const;
  /// The function a tool's `--kernel NAME` means: a top-level function; "factory.name", a
  /// decorated function nested in top-level `factory`; or the plain name of one nested
  /// function when no other has it. Null if none (or several: `ambiguous` then gets their
  /// qualified names).
  FunctionRef resolveFunction(const std::string &name, std::vector<std::string> *ambiguous = nullptr) const;

  /// The set-aside statement defining `name`, or nullptr.
  const HostCode *findHostCode(const std::string &name) const;

  const SourceFile *file;
  SourceRange range;
  StmtList body;
  std::vector<HostCode> hostCode;
};

//===----------------------------------------------------------------------===//
// Walking
//===----------------------------------------------------------------------===//

/// Calls f(const Expr&) for each direct sub-expression of `e`, in source order.
template <class F> void forEachChild(const Expr &e, F &&f);
/// Calls onExpr(const Expr&) for each expression directly held by `s` (including decorators,
/// annotations and defaults) and onStmt(const Stmt&) for each directly nested statement.
template <class FE, class FS> void forEachChild(const Stmt &s, FE &&onExpr, FS &&onStmt);

/// CRTP visitor: Derived defines visitCallExpr(const CallExpr&) etc.; kinds it does not
/// handle go to unhandledExpr(const Expr&), which by default returns RetT(). Call visitExpr()
/// to dispatch. The names differ from StmtVisitor's so one class can derive from both.
template <class Derived, class RetT = void> class ExprVisitor {
public:
  RetT visitExpr(const Expr &e) {
    switch (e.kind()) {
// clang-format off
#define TILE_X(kind)                                                                       \
  case ExprKind::kind:                                                                     \
    return static_cast<Derived *>(this)->visit##kind##Expr(static_cast<const kind##Expr &>(e));
      // clang-format on
      TILE_FOREACH_EXPR_KIND(TILE_X)
#undef TILE_X
    }
    return RetT();
  }
  RetT unhandledExpr(const Expr &) { return RetT(); }
// clang-format off
#define TILE_X(kind)                                                                       \
  RetT visit##kind##Expr(const kind##Expr &e) {                                            \
    return static_cast<Derived *>(this)->unhandledExpr(e);                                 \
  }
  // clang-format on
  TILE_FOREACH_EXPR_KIND(TILE_X)
#undef TILE_X
};

/// Statement counterpart of ExprVisitor: visitStmt() dispatches to visitForStmt(const
/// ForStmt&), visitExprStmt(const ExprStmt&), ..., falling back to unhandledStmt().
template <class Derived, class RetT = void> class StmtVisitor {
public:
  RetT visitStmt(const Stmt &s) {
    switch (s.kind()) {
// clang-format off
#define TILE_X(kind)                                                                       \
  case StmtKind::kind:                                                                     \
    return static_cast<Derived *>(this)->visit##kind##Stmt(static_cast<const kind##Stmt &>(s));
      // clang-format on
      TILE_FOREACH_STMT_KIND(TILE_X)
#undef TILE_X
    }
    return RetT();
  }
  RetT unhandledStmt(const Stmt &) { return RetT(); }
// clang-format off
#define TILE_X(kind)                                                                       \
  RetT visit##kind##Stmt(const kind##Stmt &s) {                                            \
    return static_cast<Derived *>(this)->unhandledStmt(s);                                 \
  }
  // clang-format on
  TILE_FOREACH_STMT_KIND(TILE_X)
#undef TILE_X
};

//===----------------------------------------------------------------------===//
// Implementation of forEachChild
//===----------------------------------------------------------------------===//

template <class F> void forEachChild(const Expr &e, F &&f) {
  auto visit = [&](const ExprPtr &child) {
    if (child)
      f(static_cast<const Expr &>(*child));
  };
  switch (e.kind()) {
  case ExprKind::Name:
  case ExprKind::IntLit:
  case ExprKind::FloatLit:
  case ExprKind::StrLit:
  case ExprKind::BoolLit:
  case ExprKind::NoneLit:
  case ExprKind::Ellipsis:
  case ExprKind::Error:
    return;
  case ExprKind::Tuple:
    for (const ExprPtr &c : e.as<TupleExpr>().elts)
      visit(c);
    return;
  case ExprKind::FString:
    for (const FStringExpr::Field &field : e.as<FStringExpr>().fields)
      visit(field.value);
    return;
  case ExprKind::List:
    for (const ExprPtr &c : e.as<ListExpr>().elts)
      visit(c);
    return;
  case ExprKind::Dict: {
    const auto &d = e.as<DictExpr>();
    for (size_t i = 0; i < d.keys.size(); ++i) {
      visit(d.keys[i]);
      if (i < d.values.size())
        visit(d.values[i]);
    }
    return;
  }
  case ExprKind::BinOp:
    visit(e.as<BinOpExpr>().lhs);
    visit(e.as<BinOpExpr>().rhs);
    return;
  case ExprKind::UnaryOp:
    visit(e.as<UnaryOpExpr>().operand);
    return;
  case ExprKind::BoolOp:
    for (const ExprPtr &c : e.as<BoolOpExpr>().values)
      visit(c);
    return;
  case ExprKind::Compare:
    visit(e.as<CompareExpr>().left);
    for (const ExprPtr &c : e.as<CompareExpr>().comparators)
      visit(c);
    return;
  case ExprKind::IfExp: {
    const auto &ie = e.as<IfExpExpr>();
    visit(ie.body); // source order: body if test else orelse
    visit(ie.test);
    visit(ie.orelse);
    return;
  }
  case ExprKind::Call: {
    const auto &call = e.as<CallExpr>();
    visit(call.func);
    for (const ExprPtr &c : call.args)
      visit(c);
    for (const Keyword &kw : call.keywords)
      visit(kw.value);
    return;
  }
  case ExprKind::Attribute:
    visit(e.as<AttributeExpr>().value);
    return;
  case ExprKind::Subscript:
    visit(e.as<SubscriptExpr>().value);
    visit(e.as<SubscriptExpr>().index);
    return;
  case ExprKind::Slice: {
    const auto &s = e.as<SliceExpr>();
    visit(s.lower);
    visit(s.upper);
    visit(s.step);
    return;
  }
  }
}

template <class FE, class FS> void forEachChild(const Stmt &s, FE &&onExpr, FS &&onStmt) {
  auto expr = [&](const ExprPtr &e) {
    if (e)
      onExpr(static_cast<const Expr &>(*e));
  };
  auto stmts = [&](const StmtList &list) {
    for (const StmtPtr &st : list)
      if (st)
        onStmt(static_cast<const Stmt &>(*st));
  };
  switch (s.kind()) {
  case StmtKind::FunctionDef: {
    const auto &fn = s.as<FunctionDefStmt>();
    for (const ExprPtr &d : fn.decorators)
      expr(d);
    for (const Param &p : fn.params) {
      expr(p.annotation);
      expr(p.defaultValue);
    }
    expr(fn.returns);
    stmts(fn.body);
    return;
  }
  case StmtKind::Import:
  case StmtKind::ImportFrom:
  case StmtKind::Pass:
  case StmtKind::Break:
  case StmtKind::Continue:
    return;
  case StmtKind::Assign:
    for (const ExprPtr &t : s.as<AssignStmt>().targets)
      expr(t);
    expr(s.as<AssignStmt>().value);
    return;
  case StmtKind::AugAssign:
    expr(s.as<AugAssignStmt>().target);
    expr(s.as<AugAssignStmt>().value);
    return;
  case StmtKind::AnnAssign:
    expr(s.as<AnnAssignStmt>().target);
    expr(s.as<AnnAssignStmt>().annotation);
    expr(s.as<AnnAssignStmt>().value);
    return;
  case StmtKind::Expr:
    expr(s.as<ExprStmt>().value);
    return;
  case StmtKind::For:
    expr(s.as<ForStmt>().target);
    expr(s.as<ForStmt>().iter);
    stmts(s.as<ForStmt>().body);
    return;
  case StmtKind::If:
    for (const IfBranch &b : s.as<IfStmt>().branches) {
      expr(b.test);
      stmts(b.body);
    }
    stmts(s.as<IfStmt>().orelse);
    return;
  case StmtKind::While:
    expr(s.as<WhileStmt>().test);
    stmts(s.as<WhileStmt>().body);
    return;
  case StmtKind::Return:
    expr(s.as<ReturnStmt>().value);
    return;
  case StmtKind::Assert:
    expr(s.as<AssertStmt>().test);
    expr(s.as<AssertStmt>().msg);
    return;
  }
}

} // namespace tile::frontend
