#include "compiler/frontend/Frontend.h"

#include "compiler/frontend/IRGen.h"
#include "compiler/frontend/Parser.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tile::frontend {

SourceRange sourceRangeOf(const SourceManager &sources, mlir::Location loc) {
  auto fileLoc = mlir::dyn_cast<mlir::FileLineColLoc>(loc);
  if (auto named = mlir::dyn_cast<mlir::NameLoc>(loc))
    fileLoc = mlir::dyn_cast<mlir::FileLineColLoc>(named.getChildLoc());
  if (auto fused = mlir::dyn_cast<mlir::FusedLoc>(loc))
    for (mlir::Location inner : fused.getLocations())
      if ((fileLoc = mlir::dyn_cast<mlir::FileLineColLoc>(inner)))
        break;
  if (!fileLoc || fileLoc.getLine() == 0)
    return {};
  for (const auto &file : sources.files())
    if (file->name() == fileLoc.getFilename().getValue() && fileLoc.getLine() <= file->numLines()) {
      uint32_t offset = file->lineStartOffset(fileLoc.getLine()) + fileLoc.getColumn() - 1;
      return SourceRange(file->locForOffset(std::min(offset, file->size())));
    }
  return {};
}

MLIRDiagnosticBridge::MLIRDiagnosticBridge(mlir::MLIRContext &context, DiagnosticEngine &diags, bool remarks)
    : context_(context) {
  handler_ = context.getDiagEngine().registerHandler([&diags, remarks](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Remark && !remarks)
      return mlir::success(); // the passes' decisions, shown only when asked for
    Severity severity = diag.getSeverity() == mlir::DiagnosticSeverity::Error     ? Severity::Error
                        : diag.getSeverity() == mlir::DiagnosticSeverity::Warning ? Severity::Warning
                        : diag.getSeverity() == mlir::DiagnosticSeverity::Remark  ? Severity::Remark
                                                                                  : Severity::Note;
    diags.report(severity, sourceRangeOf(diags.sources(), diag.getLocation()), diag.str());
    return mlir::success();
  });
}

MLIRDiagnosticBridge::~MLIRDiagnosticBridge() { context_.getDiagEngine().eraseHandler(handler_); }

void loadFrontendDialects(mlir::MLIRContext &context) {
  context.loadDialect<mlir::tile::TileDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
}

mlir::OwningOpRef<mlir::ModuleOp> compileToTileIR(const Module &module, const Specialization &spec,
                                                  mlir::MLIRContext &context, DiagnosticEngine &diags,
                                                  const ImportedModules *imports) {
  loadFrontendDialects(context);
  KernelIRGen gen(module, context, diags, imports);
  auto result = gen.emit(spec);
  if (diags.hasErrors())
    return nullptr;
  return result;
}

mlir::OwningOpRef<mlir::ModuleOp> compileToTileIR(const SourceFile &file, const Specialization &spec,
                                                  mlir::MLIRContext &context, DiagnosticEngine &diags) {
  std::unique_ptr<Module> module = parseModule(file, diags, hostFileOptions());
  if (!module || diags.hasErrors())
    return nullptr;
  return compileToTileIR(*module, spec, context, diags);
}

mlir::OwningOpRef<mlir::ModuleOp> compileToTileIR(SourceManager &sources, const SourceFile &file,
                                                  const Specialization &spec, const ImportOptions &importOptions,
                                                  mlir::MLIRContext &context, DiagnosticEngine &diags) {
  std::unique_ptr<Module> module = parseModule(file, diags, hostFileOptions());
  if (!module || diags.hasErrors())
    return nullptr;
  ImportedModules imports;
  if (!imports.load(*module, sources, diags, importOptions) || diags.hasErrors())
    return nullptr;
  return compileToTileIR(*module, spec, context, diags, &imports);
}

std::optional<KernelSignature> inspectKernel(const Module &module, const std::string &name, mlir::MLIRContext &context,
                                             DiagnosticEngine &diags, const ImportedModules *imports) {
  loadFrontendDialects(context);
  KernelIRGen gen(module, context, diags, imports);
  auto info = gen.inspect(name);
  if (!info)
    return std::nullopt;
  KernelSignature sig;
  sig.name = name;
  sig.isKernel = info->isKernel;
  sig.constantParams = info->constantParams;
  sig.runtimeParams = info->runtimeParams;
  sig.params = info->params;
  sig.autotuneConfigs = info->configs;
  sig.autotuneKey = info->autotuneKey;
  return sig;
}

} // namespace tile::frontend
