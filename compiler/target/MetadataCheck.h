// The launch metadata checked against the kernel it describes, read back the way the runtime
// reads it: an invariant of the compiler's output (a mismatch is an internal error), so a
// launch never encodes a descriptor or passes parameters other than the code expects.
#pragma once

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>

namespace tile::target {

/// "" when `json`, parsed by the runtime's own reader, describes `fn` (a lowered kernel with
/// its tile.* attributes): its symbol, threads, dynamic shared memory, every parameter (name,
/// kind, dtype, rank), every TMA descriptor (parameter, box, swizzle, fill, unit element
/// strides) and, with them, the LLVM function's parameter count. Otherwise the first
/// difference, naming the field as the metadata does (e.g. "tma[0].swizzle is 64B where the
/// code assumes 128B").
std::string metadataMismatch(mlir::LLVM::LLVMFuncOp fn, const std::string &json);

} // namespace tile::target
