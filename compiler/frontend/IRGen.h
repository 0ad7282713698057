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
#include "compiler/frontend/Imports.h"
#include "compiler/frontend/KernelValue.h"
#include "compiler/frontend/Specialization.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

namespace mlir::tile {
enum class GridDependencyAction : uint32_t;
enum class ReduceKind : uint32_t;
enum class ScanKind : uint32_t;
} // namespace mlir::tile

namespace tile::frontend {

class BuiltinTable;

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
  /// `imports`: the kernel modules `module` imports, loaded (null: its imports are all host
  /// modules, as without ImportedModules).
  KernelIRGen(const Module &module, mlir::MLIRContext &context, DiagnosticEngine &diags,
              const ImportedModules *imports = nullptr);

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
    /// A kernel defined in a factory: that top-level function. The factory's names the kernel
    /// uses (its parameters and locals) come first in constantParams and params.
    const FunctionDefStmt *factory = nullptr;
  };
  std::optional<KernelInfo> inspect(const std::string &kernel);

  /// A value with the source range it came from.
  struct Arg {
    KValue value;
    SourceRange range;
  };

  /// The arguments of a call, as a built-in's handler receives them (Builtins.h).
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

  // Each family of built-ins registers its handlers with the table callBuiltin consults.
  static void registerNamedBuiltins(BuiltinTable &table);  // IRGenNamedOps.cpp
  static void registerMiscBuiltins(BuiltinTable &table);   // IRGenBuiltins.cpp
  static void registerMemoryBuiltins(BuiltinTable &table); // IRGenBuiltins.cpp
  static void registerMathBuiltins(BuiltinTable &table);   // IRGenBuiltinOps.cpp
  static void registerReduceBuiltins(BuiltinTable &table); // IRGenBuiltinOps.cpp
  static void registerShapeBuiltins(BuiltinTable &table);  // IRGenBuiltinOps.cpp

