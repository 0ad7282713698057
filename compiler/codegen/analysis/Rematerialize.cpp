#include "compiler/codegen/analysis/Rematerialize.h"

#include "compiler/codegen/analysis/ArrayWrites.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace tile::codegen {

namespace {

struct Budget {
  int64_t ops = 0, loads = 0, maxOps = kMaxRematerializedOps;
  Attribute heldLayout; // isRematerializable's `heldLayout`
};

// A load stays valid to re-read at `user`: nothing in the kernel writes its array, and (when the
// load is inside a loop) no loop lies between it and `user`: a load in a loop may be copied into
// a pipeline stage that later iterations of an inner loop would overwrite.
std::string loadRereadable(mlir::tile::LoadOp load, Operation *user) {
  auto kernel = load->getParentOfType<mlir::tile::KernelOp>();
  if (writesArray(kernel, load.getArray()))
    return "the kernel writes the array it loads";
  Operation *home = load->getParentOp();
  if (home == kernel.getOperation())
    return "";
  for (Operation *p = user->getParentOp(); p && p != home; p = p->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(p))
      return "a loop lies between the load and its use";
  return "";
}

// `elementwise`: only element-wise ops lie between `v` and the tile asked about, so element
// (i, j) of `v` is needed exactly where that tile's element (i, j) is.
std::string check(Value v, Operation *user, Budget &budget, bool elementwise) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return "";
  if (type.getEncoding())
    return "a tile in a non-canonical layout";
  Operation *def = v.getDefiningOp();
  if (!def)
    return "a block argument (loop-carried or region value)";
  // A conversion from the layout the threads will build the tile in: each already holds the
  // elements it needs, in its registers (the conversion cancels in that layout).
  if (auto convert = dyn_cast<mlir::tile::ConvertLayoutOp>(def);
      convert && elementwise && budget.heldLayout && convert.getInput().getType().getEncoding() == budget.heldLayout)
    return "";
  // Reshapes cost nothing: row-major order is unchanged.
  if (isa<mlir::tile::ReshapeOp, mlir::tile::ExpandDimsOp>(def))
    return check(def->getOperand(0), user, budget, false);
  if (++budget.ops > budget.maxOps)
    return "more than " + std::to_string(budget.maxOps) + " ops to recompute";
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    return isa<SplatElementsAttr>(constant.getValue()) ? "" : "a non-splat constant";
  if (isa<mlir::tile::IotaOp>(def))
    return "";
  if (auto load = dyn_cast<mlir::tile::LoadOp>(def)) {
    if (++budget.loads > kMaxRematerializedLoads)
      return "more than " + std::to_string(kMaxRematerializedLoads) + " loads to repeat";
    return loadRereadable(load, user);
  }
  // A broadcast or a permute only changes which input element an element reads.
  if (isa<mlir::tile::BroadcastOp, mlir::tile::PermuteOp>(def))
    return check(def->getOperand(0), user, budget, false);
  if (isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) &&
      (def->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(def)) && def->getNumResults() == 1) {
    for (Value operand : def->getOperands())
      if (std::string why = check(operand, user, budget, elementwise); !why.empty())
        return why;
    return "";
  }
  return "'" + def->getName().getStringRef().str() + "' moves data between threads";
}

} // namespace

bool isRematerializable(Value v, Operation *user, std::string *why, int64_t maxOps, Attribute heldLayout) {
  Budget budget;
  budget.maxOps = maxOps;
  budget.heldLayout = heldLayout;
  std::string reason = check(v, user, budget, /*elementwise=*/true);
  if (why)
    *why = reason;
  return reason.empty();
}

bool isBroadcastOfScalar(mlir::tile::BroadcastOp bc) {
  auto in = dyn_cast<RankedTensorType>(bc.getInput().getType());
  return !in || in.getNumElements() == 1;
}

bool isBuiltInPlace(mlir::tile::BroadcastOp bc) { return isBroadcastOfScalar(bc) || bc->hasAttr(kRematerializeAttr); }

bool isLayoutFree(Value v, Operation *user, int64_t maxOps) {
  if (matchPattern(v, m_Constant()))
    return isa_and_nonnull<SplatElementsAttr>(cast<arith::ConstantOp>(v.getDefiningOp()).getValue());
  if (auto bc = v.getDefiningOp<mlir::tile::BroadcastOp>(); bc && isBuiltInPlace(bc))
    return true;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && !type.getEncoding() && isRematerializable(v, user, nullptr, maxOps);
}

} // namespace tile::codegen
