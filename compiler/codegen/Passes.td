//===- Passes.td - code generation passes ---------------------*- tablegen -*-===//

#ifndef TILE_CODEGEN_PASSES_TD
#define TILE_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileLowerToLLVM : Pass<"tile-lower-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower tile kernels to NVVM kernel functions";
  let description = [{
    Each `tile.kernel` becomes an `llvm.func` marked `nvvm.kernel` whose parameters follow the
    kernel ABI (an array is pointer, shape[rank], strides[rank], all i64 but the pointer).
    Tiles are distributed over the block's threads with the canonical layout; ops that move
    data between threads go through dynamic shared memory. The launch facts (threads per
    block, shared memory, parameters, constants) are recorded as `tile.*` attributes on the
    function for the metadata writer. Ops without a lowering are reported at their location.
  }];
  let options = [
    Option<"numThreads", "num-threads", "int64_t", /*default=*/"128",
           "Threads per block (a power of two from 32 to 1024)">,
    Option<"arch", "arch", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU (sm_70 ... sm_90a): picks Tensor Core instructions and bounds shared memory">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // TILE_CODEGEN_PASSES_TD