private:
  using Scope = std::map<std::string, KValue>;
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
  void collectModuleScope(const Module &m);
  /// The global `name` of module `m` as code of `m` sees it: its functions, its imports, its
  /// module-level constants (evaluated on first use). nullopt when `m` defines no such name
  /// (nothing reported); errors (host code, an import that does not resolve) are reported at
  /// `use` unless `quiet`, which gives nullopt for them instead.
  std::optional<KValue> lookupGlobal(const Module &m, const std::string &name, SourceRange use, bool quiet = false);
  /// The error for a use of a host module that is a missing kernel module's import (where one
  /// was looked for); false when `ns` is no such import.
  bool missingImportError(const std::string &ns, SourceRange use, const std::string &what);
  Scope &globals() { return scopes_[current_]; }
  KValue evalDecorator(const Expr &e);
  bool applyDecorators(const FunctionDefStmt &fn, mlir::Operation *kernel,
                       std::map<std::string, ConstantValue> &configConstants, const Specialization &spec);
  bool bindKernelParams(const FunctionDefStmt &fn, const Specialization &spec,
                        const std::map<std::string, ConstantValue> &configConstants,
                        llvm::SmallVectorImpl<mlir::Type> &argTypes,
                        std::vector<std::pair<std::string, KValue>> &constants,
                        std::vector<std::pair<std::string, size_t>> &runtimeArgs,
                        const std::set<std::string> &factoryNames = {}, const std::string &kernelName = "");
  mlir::Type dtypeFromName(const std::string &name);
  /// The names of `factory` (its parameters, then the names its body binds) that `fn`, a
  /// function it defines, uses without binding them itself: Python's closure of `fn`, and the
  /// constants of the kernel, in that order.
  std::vector<std::string> capturedFactoryNames(const FunctionDefStmt &factory, const FunctionDefStmt &fn);
  /// The values of the factory names kernel `fn` uses: given in `spec` (as constants), a
  /// parameter's default, or a local the factory computes from constants before defining `fn`
  /// (`n = BLOCK * 2`); a missing one is an error at its definition. `factoryNames`: every name
  /// of the factory, which `spec` may give.
  bool bindFactoryConstants(const FunctionDefStmt &factory, const FunctionDefStmt &fn, const Specialization &spec,
                            std::vector<std::pair<std::string, KValue>> &constants,
                            std::set<std::string> &factoryNames);

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
  /// The body of `s` emitted once per element of `iterable` (a tuple, or a range() of
  /// constants); `what` names the loop in messages.
  void emitUnrolledFor(const ForStmt &s, const Expr &iterable, const std::string &what);
  /// The list of arrays (a tuple parameter, Specialization.h) whose len() bounds the range()
  /// of `call`, or "": such a loop is unrolled, so that its variable indexes the list.
  std::string listBoundingRange(const CallExpr &call);
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
  /// An f-string of compile-time values, as Python formats it (IRGenFString.cpp).
  KValue evalFString(const FStringExpr &e);
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
  KValue builtinBinary(const std::string &name, const CallArgs &args, BinOpKind op);
  KValue builtinCompare(const std::string &name, const CallArgs &args, CmpOpKind op);
  KValue builtinDivmod(const std::string &name, const CallArgs &args);
  KValue builtinNegative(const std::string &name, const CallArgs &args);
  KValue builtinBitwiseNot(const std::string &name, const CallArgs &args);
  KValue builtinIsnan(const std::string &name, const CallArgs &args);
  KValue builtinGridDependency(const std::string &name, const CallArgs &args, mlir::tile::GridDependencyAction action);
  KValue builtinAssert(const std::string &name, const CallArgs &args);
  KValue builtinByTarget(const std::string &name, const CallArgs &args);

  // Host modules and host code (IRGenHost.cpp).
  static bool isHostModule(const std::string &ns, std::string &module);
  KValue hostModuleAttribute(const std::string &module, const AttributeExpr &e);
  KValue callHostModule(const std::string &name, const CallArgs &args);
  KValue hostCodeError(const HostCode &host, const std::string &name, SourceRange use);
  bool constantAnnotation(const Expr *e, std::string &kind, unsigned depth = 0);

  // Builtins (IRGenBuiltins.cpp and friends): callBuiltin looks the name up in builtinTable().
  KValue callBuiltin(const std::string &name, const KValue *self, const CallArgs &args);
  /// Array.tiled_view() and the TiledView methods (IRGenTiledView.cpp): load, store and the
  /// atomic_store_* read-modify-writes of a tile at a tile index, num_tiles.
  KValue callTiledView(const std::string &name, const KValue &self, const CallArgs &args);
  bool bind(const CallArgs &args, llvm::ArrayRef<const char *> params, Bound &out);

  // The grid and memory (IRGenBuiltins.cpp).
  /// What ct.load and ct.store share: the array, the tile index and the hints.
  struct TileAccess {
    mlir::Value array;
    llvm::SmallVector<mlir::Value> indices;
    mlir::DenseI32ArrayAttr order;
    mlir::IntegerAttr latency;
    mlir::BoolAttr allowTma;
  };
  /// The element accesses, which share one body: the value broadcast with indices and mask.
  enum class ElementAccess { Gather, Scatter, AtomicAdd, AtomicRMW, AtomicMinMax, AtomicCas };
  std::optional<uint32_t> gridAxis(const CallArgs &args);
  KValue builtinBid(const std::string &name, const CallArgs &args);
  KValue builtinNumBlocks(const std::string &name, const CallArgs &args);
  KValue builtinCdiv(const std::string &name, const CallArgs &args);
  KValue builtinNumTiles(const std::string &name, const CallArgs &args);
  bool tileAccess(const Bound &b, TileAccess &out);
  KValue builtinLoad(const std::string &name, const CallArgs &args);
  KValue builtinStore(const std::string &name, const CallArgs &args);
  /// memory_order= and memory_scope= of an atomic as the op's attributes (cuTile's defaults:
  /// acq_rel, device); false and a diagnostic for other values.
  bool memorySemantics(const Arg *orderArg, const Arg *scopeArg, std::string &order, std::string &scope);
  KValue builtinElementAccess(const std::string &name, const CallArgs &args, ElementAccess kind);

  // Python builtins, compile-time checks and printing (IRGenBuiltins.cpp).
  enum class PyNumber { Int, Float, Bool };
  KValue builtinDict(const std::string &name, const CallArgs &args);
  KValue builtinStaticEval(const std::string &name, const CallArgs &args);
  KValue builtinAssumeDivisibleBy(const std::string &name, const CallArgs &args);
  KValue builtinStaticAssert(const std::string &name, const CallArgs &args);
  KValue builtinPrintf(const std::string &name, const CallArgs &args);
  KValue builtinPrint(const std::string &name, const CallArgs &args);
  /// tile.print of `format` with `values` (numbers, scalars or tiles).
  KValue emitPrint(const std::string &name, const CallArgs &args, const std::string &format,
                   const std::vector<Arg> &values);
  KValue builtinLen(const std::string &name, const CallArgs &args);
  KValue builtinPyNumber(const std::string &name, const CallArgs &args, PyNumber to);
  KValue builtinAbs(const std::string &name, const CallArgs &args);
  /// Python's min() and max() of two or more values: ct.minimum or ct.maximum, pairwise.
  KValue builtinPyMinMax(const std::string &name, const CallArgs &args, bool isMin);
  KValue builtinItem(const std::string &name, const CallArgs &args);

  // Element-wise math (IRGenBuiltinOps.cpp).
  enum class BinaryMath { Minimum, Maximum, Atan2 };
  /// One element-wise function of one argument (IRGenBuiltinOps.cpp's table).
  struct UnaryMath;
  KValue builtinAstype(const std::string &name, const CallArgs &args);
  KValue builtinAstile(const std::string &name, const CallArgs &args);
  KValue builtinBitcast(const std::string &name, const CallArgs &args);
  KValue builtinPackToBytes(const std::string &name, const CallArgs &args);
  KValue builtinUnpackFromBytes(const std::string &name, const CallArgs &args);
  KValue builtinPow(const std::string &name, const CallArgs &args);
  KValue builtinBinaryMath(const std::string &name, const CallArgs &args, BinaryMath kind);
  KValue builtinWhere(const std::string &name, const CallArgs &args);
  KValue builtinUnaryMath(const std::string &name, const CallArgs &args, const UnaryMath *fn);

  // Reductions and scans (IRGenBuiltinOps.cpp).
  /// ct.reduce / ct.scan with a combining function: the built-in ones (ct.add, ct.mul,
  /// ct.maximum, ct.minimum) with their neutral element become the named reductions and scans.
  KValue builtinReduceWith(const std::string &name, const CallArgs &args, bool isScan);
  /// A reduction's or scan's input as a tile (booleans counted as i32); null on error.
  mlir::Value reductionInput(const Arg &x, const CallArgs &args);
  KValue builtinReduce(const std::string &name, const CallArgs &args, mlir::tile::ReduceKind kind);
  KValue builtinScan(const std::string &name, const CallArgs &args, mlir::tile::ScanKind kind);

  // Creation, shapes and matrix products (IRGenBuiltinOps.cpp).
  enum class Fill { Full, Zeros, Ones };
  KValue builtinArange(const std::string &name, const CallArgs &args);
  KValue builtinFull(const std::string &name, const CallArgs &args, Fill fill);
  /// ct.mma (`accumulates`: into its acc argument) and ct.matmul.
  KValue builtinMatmul(const std::string &name, const CallArgs &args, bool accumulates);
  KValue builtinCat(const std::string &name, const CallArgs &args);
  /// The shape argument of reshape (`allowInferred`: one -1) and broadcast_to, for `x`.
  std::optional<llvm::SmallVector<int64_t>> targetShape(const Arg &s, mlir::Value x, bool allowInferred);
  KValue builtinReshape(const std::string &name, const CallArgs &args);
  KValue builtinBroadcastTo(const std::string &name, const CallArgs &args);
  /// tile.permute of `x` by `perm`, checked by the verifier.
  KValue permuted(mlir::Value x, llvm::ArrayRef<int32_t> perm, const CallArgs &args);
  std::optional<llvm::SmallVector<int32_t>> permutationArg(const Arg &axes, int64_t rank);
  KValue builtinPermute(const std::string &name, const CallArgs &args);
  KValue builtinTranspose(const std::string &name, const CallArgs &args);
  KValue builtinExpandDims(const std::string &name, const CallArgs &args);
  KValue builtinExtract(const std::string &name, const CallArgs &args);
  /// ct.extract's sub-tile along dimension `d` at a run-time tile index `i` (a scalar).
  mlir::Value extractAtRuntimeIndex(mlir::Value v, int64_t d, int64_t size, mlir::Value i, mlir::Location loc);

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
  /// A built-in's op, verified (verifyBuilt at the call), as its value; an error value when
  /// the verifier refused it.
  KValue verifiedResult(mlir::Operation *op, const CallArgs &args);

  mlir::OpBuilder &builder() { return builder_; }
  mlir::MLIRContext &context() { return context_; }

