// The compilation pipeline, written down in one place.
//
// Stages (what `tile-cc --emit=STAGE` stops after):
//   tile      the front end's specialized tile IR
//   tile-opt  after the target-independent tile passes built here
// Later stages (layouts, NVVM, PTX, cubin) append to this file as they land.
#pragma once

#include "mlir/Pass/PassManager.h"

namespace tile::pipeline {

struct PipelineOptions {
  /// 0 runs no optimizations; 1-3 run the tile passes.
  unsigned optLevel = 2;
};

/// Target-independent tile passes: canonicalization (the dialect's folders), CSE, and dead
/// symbol elimination.
void buildTileOptPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers the named pipelines with the pass registry (for tile-opt):
/// `-tile-opt-pipeline`.
void registerPipelines();

}  // namespace tile::pipeline
