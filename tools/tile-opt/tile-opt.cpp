//===- tile-opt.cpp - the tile-cc optimizer driver ------------------------===//
//
// mlir-opt for tile-cc: the tile dialect, the upstream dialects the compiler
// uses, and every tile-cc pass. Lit tests drive each pass through it.
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/Debug.h"
#include "compiler/pipeline/Pipeline.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  tile::codegen::registerDebugOptions(); // -debug, -debug-only=tile-assign-layouts,...
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::registerInlinerPass();
  tile::pipeline::registerPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::func::FuncDialect, mlir::tensor::TensorDialect,
                  mlir::memref::MemRefDialect, mlir::vector::VectorDialect, mlir::gpu::GPUDialect,
                  mlir::nvgpu::NVGPUDialect, mlir::NVVM::NVVMDialect, mlir::LLVM::LLVMDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile-cc optimizer driver\n", registry));
}
