// The tile-remove-layout-conversions pass: rewrites that make tile.convert_layout ops
// unnecessary (each one costs a round trip through shared memory and two barriers).

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/Rematerialize.h"
#include "compiler/codegen/analysis/TileLayout.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "tile-remove-layout-conversions"

namespace tile::codegen {

#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;
using mlir::tile::ConvertLayoutOp;

namespace {

static RankedTensorType withEncoding(Type t, Attribute encoding) {
  auto tt = cast<RankedTensorType>(t);
  return RankedTensorType::get(tt.getShape(), tt.getElementType(), encoding);
}

// convert(elementwise(x, ...)) -> elementwise(convert(x), ...) when that does not add
// conversions: every tile operand but at most one is a conversion from the target layout (the
// two cancel) or layout-free. Moving the one real conversion up lets it meet the loop pattern
// below or another conversion.
struct HoistConversionAboveElementwise : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    Operation *producer = convert.getInput().getDefiningOp();
    if (!producer || !producer->hasTrait<OpTrait::Elementwise>() || producer->getNumResults() != 1 ||
        !producer->hasOneUse() || !isa<arith::ArithDialect, math::MathDialect>(producer->getDialect()))
      return failure();
    Attribute target = convert.getType().getEncoding();
    int realConversions = 0;
    for (Value operand : producer->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()))
        continue;
      auto from = operand.getDefiningOp<ConvertLayoutOp>();
      bool cancels = from && from.getInput().getType().getEncoding() == target;
      if (!cancels && !isLayoutFree(operand, producer))
        ++realConversions;
    }
    if (realConversions > 1) {
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kept: conversion to " << target << " of " << producer->getName()
                              << " at " << producer->getLoc() << " (" << realConversions
                              << " operands would need a conversion)\n");
      return failure();
    }
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] moved " << producer->getName() << " at " << producer->getLoc()
                            << " into " << target << " ("
                            << (realConversions ? "one operand converted, the others cancel or are layout-free"
                                                : "every conversion cancels")
                            << ")\n");
    rewriter.setInsertionPoint(producer);
    SmallVector<Value> operands;
    for (Value operand : producer->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      operands.push_back(
          ConvertLayoutOp::create(rewriter, convert.getLoc(), withEncoding(operand.getType(), target), operand));
    }
    Operation *moved = rewriter.clone(*producer);
    moved->setOperands(operands);
    moved->getResult(0).setType(convert.getType());
    rewriter.replaceOp(convert, moved->getResults());
    rewriter.eraseOp(producer);
    return success();
  }
};

// A broadcast built in place converted to a layout is built in that layout.
struct BuildLayoutFreeInPlace : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    auto bc = convert.getInput().getDefiningOp<mlir::tile::BroadcastOp>();
    if (!bc || !isBuiltInPlace(bc))
      return failure();
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] built in place: broadcast "
                            << (isBroadcastOfScalar(bc) ? "scalar" : "of a recomputed tile") << " at " << bc.getLoc()
                            << " in " << convert.getType().getEncoding() << "\n");
    auto inPlace = rewriter.replaceOpWithNewOp<mlir::tile::BroadcastOp>(convert, convert.getType(), bc.getInput());
    inPlace->setAttrs(bc->getAttrs());
    return success();
  }
};

// Marks the broadcasts whose input every thread can recompute (Rematerialize.h) with
// tile.rematerialize; the others go through shared memory, with a remark saying why.
void markRematerializedBroadcasts(Operation *root) {
  root->walk([](mlir::tile::BroadcastOp bc) {
    if (isBroadcastOfScalar(bc) || bc->hasAttr(kRematerializeAttr))
      return;
    // Rows of an accumulator back over its columns: each thread reads its own registers.
    if (isa_and_nonnull<mlir::tile::MmaRowsLayoutAttr>(cast<RankedTensorType>(bc.getInput().getType()).getEncoding()))
      return;
    std::string why;
    if (isRematerializable(bc.getInput(), bc, &why)) {
      bc->setAttr(kRematerializeAttr, UnitAttr::get(bc.getContext()));
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] broadcast at " << bc.getLoc()
                              << ": input recomputed by each thread (" << kRematerializeAttr << ")\n");
      return;
    }
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] broadcast at " << bc.getLoc() << ": through shared memory (" << why
                            << ")\n");
    bc.emitRemark() << "broadcast through shared memory: its input cannot be recomputed by each thread (" << why << ")";
  });
}

