// The compilation pipeline, written down in one place.
//
// Stages (what `tile-cc --emit=STAGE` stops after):
//   tile      the front end's specialized tile IR
//   tile-opt  after the target-independent tile passes
//   gpu       after lowering kernels to per-thread code (llvm/nvvm/scf/arith on scalars)
//   llvm      the LLVM dialect only (then LLVM IR, PTX and cubin come from compiler/target)
#pragma once

#include "mlir/Pass/PassManager.h"

#include <string>

namespace tile::pipeline {

struct PipelineOptions {
  /// 0 runs no optimizations; 1-3 run the tile passes.
  unsigned optLevel = 2;
  /// Threads per block for kernels without the num_threads option; 0 lets tile-choose-threads
  /// choose from the kernel's tiles.
  int64_t numThreads = 0;
  /// Target GPU for code generation (sm_70 ... sm_90a).
  std::string arch = "sm_90a";
  /// Stages of loops whose loads are copied ahead (tile-pipeline-loops): 0 derives them from
  /// the loads' latency hints, 1 turns pipelining off, 2-8 forces that many.
  int64_t pipelineStages = 0;
};

/// Target-independent tile passes: canonicalization (the dialect's folders), CSE, and dead
/// symbol elimination.
void buildTileOptPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// The tile passes and layout assignment: everything before per-thread lowering. Its output is
/// still tile IR (with layout encodings), which the interpreter runs.
void buildTileLayoutPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Lowers kernels to per-thread code (the `gpu` stage).
void buildGpuPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Finishes the conversion to the LLVM dialect (the input of LLVM IR translation).
void buildLLVMDialectPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers the named pipelines with the pass registry (for tile-opt):
/// `-tile-opt-pipeline`, `-tile-gpu-pipeline`, `-tile-llvm-pipeline` (the last two also run
/// the stages before them).
void registerPipelines();

} // namespace tile::pipeline
