//===- tile-cc.cpp - the tile-cc command-line compiler --------------------===//
//
//   tile-cc kernel.py --kernel NAME [--const K=V ...] [--arg NAME=DTYPE:RANK ...]
//           [--config N] [--emit=ast|tile] [-o FILE]
//
// Exit codes: 0 success, 1 compile errors (diagnostics on stderr), 2 bad command line,
// 3 input/output failure.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ASTPrinter.h"
#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>
#include <sstream>

using namespace llvm;
using namespace tile::frontend;

namespace {

enum class EmitKind { AST, Tile, TileOpt, GPU, LLVM, PTX, Cubin };

cl::OptionCategory category("tile-cc options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel source (.py or .tile)>"), cl::Required,
                               cl::cat(category));
cl::opt<std::string> kernelName("kernel", cl::desc("Kernel to compile"), cl::value_desc("NAME"), cl::cat(category));
cl::list<std::string> constants("const", cl::desc("Value of a ct.Constant parameter"),
                                cl::value_desc("NAME=VALUE"), cl::cat(category));
cl::list<std::string> argTypes("arg", cl::desc("Type of an argument (rank 0 for a scalar), e.g. x=bf16:3"),
                               cl::value_desc("NAME=DTYPE:RANK"), cl::cat(category));
cl::opt<int> configIndex("config", cl::desc("Which @ct.autotune configuration to compile (default 0)"),
                         cl::init(-1), cl::cat(category));
cl::opt<EmitKind> emit("emit", cl::desc("Stop after this stage and write its output"), cl::init(EmitKind::Tile),
                       cl::values(clEnumValN(EmitKind::AST, "ast", "the parsed syntax tree"),
                                  clEnumValN(EmitKind::Tile, "tile", "the specialized tile IR"),
                                  clEnumValN(EmitKind::TileOpt, "tile-opt", "tile IR after tile passes"),
                                  clEnumValN(EmitKind::GPU, "gpu", "GPU-level IR with layouts"),
                                  clEnumValN(EmitKind::LLVM, "llvm", "LLVM IR"),
                                  clEnumValN(EmitKind::PTX, "ptx", "PTX assembly"),
                                  clEnumValN(EmitKind::Cubin, "cubin", "a cubin")),
                       cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"), cl::value_desc("FILE"),
                                cl::init("-"), cl::cat(category));
cl::opt<bool> listKernels("list-kernels", cl::desc("List the file's kernels and their parameters"),
                          cl::cat(category));
enum OptLevel { O0, O1, O2, O3 };
cl::opt<OptLevel> optLevel(cl::desc("Optimization level"), cl::init(O2),
                           cl::values(clEnumVal(O0, "no optimization"), clEnumVal(O1, "optimize"),
                                      clEnumVal(O2, "optimize (default)"), clEnumVal(O3, "optimize more")),
                           cl::cat(category));
cl::opt<bool> printIRAfterAll("print-ir-after-all", cl::desc("Print the IR after every pass (to stderr)"),
                              cl::cat(category));
cl::list<std::string> printIRAfter("print-ir-after", cl::desc("Print the IR after the named pass (to stderr)"),
                                   cl::value_desc("PASS"), cl::cat(category));
cl::opt<bool> timing("timing", cl::desc("Report the time each stage and pass takes (to stderr)"),
                     cl::cat(category));
cl::opt<unsigned> errorLimit("error-limit", cl::desc("Stop after this many errors (0: no limit)"),
                             cl::init(20), cl::cat(category));

