// tile.mma: result = a * b + acc, 2-D or batched 3-D. Each output element starts from acc and
// adds the products a[m][k] * b[k][n] for k = 0, 1, ... in turn; each product is exact and each
// step rounds once into the accumulator's dtype (i32 accumulators wrap). Inputs are used
// exactly as given: bf16/f16/tf32/f8 tiles already hold values of their dtype.

#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

using namespace mlir;

namespace tile::interp {
namespace {

LogicalResult runMma(ExecContext &ctx, Operation *op) {
  auto mma = cast<mlir::tile::MmaOp>(op);
  const Tensor &a = ctx.tensor(mma.getA()), &b = ctx.tensor(mma.getB());
  Tensor d = ctx.tensor(mma.getAcc());
  int64_t rank = a.rank();
  int64_t batches = rank == 3 ? a.shape[0] : 1;
  int64_t m = a.shape[rank - 2], k = a.shape[rank - 1], n = b.shape[rank - 1];
  for (int64_t p = 0; p < batches; ++p) {
    int64_t aBase = p * m * k, bBase = p * k * n, dBase = p * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t out = dBase + i * n + j;
        if (d.isFloat()) {
          double s = d.f[out];
          for (int64_t q = 0; q < k; ++q)
            s = fmaRound(a.f[aBase + i * k + q], b.f[bBase + q * n + j], s, d.dtype);
          d.f[out] = s;
        } else {
          uint64_t s = static_cast<uint64_t>(d.i[out]);
          for (int64_t q = 0; q < k; ++q)
            s += static_cast<uint64_t>(signedValue(a.i[aBase + i * k + q], a.dtype) *
                                       signedValue(b.i[bBase + q * n + j], b.dtype));
          d.i[out] = wrapInt(static_cast<int64_t>(s), d.dtype);
        }
      }
  }
  ctx.bind(mma, std::move(d));
  return success();
}

}  // namespace

void registerMmaOps(OpTable &t) { t.add<mlir::tile::MmaOp>(runMma); }

}  // namespace tile::interp
