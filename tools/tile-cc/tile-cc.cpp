//===- tile-cc.cpp - the tile-cc command-line compiler --------------------===//
//
//   tile-cc kernel.py --kernel NAME [--const K=V ...] [--arg NAME=DTYPE:RANK ...]
//           [--config N] [--emit=ast|tile|tile-opt|gpu|llvm|ptx|cubin] [--arch sm_90a] [-o FILE]
//
// --emit=cubin also writes the launch metadata (JSON) next to the output: out.cubin -> out.json.
// Outputs go to a temporary file in the same folder, renamed into place only when everything
// succeeded (the cubin and its metadata together), so a failed compile leaves an existing
// output as it was; -o or --metadata naming the input (or each other) is refused.
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
#include "tools/common/Numbers.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <iostream>
#include <optional>
#include <sstream>

using namespace llvm;
using namespace tile::frontend;

namespace {

enum class EmitKind { AST, Tile, TileOpt, GPU, LLVM, PTX, Cubin };

cl::OptionCategory category("tile-cc options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel source (.py or .tile)>"), cl::Required,
                               cl::cat(category));
cl::opt<std::string> kernelName("kernel", cl::desc("Kernel to compile"), cl::value_desc("NAME"), cl::cat(category));
cl::list<std::string> constants("const", cl::desc("Value of a ct.Constant parameter"), cl::value_desc("NAME=VALUE"),
                                cl::cat(category));
cl::list<std::string> argTypes("arg", cl::desc("Type of an argument (rank 0 for a scalar), e.g. x=bf16:3"),
                               cl::value_desc("NAME=DTYPE:RANK"), cl::cat(category));
cl::opt<std::string> configIndex("config", cl::desc("Which @ct.autotune configuration to compile (default 0)"),
                                 cl::value_desc("N"), cl::cat(category));
cl::opt<EmitKind> emit("emit", cl::desc("Stop after this stage and write its output"), cl::init(EmitKind::Tile),
                       cl::values(clEnumValN(EmitKind::AST, "ast", "the parsed syntax tree"),
                                  clEnumValN(EmitKind::Tile, "tile", "the specialized tile IR"),
                                  clEnumValN(EmitKind::TileOpt, "tile-opt", "tile IR after tile passes"),
                                  clEnumValN(EmitKind::GPU, "gpu", "GPU-level IR with layouts"),
                                  clEnumValN(EmitKind::LLVM, "llvm", "LLVM IR"),
                                  clEnumValN(EmitKind::PTX, "ptx", "PTX assembly"),
                                  clEnumValN(EmitKind::Cubin, "cubin", "a cubin")),
                       cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"), cl::value_desc("FILE"), cl::init("-"),
                                cl::cat(category));
cl::opt<bool> listKernels("list-kernels", cl::desc("List the file's kernels and their parameters"), cl::cat(category));
enum OptLevel { O0, O1, O2, O3 };
cl::opt<OptLevel> optLevel(cl::desc("Optimization level"), cl::init(O2),
                           cl::values(clEnumVal(O0, "no optimization"), clEnumVal(O1, "optimize"),
                                      clEnumVal(O2, "optimize (default)"), clEnumVal(O3, "optimize more")),
                           cl::cat(category));
cl::opt<bool> printIRAfterAll("print-ir-after-all", cl::desc("Print the IR after every pass (to stderr)"),
                              cl::cat(category));
cl::list<std::string> printIRAfter("print-ir-after", cl::desc("Print the IR after the named pass (to stderr)"),
                                   cl::value_desc("PASS"), cl::cat(category));
cl::opt<bool> timing("timing", cl::desc("Report the time each stage and pass takes (to stderr)"), cl::cat(category));
cl::opt<std::string> arch("arch", cl::desc("Target GPU (sm_70 ... sm_90, sm_90a)"), cl::init("sm_90a"),
                          cl::cat(category));
cl::opt<std::string> numThreadsText("num-threads", cl::desc("Threads per block (power of two, 32-1024; default 128)"),
                                    cl::value_desc("N"), cl::init("128"), cl::cat(category));
cl::opt<bool> ptxasVerbose("resource-usage",
                           cl::desc("Print ptxas's resource report (registers, shared memory, spills)"),
                           cl::cat(category));
cl::opt<std::string>
    metadataFile("metadata", cl::desc("Where --emit=cubin writes the launch metadata (default: output with .json)"),
                 cl::value_desc("FILE"), cl::cat(category));
cl::opt<std::string> errorLimitText("error-limit", cl::desc("Stop after this many errors (0: no limit; default 20)"),
                                    cl::value_desc("N"), cl::init("20"), cl::cat(category));

int usage(const std::string &message) {
  errs() << "tile-cc: error: " << message << "\n";
  return 2;
}

