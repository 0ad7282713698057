//===- tile-opt.cpp - the tile-cc optimizer driver ------------------------===//
//
// mlir-opt for tile-cc: the tile and tgpu dialects, the upstream dialects the compiler
// uses, and every tile-cc pass. Lit tests drive each pass through it.
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/support/MlirInput.h"
#include "compiler/support/Options.h"
#include "dialect/TileDialect.h"
#include "dialect/gpu/TileGpu.h"

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
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tile::support::exitOnOutOfMemory("tile-opt"); // one line and exit code 3, not an abort
  tile::codegen::registerDebugOptions();        // -debug, -debug-only=tile-assign-layouts,...
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::registerInlinerPass();
  tile::pipeline::registerPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::tgpu::TileGpuDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect, mlir::func::FuncDialect, mlir::tensor::TensorDialect,
                  mlir::memref::MemRefDialect, mlir::vector::VectorDialect, mlir::gpu::GPUDialect,
                  mlir::nvgpu::NVGPUDialect, mlir::NVVM::NVVMDialect, mlir::LLVM::LLVMDialect>();
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(argc, argv, "tile-cc optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();

  // MlirOptMain's own steps, with the input's nesting checked before MLIR parses it and the
  // whole run on a large stack: deep input is an error, never a stack overflow.
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input;
  if (!config.shouldShowDialects() && !config.shouldListPasses()) {
    // The project's reader: a FIFO or /dev/zero as the input is refused at once, and standard
    // input or a file past the size limit is an error, not unbounded memory.
    input = tile::support::readMlirInput(inputFile, error);
    if (!input) {
      llvm::errs() << "tile-opt: error: " << error << "\n";
      return 1;
    }
    llvm::SourceMgr sourceMgr;
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(), /*RequiresNullTerminator=*/false), llvm::SMLoc());
    if (!tile::support::checkMlirNesting(sourceMgr, id))
      return 1;
  } else {
    input = llvm::MemoryBuffer::getMemBuffer("");
  }
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  mlir::LogicalResult result = mlir::failure();
  tile::support::runWithLargeStack(
      [&] { result = mlir::MlirOptMain(output->os(), std::move(input), registry, config); });
  if (mlir::failed(result))
    return 1;
  output->keep();
  return 0;
}
