#include "compiler/frontend/Frontend.h"

#include "compiler/frontend/IRGen.h"
#include "compiler/frontend/Parser.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tile::frontend {

void loadFrontendDialects(mlir::MLIRContext &context) {
  context.loadDialect<mlir::tile::TileDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
}

mlir::OwningOpRef<mlir::ModuleOp> compileToTileIR(const Module &module, const Specialization &spec,
                                                  mlir::MLIRContext &context, DiagnosticEngine &diags) {
  loadFrontendDialects(context);
  KernelIRGen gen(module, context, diags);
  auto result = gen.emit(spec);
  if (diags.hasErrors())
    return nullptr;
  return result;
}

mlir::OwningOpRef<mlir::ModuleOp> compileToTileIR(const SourceFile &file, const Specialization &spec,
                                                  mlir::MLIRContext &context, DiagnosticEngine &diags) {
  std::unique_ptr<Module> module = parseModule(file, diags);
  if (!module || diags.hasErrors())
    return nullptr;
  return compileToTileIR(*module, spec, context, diags);
}

std::optional<KernelSignature> inspectKernel(const Module &module, const std::string &name,
                                             mlir::MLIRContext &context, DiagnosticEngine &diags) {
  loadFrontendDialects(context);
  KernelIRGen gen(module, context, diags);
  auto info = gen.inspect(name);
  if (!info)
    return std::nullopt;
  KernelSignature sig;
  sig.name = name;
  sig.isKernel = info->isKernel;
  sig.constantParams = info->constantParams;
  sig.runtimeParams = info->runtimeParams;
  sig.autotuneConfigs = info->configs;
  sig.autotuneKey = info->autotuneKey;
  return sig;
}

}  // namespace tile::frontend