// A reshape that keeps an accumulator layout's meaning: the same matrices (the last two dims
// that are not 1, TileLayout::mmaMatrixDims) after the same number of batch elements, so only
// unit dims are added or dropped.
static bool keepsAccumulatorLayout(mlir::tile::ReshapeOp reshape) {
  auto in = TileLayout(reshape.getInput().getType().getShape(), 1).mmaMatrices();
  return std::get<0>(in) && in == TileLayout(reshape.getType().getShape(), 1).mmaMatrices();
}

// A chain f(convert(acc)) ending at a value: `f` is a chain of reshapes that keep the
// accumulator layout and element-wise ops whose other tile operands are layout-free (casts,
// scaling); `convert` takes an accumulator (#tile.mma) tile to the canonical layout.
struct AccumulatorChain {
  ConvertLayoutOp convert;
  SmallVector<Operation *> ops; // from the value up to the conversion
};

static std::optional<AccumulatorChain> accumulatorChain(Value v) {
  AccumulatorChain chain;
  while (!chain.convert) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if ((chain.convert = dyn_cast<ConvertLayoutOp>(def)))
      break;
    if (auto reshape = dyn_cast<mlir::tile::ReshapeOp>(def); reshape && keepsAccumulatorLayout(reshape)) {
      chain.ops.push_back(def);
      v = reshape.getInput();
      continue;
    }
    if (!def->hasTrait<OpTrait::Elementwise>() || def->getNumResults() != 1 ||
        !isa<arith::ArithDialect, math::MathDialect>(def->getDialect()))
      return std::nullopt;
    Value next;
    for (Value operand : def->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()) || isLayoutFree(operand, def))
        continue;
      if (next)
        return std::nullopt;
      next = operand;
    }
    if (!next)
      return std::nullopt;
    chain.ops.push_back(def);
    v = next;
  }
  if (!isa_and_nonnull<mlir::tile::MmaLayoutAttr>(chain.convert.getInput().getType().getEncoding()) ||
      chain.convert.getType().getEncoding())
    return std::nullopt;
  return chain;
}

// The chain's ops rebuilt on the accumulator itself, in its layout; returns the last one's
// result (the accumulator when the chain is empty). The originals stay for their other users.
static Value rebuildInAccumulatorLayout(AccumulatorChain chain, PatternRewriter &rewriter) {
  auto accumulator = cast<mlir::tile::MmaLayoutAttr>(chain.convert.getInput().getType().getEncoding());
  Value current = chain.convert.getInput();
  Value v = chain.convert.getResult();
  for (Operation *op : llvm::reverse(chain.ops)) {
    rewriter.setInsertionPoint(op);
    Type type = withEncoding(op->getResult(0).getType(), accumulator);
    if (auto reshape = dyn_cast<mlir::tile::ReshapeOp>(op)) {
      current = mlir::tile::ReshapeOp::create(rewriter, op->getLoc(), type, current);
      v = reshape.getResult();
      continue;
    }
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (operand == v || !isa<RankedTensorType>(operand.getType()))
        operands.push_back(operand == v ? current : operand);
      else // layout-free: BuildLayoutFreeInPlace or folding builds it in the layout
        operands.push_back(
            ConvertLayoutOp::create(rewriter, op->getLoc(), withEncoding(operand.getType(), accumulator), operand));
    }
    Operation *moved = rewriter.clone(*op);
    moved->setOperands(operands);
    moved->getResult(0).setType(type);
    current = moved->getResult(0);
    v = op->getResult(0);
  }
  return current;
}

// store(f(convert(acc))) -> store(f(acc)): a store writes each register at its own element, in
// any layout, so an accumulator is stored straight from its fragments (pairs of neighbouring
// columns) instead of through shared memory.
struct StoreInAccumulatorLayout : OpRewritePattern<mlir::tile::StoreOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(mlir::tile::StoreOp store, PatternRewriter &rewriter) const override {
    std::optional<AccumulatorChain> chain = accumulatorChain(store.getValue());
    if (!chain)
      return failure();
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] store at " << store.getLoc() << ": from the accumulator layout "
                            << chain->convert.getInput().getType().getEncoding() << " (" << chain->ops.size()
                            << " op(s) on the way)\n");
    Value current = rebuildInAccumulatorLayout(*chain, rewriter);
    rewriter.modifyOpInPlace(store, [&] { store.getValueMutable().assign(current); });
    return success();
  }
};

