// From the LLVM dialect to PTX (LLVM's NVPTX back end, in process) and to a cubin (ptxas),
// plus the launch metadata written next to the cubin.
#pragma once

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tile::target {

struct TargetOptions {
  std::string chip = "sm_90a";
  unsigned optLevel = 3;
};

/// Checks the chip name and returns the PTX feature it needs ("+ptx80" for sm_90a), so
/// LLVM never sees a combination it aborts on; empty with `error` set otherwise.
std::string ptxFeatureFor(const std::string &chip, std::string &error);

/// Translates an LLVM-dialect module to LLVM IR text (for --emit=llvm).
bool translateToLLVMIR(mlir::ModuleOp module, const TargetOptions &options, std::string &llvmIR, std::string &error);

/// Translates, optimizes and compiles an LLVM-dialect module to PTX.
bool translateToPTX(mlir::ModuleOp module, const TargetOptions &options, std::string &ptx, std::string &error);

/// Finds ptxas: $TILE_PTXAS, then /usr/local/cuda/bin/ptxas, then PATH. Empty if absent.
std::string findPtxas();

/// Assembles PTX into a cubin with ptxas; `report` receives ptxas's resource report (`-v`:
/// registers, shared memory, spills; parsePtxasReport reads it).
bool assembleCubin(const std::string &ptx, const std::string &chip, std::string &cubin, std::string &report,
                   std::string &error);

/// The spill warning (PtxasReport.h) for the kernel of a lowered module, from ptxas's report on
/// its cubin: "" when it does not spill.
std::string kernelSpillWarning(mlir::ModuleOp module, const std::string &report);

/// The launch metadata (JSON, format "tile-kernel/1") of every kernel in a lowered module.
/// One kernel per module is what tile-cc produces; the first is described.
bool kernelMetadata(mlir::ModuleOp module, const std::string &chip, std::string &json, std::string &error);

} // namespace tile::target
