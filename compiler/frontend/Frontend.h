// The front end's C++ API: kernel source in, specialized `tile` IR out.
//
//   SourceManager sources;
//   DiagnosticEngine diags(sources);
//   const SourceFile *file = sources.addFile("kernel.py");
//   mlir::MLIRContext context;
//   loadFrontendDialects(context);
//   auto module = compileToTileIR(*file, spec, context, diags);  // null on error
//   if (!module) diags.print(std::cerr);
#pragma once

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/Imports.h"
#include "compiler/frontend/Specialization.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <vector>

namespace tile::frontend {

class Module;

/// Loads the dialects the front end emits (tile, arith, math, scf, tensor).
void loadFrontendDialects(mlir::MLIRContext &context);

/// Parses `file` and emits kernel `spec.kernel` specialized by `spec`. Returns null when any
/// error was reported to `diags`. Its imports are all host modules (nothing is read from
/// disk); the overload below follows imports of kernel modules.
mlir::OwningOpRef<mlir::ModuleOp> compileToTileIR(const SourceFile &file, const Specialization &spec,
                                                  mlir::MLIRContext &context, DiagnosticEngine &diags);

/// The same, loading the kernel modules `file` imports (Imports.h) into `sources`.
mlir::OwningOpRef<mlir::ModuleOp> compileToTileIR(SourceManager &sources, const SourceFile &file,
                                                  const Specialization &spec, const ImportOptions &importOptions,
                                                  mlir::MLIRContext &context, DiagnosticEngine &diags);

/// The same, for an already parsed module (and the kernel modules it imports, if loaded).
mlir::OwningOpRef<mlir::ModuleOp> compileToTileIR(const Module &module, const Specialization &spec,
                                                  mlir::MLIRContext &context, DiagnosticEngine &diags,
                                                  const ImportedModules *imports = nullptr);

/// The kernel-source position of an MLIR location (a FileLineColLoc, possibly fused or
/// named); invalid when it points nowhere in `sources`.
SourceRange sourceRangeOf(const SourceManager &sources, mlir::Location loc);

/// Routes MLIR diagnostics (from passes after the front end) to `diags` with source
/// positions, for as long as it lives. Remarks (the passes' decisions) are dropped unless
/// `remarks` is set.
class MLIRDiagnosticBridge {
public:
  MLIRDiagnosticBridge(mlir::MLIRContext &context, DiagnosticEngine &diags, bool remarks = false);
  ~MLIRDiagnosticBridge();

private:
  mlir::MLIRContext &context_;
  uint64_t handler_;
};

/// What a kernel declares: its parameters and autotune configurations.
struct KernelSignature {
  std::string name;
  bool isKernel = false;
  std::vector<std::string> constantParams;
  std::vector<std::string> runtimeParams;
  std::vector<ParamDecl> params; // every parameter, in order
  std::vector<std::map<std::string, ConstantValue>> autotuneConfigs;
  std::vector<std::string> autotuneKey;
};
std::optional<KernelSignature> inspectKernel(const Module &module, const std::string &name, mlir::MLIRContext &context,
                                             DiagnosticEngine &diags, const ImportedModules *imports = nullptr);

} // namespace tile::frontend
