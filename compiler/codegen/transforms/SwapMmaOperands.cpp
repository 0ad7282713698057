// The tile-swap-mma-operands pass: D = A.B with A read from memory and B computed in
// registers becomes D^T = B^T.A^T, so that the computed operand is wgmma's A, which the Tensor
// Cores take from registers, while the loaded one is read from shared memory transposed (a
// 16-bit operand's `transposed` bit, or ldmatrix.trans): the computed operand no longer goes
// through shared memory behind a barrier on every iteration.
//
// The pass swaps a product only when every transpose it introduces folds away: B^T is built by
// cloning B's element-wise ops with transposed shapes down to loads (read transposed with
// ldmatrix.trans: 16-bit tiles only), splat
// constants and broadcasts of a row or a column (a reshape); A^T of a transpose is its input;
// the accumulator is carried through the loop transposed (its initial value transposed once
// before the loop, the loop's result once after it). Products whose accumulator the loop uses
// for anything else, whose swapped shape wgmma cannot run, whose operands are not 16-bit (the
// loaded A becomes a B read transposed from shared memory) or whose B is converted from a loaded
// tile of integers (OperandSources.h) are left alone with a remark saying why.

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/OperandSources.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "tile-swap-mma-operands"

namespace tile::codegen {

#define GEN_PASS_DEF_TILESWAPMMAOPERANDS
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

/// The attribute on a product whose operands the pass swapped (it computes D^T).
constexpr llvm::StringLiteral kMmaSwappedAttr = "tile.mma_swapped";

RankedTensorType transposedType(Type type) {
  auto t = cast<RankedTensorType>(type);
  return RankedTensorType::get({t.getDimSize(1), t.getDimSize(0)}, t.getElementType(), t.getEncoding());
}

/// bf16/f16: the element types wgmma reads transposed from shared memory.
bool is16Bit(Value v) {
  Type elt = cast<RankedTensorType>(v.getType()).getElementType();
  return elt.isBF16() || elt.isF16();
}

bool isTranspose(Operation *op) {
  auto permute = dyn_cast_or_null<mlir::tile::PermuteOp>(op);
  return permute && permute.getPermutation().size() == 2 && permute.getPermutation()[0] == 1;
}

/// A tile loaded from memory, through reshapes and transposes.
bool fromMemory(Value v) { return operandLoad(v) != nullptr; }

/// Element-wise arith/math ops on 2-D tiles of one shape.
bool isElementwise(Operation *op) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) || op->getNumResults() != 1 ||
      op->getNumRegions() || isa<arith::ConstantOp>(op))
    return false;
  auto shape = cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  return llvm::all_of(op->getOperandTypes(), [&](Type t) {
    auto tile = dyn_cast<RankedTensorType>(t);
    return tile && tile.getShape() == shape;
  });
}

/// Builds values transposed without moving data between threads, or says why it cannot.
/// `carried` is the loop's accumulator argument and `carriedT` the transposed one that replaces
/// it (set once the loop is rebuilt).
class Transposer {
public:
  explicit Transposer(BlockArgument carried = {}) : carried_(carried) {}

  /// Why `v` cannot be built transposed ("" when it can).
  std::string check(Value v) {
    if (v == carried_)
      return "";
    Operation *op = v.getDefiningOp();
    if (!op)
      return "a block argument other than the loop's accumulator";
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      return dense && dense.isSplat() ? "" : "a constant that is not a splat";
    }
    if (isTranspose(op))
      return "";
    if (fromMemory(v))
      return is16Bit(v) ? "" : "a loaded tile that is not bf16/f16 (read transposed only as 16-bit elements)";
    if (auto broadcast = dyn_cast<mlir::tile::BroadcastOp>(op)) {
      auto in = dyn_cast<RankedTensorType>(broadcast.getInput().getType());
      if (in && in.getRank() == 2 && (in.getDimSize(0) == 1 || in.getDimSize(1) == 1))
        return "";
      return "a broadcast of a 2-D tile";
    }
    if (isElementwise(op)) {
      for (Value operand : op->getOperands())
        if (std::string why = check(operand); !why.empty())
          return why;
      return "";
    }
    return "'" + op->getName().getStringRef().str() + "'";
  }

  /// `v` transposed (check(v) must have succeeded). New ops go before `v`'s uses at `b`.
  Value build(OpBuilder &b, Value v) {
    if (Value done = built_.lookup(v))
      return done;
    Value result = buildNew(b, v);
    built_[v] = result;
    return result;
  }

  void setCarried(Value carriedT) { carriedT_ = carriedT; }

