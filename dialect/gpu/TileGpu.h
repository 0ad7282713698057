//===- TileGpu.h - the GPU-level tile dialect -------------------*- C++ -*-===//
//
// Shared-memory buffers, mbarriers and wgmma as IR values (TileGpu.td).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_GPU_TILEGPU_H
#define TILE_DIALECT_GPU_TILEGPU_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialect/gpu/TileGpuDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/gpu/TileGpuAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/gpu/TileGpuTypes.h.inc"

#define GET_OP_CLASSES
#include "dialect/gpu/TileGpuOps.h.inc"

namespace mlir::tgpu {
/// Where tile-allocate-shared placed a tgpu.alloc_shared buffer: bytes from the start of the
/// region the buffers share (an i64 attribute on the allocation).
inline constexpr llvm::StringLiteral kOffsetAttr = "tgpu.offset";
/// The bytes of that region, on the op whose body holds the allocations.
inline constexpr llvm::StringLiteral kSharedBytesAttr = "tgpu.shared_bytes";
} // namespace mlir::tgpu

#endif // TILE_DIALECT_GPU_TILEGPU_H
