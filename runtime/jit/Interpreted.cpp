#include "runtime/jit/Interpreted.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/interpreter/ExecContext.h"
#include "compiler/interpreter/Interpreter.h"
#include "compiler/pipeline/Pipeline.h"
#include "dialect/TileDialect.h"

#include "mlir/Pass/PassManager.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace tile::jit {

bool interpretRequested() {
  const char *v = std::getenv("TILE_INTERPRET");
  if (!v)
    return false;
  std::string s = v;
  return !(s.empty() || s == "0" || s == "false" || s == "no" || s == "off");
}

namespace {

[[noreturn]] void fail(const KernelRequest &request, const std::string &what, const std::string &detail) {
  throw rt::Error(rt::Error::Kind::InvalidArgument,
                  what + " kernel '" + request.kernel + "' (" + request.fileName + "):\n" + detail);
}

// Compiled modules for the life of the process, keyed like the JIT's memory cache. The tile
// passes the GPU path runs before code generation run here too, so the interpreter executes the
// IR that code generation starts from.
class ModuleCache {
public:
  ModuleCache() {
    frontend::loadFrontendDialects(context_);
    context_.disableMultithreading(); // small modules: a thread pool would only cost
  }

  mlir::ModuleOp get(const KernelRequest &request) {
    JitOptions options;
    options.importPath = kernelPathFromEnvironment();
    std::string key = cacheKey(request, options, "interpreter");
    auto it = modules_.find(key);
    if (it != modules_.end())
      return *it->second;
    frontend::SourceManager sources;
    frontend::DiagnosticEngine diags(sources);
    const frontend::SourceFile *file = sources.addBuffer(request.fileName, request.source);
    frontend::Specialization spec{request.kernel, request.constants, request.args, request.config};
    mlir::OwningOpRef<mlir::ModuleOp> module =
        frontend::compileToTileIR(sources, *file, spec, frontend::ImportOptions{options.importPath}, context_, diags);
    if (module) {
      frontend::MLIRDiagnosticBridge bridge(context_, diags);
      mlir::PassManager pm(&context_);
      pipeline::buildTileOptPipeline(pm, {});
      if (mlir::failed(pm.run(*module)))
        module = nullptr;
    }
    if (!module || diags.hasErrors())
      fail(request, "cannot compile", diags.str());
    mlir::ModuleOp result = *module;
    modules_.emplace(key, std::move(module));
    return result;
  }

private:
  mlir::MLIRContext context_;
  std::map<std::string, mlir::OwningOpRef<mlir::ModuleOp>> modules_;
};

std::vector<rt::ParamInfo> parameters(mlir::tile::KernelOp kernel) {
  std::vector<rt::ParamInfo> params;
  llvm::ArrayRef<mlir::Type> types = kernel.getArgumentTypes();
  for (unsigned i = 0; i < types.size(); ++i) {
    rt::ParamInfo p;
    p.name = kernel.getParamName(i);
    auto array = llvm::dyn_cast<mlir::tile::ArrayType>(types[i]);
    std::optional<interp::DType> dtype = interp::dtypeOf(array ? array.getElementType() : types[i]);
    if (!dtype)
      throw rt::Error(rt::Error::Kind::InvalidArgument, "kernel '" + kernel.getSymName().str() + "': parameter '" +
                                                            p.name + "' has a type the interpreter does not support");
    p.dtype = *dtype;
    if (array) {
      p.kind = rt::ParamInfo::Kind::Array;
      p.rank = int(array.getRank());
    }
    params.push_back(std::move(p));
  }
  return params;
}

std::mutex &cacheMutex() {
  static std::mutex mutex;
  return mutex;
}

ModuleCache &moduleCache() {
  static ModuleCache cache;
  return cache;
}

} // namespace

std::vector<rt::ParamInfo> compileForInterpreter(const KernelRequest &request) {
  std::lock_guard<std::mutex> lock(cacheMutex());
  mlir::ModuleOp module = moduleCache().get(request);
  for (auto kernel : module.getOps<mlir::tile::KernelOp>())
    if (kernel.getSymName() == frontend::kernelSymbolName(request.kernel))
      return parameters(kernel);
  fail(request, "cannot compile", "no kernel named '" + request.kernel + "' in the compiled module");
}

void interpret(const KernelRequest &request, interp::Dim3 grid, const std::vector<interp::LaunchArg> &args) {
  std::lock_guard<std::mutex> lock(cacheMutex());
  mlir::ModuleOp module = moduleCache().get(request);
  std::string error;
  if (mlir::failed(interp::interpret(module, frontend::kernelSymbolName(request.kernel), grid, args, {}, error)))
    fail(request, "the interpreter stopped in", error);
}

} // namespace tile::jit
