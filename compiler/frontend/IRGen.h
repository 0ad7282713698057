// IR generation: evaluates a parsed kernel for one specialization and emits `tile` IR.
//
// The generator is an evaluator (as Triton's code generator is): compile-time values —
// constants, shapes, dtypes, tuples, `if` on constants, helper functions — are computed while
// walking the AST, and operations on run-time values become tile/arith/math/scf ops with
// FileLineColLoc locations pointing into the kernel source. Type and shape inference, NumPy
// broadcasting and dtype promotion happen here, so errors point at the source.
#pragma once

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/KernelValue.h"
#include "compiler/frontend/Specialization.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tile::frontend {

/// NumPy broadcasting of two shapes (aligned on the right); nullopt if they do not broadcast.
std::optional<llvm::SmallVector<int64_t>> broadcastShapeVectors(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);
/// An unsigned integer type, or a tile of them (ui8 ... ui64).
bool isUnsignedInteger(mlir::Type t);

/// Hidden scope names (not Python identifiers) for jumps taken at run time: `break`,
/// `continue` and a kernel's `return` inside a loop or a run-time `if` set them; statements
/// after them run under `if not flag`, loops exit on them.
inline constexpr const char *kBreakFlag = "%break";
inline constexpr const char *kContinueFlag = "%continue";
inline constexpr const char *kReturnFlag = "%return";
inline constexpr const char *kLoopCounter = "%iv";

/// ct.* names of IRGenNamedOps.cpp (null-terminated).
extern const char *const kCtNamedOps[];

/// Whether `stmts` hold a statement of `kind` belonging to the loop they are the body of.
bool containsJump(const StmtList &stmts, StmtKind kind);

class KernelIRGen {
public:
  KernelIRGen(const Module &module, mlir::MLIRContext &context, DiagnosticEngine &diags);

  /// Emits the kernel `spec.kernel` specialized by `spec` into a new module; null on error
  /// (diagnostics were reported).
  mlir::OwningOpRef<mlir::ModuleOp> emit(const Specialization &spec);

  /// Decorator facts about a kernel, without emitting it (for tools and the autotuner).
  struct KernelInfo {
    const FunctionDefStmt *def = nullptr;
    bool isKernel = false;
    std::vector<std::string> constantParams;
    std::vector<std::string> runtimeParams;
    /// Every parameter in order (what a positional call passes).
    std::vector<ParamDecl> params;
    /// @ct.autotune configs: constant and option values per config.
    std::vector<std::map<std::string, ConstantValue>> configs;
    std::vector<std::string> autotuneKey;
  };
  std::optional<KernelInfo> inspect(const std::string &kernel);

  /// A value with the source range it came from.
  struct Arg {
    KValue value;
    SourceRange range;
  };

private:
  using Scope = std::map<std::string, KValue>;
  struct CallArgs {
    std::vector<Arg> positional;
    std::vector<std::pair<std::string, Arg>> keywords;
    SourceRange callRange;
    std::string callee;
    /// A method call (t.sum(...)): positional[0] is the tile, which the user did not write.
    bool hasSelf = false;
    /// flush_to_zero=True was given (stripNumericOptions takes it out of `keywords`).
    bool flushToZero = false;
  };
  /// Arguments bound to a signature; missing optional parameters are absent.
  struct Bound {
    std::map<std::string, Arg> args;
    const Arg *get(const std::string &name) const {
      auto it = args.find(name);
      return it == args.end() ? nullptr : &it->second;
    }
  };

  // Module level (IRGenKernel.cpp).
  bool collectModuleScope();
  KValue evalDecorator(const Expr &e);
  bool applyDecorators(const FunctionDefStmt &fn, mlir::Operation *kernel,
                       std::map<std::string, ConstantValue> &configConstants, const Specialization &spec);
  bool bindKernelParams(const FunctionDefStmt &fn, const Specialization &spec,
                        const std::map<std::string, ConstantValue> &configConstants,
                        llvm::SmallVectorImpl<mlir::Type> &argTypes,
                        std::vector<std::pair<std::string, KValue>> &constants,
                        std::vector<std::pair<std::string, size_t>> &runtimeArgs);
  mlir::Type dtypeFromName(const std::string &name);

