// The tile-load-operands-in-memory-order pass: a load with `order=` (a transposed view) whose
// tile only feeds Tensor Core products becomes a load in the array's own order and a
// tile.permute. The copy can then go by TMA into pipeline stages (a load out of memory order
// cannot), and the product folds the permute into how it reads the operand: attention's K
// loaded as K^T (D x N, `order=(0, 1, 3, 2)` in cuTile's FMHA sample) is then wgmma's B operand
// stored K-major, its natural form.

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "dialect/TileDialect.h"

#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "tile-load-operands-in-memory-order"

namespace tile::codegen {

#define GEN_PASS_DEF_TILELOADOPERANDSINMEMORYORDER
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

// Every use of `v`, through reshapes, is an A or B operand of a tile.mma.
bool onlyFeedsProducts(Value v) {
  return !v.use_empty() && llvm::all_of(v.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto reshape = dyn_cast<mlir::tile::ReshapeOp>(user))
      return onlyFeedsProducts(reshape.getResult());
    auto mma = dyn_cast<mlir::tile::MmaOp>(user);
    return mma && (use.get() == mma.getA() || use.get() == mma.getB()) && use.get() != mma.getAcc();
  });
}

bool isIdentity(ArrayRef<int32_t> order) {
  for (auto [d, a] : llvm::enumerate(order))
    if (static_cast<int32_t>(d) != a)
      return false;
  return true;
}

// load(order = P)[I] : T  ->  permute(load[I'] : T', P), with T'[P[d]] = T[d], I'[P[d]] = I[d]:
// result dim d of the permute is dim P[d] of the load in memory order.
void rewrite(mlir::tile::LoadOp load) {
  ArrayRef<int32_t> order = *load.getOrder();
  RankedTensorType type = load.getType();
  SmallVector<int64_t> shape(type.getRank());
  SmallVector<Value> indices(type.getRank());
  for (auto [d, a] : llvm::enumerate(order)) {
    shape[a] = type.getDimSize(d);
    indices[a] = load.getIndices()[d];
  }
  OpBuilder b(load);
  auto inOrder = mlir::tile::LoadOp::create(b, load.getLoc(), RankedTensorType::get(shape, type.getElementType()),
                                            load.getArray(), indices, load.getPaddingAttr(), DenseI32ArrayAttr(),
                                            load.getLatencyAttr(), load.getAllowTmaAttr());
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] load at " << load.getLoc() << ": in memory order " << inOrder.getType()
                          << ", then permuted into the products it feeds\n");
  // A matrix with unit dims around it (cuTile's (1, 1, D, N) K tile reshaped to D x N): the
  // reshapes take the matrix in memory order and a 2-D transpose follows, the form products fold.
  SmallVector<int64_t> matrixDims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) != 1)
      matrixDims.push_back(d);
  auto toMatrix = [&](Operation *user) {
    auto reshape = dyn_cast<mlir::tile::ReshapeOp>(user);
    return reshape && matrixDims.size() == 2 && reshape.getType().getRank() == 2 &&
           reshape.getType().getDimSize(0) == type.getDimSize(matrixDims[0]) &&
           reshape.getType().getDimSize(1) == type.getDimSize(matrixDims[1]);
  };
  if (llvm::all_of(load->getUsers(), toMatrix)) {
    bool transposed = order[matrixDims[0]] > order[matrixDims[1]];
    for (Operation *user : llvm::make_early_inc_range(load->getUsers())) {
      auto reshape = cast<mlir::tile::ReshapeOp>(user);
      b.setInsertionPoint(reshape);
      RankedTensorType matrix = reshape.getType();
      Value v = mlir::tile::ReshapeOp::create(
          b, reshape.getLoc(),
          transposed ? RankedTensorType::get({matrix.getDimSize(1), matrix.getDimSize(0)}, matrix.getElementType())
                     : matrix,
          inOrder);
      if (transposed)
        v = mlir::tile::PermuteOp::create(b, reshape.getLoc(), matrix, v, b.getDenseI32ArrayAttr({1, 0}));
      reshape.replaceAllUsesWith(v);
      reshape.erase();
    }
    load.erase();
    return;
  }
  auto permute = mlir::tile::PermuteOp::create(b, load.getLoc(), type, inOrder, b.getDenseI32ArrayAttr(order));
  load.replaceAllUsesWith(permute.getResult());
  load.erase();
}

struct TileLoadOperandsInMemoryOrderPass : impl::TileLoadOperandsInMemoryOrderBase<TileLoadOperandsInMemoryOrderPass> {
  void runOnOperation() override {
    SmallVector<mlir::tile::LoadOp> loads;
    getOperation().walk([&](mlir::tile::LoadOp load) {
      if (load.getOrder() && !isIdentity(*load.getOrder()) && onlyFeedsProducts(load))
        loads.push_back(load);
    });
    for (mlir::tile::LoadOp load : loads)
      rewrite(load);
  }
};

} // namespace

} // namespace tile::codegen
