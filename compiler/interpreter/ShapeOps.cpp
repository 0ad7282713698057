// Tile creation and shape ops (tile.iota ... tile.extract) and the tensor ops that move
// between tiles and scalars (tensor.extract, tensor.from_elements, tensor.splat).

#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tile::interp {
namespace {

// result[index] = input[map(index)] over the result's row-major multi-indices.
template <typename Map> Tensor gatherIndices(const Tensor &in, std::vector<int64_t> shape, Map map) {
  Tensor r(in.dtype, std::move(shape));
  std::vector<int64_t> inStrides = rowMajorStrides(in.shape), pos(r.shape.size(), 0), src(in.shape.size());
  for (int64_t k = 0, n = r.size(); k < n; ++k, nextIndex(pos, r.shape)) {
    map(pos, src);
    int64_t from = 0;
    for (size_t d = 0; d < src.size(); ++d)
      from += src[d] * inStrides[d];
    r.copyElement(k, in, from);
  }
  return r;
}

LogicalResult runIota(ExecContext &ctx, Operation *op) {
  auto iota = cast<mlir::tile::IotaOp>(op);
  Tensor r(elementDType(iota), shapeOf(iota.getType()));
  for (int64_t k = 0; k < r.size(); ++k)
    r.i[k] = wrapInt(k, r.dtype);
  ctx.bind(iota, std::move(r));
  return success();
}

LogicalResult runBroadcast(ExecContext &ctx, Operation *op) {
  auto bc = cast<mlir::tile::BroadcastOp>(op);
  const Tensor &in = ctx.tensor(bc.getInput());
  std::vector<int64_t> shape = shapeOf(bc.getType());
  if (in.rank() == 0) { // a scalar (or 0-D tile) splat
    Tensor r(in.dtype, shape);
    for (int64_t k = 0; k < r.size(); ++k)
      r.copyElement(k, in, 0);
    ctx.bind(bc, std::move(r));
    return success();
  }
  ctx.bind(bc, gatherIndices(in, shape, [&](const std::vector<int64_t> &pos, std::vector<int64_t> &src) {
             for (size_t d = 0; d < src.size(); ++d)
               src[d] = in.shape[d] == 1 ? 0 : pos[d];
           }));
  return success();
}

// expand_dims and reshape keep the row-major elements and change the shape.
LogicalResult runReshapeLike(ExecContext &ctx, Operation *op) {
  Tensor r = ctx.tensor(op->getOperand(0));
  r.shape = shapeOf(op->getResult(0).getType());
  ctx.bind(op->getResult(0), std::move(r));
  return success();
}

LogicalResult runPermute(ExecContext &ctx, Operation *op) {
  auto permute = cast<mlir::tile::PermuteOp>(op);
  const Tensor &in = ctx.tensor(permute.getInput());
  ArrayRef<int32_t> perm = permute.getPermutation();
  ctx.bind(permute, gatherIndices(in, shapeOf(permute.getType()),
                                  [&](const std::vector<int64_t> &pos, std::vector<int64_t> &src) {
                                    for (size_t d = 0; d < pos.size(); ++d)
                                      src[perm[d]] = pos[d];
                                  }));
  return success();
}

LogicalResult runCat(ExecContext &ctx, Operation *op) {
  auto cat = cast<mlir::tile::CatOp>(op);
  const Tensor &lhs = ctx.tensor(cat.getLhs()), &rhs = ctx.tensor(cat.getRhs());
  int64_t axis = cat.getAxis(), split = lhs.shape[axis];
  Tensor r(lhs.dtype, shapeOf(cat.getType()));
  std::vector<int64_t> pos(r.shape.size(), 0);
  std::vector<int64_t> ls = rowMajorStrides(lhs.shape), rs = rowMajorStrides(rhs.shape);
  for (int64_t k = 0; k < r.size(); ++k, nextIndex(pos, r.shape)) {
    bool left = pos[axis] < split;
    int64_t from = 0;
    for (size_t d = 0; d < pos.size(); ++d)
      from += (static_cast<int64_t>(d) == axis && !left ? pos[d] - split : pos[d]) * (left ? ls : rs)[d];
    r.copyElement(k, left ? lhs : rhs, from);
  }
  ctx.bind(cat, std::move(r));
  return success();
}

LogicalResult runExtract(ExecContext &ctx, Operation *op) {
  auto extract = cast<mlir::tile::ExtractOp>(op);
  const Tensor &in = ctx.tensor(extract.getInput());
  std::vector<int64_t> shape = shapeOf(extract.getType());
  ArrayRef<int64_t> indices = extract.getIndices();
  ctx.bind(extract, gatherIndices(in, shape, [&](const std::vector<int64_t> &pos, std::vector<int64_t> &src) {
             for (size_t d = 0; d < pos.size(); ++d)
               src[d] = indices[d] * shape[d] + pos[d];
           }));
  return success();
}

LogicalResult runTensorExtract(ExecContext &ctx, Operation *op) {
  auto extract = cast<tensor::ExtractOp>(op);
  const Tensor &in = ctx.tensor(extract.getTensor());
  int64_t from = 0;
  std::vector<int64_t> strides = rowMajorStrides(in.shape), index;
  for (auto [d, v] : llvm::enumerate(extract.getIndices())) {
    index.push_back(ctx.intScalar(v));
    if (index.back() < 0 || index.back() >= in.shape[d])
      return ctx.fail(op, "tensor.extract index " + std::to_string(index.back()) + " is out of range for dimension " +
                              std::to_string(d) + " of size " + std::to_string(in.shape[d]));
    from += index.back() * strides[d];
  }
  Tensor r(in.dtype, {});
  r.copyElement(0, in, from);
  ctx.bind(extract, std::move(r));
  return success();
}

LogicalResult runFromElements(ExecContext &ctx, Operation *op) {
  auto from = cast<tensor::FromElementsOp>(op);
  Tensor r(elementDType(from), shapeOf(from.getType()));
  for (auto [k, v] : llvm::enumerate(from.getElements()))
    r.copyElement(k, ctx.tensor(v), 0);
  ctx.bind(from, std::move(r));
  return success();
}

LogicalResult runSplat(ExecContext &ctx, Operation *op) {
  auto splat = cast<tensor::SplatOp>(op);
  const Tensor &in = ctx.tensor(splat.getInput());
  Tensor r(in.dtype, shapeOf(splat.getType()));
  for (int64_t k = 0; k < r.size(); ++k)
    r.copyElement(k, in, 0);
  ctx.bind(splat, std::move(r));
  return success();
}

} // namespace

void registerShapeOps(OpTable &t) {
  t.add<mlir::tile::IotaOp>(runIota);
  t.add<mlir::tile::BroadcastOp>(runBroadcast);
  t.add<mlir::tile::ExpandDimsOp>(runReshapeLike);
  t.add<mlir::tile::ReshapeOp>(runReshapeLike);
  // Layouts say where elements live on the GPU, not what they are: IR after the layout passes
  // runs too.
  t.add<mlir::tile::ConvertLayoutOp>(runReshapeLike);
  t.add<mlir::tile::PermuteOp>(runPermute);
  t.add<mlir::tile::CatOp>(runCat);
  t.add<mlir::tile::ExtractOp>(runExtract);
  t.add<tensor::ExtractOp>(runTensorExtract);
  t.add<tensor::FromElementsOp>(runFromElements);
  t.add<tensor::SplatOp>(runSplat);
}

} // namespace tile::interp
