#include "compiler/codegen/analysis/AccumulatorLayout.h"

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/Rematerialize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "tile-assign-layouts"

namespace tile::codegen {

using namespace mlir;
using mlir::tile::ConvertLayoutOp;
using mlir::tile::MmaLayoutAttr;
using mlir::tile::MmaRowsLayoutAttr;

namespace {

RankedTensorType withEncoding(Type t, Attribute encoding) {
  auto tt = cast<RankedTensorType>(t);
  return RankedTensorType::get(tt.getShape(), tt.getElementType(), encoding);
}

bool isElementwise(Operation *op) {
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) && op->getNumResults() == 1 &&
         (op->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(op)) &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

// What a value can be held in: nothing but the canonical layout; any layout (a tile free to
// build anywhere, or a loop-carried value before the first round knows its layout); or one
// accumulator layout.
struct Held {
  enum Kind { canonical, any, layout } kind = canonical;
  Attribute encoding;
  static Held of(Attribute e) { return {layout, e}; }
};

// #tile.mma `grid` fits a tile of `type`'s shape (2-D or 3-D, the 16x8 tiles divided among the
// warps), #tile.mma_rows one of a single column.
bool fits(Attribute encoding, RankedTensorType type) {
  int64_t rank = type.getRank();
  if (rank != 2 && rank != 3)
    return false;
  int64_t m = type.getDimSize(rank - 2), n = type.getDimSize(rank - 1), b = rank == 3 ? type.getDimSize(0) : 1;
  if (auto mma = dyn_cast<MmaLayoutAttr>(encoding))
    return m % (16 * mma.getWarpsM()) == 0 && n % (8 * mma.getWarpsN()) == 0 && b % mma.getWarpsB() == 0;
  auto rows = cast<MmaRowsLayoutAttr>(encoding);
  return n == 1 && m % (16 * rows.getWarpsM()) == 0 && b % rows.getWarpsB() == 0;
}

class Propagation {
public:
  explicit Propagation(mlir::tile::KernelOp kernel) : kernel_(kernel) {}

  int64_t run() {
    // Round 0 lets loop-carried tiles be in any layout; later rounds assume what the yields
    // gave them and drop the assumptions the next round does not confirm (each round holds fewer
    // values in accumulator layouts than the one before, so this ends).
    firstRound_ = true;
    for (int round = 0; round < 16; ++round) {
      held_.clear();
      wildcard_.clear();
      visitRegion(kernel_->getRegion(0));
      bool changed = updateLoopAssumptions();
      firstRound_ = false;
      if (!changed && round > 0)
        break;
    }
    return apply();
  }

private:
  Held heldOf(Value v, Operation *user) {
    if (auto it = held_.find(v); it != held_.end())
      return it->second;
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (type && !type.getEncoding() && isLayoutFree(v, user, kMaxRematerializedConversionOps))
      return {Held::any, {}};
    return {};
  }

  // The layout all of `values` agree on: one accumulator layout where at least one is in it and
  // the others are in it or in any; any when all are (and one is a loop-carried assumption).
  Held agree(ValueRange values, Operation *user) {
    Held result{Held::any, {}};
    bool assumed = false;
    for (Value v : values) {
      if (!isa<RankedTensorType>(v.getType()))
        continue;
      Held h = heldOf(v, user);
      if (h.kind == Held::canonical)
        return {};
      if (h.kind == Held::any) {
        assumed |= wildcard_.contains(v);
        continue;
      }
      if (result.kind == Held::layout && result.encoding != h.encoding)
        return {};
      result = h;
    }
    if (result.kind == Held::any && !assumed)
      return {}; // only free tiles: nothing to keep
    return result;
  }

  void set(Value v, Held h) {
    if (h.kind == Held::canonical)
      return;
    if (h.kind == Held::layout && !fits(h.encoding, cast<RankedTensorType>(v.getType())))
      return;
    held_[v] = h;
    if (h.kind == Held::any)
      wildcard_.insert(v);
  }

  void visitRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : block)
        visit(&op);
  }

