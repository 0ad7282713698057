// The tile-remove-layout-conversions pass: rewrites that make tile.convert_layout ops
// unnecessary (each one costs a round trip through shared memory and two barriers).

#include "compiler/codegen/Debug.h"
#include "compiler/codegen/Passes.h"
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

// A broadcast of a scalar or a one-element tile (which every thread holds): free in any layout.
static bool isBroadcastOfScalar(mlir::tile::BroadcastOp bc) {
  auto in = dyn_cast<RankedTensorType>(bc.getInput().getType());
  return !in || in.getNumElements() == 1;
}

// A value that costs nothing to have in any layout: a splat constant or a broadcast scalar.
static bool isLayoutFree(Value v) {
  if (matchPattern(v, m_Constant()))
    return isa_and_nonnull<SplatElementsAttr>(cast<arith::ConstantOp>(v.getDefiningOp()).getValue());
  if (auto bc = v.getDefiningOp<mlir::tile::BroadcastOp>())
    return isBroadcastOfScalar(bc);
  return false;
}

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
      if (!cancels && !isLayoutFree(operand))
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

// A broadcast scalar or splat constant converted to a layout is built in that layout.
struct BuildLayoutFreeInPlace : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert, PatternRewriter &rewriter) const override {
    auto bc = convert.getInput().getDefiningOp<mlir::tile::BroadcastOp>();
    if (!bc || !isBroadcastOfScalar(bc))
      return failure();
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] built in place: broadcast scalar at " << bc.getLoc() << " in "
                            << convert.getType().getEncoding() << "\n");
    rewriter.replaceOpWithNewOp<mlir::tile::BroadcastOp>(convert, convert.getType(), bc.getInput());
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
    RewritePatternSet patterns(&getContext());
    patterns.add<HoistConversionAboveElementwise, BuildLayoutFreeInPlace, CarryLoopValueInLayout>(&getContext());
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