// mma(a, f(convert(acc)), c) -> mma(a, f(acc), c): the lowering writes a B operand that is
// not read in place into shared memory from whatever registers hold it, so a product whose B
// operand is another product's result (a state S^T fed back, say) is written from the
// accumulator fragments without first converting it through shared memory. (An A operand in
// the #tile.mma layout means A from registers, which tile-assign-layouts decides; a transposed
// operand, a permute the lowering folds, is left as it is.)
struct WriteMmaOperandBFromAccumulator : OpRewritePattern<mlir::tile::MmaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(mlir::tile::MmaOp op, PatternRewriter &rewriter) const override {
    std::optional<AccumulatorChain> chain = accumulatorChain(op.getB());
    if (!chain)
      return failure();
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc()
                            << ": B written to shared memory from the accumulator layout "
                            << chain->convert.getInput().getType().getEncoding() << " (" << chain->ops.size()
                            << " op(s) on the way)\n");
    Value b = rebuildInAccumulatorLayout(*chain, rewriter);
    rewriter.modifyOpInPlace(op, [&] { op.getBMutable().assign(b); });
    return success();
  }
};

// A conversion of a tile every thread can recompute is marked tile.rematerialize: the
// lowering evaluates the tile's ops at each register's element in the target layout (no shared
// memory, no barrier).
struct RematerializeConversion : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    if (convert->hasAttr(kRematerializeAttr) || convert.getInput().getType().getEncoding() ||
        !isRematerializable(convert.getInput(), convert, nullptr, kMaxRematerializedConversionOps))
      return failure();
    if (auto bc = convert.getInput().getDefiningOp<mlir::tile::BroadcastOp>(); bc && isBuiltInPlace(bc))
      return failure(); // BuildLayoutFreeInPlace
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] conversion at " << convert.getLoc() << " to "
                            << convert.getType().getEncoding() << ": input recomputed by each thread\n");
    rewriter.modifyOpInPlace(convert, [&] { convert->setAttr(kRematerializeAttr, rewriter.getUnitAttr()); });
    return success();
  }
};

// A loop-carried tile that an iteration converts to layout L and yields as a conversion from L
// is carried in L: one conversion before the loop, one after. Other users in the loop (a store
// of the running state, say) get a conversion back; each iteration then converts once
// instead of twice.
struct CarryLoopValueInLayout : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop, PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getEncoding())
        continue;
      auto yielded = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
      if (!yielded)
        continue;
      RankedTensorType carried = yielded.getInput().getType();
      auto convertsToCarried = [&](Operation *user) {
        auto c = dyn_cast<ConvertLayoutOp>(user);
        return c && c.getType() == carried;
      };
      if (!carried.getEncoding() || !llvm::any_of(arg.getUsers(), convertsToCarried))
        continue;
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] loop at " << loop.getLoc() << " carries iter_arg #" << i << " in "
                              << carried.getEncoding() << "\n");
      rewriter.setInsertionPoint(loop);
      Value init = ConvertLayoutOp::create(rewriter, loop.getLoc(), carried, loop.getInitArgs()[i]);
      rewriter.modifyOpInPlace(loop, [&] {
        loop.getInitArgsMutable()[i].assign(init);
        arg.setType(carried);
        loop.getResult(i).setType(carried);
      });
      Value canonical;
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : arg.getUses())
        uses.push_back(&use);
      for (OpOperand *use : uses) {
        if (convertsToCarried(use->getOwner())) {
          rewriter.replaceOp(use->getOwner(), arg);
          continue;
        }
        if (!canonical) {
          rewriter.setInsertionPointToStart(loop.getBody());
          canonical = ConvertLayoutOp::create(rewriter, loop.getLoc(), type, arg);
        }
        rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(canonical); });
      }
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(i, yielded.getInput()); });
      rewriter.setInsertionPointAfter(loop);
      auto back = ConvertLayoutOp::create(rewriter, loop.getLoc(), type, loop.getResult(i));
      rewriter.replaceAllUsesExcept(loop.getResult(i), back, back);
      return success();
    }
    return failure();
  }
};

// A conversion in one branch of an scf.if of a tile defined outside it, which the other branch
// converts to the same layout as well, happens once before the scf.if: the two copies become
// one, and the conversion can then meet the rewrites above (an element-wise producer, a loop).
struct HoistConversionOutOfIf : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    auto ifOp = dyn_cast<scf::IfOp>(convert->getParentOp());
    if (!ifOp || ifOp.getElseRegion().empty())
      return failure();
    Value input = convert.getInput();
    if (!input.getParentRegion()->isAncestor(ifOp->getParentRegion()))
      return failure();
    Region &other = convert->getParentRegion() == &ifOp.getThenRegion() ? ifOp.getElseRegion() : ifOp.getThenRegion();
    ConvertLayoutOp twin;
    for (Operation &op : other.front())
      if (auto c = dyn_cast<ConvertLayoutOp>(op); c && c.getInput() == input && c.getType() == convert.getType())
        twin = c;
    if (!twin)
      return failure();
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] conversion at " << convert.getLoc() << " to "
                            << convert.getType().getEncoding() << ": hoisted out of both branches of an scf.if\n");
    rewriter.setInsertionPoint(ifOp);
    Value hoisted = ConvertLayoutOp::create(rewriter, convert.getLoc(), convert.getType(), input);
    rewriter.replaceOp(twin, hoisted);
    rewriter.replaceOp(convert, hoisted);
    return success();
  }
};

