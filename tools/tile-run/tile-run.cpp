//===- tile-run.cpp - run a kernel with the interpreter, or on the GPU -----===//
//
//   tile-run kernel.py --kernel scale_rows --const TM=64 --const TN=32 --grid 2,3 \
//       --array x=f32:100x70:iota --array s=f32:100:ones --array out=bf16:100x70 --print out
//   tile-run kernel.mlir --grid 4 --array arg0=f32:256:random:7 --scalar arg1=f32:2.5
//   tile-run matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --grid 32,32 \
//       --array a=bf16:4096x4096:random --array b=bf16:4096x4096:random:2 --array c=f32:4096x4096 \
//       --print none --backend gpu --bench 20 --flops 1.374e11
//
// --backend gpu (.py kernels) runs the interpreter first, then the kernel compiled by the JIT
// on the GPU with the same inputs, and compares every array (GpuRun.h); --bench N then times
// N launches. --print shows the GPU's results.
//
// Arrays: NAME=DTYPE:SHAPE[:FILL[:LAYOUT]], SHAPE like 100x70; FILL zeros (default), ones,
// iota (element k holds k), random[:SEED] (uniform in [-1, 1), integers in [-100, 100), unsigned
// ones in [0, 200)),
// full=V; LAYOUT rowmajor (default) or colmajor. Scalars: NAME=DTYPE:VALUE. For .py files
// the argument types come from these (no --arg); parameters are named as in the source
// (KernelOp::getParamName: a `tile.name` argument attribute in .mlir files, else arg0, ...).
//
// Exit codes: 0 success, 1 compile or run-time error, 2 bad command line, 3 unreadable input.
// The grid is at most 2^31-1 blocks along x and 65535 along y and z (CUDA's limits); a run that
// takes longer than a second prints "tile-run: N of M blocks done" on stderr once a second.
//
//===----------------------------------------------------------------------===//

#include "tools/common/Files.h"
#include "tools/common/Numbers.h"
#include "tools/tile-run/ArraySpec.h"
#include "tools/tile-run/GpuRun.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"
#include "compiler/interpreter/Interpreter.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/support/MlirInput.h"
#include "compiler/support/Options.h"
#include "dialect/TileDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <iostream>
#include <map>
#include <set>

using namespace llvm;
using namespace tile;
using namespace tile::interp;
using namespace tile::run;

namespace {

cl::OptionCategory category("tile-run options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel (.py or .mlir)>"), cl::Required, cl::cat(category));
cl::opt<std::string>
    kernelName("kernel", cl::desc("Kernel to run (required for a .py file; in a .mlir file, default: the only one)"),
               cl::value_desc("NAME"), cl::cat(category));
cl::list<std::string>
    importDirs("I", cl::Prefix,
               cl::desc("Search DIR for imported kernel modules (.py; after the file's own directory)"),
               cl::value_desc("DIR"), cl::cat(category));
cl::list<std::string> constants("const", cl::desc("Value of a ct.Constant parameter (.py)"),
                                cl::value_desc("NAME=VALUE"), cl::cat(category));
cl::opt<std::string> configIndex("config", cl::desc("@ct.autotune configuration (.py, default 0)"), cl::value_desc("N"),
                                 cl::cat(category));
cl::opt<std::string> gridSpec("grid", cl::desc("Grid extents"), cl::value_desc("X[,Y[,Z]]"), cl::init("1"),
                              cl::cat(category));
cl::list<std::string> arrays(
    "array",
    cl::desc("An array argument. FILL: zeros (default), ones, iota (element k holds k, row-major), random[:SEED] "
             "(floats in [-1, 1), integers in [-100, 100), unsigned in [0, 200)), full=V; LAYOUT: rowmajor (default), "
             "colmajor. NAME=@FILE.npy reads the array (dtype and shape) from a .npy file"),
    cl::value_desc("NAME=DTYPE:SHAPE[:FILL[:LAYOUT]] | NAME=@FILE.npy"), cl::cat(category));
cl::opt<std::string> saveDir("save",
                             cl::desc("After the run, write every array to DIR/NAME.npy (all or none, each replaced "
                                      "atomically; with --backend gpu, the GPU's results)"),
                             cl::value_desc("DIR"), cl::cat(category));
cl::list<std::string> scalars("scalar", cl::desc("A scalar argument"), cl::value_desc("NAME=DTYPE:VALUE"),
                              cl::cat(category));
cl::list<std::string> printNames("print", cl::desc("Print this array after the run (default: every array)"),
                                 cl::value_desc("NAME"), cl::cat(category));
