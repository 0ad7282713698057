// The code generation passes (declared in Passes.td).
#pragma once

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include "compiler/codegen/GpuTarget.h"

namespace tile::codegen {

/// The target a pass's `arch` option names; on a bad value the error is reported on `op`.
inline std::optional<GpuTarget> passTarget(mlir::Operation *op, llvm::StringRef arch) {
  std::string error;
  std::optional<GpuTarget> target = GpuTarget::parse(arch, error);
  if (!target)
    op->emitError(error);
  return target;
}

#define GEN_PASS_DECL
#include "compiler/codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/codegen/Passes.h.inc"

} // namespace tile::codegen