// An scf.if result that both branches yield as a conversion from the same layout L is a result
// in L, converted once after the scf.if (where the rewrites above can cancel it): a tile that
// stays in an accumulator's layout through both branches (a product in each) never leaves it.
struct YieldIfResultInLayout : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::IfOp ifOp, PatternRewriter &rewriter) const override {
    if (ifOp.getElseRegion().empty())
      return failure();
    scf::YieldOp thenYield = ifOp.thenYield(), elseYield = ifOp.elseYield();
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || type.getEncoding())
        continue;
      auto fromThen = thenYield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
      auto fromElse = elseYield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
      if (!fromThen || !fromElse)
        continue;
      RankedTensorType held = fromThen.getInput().getType();
      if (!held.getEncoding() || fromElse.getInput().getType() != held)
        continue;
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] scf.if at " << ifOp.getLoc() << " yields result #" << i << " in "
                              << held.getEncoding() << "\n");
      rewriter.modifyOpInPlace(thenYield, [&] { thenYield->setOperand(i, fromThen.getInput()); });
      rewriter.modifyOpInPlace(elseYield, [&] { elseYield->setOperand(i, fromElse.getInput()); });
      rewriter.modifyOpInPlace(ifOp, [&] { result.setType(held); });
      rewriter.setInsertionPointAfter(ifOp);
      auto back = ConvertLayoutOp::create(rewriter, ifOp.getLoc(), type, result);
      rewriter.replaceAllUsesExcept(result, back, back);
      return success();
    }
    return failure();
  }
};

// Counts the conversions left, for the debug output.
int64_t countConversions(Operation *root) {
  int64_t n = 0;
  root->walk([&](ConvertLayoutOp) { ++n; });
  return n;
}

// Debug output: every conversion the rewrites remove, including those that cancel by folding
// (a conversion of a conversion back to the original layout, ConvertLayoutOp::fold).
struct ConversionLog : RewriterBase::Listener {
  void notifyOperationReplaced(Operation *op, ValueRange replacement) override {
    auto convert = dyn_cast<ConvertLayoutOp>(op);
    if (!convert)
      return;
    TILE_DEBUG({
      llvm::dbgs() << "[" DEBUG_TYPE "] removed conversion " << convert.getInput().getType() << " -> "
                   << convert.getType() << " at " << convert.getLoc() << ": ";
      Value with = replacement.empty() ? Value() : replacement[0];
      auto inner = convert.getInput().getDefiningOp<ConvertLayoutOp>();
      if (with && with == convert.getInput())
        llvm::dbgs() << "no-op (same layout)\n";
      else if (inner && with == inner.getInput())
        llvm::dbgs() << "cancelled (converts back to the layout it came from)\n";
      else if (with && with.getDefiningOp())
        llvm::dbgs() << "replaced by " << with.getDefiningOp()->getName() << "\n";
      else
        llvm::dbgs() << "replaced\n";
    });
  }
};

struct TileRemoveLayoutConversionsPass : impl::TileRemoveLayoutConversionsBase<TileRemoveLayoutConversionsPass> {
  void runOnOperation() override {
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.convert_layout ops before: " << countConversions(getOperation())
                            << "\n");
    markRematerializedBroadcasts(getOperation());
    RewritePatternSet patterns(&getContext());
    patterns
        .add<HoistConversionAboveElementwise, BuildLayoutFreeInPlace, CarryLoopValueInLayout, HoistConversionOutOfIf,
             YieldIfResultInLayout, StoreInAccumulatorLayout, WriteMmaOperandBFromAccumulator, RematerializeConversion>(
            &getContext());
    ConversionLog log;
    GreedyRewriteConfig config;
    if (isDebugEnabled(DEBUG_TYPE))
      config.setListener(&log);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.convert_layout ops after: " << countConversions(getOperation())
                            << "\n");
  }
};

} // namespace

} // namespace tile::codegen