  void visit(Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return visitFor(loop);
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return visitIf(ifOp);
    for (Region &region : op->getRegions())
      visitRegion(region);
    if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
      auto from = dyn_cast_or_null<MmaLayoutAttr>(convert.getInput().getType().getEncoding());
      if (from && !convert.getType().getEncoding() && !convert->hasAttr(kRematerializeAttr))
        set(convert, Held::of(from));
      return;
    }
    if (isElementwise(op))
      return set(op->getResult(0), agree(op->getOperands(), op));
    if (auto reduce = dyn_cast<mlir::tile::ReduceOp>(op))
      return visitReduce(reduce);
    if (auto bc = dyn_cast<mlir::tile::BroadcastOp>(op)) {
      if (!isa<RankedTensorType>(bc.getInput().getType()))
        return;
      Held in = held_.lookup(bc.getInput());
      if (in.kind == Held::any)
        return set(bc, in);
      if (auto rows = dyn_cast_or_null<MmaRowsLayoutAttr>(in.encoding);
          rows && bc.getType().getRank() == cast<RankedTensorType>(bc.getInput().getType()).getRank())
        set(bc, Held::of(rows.getAccumulator()));
    }
  }

  // Along the columns of an accumulator with one warp along N, keeping the dim: #tile.mma_rows.
  void visitReduce(mlir::tile::ReduceOp reduce) {
    Held in = held_.lookup(reduce.getInput());
    if (in.kind == Held::canonical)
      return;
    RankedTensorType type = reduce.getInput().getType();
    bool alongColumns = static_cast<int64_t>(reduce.getAxis()) == type.getRank() - 1 &&
                        reduce.getType().getRank() == type.getRank() &&
                        reduce.getType().getElementType() == type.getElementType();
    bool arg = reduce.getKind() == mlir::tile::ReduceKind::argmax || reduce.getKind() == mlir::tile::ReduceKind::argmin;
    if (!alongColumns || arg)
      return;
    if (in.kind == Held::any)
      return set(reduce, in);
    auto mma = cast<MmaLayoutAttr>(in.encoding);
    if (mma.getWarpsN() != 1) {
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] row reduction at " << reduce.getLoc()
                              << ": canonical layout (the warps split the columns: " << mma << ")\n");
      if (!firstRound_ && remarked_.insert(reduce).second)
        reduce.emitRemark() << "row reduction of an accumulator in the canonical layout: the warps split its columns ("
                            << mma << "), so no thread holds a whole row";
      return;
    }
    set(reduce, Held::of(MmaRowsLayoutAttr::get(mma.getContext(), mma.getWarpsB(), mma.getWarpsM(), 1)));
  }

  void visitFor(scf::ForOp loop) {
    loops_.insert(loop);
    for (BlockArgument arg : loop.getRegionIterArgs()) {
      if (!isa<RankedTensorType>(arg.getType()))
        continue;
      if (firstRound_)
        set(arg, {Held::any, {}});
      else if (Attribute assumed = assumed_.lookup(arg))
        set(arg, Held::of(assumed));
    }
    visitRegion(loop.getRegion());
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      Held h = held_.lookup(arg);
      if (h.kind == Held::layout && held_.lookup(yield.getOperand(i)).encoding == h.encoding)
        set(loop.getResult(i), h);
    }
  }

  void visitIf(scf::IfOp ifOp) {
    visitRegion(ifOp.getThenRegion());
    visitRegion(ifOp.getElseRegion());
    if (ifOp.getElseRegion().empty())
      return;
    for (auto [i, result] : llvm::enumerate(ifOp.getResults()))
      if (isa<RankedTensorType>(result.getType()))
        set(result,
            agree(ValueRange{ifOp.thenYield().getOperand(i), ifOp.elseYield().getOperand(i)}, ifOp.thenYield()));
  }

  // A loop-carried tile is assumed in the layout its yield had in this round when its initial
  // value agrees. Returns whether an assumption changed.
  bool updateLoopAssumptions() {
    bool changed = false;
    for (scf::ForOp loop : loops_) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
        if (!isa<RankedTensorType>(arg.getType()))
          continue;
        Held yielded = held_.lookup(yield.getOperand(i));
        Held init = heldOf(loop.getInitArgs()[i], loop);
        Attribute next;
        if (yielded.kind == Held::layout &&
            (init.kind == Held::any || (init.kind == Held::layout && init.encoding == yielded.encoding)))
          next = yielded.encoding;
        if (assumed_.lookup(arg) != next) {
          changed = true;
          if (next)
            assumed_[arg] = next;
          else
            assumed_.erase(arg);
        }
      }
    }
    return changed;
  }

  // Union-find over the values held in layouts, joined along the edges the rules followed.
  Value find(Value v) {
    Value &parent = parent_[v];
    if (!parent || parent == v)
      return parent = v;
    return parent = find(parent);
  }
  void join(Value a, Value b) {
    if (held_.lookup(a).kind == Held::layout && held_.lookup(b).kind == Held::layout)
      parent_[find(a)] = find(b);
  }

  void joinEdges() {
    for (auto &[v, h] : held_) {
      if (h.kind != Held::layout)
        continue;
      find(v);
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()); loop && arg.getArgNumber() > 0) {
          unsigned i = arg.getArgNumber() - 1;
          join(v, loop.getBody()->getTerminator()->getOperand(i));
          join(v, loop.getInitArgs()[i]);
          join(v, loop.getResult(i));
        }
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
        unsigned i = cast<OpResult>(v).getResultNumber();
        join(v, ifOp.thenYield().getOperand(i));
        join(v, ifOp.elseYield().getOperand(i));
        continue;
      }
      if (isa<scf::ForOp>(def))
        continue;
      for (Value operand : def->getOperands())
        join(v, operand);
    }
  }

  // The type `operand` must have where its owner uses it: the layout of the owner's result for
  // the ops the rules cover, a loop-carried or scf.if value's layout for yields and initial
  // values, the canonical layout for every other use of a value that changed layout (the
  // original type), the type it has otherwise.
  Type expectedType(OpOperand &use) {
    Value v = use.get();
    Operation *owner = use.getOwner();
    auto encoded = [&](Value result) -> Attribute { return applied_.lookup(result); };
    auto as = [&](Attribute e) -> Type { return e ? Type(withEncoding(v.getType(), e)) : Type(); };
    Type expected;
    if (isElementwise(owner) && isa<RankedTensorType>(v.getType()))
      expected = as(encoded(owner->getResult(0)));
    else if (auto reduce = dyn_cast<mlir::tile::ReduceOp>(owner)) {
      if (auto rows = dyn_cast_or_null<MmaRowsLayoutAttr>(encoded(reduce)))
        expected = as(rows.getAccumulator());
    } else if (auto bc = dyn_cast<mlir::tile::BroadcastOp>(owner); bc && isa<RankedTensorType>(v.getType())) {
      if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(encoded(bc)))
        expected = as(MmaRowsLayoutAttr::get(mma.getContext(), mma.getWarpsB(), mma.getWarpsM(), mma.getWarpsN()));
    } else if (auto yield = dyn_cast<scf::YieldOp>(owner)) {
      Operation *parent = yield->getParentOp();
      if (isa<scf::ForOp, scf::IfOp>(parent))
        expected = as(encoded(parent->getResult(use.getOperandNumber())));
    } else if (auto loop = dyn_cast<scf::ForOp>(owner); loop && use.getOperandNumber() >= 3) {
      expected = as(encoded(loop.getRegionIterArgs()[use.getOperandNumber() - 3]));
    } else if (isa<ConvertLayoutOp>(owner)) {
      return v.getType();
    }
    if (expected)
      return expected;
    if (Type original = original_.lookup(v))
      return original;
    return v.getType();
  }

  int64_t apply() {
    joinEdges();
    DenseSet<Value> withRows;
    for (auto &[v, h] : held_)
      if (h.kind == Held::layout && isa<MmaRowsLayoutAttr>(h.encoding))
        withRows.insert(find(v));
    for (auto &[v, h] : held_)
      if (h.kind == Held::layout && withRows.contains(find(v)))
        applied_[v] = h.encoding;
    if (applied_.empty())
      return 0;
    for (auto &[v, e] : applied_) {
      original_[v] = v.getType();
      v.setType(withEncoding(v.getType(), e));
      // A loop's result, iter_arg and yield agree: the rules gave them one layout.
      TILE_DEBUG(
          llvm::dbgs() << "[" DEBUG_TYPE "] kept in " << e << ": "
                       << (isa<BlockArgument>(v) ? "loop-carried tile" : v.getDefiningOp()->getName().getStringRef())
                       << " at " << v.getLoc() << "\n");
    }
    OpBuilder b(kernel_.getContext());
    DenseMap<Value, Value> canonicalCopy;
    SmallVector<OpOperand *> uses;
    kernel_.walk([&](Operation *op) {
      for (OpOperand &use : op->getOpOperands())
        uses.push_back(&use);
    });
    for (OpOperand *use : uses) {
      Value v = use->get();
      Type expected = expectedType(*use);
      if (expected == v.getType())
        continue;
      Operation *owner = use->getOwner();
      if (original_.lookup(v) == expected) { // one copy back per value, right after it
        Value &copy = canonicalCopy[v];
        if (!copy) {
          if (auto arg = dyn_cast<BlockArgument>(v))
            b.setInsertionPointToStart(arg.getOwner());
          else
            b.setInsertionPointAfter(v.getDefiningOp());
          copy = ConvertLayoutOp::create(b, v.getLoc(), expected, v);
        }
        use->set(copy);
        continue;
      }
      b.setInsertionPoint(owner);
      use->set(ConvertLayoutOp::create(b, owner->getLoc(), cast<RankedTensorType>(expected), v));
    }
    // The conversions out of the accumulators that the values above started from now convert
    // to the layout they come from.
    kernel_.walk([](ConvertLayoutOp convert) {
      if (convert.getInput().getType() == convert.getType()) {
        convert.replaceAllUsesWith(convert.getInput());
        convert.erase();
      }
    });
    return static_cast<int64_t>(applied_.size());
  }

  mlir::tile::KernelOp kernel_;
  bool firstRound_ = true;
  llvm::MapVector<Value, Held> held_; // in program order (the debug output's order)
  DenseSet<Value> wildcard_;
  DenseMap<Value, Attribute> assumed_; // iter_arg -> layout
  llvm::SetVector<scf::ForOp> loops_;
  DenseMap<Value, Value> parent_;
  llvm::MapVector<Value, Attribute> applied_;
  DenseMap<Value, Type> original_;
  DenseSet<Operation *> remarked_;
};

} // namespace

int64_t keepInAccumulatorLayout(mlir::tile::KernelOp kernel) { return Propagation(kernel).run(); }

} // namespace tile::codegen