private:
  Value buildNew(OpBuilder &b, Value v) {
    Location loc = v.getLoc();
    if (v == carried_)
      return carriedT_;
    Operation *op = v.getDefiningOp();
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = cast<DenseElementsAttr>(constant.getValue());
      return arith::ConstantOp::create(b, loc, dense.reshape(transposedType(v.getType())));
    }
    if (isTranspose(op))
      return op->getOperand(0);
    if (fromMemory(v))
      return mlir::tile::PermuteOp::create(b, loc, transposedType(v.getType()), v, ArrayRef<int32_t>{1, 0});
    if (auto broadcast = dyn_cast<mlir::tile::BroadcastOp>(op)) {
      // A row or a column keeps its elements' order when its unit dimension moves.
      Value in =
          mlir::tile::ReshapeOp::create(b, loc, transposedType(broadcast.getInput().getType()), broadcast.getInput());
      return mlir::tile::BroadcastOp::create(b, loc, transposedType(v.getType()), in);
    }
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(build(b, operand));
    OperationState state(loc, op->getName(), operands, TypeRange{transposedType(v.getType())}, op->getAttrs());
    return b.create(state)->getResult(0);
  }

  BlockArgument carried_;
  Value carriedT_;
  llvm::DenseMap<Value, Value> built_;
};

