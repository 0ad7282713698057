// libFuzzer target over the whole front end: lexer, parser, semantic analysis and IR
// generation. Any input must produce IR or diagnostics, never a crash, hang or sanitizer
// report. Every kernel in the input is specialized with each ct.Constant parameter = 16 and
// every other parameter a rank-2 f32 array (the odd parameter a scalar), so sema runs deep.

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace tile::frontend;

// LLVM's BumpPtrAllocator poisons its slabs for ASan when the header is compiled with ASan (our
// code) but not when it is not (libMLIR.so): memory that our inline code poisoned and MLIR then
// hands out would be false use-after-poison reports. Turn manual poisoning off.
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext *context = [] {
    auto *c = new mlir::MLIRContext();
    loadFrontendDialects(*c);
    c->printOpOnDiagnostic(false);
    return c;
  }();
  SourceManager sources;
  DiagnosticEngine diags(sources);
  const SourceFile *file = sources.addBuffer("fuzz.py", std::string(reinterpret_cast<const char *>(data), size));
  if (!file)
    return 0;
  std::unique_ptr<Module> module = parseModule(*file, diags, hostFileOptions());
  (void)diags.str(); // rendering must not crash either
  if (!module || diags.hasErrors())
    return 0;
  for (const FunctionDefStmt *fn : module->functions()) {
    DiagnosticEngine kernelDiags(sources);
    auto sig = inspectKernel(*module, fn->name, *context, kernelDiags);
    if (!sig || !sig->isKernel)
      continue;
    Specialization spec;
    spec.kernel = fn->name;
    for (const std::string &c : sig->constantParams)
      spec.constants[c] = int64_t(16);
    for (size_t i = 0; i < sig->runtimeParams.size(); ++i)
      spec.args[sig->runtimeParams[i]] = ArgType{i % 2 ? "int32" : "float32", i % 2 ? 0 : 2};
    auto ir = compileToTileIR(*module, spec, *context, kernelDiags);
    (void)kernelDiags.str();
  }
  return 0;
}