// One output file, written to a temporary file in its folder and renamed over `path` by
// keep(): until then an existing file is untouched, and the destructor removes the temporary
// (also on a signal: TempFile registers it). "-" is stdout; an existing file that is not a
// regular file (/dev/null, a FIFO) is written in place, since renaming over it would replace
// the device node.
class AtomicOutput {
public:
  AtomicOutput() = default;
  AtomicOutput(const AtomicOutput &) = delete;
  ~AtomicOutput() {
    if (temp_)
      consumeError(temp_->discard());
  }

  bool open(const std::string &path, std::string &error) {
    path_ = path;
    if (path == "-") {
      stream_ = &outs();
      return true;
    }
    std::error_code ec;
    sys::fs::file_status st;
    if (!sys::fs::status(path, st) && sys::fs::exists(st) && !sys::fs::is_regular_file(st)) {
      if (sys::fs::is_directory(st)) {
        error = "cannot write '" + path + "': it is a directory";
        return false;
      }
      direct_ = std::make_unique<raw_fd_ostream>(path, ec, sys::fs::OF_None);
      if (ec) {
        error = "cannot open '" + path + "': " + ec.message();
        return false;
      }
      stream_ = direct_.get();
      return true;
    }
    SmallString<256> model(path);
    sys::path::remove_filename(model);
    sys::path::append(model, "." + sys::path::filename(path) + ".tmp-%%%%%%");
    Expected<sys::fs::TempFile> temp = sys::fs::TempFile::create(model);
    if (!temp) {
      error = "cannot open '" + path + "': " + toString(temp.takeError());
      return false;
    }
    temp_.emplace(std::move(*temp));
    tempStream_ = std::make_unique<raw_fd_ostream>(temp_->FD, /*shouldClose=*/false);
    stream_ = tempStream_.get();
    return true;
  }

  raw_ostream &os() { return *stream_; }

  /// Flushes and checks for write errors (disk full, file size limit) before anything is kept.
  bool flush(std::string &error) {
    stream_->flush();
    if (stream_->has_error()) {
      error = "cannot write '" + path_ + "': " + stream_->error().message();
      stream_->clear_error();
      return false;
    }
    return true;
  }

  /// Renames the temporary file into place.
  bool keep(std::string &error) {
    if (!temp_)
      return true;
    tempStream_.reset();
    Error e = temp_->keep(path_);
    temp_.reset();
    if (e) {
      error = "cannot write '" + path_ + "': " + toString(std::move(e));
      return false;
    }
    return true;
  }

private:
  std::string path_;
  raw_fd_ostream *stream_ = nullptr;
  std::optional<sys::fs::TempFile> temp_;
  std::unique_ptr<raw_fd_ostream> tempStream_, direct_;
};

// True when `a` and `b` name the same file: the same existing file (symlinks and hard links
// included), or the same path once made absolute (for files that do not exist yet).
bool samePath(StringRef a, StringRef b) {
  // Writing a device twice is harmless: --metadata /dev/null -o /dev/null (and the input is
  // always a regular file).
  sys::fs::file_status st;
  if (!sys::fs::status(a, st) && sys::fs::exists(st) && !sys::fs::is_regular_file(st))
    return false;
  bool same = false;
  if (!sys::fs::equivalent(a, b, same) && same)
    return true;
  SmallString<256> absA(a), absB(b);
  if (sys::fs::make_absolute(absA) || sys::fs::make_absolute(absB))
    return false;
  sys::path::remove_dots(absA, /*remove_dot_dot=*/true);
  sys::path::remove_dots(absB, /*remove_dot_dot=*/true);
  return absA == absB;
}