struct TileSwapMmaOperandsPass : impl::TileSwapMmaOperandsBase<TileSwapMmaOperandsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = passTarget(getOperation(), arch);
    if (!target)
      return signalPassFailure();
    for (auto kernel : getOperation().getOps<mlir::tile::KernelOp>()) {
      int64_t threads = kernelThreads(kernel, numThreads);
      if (!threads)
        return signalPassFailure();
      SmallVector<mlir::tile::MmaOp> products;
      kernel.walk([&](mlir::tile::MmaOp op) { products.push_back(op); });
      for (mlir::tile::MmaOp op : products) {
        // Only a product whose B is computed while A is read from memory is a candidate: one on
        // wgmma, or one on mma.sync because its M is too small for wgmma (decode's 16 rows)
        // where the swapped product, M and N exchanged, may run on wgmma.
        std::optional<mlir::tile::MmaInstruction> chosen = recordedMmaInstruction(op);
        bool candidate = chosen == mlir::tile::MmaInstruction::wgmma ||
                         (chosen == mlir::tile::MmaInstruction::mma_sync && target->hasWgmma());
        if (!candidate || op.getA().getType().getRank() != 2 || !fromMemory(op.getA()) || fromMemory(op.getB()))
          continue;
        if (std::string why = trySwap(op, *target, threads); !why.empty()) {
          op.emitRemark() << "operands not swapped (the computed B operand goes through shared memory): " << why;
          TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": not swapped (" << why
                                  << ")\n");
        }
      }
    }
  }

  // Swaps `op`'s operands, or returns why not (changing nothing).
  std::string trySwap(mlir::tile::MmaOp op, const GpuTarget &target, int64_t threads) {
    if (!is16Bit(op.getA()) || !is16Bit(op.getB()))
      return "wgmma reads a transposed operand from shared memory only with bf16/f16 elements";
    // Swapped, B would be A from a shared buffer anyway (AssignLayouts.cpp), the swap buying nothing.
    if (mlir::tile::LoadOp narrow = convertedNarrowLoad(op.getB()))
      return std::string("its B operand is converted from a loaded tile of ") + narrowLoadElements(narrow) +
             " (register fragments are not built from 8-bit stages)";
    // The accumulator: a loop's argument (through element-wise ops) that only this product's
    // accumulation uses, and that the product's result replaces every iteration.
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop)
      return "it is not in a loop (its transposed result would need a transpose of its own)";
    if (!op->hasOneUse() || !isa<scf::YieldOp>(*op->user_begin()))
      return "its result has uses other than the loop's next iteration";
    unsigned index = op->use_begin()->getOperandNumber();
    BlockArgument carried = loop.getRegionIterArg(index);
    Transposer transposer(carried);
    if (std::string why = transposer.check(op.getAcc()); !why.empty())
      return "its accumulator comes from " + why;
    if (!accumulationOnly(carried, op))
      return "the loop uses its accumulator for more than this product";
    if (std::string why = transposer.check(op.getB()); !why.empty())
      return "its B operand is computed from " + why;

    // The swapped product must still run as wgmma: ask with a trial product, then drop it.
    {
      OpBuilder b(op);
      Location loc = op.getLoc();
      auto transpose = [&](Value v) {
        return mlir::tile::PermuteOp::create(b, loc, transposedType(v.getType()), v, ArrayRef<int32_t>{1, 0});
      };
      auto bT = transpose(op.getB()), aT = transpose(op.getA()), cT = transpose(op.getAcc());
      auto trial = mlir::tile::MmaOp::create(b, loc, transposedType(op.getType()), bT, aT, cT);
      std::string why;
      mlir::tile::MmaInstruction instruction = chooseMmaInstruction(trial, target, threads, why);
      trial.erase();
      cT.erase();
      aT.erase();
      bT.erase();
      if (instruction != mlir::tile::MmaInstruction::wgmma)
        return "the swapped product would not run as wgmma: " + why;
    }

    // The loop carries the accumulator transposed: its initial value transposed before it
    // (a splat folds), its result transposed back after it.
    Value init = loop.getInitArgs()[index];
    OpBuilder before(loop);
    Transposer initTransposer;
    Value initT = initTransposer.check(init).empty()
                      ? initTransposer.build(before, init)
                      : mlir::tile::PermuteOp::create(before, loop.getLoc(), transposedType(init.getType()), init,
                                                      ArrayRef<int32_t>{1, 0})
                            .getResult();
    auto original = cast<RankedTensorType>(init.getType());
    loop.getInitArgsMutable()[index].set(initT);
    carried.setType(transposedType(original));
    Value result = loop.getResult(index);
    result.setType(transposedType(original));
    OpBuilder after(loop->getBlock(), std::next(loop->getIterator()));
    auto back = mlir::tile::PermuteOp::create(after, loop.getLoc(), original, result, ArrayRef<int32_t>{1, 0});
    result.replaceAllUsesExcept(back.getResult(), back);

    // D^T = B^T . A^T, built from the transposed slices; the old ones die with the product.
    transposer.setCarried(carried);
    OpBuilder inside(op);
    Value bT = transposer.build(inside, op.getB());
    Value aT = transposer.build(inside, op.getA());
    Value cT = transposer.build(inside, op.getAcc());
    auto swapped = mlir::tile::MmaOp::create(inside, op.getLoc(), transposedType(op.getType()), bT, aT, cT);
    swapped->setAttrs(op->getAttrs());
    swapped->setAttr(kMmaSwappedAttr, UnitAttr::get(op.getContext()));
    if (recordedMmaInstruction(op) == mlir::tile::MmaInstruction::mma_sync)
      swapped.emitRemark() << "operands swapped (D^T = B^T.A^T): with M and N exchanged the product runs on wgmma "
                              "instead of mma.sync";
    swapped->setAttr(kMmaInstructionAttr,
                     mlir::tile::MmaInstructionAttr::get(op.getContext(), mlir::tile::MmaInstruction::wgmma));
    op.getResult().replaceAllUsesWith(swapped.getResult());
    op.erase();
    eraseDeadOps(loop.getBody());
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << swapped.getLoc()
                            << ": operands swapped (D^T = B^T A^T): the computed operand is A, from registers; "
                               "the loop carries the accumulator transposed\n");
    return "";
  }

  // Whether the loop uses `carried` only to compute `op`'s accumulator: every op that depends
  // on it feeds nothing else (its type changes).
  static bool accumulationOnly(BlockArgument carried, mlir::tile::MmaOp op) {
    llvm::SetVector<Operation *> slice;
    SmallVector<Value> worklist{op.getAcc()};
    while (!worklist.empty()) {
      Operation *def = worklist.pop_back_val().getDefiningOp();
      if (!def || def->getBlock() != op->getBlock() || !slice.insert(def))
        continue;
      for (Value operand : def->getOperands())
        worklist.push_back(operand);
    }
    llvm::SmallPtrSet<Operation *, 8> dependent;
    SmallVector<Value> frontier{carried};
    while (!frontier.empty()) {
      Value v = frontier.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (user == op.getOperation())
          continue;
        if (!slice.contains(user))
          return false;
        if (dependent.insert(user).second)
          frontier.push_back(user->getResult(0));
      }
    }
    return true;
  }

  // Users come after their operands: one pass from the end erases chains of dead ops.
  static void eraseDeadOps(Block *body) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
      if (isOpTriviallyDead(&op))
        op.erase();
  }
};

} // namespace

} // namespace tile::codegen
