#include "compiler/pipeline/Pipeline.h"

#include "dialect/TileDialect.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace tile::pipeline {

void buildTileOptPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  if (options.optLevel == 0)
    return;
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSymbolDCEPass());
}

void registerPipelines() {
  mlir::PassPipelineRegistration<>(
      "tile-opt-pipeline", "The target-independent tile passes (what tile-cc --emit=tile-opt runs)",
      [](mlir::OpPassManager &pm) { buildTileOptPipeline(pm, PipelineOptions{}); });
}

}  // namespace tile::pipeline
