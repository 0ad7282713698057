#include "compiler/pipeline/Pipeline.h"

#include "compiler/codegen/Passes.h"
#include "dialect/TileDialect.h"

#include "mlir/Conversion/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace tile::pipeline {

// The passes after tile-choose-threads read each kernel's num_threads; their option only
// serves IR without it.
static int64_t fallbackThreads(const PipelineOptions &options) { return options.numThreads ? options.numThreads : 128; }

void buildTileOptPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  if (options.optLevel == 0)
    return;
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSymbolDCEPass());
}

void buildTileLayoutPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  buildTileOptPipeline(pm, options);
  // The target and each kernel's threads go on the IR once; the later passes read them there.
  pm.addPass(codegen::createTileChooseThreads({options.numThreads, options.arch}));
  pm.addPass(codegen::createTileLoadOperandsInMemoryOrder());
  pm.addPass(codegen::createTileSelectMma({fallbackThreads(options), options.arch}));
  pm.addPass(codegen::createTileSwapMmaOperands({fallbackThreads(options), options.arch}));
  pm.addPass(codegen::createTileAssignLayouts({fallbackThreads(options), options.arch}));
  pm.addPass(codegen::createTileRemoveLayoutConversions());
  pm.addPass(mlir::createCanonicalizerPass());
}

void buildGpuPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  buildTileLayoutPipeline(pm, options);
  pm.addPass(codegen::createTilePipelineLoops({fallbackThreads(options), options.arch, options.pipelineStages}));
  pm.addPass(codegen::createTilePlaceTma({fallbackThreads(options), options.arch}));
  pm.addPass(codegen::createTileWarpSpecialize({fallbackThreads(options), options.arch}));
  pm.addPass(codegen::createTilePlaceSharedOperands({fallbackThreads(options), options.arch}));
  pm.addPass(codegen::createTileAllocateShared({fallbackThreads(options), options.arch}));
  // Decision remarks on: they reach the user only under tile-cc --remarks.
  pm.addPass(codegen::createTileLowerToLLVM({fallbackThreads(options), options.arch, /*tmaStoreBuffers=*/1,
                                             /*decisionRemarks=*/true}));
  {
    // Without region simplification (block merging, dead block arguments) this canonicalizer
    // of the lowered per-thread code costs a tenth (compute_out: 0.52 s -> 0.05 s) and the four
    // Mamba-2 kernels' PTX is byte for byte the same; LLVM cleans up the control flow anyway.
    mlir::GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(mlir::GreedySimplifyRegionLevel::Disabled);
    pm.addPass(mlir::createCanonicalizerPass(config));
  }
  pm.addPass(mlir::createCSEPass());
}

void buildLLVMDialectPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  buildGpuPipeline(pm, options);
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(mlir::createConvertMathToLLVMPass());
  pm.addPass(mlir::createArithToLLVMConversionPass());
  pm.addPass(mlir::createConvertControlFlowToLLVMPass());
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async) become inline PTX.
  pm.addPass(mlir::createConvertNVVMToLLVMPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}

void registerPipelines() {
  codegen::registerCodegenPasses();
  mlir::PassPipelineRegistration<>("tile-gpu-pipeline",
                                   "Tile passes, then lowering to per-thread code (tile-cc --emit=gpu)",
                                   [](mlir::OpPassManager &pm) { buildGpuPipeline(pm, PipelineOptions{}); });
  mlir::PassPipelineRegistration<>("tile-llvm-pipeline",
                                   "Everything up to the LLVM dialect (what tile-cc translates to LLVM IR)",
                                   [](mlir::OpPassManager &pm) { buildLLVMDialectPipeline(pm, PipelineOptions{}); });
  mlir::PassPipelineRegistration<>("tile-opt-pipeline",
                                   "The target-independent tile passes (what tile-cc --emit=tile-opt runs)",
                                   [](mlir::OpPassManager &pm) { buildTileOptPipeline(pm, PipelineOptions{}); });
}

} // namespace tile::pipeline