  // Statements (IRGenStmt.cpp).
  void emitBlock(const StmtList &stmts) { emitStmts(stmts, 0); }
  void emitStmts(const StmtList &stmts, size_t from);
  void emitStmt(const Stmt &s);
  void emitAssign(const AssignStmt &s);
  void emitAugAssign(const AugAssignStmt &s);
  void emitFor(const ForStmt &s);
  void emitIf(const IfStmt &s);
  void emitRuntimeIf(const IfStmt &s, size_t branch, mlir::Value cond);
  /// An scf.if on `cond` whose arms run `thenArm` / `elseArm`; names the arms bind flow out.
  void emitRuntimeChoice(mlir::Value cond, SourceRange keyword, const std::function<void()> &thenArm,
                         const std::function<void()> &elseArm);

  // Loops with jumps (IRGenLoops.cpp): while, break, continue, return inside regions.
  void emitWhile(const WhileStmt &s);
  void emitBreakOrContinue(const Stmt &s);
  /// Lowers a loop to scf.while: `condition` runs in the before region (null Value: error),
  /// `body` in the after region; `extra` are hidden names the body updates (flags, counters).
  void emitWhileLoop(SourceRange range, const StmtList &bodyStmts, const std::set<std::string> &extra,
                     const std::function<mlir::Value()> &condition, const std::function<void()> &body);
  /// The OR of the jump flags in scope: a bool constant, a run-time i1, or error.
  KValue pendingJump(SourceRange where);
  /// Hides the enclosing loop's break/continue flags while an inner loop runs.
  std::map<std::string, KValue> hideLoopFlags();
  void restoreLoopFlags(const std::map<std::string, KValue> &saved);
  bool loopNeedsWhile(const StmtList &body);
  /// A range() loop that can be left early; `reverseStart` set: i = reverseStart - k * reverseStep.
  void emitForAsWhile(const ForStmt &s, const std::string &target, mlir::Value lo, mlir::Value hi, mlir::Value step,
                      mlir::Value reverseStart, int64_t reverseStep);
  /// `for target in ct.static_iter(iterable)`: the body emitted once per element of a tuple or a
  /// range() known at compile time, the target bound to it (no loop in the IR).
  void emitStaticFor(const ForStmt &s, const CallExpr &call);
  void emitReturn(const ReturnStmt &s);
  void emitAssert(const AssertStmt &s);
  void assign(const Expr &target, const KValue &value, SourceRange valueRange);
  void collectAssignedNames(const StmtList &stmts, std::set<std::string> &names);
  /// Of `assigned`, the names that hold a run-time scalar or a constant number before a loop:
  /// the loop carries them (`inits`: their values as IR, in the order of `carried`).
  void collectCarriedValues(const std::set<std::string> &assigned, mlir::Location l, std::vector<std::string> &carried,
                            llvm::SmallVectorImpl<mlir::Value> &inits);

