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

}  // namespace tile::interp
