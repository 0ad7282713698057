// Addressing elements of an array argument, with the checks that keep a wrong kernel or a
// wrong view from touching memory it does not own.
#pragma once

#include "compiler/interpreter/ExecContext.h"

#include "llvm/ADT/ArrayRef.h"

namespace tile::interp {

/// Whether every coordinate lies within the array's shape.
bool inShape(const HostArray &array, llvm::ArrayRef<int64_t> coords);

/// The address of an in-shape element. Returns null with the error recorded (naming `what`,
/// the index and the array) when the element lies outside the array's allocation or its
/// offset overflows 64 bits.
char *elementAddress(ExecContext &ctx, mlir::Operation *op, const BoundArray &array,
                     llvm::ArrayRef<int64_t> coords, llvm::StringRef what);

/// Element `k` of `t` from / to host memory at `p` (dtypes match).
void readElement(const char *p, Tensor &t, int64_t k);
void writeElement(char *p, const Tensor &t, int64_t k);

/// The per-element step loads and gathers share: element `k` of `r` from the array at
/// `coords`, or `pad` where the element is masked off or out of bounds (`coords` null).
inline auto readOrPad(ExecContext &ctx, mlir::Operation *op, const BoundArray &array, Tensor &r,
                      const Tensor &pad, llvm::StringRef what) {
  return [&ctx, op, &array, &r, &pad, what](int64_t k, const std::vector<int64_t> *coords) -> mlir::LogicalResult {
    if (!coords) {
      r.copyElement(k, pad, 0);
      return mlir::success();
    }
    const char *p = elementAddress(ctx, op, array, *coords, what);
    if (!p)
      return mlir::failure();
    readElement(p, r, k);
    return mlir::success();
  };
}

}  // namespace tile::interp