  // Expressions (IRGenExpr.cpp).
  KValue eval(const Expr &e);
  KValue evalName(const NameExpr &e);
  KValue evalBinOp(const BinOpExpr &e);
  KValue evalUnaryOp(const UnaryOpExpr &e);
  KValue evalBoolOp(const BoolOpExpr &e);
  KValue evalCompare(const CompareExpr &e);
  KValue evalIfExp(const IfExpExpr &e);
  KValue evalAttribute(const AttributeExpr &e);
  KValue evalSubscript(const SubscriptExpr &e);
  KValue evalCall(const CallExpr &e);
  KValue callFunction(const FunctionDefStmt &fn, const CallArgs &args);

public:
  // Shared arithmetic (IRGenArith.cpp), also used by the builtins.
  KValue binary(BinOpKind op, const Arg &lhs, const Arg &rhs, SourceRange opRange);
  KValue compare(CmpOpKind op, const Arg &lhs, const Arg &rhs, SourceRange opRange);
  /// The element type two operands promote to; null (and a diagnostic) if they cannot.
  mlir::Type promote(const Arg &lhs, const Arg &rhs, SourceRange where);
  /// The element type two runtime dtypes promote to (f16 and bf16 meet in f32, an integer and
  /// a float in the float, integers in the wider one); null when they cannot combine.
  mlir::Type promoteRuntimeTypes(mlir::Type a, mlir::Type b);
  /// A runtime value of `elementType` and `shape` (broadcast and converted); null on error.
  /// With `asTile`, an empty shape means a 0-d tile rather than a scalar (a scalar operand of a
  /// 0-d tile's arithmetic).
  mlir::Value coerce(const Arg &arg, mlir::Type elementType, llvm::ArrayRef<int64_t> shape, SourceRange where,
                     bool asTile = false);
  std::optional<llvm::SmallVector<int64_t>> broadcastShapes(const Arg &a, const Arg &b, SourceRange where);
  mlir::Value castElements(mlir::Value v, mlir::Type to, mlir::Location loc);
  /// Unsigned integers (IRGenUnsigned.cpp): `v` seen as the signless type of its width, and
  /// `v` given the type `to` (the same bits); arith ops take the former.
  mlir::Value signless(mlir::Value v, mlir::Location loc);
  mlir::Value withType(mlir::Value v, mlir::Type to, mlir::Location loc);
  /// Every value of the built kernel made signless (arrays keep `ui`); false, with an internal
  /// error, where an op reached an unsigned value without choosing its unsigned form.
  bool dropSignedness(mlir::ModuleOp module);
  mlir::Value broadcastValue(mlir::Value v, llvm::ArrayRef<int64_t> shape, mlir::Location loc);
  mlir::Value constant(const KValue &c, mlir::Type type, mlir::Location loc);
  mlir::Value splat(double value, mlir::Type type, mlir::Location loc);
  /// The dtype a compile-time number takes when it must become a runtime value alone.
  mlir::Type defaultType(const KValue &c);
  /// A compile-time truth value, or nullopt for runtime values (with no diagnostic).
  std::optional<bool> constTruth(const KValue &v);
  /// A runtime i1 scalar for a condition; null and a diagnostic if impossible.
  mlir::Value runtimeCondition(const Arg &cond);

private:
  // Named operator functions and numeric options (IRGenNamedOps.cpp).
  /// Checks and removes flush_to_zero= and rounding_mode= (false and a diagnostic if invalid).
  bool stripNumericOptions(CallArgs &args);
  KValue builtinNamed(const std::string &name, const CallArgs &args, bool &handled);

  // Host modules and host code (IRGenHost.cpp).
  static bool isHostModule(const std::string &ns, std::string &module);
  KValue hostModuleAttribute(const std::string &module, const AttributeExpr &e);
  KValue callHostModule(const std::string &name, const CallArgs &args);
  KValue hostCodeError(const HostCode &host, const NameExpr &use);
  bool constantAnnotation(const Expr *e, std::string &kind, unsigned depth = 0);

  // Builtins (IRGenBuiltins.cpp and friends).
  KValue callBuiltin(const std::string &name, const KValue *self, const CallArgs &args);
  /// Array.tiled_view() and the TiledView methods (IRGenTiledView.cpp): load, store and the
  /// atomic_store_* read-modify-writes of a tile at a tile index, num_tiles.
  KValue callTiledView(const std::string &name, const KValue &self, const CallArgs &args);
  bool bind(const CallArgs &args, llvm::ArrayRef<const char *> params, Bound &out);
  KValue builtinMemory(const std::string &name, const CallArgs &args);
  KValue builtinMath(const std::string &name, const CallArgs &args);
  KValue builtinShape(const std::string &name, const CallArgs &args);
  KValue builtinReduce(const std::string &name, const CallArgs &args);
  /// ct.extract's sub-tile along dimension `d` at a run-time tile index `i` (a scalar).
  mlir::Value extractAtRuntimeIndex(mlir::Value v, int64_t d, int64_t size, mlir::Value i, mlir::Location loc);
  /// ct.reduce / ct.scan with a combining function: the built-in ones (ct.add, ct.mul,
  /// ct.maximum, ct.minimum) with their neutral element become the named reductions and scans.
  KValue builtinReduceWith(const std::string &name, const CallArgs &args);
  KValue builtinMisc(const std::string &name, const CallArgs &args, bool &handled);

