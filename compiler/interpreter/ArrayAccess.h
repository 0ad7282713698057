// Addressing elements of an array argument, with the checks that keep a wrong kernel or a
// wrong view from touching memory it does not own.
#pragma once

#include "compiler/interpreter/ExecContext.h"

#include "llvm/ADT/ArrayRef.h"

#include <utility>
#include <vector>

namespace tile::interp {

/// Whether every coordinate lies within the array's shape.
bool inShape(const HostArray &array, llvm::ArrayRef<int64_t> coords);

/// The address of an in-shape element. Returns null with the error recorded (naming `what`,
/// the index and the array) when the element lies outside the array's allocation or its
/// offset overflows 64 bits.
char *elementAddress(ExecContext &ctx, mlir::Operation *op, const BoundArray &array, llvm::ArrayRef<int64_t> coords,
                     llvm::StringRef what);

/// Element `k` of `t` from / to host memory at `p` (dtypes match).
void readElement(const char *p, Tensor &t, int64_t k);
void writeElement(char *p, const Tensor &t, int64_t k);

/// The per-element step loads and gathers share: element `k` of `r` from the array at
/// `coords`, or `pad` where the element is masked off or out of bounds (`coords` null).
inline auto readOrPad(ExecContext &ctx, mlir::Operation *op, const BoundArray &array, Tensor &r, const Tensor &pad,
                      llvm::StringRef what) {
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

/// The writes of one store or scatter, made only once every address has passed the bounds
/// checks: an element outside the allocation stops the op before it writes anything, so a
/// wrong view leaves memory as it was. add() is the per-element step (null `coords`: masked
/// off or outside the shape, skipped); commit() writes.
class PendingWrites {
public:
  PendingWrites(ExecContext &ctx, mlir::Operation *op, const BoundArray &array, const Tensor &value,
                llvm::StringRef what)
      : ctx_(ctx), op_(op), array_(array), value_(value), what_(what) {}

  mlir::LogicalResult add(int64_t k, const std::vector<int64_t> *coords) {
    if (!coords)
      return mlir::success();
    char *p = elementAddress(ctx_, op_, array_, *coords, what_);
    if (!p)
      return mlir::failure();
    writes_.emplace_back(p, k);
    return mlir::success();
  }
  void commit() const {
    for (auto [p, k] : writes_)
      writeElement(p, value_, k);
  }

private:
  ExecContext &ctx_;
  mlir::Operation *op_;
  const BoundArray &array_;
  const Tensor &value_;
  llvm::StringRef what_;
  std::vector<std::pair<char *, int64_t>> writes_;
};

} // namespace tile::interp
