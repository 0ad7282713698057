// tile.load and tile.store: tiles addressed in tile space. Result dimension d covers array
// dimension order[d], elements [index[d] * shape[d], (index[d] + 1) * shape[d]). Elements
// outside the array take the padding value on loads and are skipped on stores. A store writes
// nothing unless every element it addresses lies inside the array's allocation.

#include "compiler/interpreter/ArrayAccess.h"
#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

#include <cmath>
#include <limits>

using namespace mlir;
using mlir::tile::PaddingMode;

namespace tile::interp {
namespace {

// Walks the tile's elements in row-major order and calls `visit(k, coords)` with the array
// coordinates of element k, or null coords when the element falls outside the array.
template <typename Visit>
LogicalResult forEachTileElement(ExecContext &ctx, const HostArray &array, ValueRange indices,
                                 std::optional<ArrayRef<int32_t>> order, const std::vector<int64_t> &tileShape,
                                 Visit visit) {
  size_t rank = tileShape.size();
  std::vector<__int128> base(rank);
  std::vector<int> axisOf(rank);
  for (size_t d = 0; d < rank; ++d) {
    base[d] = static_cast<__int128>(ctx.intScalar(indices[d])) * tileShape[d];
    axisOf[d] = order ? (*order)[d] : static_cast<int>(d);
  }
  std::vector<int64_t> pos(rank, 0), coords(rank);
  int64_t n = numElements(tileShape);
  for (int64_t k = 0; k < n; ++k, nextIndex(pos, tileShape)) {
    bool in = true;
    for (size_t d = 0; d < rank && in; ++d) {
      __int128 c = base[d] + pos[d];
      int a = axisOf[d];
      in = c >= 0 && c < array.shape[a];
      coords[a] = static_cast<int64_t>(c);
    }
    if (failed(visit(k, in ? &coords : nullptr)))
      return failure();
  }
  return success();
}

// The value of padded elements, as a 0-D tensor of the element dtype.
Tensor paddingValue(PaddingMode mode, DType dtype, UndeterminedPadding undetermined) {
  double inf = std::numeric_limits<double>::infinity();
  if (isInteger(dtype)) {
    bool poison = mode == PaddingMode::undetermined && undetermined == UndeterminedPadding::Poison;
    int64_t minValue = dtype == DType::Bool ? 0 : wrapInt(int64_t(1) << (intWidth(dtype) - 1), dtype);
    return Tensor::scalarInt(dtype, poison ? minValue : 0);
  }
  switch (mode) {
  case PaddingMode::zero:
    return Tensor::scalarFloat(dtype, 0.0);
  case PaddingMode::neg_zero:
    return Tensor::scalarFloat(dtype, -0.0);
  case PaddingMode::nan:
    return Tensor::scalarFloat(dtype, std::nan(""));
  case PaddingMode::pos_inf:
    return Tensor::scalarFloat(dtype, inf); // float8_e4m3fn: NaN
  case PaddingMode::neg_inf:
    return Tensor::scalarFloat(dtype, -inf);
  case PaddingMode::undetermined:
    break;
  }
  return Tensor::scalarFloat(dtype, undetermined == UndeterminedPadding::Poison ? std::nan("") : 0.0);
}

LogicalResult runLoad(ExecContext &ctx, Operation *op) {
  auto load = cast<mlir::tile::LoadOp>(op);
  const BoundArray &array = ctx.array(load.getArray());
  Tensor r(elementDType(load), shapeOf(load.getType()));
  Tensor pad = paddingValue(load.getPadding(), r.dtype, ctx.options.undeterminedPadding);
  LogicalResult result = forEachTileElement(ctx, array.host, load.getIndices(), load.getOrder(), r.shape,
                                            readOrPad(ctx, op, array, r, pad, "load"));
  if (failed(result))
    return failure();
  ctx.bind(load, std::move(r));
  return success();
}

LogicalResult runStore(ExecContext &ctx, Operation *op) {
  auto store = cast<mlir::tile::StoreOp>(op);
  const BoundArray &array = ctx.array(store.getArray());
  const Tensor &value = ctx.tensor(store.getValue());
  PendingWrites writes(ctx, op, array, value, "store");
  if (failed(forEachTileElement(ctx, array.host, store.getIndices(), store.getOrder(), value.shape,
                                [&](int64_t k, const std::vector<int64_t> *coords) { return writes.add(k, coords); })))
    return failure();
  writes.commit();
  return success();
}

} // namespace

void registerMemoryOps(OpTable &t) {
  t.add<mlir::tile::LoadOp>(runLoad);
  t.add<mlir::tile::StoreOp>(runStore);
}

} // namespace tile::interp