int finish(const DiagnosticEngine &diags) {
  diags.print(std::cerr);
  if (!diags.diagnostics().empty())
    std::cerr << diags.summary() << "\n";
  return diags.hasErrors() ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) { os << "tile-cc 0.1.0 (MLIR/LLVM 22)\n"; });
  if (!cl::ParseCommandLineOptions(argc, argv, "tile-cc: compiles tile kernels (cuTile syntax)\n",
                                   &llvm::errs()))
    return 2;

  SourceManager sources;
  DiagnosticEngine diags(sources, errorLimit);
  std::string readError;
  const SourceFile *file = sources.addFile(inputFile, &readError);
  if (!file) {
    errs() << "tile-cc: error: " << readError << "\n";
    return 3;
  }

  std::unique_ptr<Module> module = parseModule(*file, diags);
  if (diags.hasErrors())
    return finish(diags);

  if (listKernels) {
    mlir::MLIRContext context;
    for (const FunctionDefStmt *fn : module->functions()) {
      auto sig = inspectKernel(*module, fn->name, context, diags);
      if (!sig || !sig->isKernel)
        continue;
      outs() << sig->name << ":";
      for (const std::string &p : sig->constantParams)
        outs() << " " << p << "(const)";
      for (const std::string &p : sig->runtimeParams)
        outs() << " " << p;
      if (!sig->autotuneConfigs.empty())
        outs() << " [" << sig->autotuneConfigs.size() << " autotune configs]";
      outs() << "\n";
    }
    return finish(diags);
  }

  std::error_code ec;
  auto output = std::make_unique<ToolOutputFile>(outputFile, ec, sys::fs::OF_None);
  if (ec) {
    errs() << "tile-cc: error: cannot open '" << outputFile << "': " << ec.message() << "\n";
    return 3;
  }

  if (emit == EmitKind::AST) {
    output->os() << dumpAST(*module, &sources);
    output->keep();
    return finish(diags);
  }
  if (emit != EmitKind::Tile && emit != EmitKind::TileOpt) {
    errs() << "tile-cc: error: --emit=" << (emit == EmitKind::TileOpt ? "tile-opt" : emit == EmitKind::GPU ? "gpu"
                                           : emit == EmitKind::LLVM ? "llvm" : emit == EmitKind::PTX ? "ptx" : "cubin")
           << " is not available yet: this build has the front end only (tile IR); code generation "
              "to GPU IR, LLVM, PTX and cubins is not implemented\n";
    return 2;
  }

  if (kernelName.empty()) {
    std::string names;
    for (const FunctionDefStmt *fn : module->functions())
      names += (names.empty() ? "" : ", ") + fn->name;
    errs() << "tile-cc: error: no kernel selected; pass --kernel NAME" << (names.empty() ? "" : " (functions: " + names + ")")
           << "\n";
    return 2;
  }
  Specialization spec;
  spec.kernel = kernelName;
  for (const std::string &c : constants) {
    std::string name, error;
    ConstantValue value;
    if (!parseConstantSpec(c, name, value, error)) {
      errs() << "tile-cc: error: --const " << error << "\n";
      return 2;
    }
    spec.constants[name] = value;
  }
  for (const std::string &a : argTypes) {
    std::string name, error;
    ArgType type;
    if (!parseArgSpec(a, name, type, error)) {
      errs() << "tile-cc: error: --arg " << error << "\n";
      return 2;
    }
    spec.args[name] = type;
  }
  if (configIndex >= 0)
    spec.config = static_cast<unsigned>(configIndex);

  mlir::MLIRContext context;
  auto ir = compileToTileIR(*module, spec, context, diags);
  if (!ir)
    return finish(diags);
  if (emit == EmitKind::TileOpt) {
    mlir::PassManager pm(&context);
    tile::pipeline::buildTileOptPipeline(pm, {static_cast<unsigned>(optLevel.getValue())});
    if (timing)
      pm.enableTiming();
    if (printIRAfterAll || !printIRAfter.empty()) {
      std::vector<std::string> names(printIRAfter.begin(), printIRAfter.end());
      context.disableMultithreading();
      pm.enableIRPrinting(
          [](mlir::Pass *, mlir::Operation *) { return false; },
          [names](mlir::Pass *pass, mlir::Operation *) {
            return names.empty() || std::find(names.begin(), names.end(), pass->getArgument().str()) != names.end();
          },
          /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false);
    }
    if (mlir::failed(pm.run(*ir))) {
      errs() << "tile-cc: error: the tile pass pipeline failed\n";
      return 1;
    }
  }
  ir->print(output->os());
  output->keep();
  return finish(diags);
}
