//===- tile-cc.cpp - the tile-cc command-line compiler --------------------===//
//
//   tile-cc kernel.py --kernel NAME [--const K=V ...] [--arg NAME=DTYPE:RANK ...]
//           [--config N] [--emit=ast|tile|tile-opt|gpu|llvm|ptx|cubin] [--arch sm_90a] [-o FILE]
//
// --emit=cubin also writes the launch metadata (JSON) next to the output: out.cubin -> out.json.
//
// Exit codes: 0 success, 1 compile errors (diagnostics on stderr), 2 bad command line,
// 3 input/output failure.
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/Debug.h"
#include "compiler/frontend/ASTPrinter.h"
#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/target/NVPTX.h"

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
cl::opt<std::string> arch("arch", cl::desc("Target GPU (sm_70 ... sm_90, sm_90a)"), cl::init("sm_90a"),
                          cl::cat(category));
cl::opt<int64_t> numThreads("num-threads", cl::desc("Threads per block (power of two, 32-1024)"),
                            cl::init(128), cl::cat(category));
cl::opt<bool> ptxasVerbose("resource-usage", cl::desc("Print ptxas's resource report (registers, shared memory, spills)"),
                           cl::cat(category));
cl::opt<std::string> metadataFile("metadata", cl::desc("Where --emit=cubin writes the launch metadata (default: output with .json)"),
                                  cl::value_desc("FILE"), cl::cat(category));
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
  tile::codegen::registerDebugOptions(); // -debug-only=tile-assign-layouts,... (hidden)
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
  if (emit >= EmitKind::GPU) {
    std::string error;
    if (tile::target::ptxFeatureFor(arch, error).empty()) {
      errs() << "tile-cc: error: --arch: " << error << "\n";
      return 2;
    }
    if (numThreads < 32 || numThreads > 1024 || (numThreads & (numThreads - 1))) {
      errs() << "tile-cc: error: --num-threads " << numThreads << " must be a power of two from 32 to 1024\n";
      return 2;
    }
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
  if (emit != EmitKind::Tile) {
    mlir::PassManager pm(&context);
    tile::pipeline::PipelineOptions options{static_cast<unsigned>(optLevel.getValue()), numThreads, arch};
    if (emit == EmitKind::TileOpt)
      tile::pipeline::buildTileOptPipeline(pm, options);
    else if (emit == EmitKind::GPU)
      tile::pipeline::buildGpuPipeline(pm, options);
    else
      tile::pipeline::buildLLVMDialectPipeline(pm, options);
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
    // Diagnostics from the passes (e.g. an op code generation does not handle yet) carry
    // kernel source locations; print them like the front end's.
    MLIRDiagnosticBridge bridge(context, diags);
    if (mlir::failed(pm.run(*ir)) || diags.hasErrors()) {
      if (!diags.hasErrors())
        diags.error(SourceRange(), "compilation failed in the pass pipeline");
      return finish(diags);
    }
  }
  if (emit >= EmitKind::LLVM) {
    tile::target::TargetOptions target{arch, optLevel == O0 ? 0u : 3u};
    std::string text, error;
    bool ok = emit == EmitKind::LLVM ? tile::target::translateToLLVMIR(*ir, target, text, error)
                                     : tile::target::translateToPTX(*ir, target, text, error);
    if (ok && emit == EmitKind::Cubin) {
      std::string cubin, report, metadata;
      ok = tile::target::assembleCubin(text, arch, ptxasVerbose, cubin, report, error) &&
           tile::target::kernelMetadata(*ir, arch, metadata, error);
      if (ok && ptxasVerbose)
        errs() << report;
      if (ok) {
        std::string metaPath = metadataFile;
        if (metaPath.empty() && outputFile != "-")
          metaPath = (StringRef(outputFile).ends_with(".cubin") ? StringRef(outputFile).drop_back(6).str()
                                                                 : outputFile.getValue()) + ".json";
        if (!metaPath.empty()) {
          std::error_code mec;
          raw_fd_ostream meta(metaPath, mec);
          if (mec) {
            errs() << "tile-cc: error: cannot write '" << metaPath << "': " << mec.message() << "\n";
            return 3;
          }
          meta << metadata;
        }
        text = cubin;
      }
    }
    if (!ok) {
      errs() << "tile-cc: error: " << error << "\n";
      return 1;
    }
    output->os() << text;
    output->keep();
    return finish(diags);
  }
  ir->print(output->os());
  output->keep();
  return finish(diags);
}
