// What tile-lower-to-llvm reports under its decision-remarks option (on in the compile
// pipeline, so `tile-cc --remarks` shows it): one remark per product naming the instruction
// and where its operands come from, and one per load naming how it reaches the threads.
#pragma once

#include "dialect/TileDialect.h"

namespace tile::codegen {

/// Emits the remarks for `kernel` as it was lowered (its attributes after the lowering's last
/// attempt).
void remarkCodegenDecisions(mlir::tile::KernelOp kernel);

} // namespace tile::codegen