  // Checked accessors for builtin arguments: each reports a diagnostic naming the argument.
  std::optional<int64_t> constInt(const Arg &a, const std::string &what);
  std::optional<llvm::SmallVector<int64_t>> constShape(const Arg &a, const std::string &what);
  /// Refuses a tile shape beyond mlir::tile::kMaxTileElements (or whose element count
  /// overflows) with an error at `where`.
  /// Whether a Python number fits `type`'s integer element type; an error at `where` if not.
  bool constantFits(const KValue &v, mlir::Type type, SourceRange where);
  bool checkTileSize(llvm::ArrayRef<int64_t> shape, SourceRange where, const std::string &what);
  std::optional<int32_t> axisArg(const Arg &a, int64_t rank, const std::string &what);
  std::optional<mlir::Type> dtypeArg(const Arg &a, const std::string &what);
  bool expectTile(const Arg &a, const std::string &what);
  bool expectArray(const Arg &a, const std::string &what);
  /// A 0-d tile as the scalar it holds (cuTile treats them alike where a number is expected:
  /// range() bounds, ct.cdiv); any other value as it is.
  Arg scalarOf(const Arg &a);
  /// A `latency=` hint: absent, or a compile-time integer in [1, 10] (else a diagnostic, false).
  bool latencyHint(const Arg *a, mlir::IntegerAttr &out);
  /// A tile stored into an array of `arrayType` elements: as it is when the dtypes match,
  /// converted when its dtype promotes to the array's (cuTile's implicit cast: bf16 into f32,
  /// i32 into i64), else null and an error saying what to write (`what` names the value).
  mlir::Value storedAs(const Arg &tile, mlir::Type arrayType, const std::string &what);
  mlir::Value indexScalar(const Arg &a, const std::string &what);
  mlir::Value toTile(const Arg &a, const std::string &what);

public:
  // Diagnostics and locations.
  mlir::Location loc(SourceRange range);
  DiagBuilder error(SourceRange range, std::string message);
  /// Verifies a just-built op; on failure reports the verifier's message at `range` (naming
  /// `what`), erases the op and returns false.
  bool verifyBuilt(mlir::Operation *op, SourceRange range, const std::string &what);

  mlir::OpBuilder &builder() { return builder_; }
  mlir::MLIRContext &context() { return context_; }

private:
  const Module &module_;
  mlir::MLIRContext &context_;
  DiagnosticEngine &diags_;
  mlir::OpBuilder builder_;
  mlir::StringAttr fileName_;

  /// The target of the specialization being emitted (for ct.ByTarget).
  std::string arch_;
  Scope globals_;
  Scope *scope_ = nullptr;
  /// Names that are not usable here, with the reason (e.g. defined only in one branch).
  std::map<std::string, std::string> *undefined_ = nullptr;

  // Helper-function inlining state.
  struct FunctionFrame {
    const FunctionDefStmt *fn;
    std::optional<KValue> returnValue;
    bool returned = false;
  };
  std::vector<FunctionFrame> frames_;
  /// >0 inside a runtime `if` or a loop body, where `return` cannot be inlined.
  unsigned regionDepth_ = 0;
  unsigned inlineDepth_ = 0;
  /// Loops enclosing the statement being emitted, in the current function.
  unsigned loopDepth_ = 0;
  /// Bodies ct.static_iter has emitted in this kernel (nested ones multiply; bounded).
  size_t staticIterations_ = 0;
};

} // namespace tile::frontend
