// The code generation passes (declared in Passes.td).
#pragma once

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include "compiler/codegen/analysis/GpuTarget.h"
#include "dialect/TileDialect.h"
#include "dialect/gpu/TileGpu.h"

namespace tile::codegen {

/// The module attribute naming the target, a #tile.target (tile-choose-threads records it).
inline constexpr llvm::StringLiteral kTargetAttr = "tile.target";

/// The #tile.target attribute naming `arch`, and the architecture one names. (The dialect keeps
/// rt::GpuArch out of its headers: a global `tile` namespace would make `tile::` ambiguous in
/// code that uses namespace mlir.)
inline mlir::tile::TargetAttr targetAttr(mlir::MLIRContext *context, const rt::GpuArch &arch) {
  return mlir::tile::TargetAttr::get(context, arch.major, arch.minor, arch.archSpecific);
}
inline rt::GpuArch archOf(mlir::tile::TargetAttr target) {
  return {target.getMajor(), target.getMinor(), target.getArchSpecific()};
}

/// The target of a pass: the module's tile.target, else what the pass's `arch` option names;
/// on a bad value the error is reported on `op`.
inline std::optional<GpuTarget> passTarget(mlir::Operation *op, llvm::StringRef arch) {
  std::string error;
  std::optional<GpuTarget> target;
  if (auto recorded = op->getAttrOfType<mlir::tile::TargetAttr>(kTargetAttr))
    target = GpuTarget::of(archOf(recorded), error);
  else
    target = GpuTarget::parse(arch, error);
  if (!target)
    op->emitError(error);
  return target;
}

/// A kernel's threads per block: its num_threads attribute, else a pass's `num-threads`
/// option; 0 after reporting a bad value on the kernel.
inline int64_t kernelThreads(mlir::tile::KernelOp kernel, int64_t option) {
  int64_t threads = kernel.getNumThreads() ? int64_t(*kernel.getNumThreads()) : option;
  std::string error;
  if (GpuTarget::checkNumThreads(threads, error))
    return threads;
  kernel.emitError(error);
  return 0;
}

/// tile-place-shared-operands on one kernel (the lowering runs it again when it drops the
/// pipeline stages whose operands were read in place).
mlir::LogicalResult placeSharedOperands(mlir::tile::KernelOp kernel, const GpuTarget &target);

/// tile-allocate-shared on the buffers allocated in `scope`'s body (a kernel).
mlir::LogicalResult allocateSharedBuffers(mlir::Operation *scope, const GpuTarget &target);

#define GEN_PASS_DECL
#include "compiler/codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/codegen/Passes.h.inc"

} // namespace tile::codegen
