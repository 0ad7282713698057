// tile.bid, tile.num_blocks, tile.dim, tile.stride, tile.grid_dependency_control.

#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

using namespace mlir;

namespace tile::interp {
namespace {

int64_t axisOf(Dim3 d, int32_t axis) { return axis == 0 ? d.x : axis == 1 ? d.y : d.z; }

} // namespace

void registerGridOps(OpTable &t) {
  t.add<mlir::tile::BlockIdOp>([](ExecContext &ctx, Operation *op) {
    auto bid = cast<mlir::tile::BlockIdOp>(op);
    ctx.bind(bid, Tensor::scalarInt(DType::Int32, axisOf(ctx.block, bid.getAxis())));
    return success();
  });
  t.add<mlir::tile::NumBlocksOp>([](ExecContext &ctx, Operation *op) {
    auto n = cast<mlir::tile::NumBlocksOp>(op);
    ctx.bind(n, Tensor::scalarInt(DType::Int32, axisOf(ctx.grid, n.getAxis())));
    return success();
  });
  t.add<mlir::tile::DimOp>([](ExecContext &ctx, Operation *op) {
    auto dim = cast<mlir::tile::DimOp>(op);
    ctx.bind(dim, Tensor::scalarInt(DType::Int64, ctx.array(dim.getArray()).host.shape[dim.getAxis()]));
    return success();
  });
  t.add<mlir::tile::StrideOp>([](ExecContext &ctx, Operation *op) {
    auto stride = cast<mlir::tile::StrideOp>(op);
    ctx.bind(stride, Tensor::scalarInt(DType::Int64, ctx.array(stride.getArray()).host.strides[stride.getAxis()]));
    return success();
  });
  // The interpreter runs one launch at a time: the preceding one has finished, and the next
  // starts after this one.
  t.add<mlir::tile::GridDependencyControlOp>([](ExecContext &, Operation *) { return success(); });
}

} // namespace tile::interp
