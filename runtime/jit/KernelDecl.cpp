#include "runtime/jit/KernelDecl.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"
#include "runtime/Error.h"
#include "runtime/jit/Jit.h"

#include <mutex>

namespace tile::jit {

namespace {

// Every kernel's declaration in one source, or the diagnostics of a source that does not parse.
struct SourceDecls {
  std::map<std::string, KernelDecl> kernels;
  std::string diagnostics;
};

SourceDecls inspectSource(const std::string &source, const std::string &fileName) {
  frontend::SourceManager sources;
  frontend::DiagnosticEngine diags(sources);
  SourceDecls decls;
  const frontend::SourceFile *file = sources.addBuffer(fileName, source);
  std::unique_ptr<frontend::Module> module =
      file ? frontend::parseModule(*file, diags, frontend::hostFileOptions()) : nullptr;
  if (!module || diags.hasErrors()) {
    decls.diagnostics = file ? diags.str() : "the source is too large";
    return decls;
  }
  // Autotune configurations may name constants of imported kernel modules.
  frontend::ImportedModules imports;
  if (!imports.load(*module, sources, diags, {kernelPathFromEnvironment()})) {
    decls.diagnostics = diags.str();
    return decls;
  }
  // One context for every kernel of the source: creating one costs more than inspecting.
  mlir::MLIRContext context;
  // Kernels defined in factories are declared under their qualified names ("make.k").
  std::vector<std::string> names;
  for (const frontend::FunctionDefStmt *fn : module->functions())
    names.push_back(fn->name);
  for (const frontend::FunctionRef &nested : module->nestedFunctions())
    names.push_back(nested.qualifiedName());
  for (const std::string &name : names) {
    std::optional<frontend::KernelSignature> sig = frontend::inspectKernel(*module, name, context, diags, &imports);
    if (sig && sig->isKernel)
      decls.kernels[name] = KernelDecl{sig->params, sig->autotuneConfigs, sig->autotuneKey};
  }
  decls.diagnostics = diags.str();
  return decls;
}

} // namespace

KernelDecl kernelDecl(const std::string &source, const std::string &fileName, const std::string &kernel) {
  static std::mutex mutex;
  static std::map<std::string, SourceDecls> cache; // by source text
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(source);
  if (it == cache.end())
    it = cache.emplace(source, inspectSource(source, fileName)).first;
  auto k = it->second.kernels.find(kernel);
  if (k == it->second.kernels.end())
    throw rt::Error(
        rt::Error::Kind::InvalidArgument,
        "cannot read the declaration of kernel '" + kernel + "'" +
            (it->second.diagnostics.empty() ? ": no such kernel in " + fileName : ":\n" + it->second.diagnostics));
  return k->second;
}

} // namespace tile::jit
