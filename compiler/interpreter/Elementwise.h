// Element-by-element evaluation shared by the arith and math ops. Operands of an elementwise
// op have one shape (tiles are broadcast explicitly in the IR); scalars are 0-D tensors.
#pragma once

#include "compiler/interpreter/ExecContext.h"
#include "compiler/interpreter/HostArray.h"

#include <optional>

namespace tile::interp {

/// result[k] = f(a[k]) for floats, rounded into the result's dtype.
template <typename F> mlir::LogicalResult mapFloat(ExecContext &ctx, mlir::Operation *op, F f) {
  const Tensor &a = ctx.tensor(op->getOperand(0));
  Tensor r(elementDType(op->getResult(0)), a.shape);
  for (size_t k = 0; k < a.f.size(); ++k)
    r.f[k] = roundToFloat(f(a.f[k]), r.dtype);
  ctx.bind(op->getResult(0), std::move(r));
  return mlir::success();
}

/// result[k] = f(a[k], b[k]) for floats, rounded into the result's dtype.
template <typename F> mlir::LogicalResult mapFloat2(ExecContext &ctx, mlir::Operation *op, F f) {
  const Tensor &a = ctx.tensor(op->getOperand(0));
  const Tensor &b = ctx.tensor(op->getOperand(1));
  Tensor r(elementDType(op->getResult(0)), a.shape);
  for (size_t k = 0; k < a.f.size(); ++k)
    r.f[k] = roundToFloat(f(a.f[k], b.number(k)), r.dtype);
  ctx.bind(op->getResult(0), std::move(r));
  return mlir::success();
}

/// result[k] = f(a[k], dtype) for integers (canonical in, wrapped out).
template <typename F> mlir::LogicalResult mapInt(ExecContext &ctx, mlir::Operation *op, F f) {
  const Tensor &a = ctx.tensor(op->getOperand(0));
  Tensor r(elementDType(op->getResult(0)), a.shape);
  for (size_t k = 0; k < a.i.size(); ++k)
    r.i[k] = wrapInt(f(a.i[k], a.dtype), r.dtype);
  ctx.bind(op->getResult(0), std::move(r));
  return mlir::success();
}

/// result[k] = f(a[k], b[k], dtype) for integers; f returns nullopt for a division by zero.
template <typename F> mlir::LogicalResult mapInt2(ExecContext &ctx, mlir::Operation *op, F f) {
  const Tensor &a = ctx.tensor(op->getOperand(0));
  const Tensor &b = ctx.tensor(op->getOperand(1));
  Tensor r(elementDType(op->getResult(0)), a.shape);
  for (size_t k = 0; k < a.i.size(); ++k) {
    std::optional<int64_t> v = f(a.i[k], b.i[k], a.dtype);
    if (!v)
      return ctx.fail(op, "integer division by zero in '" + op->getName().getStringRef() + "'" +
                              (a.rank() ? " at element " + shapeString(unravelIndex(k, a.shape)) : std::string()));
    r.i[k] = wrapInt(*v, r.dtype);
  }
  ctx.bind(op->getResult(0), std::move(r));
  return mlir::success();
}

/// result[k] = p(a[k]) as bool, for floats.
template <typename P> mlir::LogicalResult testFloat(ExecContext &ctx, mlir::Operation *op, P p) {
  const Tensor &a = ctx.tensor(op->getOperand(0));
  Tensor r(DType::Bool, a.shape);
  for (size_t k = 0; k < a.f.size(); ++k)
    r.i[k] = p(a.f[k], a.dtype) ? 1 : 0;
  ctx.bind(op->getResult(0), std::move(r));
  return mlir::success();
}

} // namespace tile::interp
