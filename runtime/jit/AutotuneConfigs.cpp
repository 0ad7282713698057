#include "runtime/jit/AutotuneConfigs.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"
#include "runtime/Error.h"

#include <mutex>

namespace tile::jit {

AutotuneDecl autotuneDecl(const std::string &source, const std::string &fileName, const std::string &kernel) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, AutotuneDecl> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto id = std::make_pair(source, kernel);
  if (auto it = cache.find(id); it != cache.end())
    return it->second;
  frontend::SourceManager sources;
  frontend::DiagnosticEngine diags(sources);
  const frontend::SourceFile *file = sources.addBuffer(fileName, source);
  std::unique_ptr<frontend::Module> module = frontend::parseModule(*file, diags);
  std::optional<frontend::KernelSignature> sig;
  if (module && !diags.hasErrors()) {
    mlir::MLIRContext context;
    sig = frontend::inspectKernel(*module, kernel, context, diags);
  }
  if (!sig || diags.hasErrors())
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    "cannot read the autotune configurations of '" + kernel + "':\n" + diags.str());
  AutotuneDecl decl{sig->autotuneConfigs, sig->autotuneKey};
  cache.emplace(id, decl);
  return decl;
}

} // namespace tile::jit