int finish(const DiagnosticEngine &diags) {
  diags.print(std::cerr);
  if (!diags.diagnostics().empty())
    std::cerr << diags.summary() << "\n";
  return diags.hasErrors() ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // A file size limit (ulimit -f) then fails the write with EFBIG, reported as an I/O error
  // with the existing output untouched, instead of a signal.
  std::signal(SIGXFSZ, SIG_IGN);
  tile::codegen::registerDebugOptions(); // -debug-only=tile-assign-layouts,... (hidden)
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) { os << "tile-cc 0.1.0 (MLIR/LLVM 22)\n"; });
  if (!cl::ParseCommandLineOptions(argc, argv, "tile-cc: compiles tile kernels (cuTile syntax)\n", &llvm::errs()))
    return 2;

  // Numbers are parsed strictly (llvm::cl would take "-1" as the int -1 and 0x10 as 16).
  std::string optionError;
  auto numThreadsValue = tile::tools::parseInt(numThreadsText, 32, 1024, "--num-threads", optionError);
  if (!numThreadsValue)
    return usage(optionError);
  const int64_t numThreads = *numThreadsValue;
  if (numThreads & (numThreads - 1))
    return usage("--num-threads " + std::to_string(numThreads) + " must be a power of two from 32 to 1024");
  auto errorLimit =
      tile::tools::parseInt(errorLimitText, 0, std::numeric_limits<int32_t>::max(), "--error-limit", optionError);
  if (!errorLimit)
    return usage(optionError);
  std::optional<unsigned> config;
  if (configIndex.getNumOccurrences()) {
    auto v = tile::tools::parseInt(configIndex, 0, std::numeric_limits<int32_t>::max(), "--config", optionError);
    if (!v)
      return usage(optionError);
    config = static_cast<unsigned>(*v);
  }

  SourceManager sources;
  DiagnosticEngine diags(sources, static_cast<unsigned>(*errorLimit));
  std::string readError;
  const SourceFile *file = sources.addFile(inputFile, &readError);
  if (!file) {
    errs() << "tile-cc: error: " << readError << "\n";
    return 3;
  }

  std::unique_ptr<Module> module = parseModule(*file, diags, hostFileOptions());
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

  // The outputs: never the input (-o kernel.py would destroy the source), never each other.
  std::string metaPath;
  if (emit == EmitKind::Cubin) {
    metaPath = metadataFile;
    if (metaPath.empty() && outputFile != "-")
      metaPath = (StringRef(outputFile).ends_with(".cubin") ? StringRef(outputFile).drop_back(6).str()
                                                            : outputFile.getValue()) +
                 ".json";
  }
  if (outputFile != "-" && samePath(outputFile, inputFile))
    return usage("-o '" + outputFile + "' is the input file; refusing to overwrite it");
  if (!metaPath.empty() && samePath(metaPath, inputFile))
    return usage("--metadata '" + metaPath + "' is the input file; refusing to overwrite it");
  if (!metaPath.empty() && outputFile != "-" && samePath(metaPath, outputFile))
    return usage("--metadata '" + metaPath + "' and -o '" + outputFile + "' are the same file");

  std::string ioError;
  AtomicOutput output, meta;
  if (!output.open(outputFile, ioError) || (!metaPath.empty() && !meta.open(metaPath, ioError))) {
    errs() << "tile-cc: error: " << ioError << "\n";
    return 3;
  }
  // Both outputs or neither: every write is checked before either is renamed into place.
  auto commit = [&](bool withMeta) {
    if (!output.flush(ioError) || (withMeta && !meta.flush(ioError)) || !output.keep(ioError) ||
        (withMeta && !meta.keep(ioError))) {
      errs() << "tile-cc: error: " << ioError << "\n";
      return 3;
    }
    return finish(diags);
  };

  if (emit == EmitKind::AST) {
    output.os() << dumpAST(*module, &sources);
    return commit(false);
  }
  if (emit >= EmitKind::GPU) {
    std::string error;
    if (tile::target::ptxFeatureFor(arch, error).empty())
      return usage("--arch: " + error);
  }

  if (kernelName.empty()) {
    std::string names;
    for (const FunctionDefStmt *fn : module->functions())
      names += (names.empty() ? "" : ", ") + fn->name;
    errs() << "tile-cc: error: no kernel selected; pass --kernel NAME"
           << (names.empty() ? "" : " (functions: " + names + ")") << "\n";
    return 2;
  }
  Specialization spec;
  spec.kernel = kernelName;
  for (const std::string &c : constants) {
    std::string name, error;
    ConstantValue value;
    if (!parseConstantSpec(c, name, value, error))
      return usage("--const " + error);
    // A repeated name would silently take the last value.
    if (!spec.constants.emplace(name, value).second)
      return usage("--const " + name + " is given twice");
  }
  for (const std::string &a : argTypes) {
    std::string name, error;
    ArgType type;
    if (!parseArgSpec(a, name, type, error))
      return usage("--arg " + error);
    if (!spec.args.emplace(name, type).second)
      return usage("--arg " + name + " is given twice");
  }
  spec.config = config;
  spec.arch = arch;

  mlir::MLIRContext context;
  auto ir = compileToTileIR(*module, spec, context, diags);
  if (!ir)
    return finish(diags);
  if (diags.numWarnings() != 0) { // shown now: a successful compile prints nothing else
    finish(diags);
    diags.clear();
  }
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
      pm.enableIRPrinting([](mlir::Pass *, mlir::Operation *) { return false; },
                          [names](mlir::Pass *pass, mlir::Operation *) {
                            return names.empty() ||
                                   std::find(names.begin(), names.end(), pass->getArgument().str()) != names.end();
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
        if (!metaPath.empty())
          meta.os() << metadata;
        text = cubin;
      }
    }
    if (!ok) {
      errs() << "tile-cc: error: " << error << "\n";
      return 1;
    }
    output.os() << text;
    return commit(!metaPath.empty());
  }
  ir->print(output.os());
  return commit(false);
}
