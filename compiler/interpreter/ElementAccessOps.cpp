// tile.gather, tile.scatter, tile.atomic_add (and atomic_rmw, atomic_cas): one integer index tile per array dimension,
// read as signed. Masked-off or out-of-bounds elements read the padding (gather), are
// skipped (scatter) or return zero (atomic_add). Elements are processed in row-major order,
// so among duplicate indices the last scatter wins and atomic adds apply in that order.

#include "compiler/interpreter/ArrayAccess.h"
#include "compiler/interpreter/FloatFormat.h"
#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

#include <algorithm>

using namespace mlir;

namespace tile::interp {
namespace {

// Calls visit(k, coords) for each element, with null coords when masked off or out of bounds.
template <typename Visit>
LogicalResult forEachElement(ExecContext &ctx, const BoundArray &array, ValueRange indices, Value mask, int64_t n,
                             Visit visit) {
  std::vector<const Tensor *> index;
  for (Value v : indices)
    index.push_back(&ctx.tensor(v));
  const Tensor *m = mask ? &ctx.tensor(mask) : nullptr;
  std::vector<int64_t> coords(index.size());
  for (int64_t k = 0; k < n; ++k) {
    for (size_t d = 0; d < index.size(); ++d)
      coords[d] = signedValue(index[d]->i[k], index[d]->dtype);
    bool active = (!m || m->i[k]) && inShape(array.host, coords);
    if (failed(visit(k, active ? &coords : nullptr)))
      return failure();
  }
  return success();
}

LogicalResult runGather(ExecContext &ctx, Operation *op) {
  auto gather = cast<mlir::tile::GatherOp>(op);
  const BoundArray &array = ctx.array(gather.getArray());
  Tensor r(elementDType(gather), shapeOf(gather.getType()));
  Tensor pad = gather.getPadding() ? *ctx.shared(gather.getPadding()) : Tensor(r.dtype, {});
  LogicalResult result = forEachElement(ctx, array, gather.getIndices(), gather.getMask(), r.size(),
                                        readOrPad(ctx, op, array, r, pad, "gather"));
  if (failed(result))
    return failure();
  ctx.bind(gather, std::move(r));
  return success();
}

LogicalResult runScatter(ExecContext &ctx, Operation *op) {
  auto scatter = cast<mlir::tile::ScatterOp>(op);
  const BoundArray &array = ctx.array(scatter.getArray());
  const Tensor &value = ctx.tensor(scatter.getValue());
  PendingWrites writes(ctx, op, array, value, "scatter");
  if (failed(forEachElement(ctx, array, scatter.getIndices(), scatter.getMask(), value.size(),
                            [&](int64_t k, const std::vector<int64_t> *coords) { return writes.add(k, coords); })))
    return failure();
  writes.commit();
  return success();
}

LogicalResult runAtomicAdd(ExecContext &ctx, Operation *op) {
  auto atomic = cast<mlir::tile::AtomicAddOp>(op);
  const BoundArray &array = ctx.array(atomic.getArray());
  const Tensor &value = ctx.tensor(atomic.getValue());
  Tensor old(value.dtype, value.shape), sum(value.dtype, {});
  LogicalResult result = forEachElement(
      ctx, array, atomic.getIndices(), atomic.getMask(), value.size(),
      [&](int64_t k, const std::vector<int64_t> *coords) -> LogicalResult {
        if (!coords)
          return success(); // old stays zero
        char *p = elementAddress(ctx, op, array, *coords, "atomic_add");
        if (!p)
          return failure();
        readElement(p, old, k);
        if (sum.isFloat())
          sum.f[0] = roundToFloat(old.f[k] + value.f[k], sum.dtype);
        else
          sum.i[0] = wrapInt(static_cast<int64_t>(static_cast<uint64_t>(old.i[k]) + static_cast<uint64_t>(value.i[k])),
                             sum.dtype);
        writeElement(p, sum, 0);
        return success();
      });
  if (failed(result))
    return failure();
  ctx.bind(atomic, std::move(old));
  return success();
}

// tile.atomic_rmw / tile.atomic_cas: the interpreter runs one block at a time, so every
// memory order and scope behaves alike.
LogicalResult runAtomicRMW(ExecContext &ctx, Operation *op) {
  auto atomic = cast<mlir::tile::AtomicRMWOp>(op);
  const BoundArray &array = ctx.array(atomic.getArray());
  const Tensor &value = ctx.tensor(atomic.getValue());
  std::string kind = atomic.getKind().str();
  Tensor old(value.dtype, value.shape), next(value.dtype, {});
  LogicalResult result =
      forEachElement(ctx, array, atomic.getIndices(), atomic.getMask(), value.size(),
                     [&](int64_t k, const std::vector<int64_t> *coords) -> LogicalResult {
                       if (!coords)
                         return success();
                       char *p = elementAddress(ctx, op, array, *coords, "atomic_" + kind);
                       if (!p)
                         return failure();
                       readElement(p, old, k);
                       if (value.isFloat()) {
                         double a = old.f[k], b = value.f[k];
                         next.f[0] = kind == "xchg" ? b : roundToFloat(a + b, next.dtype); // add
                       } else {
                         int64_t a = signedValue(old.i[k], old.dtype), b = signedValue(value.i[k], value.dtype), r = b;
                         if (kind == "add")
                           r = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
                         else if (kind == "max")
                           r = std::max(a, b);
                         else if (kind == "min")
                           r = std::min(a, b);
                         else if (kind == "and")
                           r = a & b;
                         else if (kind == "or")
                           r = a | b;
                         else if (kind == "xor")
                           r = a ^ b;
                         next.i[0] = wrapInt(r, next.dtype);
                       }
                       writeElement(p, next, 0);
                       return success();
                     });
  if (failed(result))
    return failure();
  ctx.bind(atomic, std::move(old));
  return success();
}

LogicalResult runAtomicCAS(ExecContext &ctx, Operation *op) {
  auto cas = cast<mlir::tile::AtomicCASOp>(op);
  const BoundArray &array = ctx.array(cas.getArray());
  const Tensor &expected = ctx.tensor(cas.getExpected()), &desired = ctx.tensor(cas.getDesired());
  Tensor old(expected.dtype, expected.shape);
  LogicalResult result = forEachElement(ctx, array, cas.getIndices(), cas.getMask(), expected.size(),
                                        [&](int64_t k, const std::vector<int64_t> *coords) -> LogicalResult {
                                          if (!coords)
                                            return success();
                                          char *p = elementAddress(ctx, op, array, *coords, "atomic_cas");
                                          if (!p)
                                            return failure();
                                          readElement(p, old, k);
                                          if (old.i[k] == expected.i[k])
                                            writeElement(p, desired, k);
                                          return success();
                                        });
  if (failed(result))
    return failure();
  ctx.bind(cas, std::move(old));
  return success();
}

} // namespace

void registerElementAccessOps(OpTable &t) {
  t.add<mlir::tile::AtomicRMWOp>(runAtomicRMW);
  t.add<mlir::tile::AtomicCASOp>(runAtomicCAS);
  t.add<mlir::tile::GatherOp>(runGather);
  t.add<mlir::tile::ScatterOp>(runScatter);
  t.add<mlir::tile::AtomicAddOp>(runAtomicAdd);
}

} // namespace tile::interp