cl::opt<std::string> blockSpec("block", cl::desc("Run only this block"), cl::value_desc("X[,Y[,Z]]"),
                               cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::desc("Run the tile-opt pipeline first (0: the IR as emitted)"), cl::init(0),
                           cl::Prefix, cl::cat(category));
cl::opt<bool> poisonUndetermined("undetermined-nan",
                                 cl::desc("Pad `undetermined` loads with NaN (the most negative integer, false) "
                                          "instead of zero, as the GPU does: shows a kernel that reads them"),
                                 cl::cat(category));
// Zero is the default now; the old switch is still accepted.
cl::opt<bool> zeroUndetermined("undetermined-zero", cl::desc("Pad `undetermined` loads with zero (the default)"),
                               cl::Hidden, cl::cat(category));
cl::opt<std::string> backendName("backend",
                                 cl::desc("interpreter (default), or gpu: run on the GPU too and compare every array"),
                                 cl::value_desc("interpreter|gpu"), cl::init("interpreter"), cl::cat(category));
cl::opt<std::string> benchText("bench", cl::desc("--backend gpu: time N launches and print the median"),
                               cl::value_desc("N"), cl::cat(category));
cl::opt<std::string> flopsText("flops", cl::desc("--bench: the work of one launch in FLOP, for TFLOP/s"),
                               cl::value_desc("F"), cl::cat(category));
cl::opt<std::string> numThreadsText("num-threads",
                                    cl::desc("--backend gpu: threads per block (a power of two from 32 to 1024; "
                                             "default: the compiler chooses from the kernel's tiles)"),
                                    cl::value_desc("N"), cl::cat(category));
cl::opt<bool> noCompare("no-compare",
                        cl::desc("--backend gpu: run on the GPU only, without the interpreter and the comparison "
                                 "(benchmarks too large to interpret)"),
                        cl::cat(category));
cl::opt<std::string> rtolText("rtol", cl::desc("--backend gpu: relative tolerance (default: by dtype, docs/tools.md)"),
                              cl::value_desc("R"), cl::cat(category));
cl::opt<std::string> atolText("atol", cl::desc("--backend gpu: absolute tolerance (default: by dtype, docs/tools.md)"),
                              cl::value_desc("A"), cl::cat(category));
cl::opt<std::string> precision("precision", cl::desc("Significant digits of printed floats (1-17, default 6)"),
                               cl::value_desc("N"), cl::init("6"), cl::cat(category));

int usage(const std::string &message) {
  errs() << "tile-run: error: " << message << "\n";
  return 2;
}

// Kernel sources and .mlir files are read whole; anything larger is not a kernel.
constexpr uint64_t kMaxInputBytes = uint64_t(64) << 20;

// "X[,Y[,Z]]", each in [min, CUDA's limit for the axis]: 2^31-1 for x, 65535 for y, z. Omitted
// components are `min`: extent 1 for a grid, index 0 for a block.
bool parseDim3(const std::string &text, const char *what, int64_t min, Dim3 &d, std::string &error) {
  auto v = tools::parseIntList(text, ',', 1, 3, min, std::numeric_limits<int32_t>::max(), what, error);
  if (!v)
    return false;
  for (size_t i = 1; i < v->size(); ++i)
    if ((*v)[i] > 65535) {
      error = std::string(what) + ": " + std::to_string((*v)[i]) + " is out of range along " + (i == 1 ? "y" : "z") +
              " (at most 65535, as on CUDA), in '" + text + "'";
      return false;
    }
  d = {(*v)[0], v->size() > 1 ? (*v)[1] : min, v->size() > 2 ? (*v)[2] : min};
  return true;
}

