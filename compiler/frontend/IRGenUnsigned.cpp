// Unsigned integers (ct.uint8 ... ct.uint64).
//
// While a kernel is built, tiles and scalars of unsigned dtypes are typed ui8..ui64, so that the
// signedness travels with every value through reshapes, loops, branches and helper calls with
// no bookkeeping. arith takes signless integers only: an operation whose result depends on the
// signedness (division, remainder, right shift, comparison, min/max, widening, int<->float)
// views its operands through a cast to the signless type of the same width and picks the
// unsigned variant itself. Once the kernel is built, dropSignedness() gives every value its
// signless type and removes those casts; only array types keep `ui`, for the launch metadata
// and the argument checks. Any op that reached an unsigned value without choosing (an arith or
// math op other than the casts, or a max/min reduction) is reported as an internal error
// rather than silently computing with signed semantics.

#include "compiler/frontend/IRGen.h"

#include "compiler/frontend/Frontend.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace tile::frontend {

bool isUnsignedInteger(Type t) {
  auto i = dyn_cast<IntegerType>(getElementTypeOrSelf(t));
  return i && i.isUnsigned();
}

// `t` (a scalar or tensor type) with signless integer elements.
static Type signlessOf(Type t) {
  auto i = dyn_cast<IntegerType>(getElementTypeOrSelf(t));
  if (!i || i.isSignless())
    return t;
  auto s = IntegerType::get(t.getContext(), i.getWidth());
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return tensor.clone(s);
  return s;
}

Value KernelIRGen::signless(Value v, Location l) {
  Type to = signlessOf(v.getType());
  return to == v.getType() ? v : withType(v, to, l);
}

Value KernelIRGen::withType(Value v, Type to, Location l) {
  if (v.getType() == to)
    return v;
  return UnrealizedConversionCastOp::create(builder_, l, to, v).getResult(0);
}

bool KernelIRGen::dropSignedness(ModuleOp module) {
  bool ok = true;
  auto fail = [&](Operation *op, const std::string &what) {
    error(sourceRangeOf(diags_.sources(), op->getLoc()),
          "internal error: " + what + " reached an unsigned value without choosing its unsigned form");
    ok = false;
  };
  auto touchesUnsigned = [](Operation *op) {
    return llvm::any_of(op->getOperandTypes(), isUnsignedInteger) ||
           llvm::any_of(op->getResultTypes(), isUnsignedInteger);
  };
  // First the check: the ops whose meaning depends on the signedness must not see `ui`.
  module.walk([&](Operation *op) {
    if (isa<UnrealizedConversionCastOp, arith::SelectOp>(op) || !touchesUnsigned(op))
      return;
    if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      fail(op, "'" + op->getName().getStringRef().str() + "'");
    if (auto reduce = dyn_cast<mlir::tile::ReduceOp>(op))
      if (reduce.getKind() != mlir::tile::ReduceKind::sum && reduce.getKind() != mlir::tile::ReduceKind::prod)
        fail(op, "a max/min reduction");
  });
  if (!ok)
    return false;
  // An unsigned scalar parameter keeps its type (the launch passes a uint32); its uses see it
  // through one cast at the kernel's entry, which the interpreter and the lowering read as the
  // same bits.
  module.walk([&](mlir::tile::KernelOp kernel) {
    Block &entry = kernel.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    for (BlockArgument arg : entry.getArguments())
      if (isa<IntegerType>(arg.getType()) && isUnsignedInteger(arg.getType()) && !arg.use_empty()) {
        auto cast = UnrealizedConversionCastOp::create(b, arg.getLoc(), signlessOf(arg.getType()), arg);
        arg.replaceAllUsesExcept(cast.getResult(0), cast);
      }
  });
  // Then the types: every value but the kernel's parameters (arrays keep `ui`).
  module.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!isa<mlir::tile::KernelOp>(op))
          for (BlockArgument arg : block.getArguments())
            arg.setType(signlessOf(arg.getType()));
    for (OpResult r : op->getResults())
      r.setType(signlessOf(r.getType()));
  });
  // The casts between a type and itself are gone; one left that is not a parameter's would be
  // a front-end bug.
  module.walk([&](UnrealizedConversionCastOp cast) {
    if (cast->getNumOperands() == 1 && cast->getNumResults() == 1 &&
        cast.getOperand(0).getType() == cast.getResult(0).getType()) {
      cast.getResult(0).replaceAllUsesWith(cast.getOperand(0));
      cast->erase();
      return;
    }
    if (auto arg = dyn_cast<BlockArgument>(cast.getOperand(0));
        arg && isa<mlir::tile::KernelOp>(arg.getOwner()->getParentOp()))
      return;
    error(sourceRangeOf(diags_.sources(), cast->getLoc()),
          "internal error: a conversion between unsigned and signless values remained");
    ok = false;
  });
  return ok;
}

} // namespace tile::frontend