private:
  const Module &module_;
  const ImportedModules *imports_ = nullptr;
  /// The module whose code is being evaluated (module_ or an imported one): names resolve in
  /// its globals.
  const Module *current_ = nullptr;
  std::map<const Module *, Scope> scopes_;
  /// The module each function is defined in.
  std::map<const FunctionDefStmt *, const Module *> functionModules_;
  /// Names bound by imports of kernel modules, resolved on first use (per module).
  std::map<const Module *, std::map<std::string, const ImportedModules::Binding *>> importedNames_;
  /// Imports that looked for a kernel module and found none, by the host-module value they
  /// bind ("extern:..."), per module: a kernel using one gets an error naming the file.
  std::map<const Module *, std::map<std::string, const ImportedModules::Binding *>> missingImports_;
  /// Imported names being resolved (a cycle of `from x import y` reports, not recurses).
  std::set<std::pair<const Module *, std::string>> resolving_;
  mlir::MLIRContext &context_;
  DiagnosticEngine &diags_;
  mlir::OpBuilder builder_;
  mlir::StringAttr fileName_;

  /// The target of the specialization being emitted (for ct.ByTarget).
  std::string arch_;
  Scope *scope_ = nullptr;
  /// The names a kernel's decorators may use besides the module's: its factory's constants
  /// (`@ct.kernel(occupancy=occupancy)` inside `def make(occupancy)`); null elsewhere.
  const Scope *decoratorScope_ = nullptr;
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
