#include "compiler/driver/Compile.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/target/NVPTX.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

namespace tile::driver {

bool compileKernel(const std::string &source, const std::string &fileName, const frontend::Specialization &spec,
                   const CompileOptions &options, CompiledKernel &result, std::string &diagnostics) {
  frontend::SourceManager sources;
  frontend::DiagnosticEngine diags(sources);
  auto fail = [&](const std::string &message) {
    if (!message.empty())
      diags.error(frontend::SourceRange(), message);
    diagnostics = diags.str();
    return false;
  };
  const frontend::SourceFile *file = sources.addBuffer(fileName, source);
  if (!file)
    return fail("the source is too large");
  std::string error;
  if (target::ptxFeatureFor(options.arch, error).empty())
    return fail(error);

  mlir::MLIRContext context;
  context.disableMultithreading(); // one kernel: threads only cost start-up time
  // ct.ByTarget values resolve for the architecture being compiled unless the caller chose one.
  frontend::Specialization targeted = spec;
  if (targeted.arch.empty())
    targeted.arch = options.arch;
  auto module =
      frontend::compileToTileIR(sources, *file, targeted, frontend::ImportOptions{options.importPath}, context, diags);
  if (!module)
    return fail("");
  {
    frontend::MLIRDiagnosticBridge bridge(context, diags);
    mlir::PassManager pm(&context);
    pipeline::buildLLVMDialectPipeline(pm,
                                       {options.optLevel, options.numThreads, options.arch, options.pipelineStages});
    if (mlir::failed(pm.run(*module)) || diags.hasErrors())
      return fail(diags.hasErrors() ? "" : "compilation failed in the pass pipeline");
  }
  target::TargetOptions targetOptions{options.arch, options.optLevel == 0 ? 0u : 3u};
  if (!target::translateToPTX(*module, targetOptions, result.ptx, error) ||
      !target::kernelMetadata(*module, options.arch, result.metadata, error))
    return fail(error);
  if (!options.ptxOnly) {
    std::string report;
    if (!target::assembleCubin(result.ptx, options.arch, result.cubin, report, error))
      return fail(error);
    if (std::string spill = target::kernelSpillWarning(*module, report); !spill.empty())
      result.warnings.push_back(spill);
  }
  if (!options.keepPtx)
    result.ptx.clear();
  return true;
}

} // namespace tile::driver