std::string dim3String(const Dim3 &d) {
  return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  tile::support::exitOnOutOfMemory("tile-run"); // one line and exit code 3, not an abort
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv, "tile-run: runs a tile kernel on the CPU\n", &errs()))
    return 2;
  if (std::string repeated = tile::support::findRepeatedOption(category); !repeated.empty())
    return usage(repeated);

  std::string error;
  Dim3 grid;
  if (!parseDim3(gridSpec, "--grid", 1, grid, error))
    return usage(error);
  std::optional<Dim3> onlyBlock;
  if (!blockSpec.empty()) {
    Dim3 b;
    if (!parseDim3(blockSpec, "--block", 0, b, error))
      return usage(error);
    // Block indices run from 0 to extent-1: a block outside the grid would run nothing.
    if (b.x >= grid.x || b.y >= grid.y || b.z >= grid.z)
      return usage("--block " + dim3String(b) + " is outside --grid " + dim3String(grid) +
                   " (block indices run from 0 to the grid's extent - 1 along each axis)");
    onlyBlock = b;
  }
  std::optional<unsigned> config;
  if (configIndex.getNumOccurrences()) {
    auto v = tools::parseInt(configIndex, 0, std::numeric_limits<int32_t>::max(), "--config", error);
    if (!v)
      return usage(error);
    config = static_cast<unsigned>(*v);
  }
  auto digits = tools::parseInt(precision, 1, 17, "--precision", error);
  if (!digits)
    return usage(error);
  if (optLevel > 3)
    return usage("-O" + std::to_string(optLevel) + ": the levels are -O0 to -O3");
  if (backendName != "interpreter" && backendName != "gpu")
    return usage("--backend " + backendName + ": expected interpreter or gpu");
  const bool onGpu = backendName == "gpu";
  GpuRunOptions gpuOptions;
  for (const auto *option : {&benchText, &flopsText, &rtolText, &atolText, &numThreadsText})
    if (option->getNumOccurrences() && !onGpu)
      return usage("--" + option->ArgStr.str() + " needs --backend gpu");
  if (noCompare && !onGpu)
    return usage("--no-compare needs --backend gpu");
  gpuOptions.compare = !noCompare;
  if (onGpu && !blockSpec.empty())
    return usage(
        "--block runs one block on the interpreter; the GPU runs the whole grid (drop --block or --backend gpu)");
  if (onGpu && StringRef(inputFile).ends_with(".mlir"))
    return usage("--backend gpu compiles kernel sources (.py) with the JIT; run .mlir files on the interpreter");
  if (benchText.getNumOccurrences()) {
    auto n = tools::parseInt(benchText, 1, 100000, "--bench", error);
    if (!n)
      return usage(error);
    gpuOptions.benchLaunches = static_cast<int>(*n);
  }
  if (numThreadsText.getNumOccurrences()) {
    auto n = tools::parseNumThreads(numThreadsText, error);
    if (!n)
      return usage(error);
    gpuOptions.numThreads = *n;
  }
  if (flopsText.getNumOccurrences() && !benchText.getNumOccurrences())
    return usage("--flops needs --bench N");
  for (auto [text, target] : {std::pair{&flopsText, &gpuOptions.flops}, std::pair{&rtolText, &gpuOptions.rtol},
                              std::pair{&atolText, &gpuOptions.atol}})
    if (text->getNumOccurrences()) {
      auto v = tools::parseDouble(*text, "--" + text->ArgStr.str(), error, tools::DoubleRange{0});
      if (!v)
        return usage(error);
      *target = *v;
    }

  std::map<std::string, ArrayArg> arrayArgs;
  std::map<std::string, LaunchArg> scalarArgs;
  std::vector<std::string> order; // as given, for printing
  // A name given twice would silently take the last value: refuse it, naming both options.
  std::map<std::string, std::string> givenWith;
  auto claim = [&](const std::string &name, const std::string &option) -> bool {
    auto [it, inserted] = givenWith.emplace(name, option);
    if (inserted)
      return true;
    error = it->second == option ? option + " " + name + " is given twice"
                                 : "'" + name + "' is given with both " + it->second + " and " + option;
    return false;
  };
  for (const std::string &text : arrays) {
    ArrayArg a;
    if (!parseArrayArg(text, a, error) || !claim(a.name, "--array"))
      return usage(error);
    order.push_back(a.name);
    arrayArgs[a.name] = std::move(a);
  }
  for (const std::string &text : scalars) {
    std::string name;
    LaunchArg arg;
    if (!parseScalarArg(text, name, arg, error) || !claim(name, "--scalar"))
      return usage(error);
    scalarArgs[name] = arg;
  }
  // --print none: print nothing (a benchmark's large arrays).
  const bool printNothing = printNames.size() == 1 && printNames[0] == "none" && !arrayArgs.count("none");
  for (const std::string &name : printNames)
    if (!arrayArgs.count(name) && !printNothing)
      return usage("--print " + name + ": no such --array");

  // --save: checked before the run (a long one must not fail at its end): savable dtypes, a
  // writable folder, and no output that is an input (the kernel, an @FILE.npy array).
  std::vector<std::pair<std::string, std::string>> saved; // (path, bytes), filled after the run
  if (saveDir.getNumOccurrences()) {
    std::vector<tools::NamedPath> outputs, inputs{{inputFile, "the kernel file"}};
    for (const std::string &name : order) {
      const ArrayArg &a = arrayArgs.at(name);
      if (std::string why = checkSavable(a); !why.empty())
        return usage(why);
      outputs.push_back({saveDir + "/" + name + ".npy", "--save"});
      if (!a.file.empty())
        inputs.push_back({a.file, "the input of --array " + name});
    }
    if (std::string clash = tools::checkOutputs(outputs, inputs); !clash.empty())
      return usage(clash);
    if (!tools::makeDirectories(saveDir, error) || !tools::checkWritableDirectory(saveDir, error)) {
      errs() << "tile-run: error: --save: " << error << "\n";
      return 3;
    }
  }

  if (std::string why = tools::checkInputFile(inputFile, "kernel file", kMaxInputBytes); !why.empty()) {
    errs() << "tile-run: error: " << why << "\n";
    return 3;
  }

  jit::KernelRequest request; // --backend gpu: what the JIT compiles
  mlir::MLIRContext context;
  frontend::loadFrontendDialects(context);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<std::string> paramNames;
  if (StringRef(inputFile).ends_with(".mlir")) {
    llvm::SourceMgr sourceMgr;
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    module = support::parseMlirFile(inputFile, sourceMgr, context); // nesting-checked, large stack
    if (!module)
      return 1;
  } else {
    if (kernelName.empty())
      return usage("pass --kernel NAME for a .py file");
    frontend::SourceManager sources;
    frontend::DiagnosticEngine diags(sources);
    const frontend::SourceFile *file = sources.addFile(inputFile, &error);
    if (!file) {
      errs() << "tile-run: error: " << error << "\n";
      return 3;
    }
    frontend::Specialization spec;
    spec.kernel = kernelName;
    spec.optionNames.arg = "--array or --scalar";
    spec.optionNames.argForm = "--array NAME=DTYPE:SHAPE or --scalar NAME=DTYPE:VALUE";
    for (const std::string &c : constants) {
      std::string name;
      frontend::ConstantValue value;
      if (!frontend::parseConstantSpec(c, name, value, error))
        return usage("--const " + error);
      if (!spec.constants.emplace(name, value).second)
        return usage("--const " + name + " is given twice");
      if (givenWith.count(name))
        return usage("'" + name + "' is given with both " + givenWith[name] + " and --const");
    }
    for (auto &[name, a] : arrayArgs) {
      frontend::ArgType type{dtypeName(a.dtype), static_cast<int64_t>(a.shape.size())};
      std::string list = frontend::listParamName(name);
      if (list == name) {
        spec.args[name] = type;
        continue;
      }
      // NAME[0], NAME[1], ...: a list argument, its elements of one dtype and rank.
      frontend::ArgType &listType = spec.args.try_emplace(list, type).first->second;
      if (listType.dtype != type.dtype || listType.rank != type.rank)
        return usage("--array " + name + " is " + type.dtype + ":" + std::to_string(type.rank) + ", but " + list +
                     "[0] is " + listType.dtype + ":" + std::to_string(listType.rank) +
                     " (the arrays of a list share a dtype and rank)");
      listType.listLength = std::max<int64_t>(listType.listLength, 0) + 1;
    }
    for (auto &[name, type] : spec.args)
      for (int64_t i = 0; i < type.listLength; ++i)
        if (!arrayArgs.count(frontend::listElementName(name, i)))
          return usage("--array " + frontend::listElementName(name, i) + " is missing (the list " + name + " has " +
                       std::to_string(type.listLength) + " arrays given, numbered from 0)");
    for (auto &[name, s] : scalarArgs)
      spec.args[name] = {dtypeName(s.dtype), 0};
    spec.config = config;
    request.source = std::string(file->text());
    request.fileName = inputFile;
    request.kernel = kernelName;
    request.constants = spec.constants;
    request.config = config;
    auto parsed = frontend::parseModule(*file, diags, frontend::hostFileOptions());
    frontend::ImportedModules imports;
    if (parsed && !diags.hasErrors())
      imports.load(*parsed, sources, diags, frontend::ImportOptions{importDirs});
    if (parsed && !diags.hasErrors()) {
      // Name missing arguments in tile-run's terms before the front end asks for --arg.
      if (auto sig = frontend::inspectKernel(*parsed, kernelName, context, diags, &imports)) {
        paramNames = sig->runtimeParams;
        for (const std::string &name : paramNames)
          if (!spec.args.count(name))
            return usage("no --array or --scalar for parameter '" + name + "'");
      }
      module = frontend::compileToTileIR(*parsed, spec, context, diags, &imports);
    }
    if (!module || diags.hasErrors()) {
      diags.print(std::cerr);
      return 1;
    }
  }
  if (optLevel > 0) {
    mlir::PassManager pm(&context);
    pipeline::buildTileOptPipeline(pm, {optLevel});
    if (failed(pm.run(*module)))
      return 1;
  }

  mlir::tile::KernelOp kernel;
  std::string names;
  for (auto k : module->getOps<mlir::tile::KernelOp>()) {
    names += (names.empty() ? "" : ", ") + k.getSymName().str();
    if (k.getSymName() == frontend::kernelSymbolName(kernelName) || (kernelName.empty() && !kernel))
      kernel = k;
    else if (kernelName.empty())
      return usage("the module has several kernels (" + names + "...); pass --kernel NAME");
  }
  if (!kernel) {
    errs() << "tile-run: error: no kernel " << (kernelName.empty() ? "" : "'" + kernelName + "' ") << "in " << inputFile
           << (names.empty() ? "" : " (kernels: " + names + ")") << "\n";
    return 1;
  }
  // Parameters in kernel-argument order.
  unsigned numArgs = kernel.getNumArguments();
  // (A list argument is several parameters: NAME[0], NAME[1], ...)
  bool unmatched = llvm::any_of(
      paramNames, [&](const std::string &name) { return !arrayArgs.count(name) && !scalarArgs.count(name); });
  if (paramNames.size() != numArgs || unmatched) {
    paramNames.clear();
    for (unsigned i = 0; i < numArgs; ++i)
      paramNames.push_back(kernel.getParamName(i));
  }
  std::vector<LaunchArg> launchArgs;
  for (const std::string &name : paramNames) {
    if (auto it = arrayArgs.find(name); it != arrayArgs.end())
      launchArgs.push_back(LaunchArg::of(it->second.view));
    else if (auto sit = scalarArgs.find(name); sit != scalarArgs.end())
      launchArgs.push_back(sit->second);
    else
      return usage("no --array or --scalar for parameter '" + name + "'");
  }

  for (const auto *given : {&arrays, &scalars})
    for (const std::string &text : *given) {
      std::string name = text.substr(0, text.find('='));
      if (llvm::find(paramNames, name) == paramNames.end())
        return usage("kernel '" + kernel.getSymName().str() + "' has no parameter '" + name + "'");
    }

  // The GPU gets the inputs the interpreter had.
  std::map<std::string, std::vector<char>> initial;
  if (onGpu)
    for (auto &[name, a] : arrayArgs)
      initial[name] = a.bytes;

  InterpreterOptions options;
  options.argNames = paramNames;
  options.undeterminedPadding = poisonUndetermined ? UndeterminedPadding::Poison : UndeterminedPadding::Zero;
  options.onlyBlock = onlyBlock;
  // A progress line once a second after the first second, so a huge grid is visibly running.
  const auto start = std::chrono::steady_clock::now();
  auto lastReport = start;
  bool reported = false;
  options.progress = [&](int64_t done, int64_t total) {
    auto now = std::chrono::steady_clock::now();
    if (now - start < std::chrono::seconds(1) || (now - lastReport < std::chrono::seconds(1) && done != total))
      return;
    if (done == total && !reported)
      return;
    lastReport = now;
    reported = true;
    std::cout.flush();
    errs() << "tile-run: " << done << " of " << total << " blocks done\n";
  };
  // --no-compare: the GPU alone.
  if (!(onGpu && noCompare) && failed(interpret(kernel, grid, launchArgs, options, error))) {
    std::cout.flush();
    errs() << error << "\n";
    return 1;
  }
  std::cout.flush();
  if (onGpu) {
    gpuOptions.grid = grid;
    gpuOptions.paramNames = paramNames;
    gpuOptions.scalars = scalarArgs;
    int rc = runOnGpu(request, gpuOptions, arrayArgs, initial, outs(), errs());
    outs().flush();
    if (rc)
      return rc;
  }
  if (saveDir.getNumOccurrences()) {
    for (const std::string &name : order)
      saved.push_back({saveDir + "/" + name + ".npy", npyBytes(arrayArgs.at(name))});
    if (!tools::writeFilesAtomically(saved, error)) {
      errs() << "tile-run: error: --save: " << error << "\n";
      return 3;
    }
  }
  if (printNothing)
    return 0;
  for (const std::string &name : printNames.empty() ? order : std::vector<std::string>(printNames)) {
    auto it = arrayArgs.find(name);
    if (it == arrayArgs.end())
      return usage("--print " + name + ": no such array");
    printArray(it->second, static_cast<int>(*digits), outs());
  }
  return 0;
}
