//===- tile-cc.cpp - the tile-cc command-line compiler --------------------===//
//
//   tile-cc kernel.py --kernel NAME [--const K=V ...] [--arg NAME=DTYPE:RANK ...]
//           [--config N] [--emit=ast|tile|tile-opt|gpu|llvm|ptx|cubin|launcher] [--arch sm_90a] [-o FILE]
//
//   tile-cc kernel.py --kernel NAME [--const ...] [--arg ...] --all-configs [-j N] -o DIR
//
// --emit=cubin also writes the launch metadata (JSON) next to the output: out.cubin -> out.json.
// --emit=launcher -o k.h writes k.h and k.cpp: a typed launch function over the kernel's cubins
// for every --arch (several allowed) and PTX for newer devices (Launcher.h; --config all: one
// specialization per @ct.autotune configuration; --tuning-table FILE compiles in the autotuner's
// decisions, LauncherTuning.h).
// --all-configs builds every @ct.autotune configuration on N threads into a package directory
// (manifest.json, a cubin or PTX and metadata per configuration; runtime/KernelPackage.h).
// Outputs go to a temporary file in the same folder, renamed into place only when everything
// succeeded (the cubin and its metadata together), so a failed compile leaves an existing
// output as it was; -o or --metadata naming the input (or each other) is refused.
//
// Exit codes: 0 success, 1 compile errors (diagnostics on stderr), 2 bad command line,
// 3 input/output failure.
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/driver/Compile.h"
#include "compiler/frontend/ASTPrinter.h"
#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/support/Options.h"
#include "compiler/target/NVPTX.h"
#include "runtime/Error.h"
#include "runtime/GpuArch.h"
#include "runtime/jit/TuneKey.h"
#include "tile/Version.h"
#include "tools/common/Files.h"
#include "tools/common/Numbers.h"
#include "tools/tile-cc/AllConfigs.h"
#include "tools/tile-cc/Launcher.h"
#include "tools/tile-cc/LauncherTuning.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

using namespace llvm;
using namespace tile::frontend;

namespace {

enum class EmitKind { AST, Tile, TileOpt, GPU, LLVM, PTX, Cubin, Launcher };

// The kernel modules the input file imports (loaded after parsing it).
ImportedModules imports;

cl::OptionCategory category("tile-cc options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel source (.py or .tile)>"), cl::Required,
                               cl::cat(category));
cl::list<std::string>
    importDirs("I", cl::Prefix,
               cl::desc("Search DIR for imported kernel modules (after the kernel file's own directory)"),
               cl::value_desc("DIR"), cl::cat(category));
cl::opt<std::string> kernelName("kernel", cl::desc("Kernel to compile"), cl::value_desc("NAME"), cl::cat(category));
cl::list<std::string> constants("const", cl::desc("Value of a ct.Constant parameter"), cl::value_desc("NAME=VALUE"),
                                cl::cat(category));
cl::list<std::string> argTypes("arg",
                               cl::desc("Type of an argument (rank 0 for a scalar), e.g. x=bf16:3; x=bf16:3:aligned "
                                        "promises 16-byte aligned base and strides, unit last stride (TMA)"),
                               cl::value_desc("NAME=DTYPE:RANK"), cl::cat(category));
cl::opt<std::string>
    configIndex("config",
                cl::desc("Which @ct.autotune configuration to compile (default 0; 'all' with --emit=launcher)"),
                cl::value_desc("N"), cl::cat(category));
cl::opt<EmitKind>
    emit("emit", cl::desc("Stop after this stage and write its output"), cl::init(EmitKind::Tile),
         cl::values(clEnumValN(EmitKind::AST, "ast", "the parsed syntax tree"),
                    clEnumValN(EmitKind::Tile, "tile", "the specialized tile IR"),
                    clEnumValN(EmitKind::TileOpt, "tile-opt", "tile IR after tile passes"),
                    clEnumValN(EmitKind::GPU, "gpu", "GPU-level IR with layouts"),
                    clEnumValN(EmitKind::LLVM, "llvm", "LLVM IR"), clEnumValN(EmitKind::PTX, "ptx", "PTX assembly"),
                    clEnumValN(EmitKind::Cubin, "cubin", "a cubin"),
                    clEnumValN(EmitKind::Launcher, "launcher", "a C++ launcher (-o NAME.h: NAME.h and NAME.cpp)")),
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
cl::opt<bool> remarks("remarks",
                      cl::desc("Report the passes' decisions (e.g. which Tensor Core instruction each product "
                               "uses, and why not a faster one)"),
                      cl::cat(category));
cl::opt<bool> timing("timing", cl::desc("Report the time each stage and pass takes (to stderr)"), cl::cat(category));
cl::list<std::string> archList("arch",
                               cl::desc("Target GPU (sm_70 ... sm_90, sm_90a; default sm_90a); several, or a "
                                        "comma-separated list, with --emit=launcher"),
                               cl::CommaSeparated, cl::cat(category));
cl::opt<std::string>
    launcherName("launcher-name",
                 cl::desc("--emit=launcher: the functions' names, launch_NAME ... (default: the kernel)"),
                 cl::value_desc("NAME"), cl::cat(category));
cl::opt<std::string> launcherNamespace("launcher-namespace",
                                       cl::desc("--emit=launcher: the C++ namespace (default: the global one)"),
                                       cl::value_desc("NS"), cl::cat(category));
cl::opt<std::string> ptxArch("ptx-arch",
                             cl::desc("--emit=launcher: PTX for devices newer than every --arch (default: the newest "
                                      "--arch without its 'a'; 'none' for no PTX)"),
                             cl::value_desc("ARCH"), cl::cat(category));
cl::opt<std::string>
    tuningTable("tuning-table",
                cl::desc("--emit=launcher --config all: compile in the autotuner's decisions from this table "
                         "(tile-tune-table/1, as the tuner exports it); NAME_tuned_config picks a configuration"),
                cl::value_desc("FILE"), cl::cat(category));
cl::opt<bool> ptxOnly("ptx-only", cl::desc("--emit=launcher: embed PTX for every --arch instead of cubins (no ptxas)"),
                      cl::cat(category));
cl::opt<std::string> numThreadsText(
    "num-threads",
    cl::desc("Threads per block (power of two, 32-1024) for kernels without the num_threads option; default: chosen "
             "from the kernel's tiles"),
    cl::value_desc("N"), cl::init(""), cl::cat(category));
cl::opt<std::string> pipelineStagesText(
    "pipeline-stages",
    cl::desc("Stages of loops whose loads are copied ahead: 0 from the latency= hints (default), 1 off, 2-8 forced"),
    cl::value_desc("N"), cl::init("0"), cl::cat(category));
// --pipeline-stages, parsed strictly in main.
int64_t pipelineStages = 0;
cl::opt<bool> ptxasVerbose("resource-usage",
                           cl::desc("Print ptxas's resource report (registers, shared memory, spills)"),
                           cl::cat(category));
cl::opt<std::string>
    metadataFile("metadata", cl::desc("Where --emit=cubin writes the launch metadata (default: output with .json)"),
                 cl::value_desc("FILE"), cl::cat(category));
cl::opt<bool> allConfigs("all-configs",
                         cl::desc("Build every @ct.autotune configuration into the package directory -o DIR "
                                  "(--emit=cubin, or ptx without ptxas)"),
                         cl::cat(category));
cl::opt<std::string> jobsText("j", cl::desc("Threads for --all-configs (default: one per hardware thread)"),
                              cl::value_desc("N"), cl::cat(category));
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

// `arg` as a shell reads it back: bare when it holds only safe characters, else in single
// quotes, or as $'...' with escapes when it holds control characters (a newline in a path must
// not end the generated launcher's comment line).
std::string shellQuoted(StringRef arg) {
  if (!arg.empty() &&
      arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") ==
          StringRef::npos)
    return arg.str();
  const bool control = llvm::any_of(arg, [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; });
  std::string out = control ? "$'" : "'";
  for (char c : arg) {
    if (!control) {
      out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    } else if (c == '\'' || c == '\\') {
      out += '\\';
      out += c;
    } else if ((unsigned char)c < 0x20 || c == 0x7f) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02x", (unsigned char)c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "'";
}

// --kernel, --const and --arg as a Specialization; 0, or the exit code of a bad option.
int parseSpecialization(Specialization &spec) {
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
  return 0;
}

// The file's kernels: its top-level @ct.kernel functions, then those defined in factories (by
// their qualified names).
std::vector<std::string> kernelsOf(const Module &module, const ImportedModules &imports, mlir::MLIRContext &context,
                                   DiagnosticEngine &diags) {
  std::vector<std::string> candidates, kernels;
  for (const FunctionDefStmt *fn : module.functions())
    candidates.push_back(fn->name);
  for (const FunctionRef &nested : module.nestedFunctions())
    candidates.push_back(nested.qualifiedName());
  for (const std::string &candidate : candidates)
    if (auto sig = inspectKernel(module, candidate, context, diags, &imports); sig && sig->isKernel)
      kernels.push_back(candidate);
  return kernels;
}

int finish(const DiagnosticEngine &diags) {
  diags.print(std::cerr);
  if (!diags.diagnostics().empty())
    std::cerr << diags.summary() << "\n";
  return diags.hasErrors() ? 1 : 0;
}

// The specialization the command line asks for (--kernel, --const, --arg, --config); 0, or
// the exit code of a bad command line.
int buildSpecialization(const Module &module, std::optional<unsigned> config, Specialization &spec) {
  if (kernelName.empty()) {
    std::string names;
    for (const FunctionDefStmt *fn : module.functions())
      names += (names.empty() ? "" : ", ") + fn->name;
    errs() << "tile-cc: error: no kernel selected; pass --kernel NAME"
           << (names.empty() ? "" : " (functions: " + names + ")") << "\n";
    return 2;
  }
  if (int rc = parseSpecialization(spec))
    return rc;
  spec.config = config;
  return 0;
}

// "sm_90a" -> (90, true); the architecture was checked by ptxFeatureFor.
std::pair<int, bool> archKey(const std::string &arch) {
  tile::rt::GpuArch parsed = tile::rt::GpuArch::parse(arch).value_or(tile::rt::GpuArch{});
  return {parsed.sm(), parsed.archSpecific};
}

// --emit=launcher: compiles the specialization (or every autotune configuration) for each
// --arch, plus PTX for newer devices, and writes NAME.h and NAME.cpp (Launcher.h). Both files
// or neither, like the cubin and its metadata.
int emitLauncher(const SourceFile &file, const Module &module, DiagnosticEngine &diags,
                 const std::vector<std::string> &archs, std::optional<unsigned> config, bool allConfigs,
                 int64_t numThreads, const std::string &commandLine) {
  if (metadataFile.getNumOccurrences() || ptxasVerbose)
    return usage(std::string(metadataFile.getNumOccurrences() ? "--metadata" : "--resource-usage") +
                 " is not for --emit=launcher (the metadata is embedded in the source)");
  if (outputFile == "-" || !StringRef(outputFile).ends_with(".h"))
    return usage("--emit=launcher needs -o NAME.h (it writes NAME.h and NAME.cpp)");
  const std::string headerPath = outputFile;
  const std::string sourcePath = StringRef(headerPath).drop_back(2).str() + ".cpp";
  const std::string headerName = sys::path::filename(headerPath).str();
  if (headerName.find_first_of("\"\\") != std::string::npos ||
      std::any_of(headerName.begin(), headerName.end(), [](char c) { return (unsigned char)c < 0x20; }))
    return usage("-o '" + headerPath +
                 "': the header's name cannot appear in an #include \"...\" line (a quote, "
                 "backslash or control character)");
  // Neither file may be an input: the kernel source or the tuning table.
  if (std::string clash =
          tile::tools::checkOutputs({{headerPath, "-o"}, {sourcePath, "the launcher source (from -o)"}},
                                    {{inputFile, "the input file"}, {tuningTable, "the --tuning-table file"}});
      !clash.empty())
    return usage(clash);
  std::string error;
  for (size_t i = 0; i < archs.size(); ++i) {
    if (tile::target::ptxFeatureFor(archs[i], error).empty())
      return usage("--arch: " + error);
    if (std::find(archs.begin(), archs.begin() + i, archs[i]) != archs.begin() + i)
      return usage("--arch " + archs[i] + " is given twice");
  }
  // PTX for devices newer than every --arch: the newest one, portable (no 'a' suffix).
  std::string ptx;
  if (ptxArch.getNumOccurrences()) {
    ptx = ptxArch == "none" ? "" : ptxArch.getValue();
    if (!ptx.empty() && tile::target::ptxFeatureFor(ptx, error).empty())
      return usage("--ptx-arch: " + error);
  } else {
    ptx = *std::max_element(archs.begin(), archs.end(),
                            [](const std::string &a, const std::string &b) { return archKey(a) < archKey(b); });
    if (archKey(ptx).second)
      ptx.pop_back();
  }
  const std::string name =
      launcherName.getNumOccurrences() ? launcherName.getValue() : kernelSymbolName(kernelName.getValue());
  for (const std::string &problem :
       {tile::tools::checkIdentifier(name, "--launcher-name", false),
        launcherNamespace.empty() ? std::string()
                                  : tile::tools::checkIdentifier(launcherNamespace, "--launcher-namespace", true)})
    if (!problem.empty())
      return usage(problem);

  Specialization spec;
  if (int rc = buildSpecialization(module, config, spec))
    return rc;
  std::vector<int> configs{config ? int(*config) : -1};
  if (!tuningTable.empty() && !allConfigs)
    return usage("--tuning-table picks among configurations: it needs --config all");
  if (allConfigs) {
    mlir::MLIRContext context;
    auto sig = inspectKernel(module, spec.kernel, context, diags, &imports);
    if (!sig)
      return finish(diags);
    if (sig->autotuneConfigs.empty())
      return usage("--config all: kernel '" + spec.kernel + "' has no @ct.autotune configurations");
    configs.clear();
    for (size_t i = 0; i < sig->autotuneConfigs.size(); ++i)
      configs.push_back(int(i));
  }

  // What to compile for: every --arch (cubins, or PTX with --ptx-only), then the PTX arch.
  std::vector<std::string> targets = archs;
  if (!ptx.empty() && std::find(targets.begin(), targets.end(), ptx) == targets.end())
    targets.push_back(ptx);
  std::vector<tile::tools::LauncherVariant> variants;
  for (int c : configs) {
    tile::tools::LauncherVariant variant;
    variant.config = c;
    spec.config = c >= 0 ? std::optional<unsigned>(unsigned(c)) : std::nullopt;
    std::vector<tile::tools::LauncherImage> ptxImages;
    for (const std::string &target : targets) {
      const bool wantCubin = !ptxOnly && std::find(archs.begin(), archs.end(), target) != archs.end();
      const bool wantPtx = ptxOnly || target == ptx;
      tile::driver::CompileOptions options;
      options.arch = target;
      options.importPath = importDirs;
      options.numThreads = numThreads;
      options.optLevel = static_cast<unsigned>(optLevel.getValue());
      options.pipelineStages = pipelineStages;
      options.ptxOnly = !wantCubin;
      tile::driver::CompiledKernel compiled;
      std::string diagnostics;
      if (!tile::driver::compileKernel(std::string(file.text()), file.name(), spec, options, compiled, diagnostics)) {
        errs() << diagnostics;
        if (!diagnostics.empty() && diagnostics.back() != '\n')
          errs() << "\n";
        return 1;
      }
      for (const std::string &warning : compiled.warnings)
        errs() << "tile-cc: warning: " << target << ": " << warning << "\n";
      if (wantCubin)
        variant.images.push_back({target, false, compiled.cubin, compiled.metadata});
      if (wantPtx)
        ptxImages.push_back({target, true, compiled.ptx, compiled.metadata});
    }
    variant.images.insert(variant.images.end(), ptxImages.begin(), ptxImages.end());
    if (!tile::tools::parseLauncherMetadata(variant, error)) {
      errs() << "tile-cc: error: " << error << "\n";
      return 1;
    }
    variants.push_back(std::move(variant));
  }

  // --tuning-table: the decisions tuned for this specialization (the key's fields as the
  // tuner spells them, TuneKey.h); the others are reported and left out.
  tile::tools::LauncherTuning tuning;
  if (!tuningTable.empty()) {
    mlir::MLIRContext context;
    auto sig = inspectKernel(module, spec.kernel, context, diags, &imports);
    if (!sig)
      return finish(diags);
    tile::tools::LauncherTuningSpec want;
    want.kernel = spec.kernel;
    want.sourceDigest = tile::jit::tuneSourceDigest(std::string(file.text()));
    std::set<std::string> tuned;
    for (size_t i = 0; i < sig->autotuneConfigs.size(); ++i) {
      std::string label;
      for (auto &[constant, value] : sig->autotuneConfigs[i]) {
        tuned.insert(constant);
        label += (label.empty() ? "" : " ") + constant + "=" + tile::frontend::formatConstant(value);
      }
      want.configLabels.push_back(label.empty() ? "config " + std::to_string(i) : label);
    }
    for (auto &[constant, value] : spec.constants)
      if (!tuned.count(constant))
        want.constants[constant] = std::to_string(value.index()) + ":" + tile::frontend::formatConstant(value);
    for (auto &[arg, type] : spec.args)
      want.args[arg] = tile::frontend::formatArgType(type);
    want.keyNames = sig->autotuneKey;
    std::vector<std::string> notes;
    if (!tile::tools::readLauncherTuning(tuningTable, want, tuning, notes, error)) {
      errs() << "tile-cc: error: --tuning-table " << error << "\n";
      return 1;
    }
    for (const std::string &note : notes)
      errs() << "tile-cc: warning: --tuning-table " << tuningTable << ": " << note << "\n";
    if (tuning.entries.empty())
      errs() << "tile-cc: warning: --tuning-table " << tuningTable << " holds no decision for kernel '" << spec.kernel
             << "' as specialized here; " << name << "_tuned_config returns its fallback\n";
  }

  tile::tools::LauncherOptions options;
  options.name = name;
  options.tuning = tuningTable.empty() ? nullptr : &tuning;
  options.nameSpace = launcherNamespace;
  options.headerName = headerName;
  options.command = commandLine;
  std::string header, source;
  tile::tools::writeLauncher(variants, options, header, source);
  std::string ioError;
  AtomicOutput headerOut, sourceOut;
  if (!headerOut.open(headerPath, ioError) || !sourceOut.open(sourcePath, ioError)) {
    errs() << "tile-cc: error: " << ioError << "\n";
    return 3;
  }
  headerOut.os() << header;
  sourceOut.os() << source;
  if (!headerOut.flush(ioError) || !sourceOut.flush(ioError) || !headerOut.keep(ioError) || !sourceOut.keep(ioError)) {
    errs() << "tile-cc: error: " << ioError << "\n";
    return 3;
  }
  return finish(diags);
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  tile::support::exitOnOutOfMemory("tile-cc"); // one line and exit code 3, not an abort
  std::string commandLine = "tile-cc";         // for the generated launcher's first comment
  for (int i = 1; i < argc; ++i)
    commandLine += " " + shellQuoted(argv[i]);
  // A file size limit (ulimit -f) then fails the write with EFBIG, reported as an I/O error
  // with the existing output untouched, instead of a signal.
  std::signal(SIGXFSZ, SIG_IGN);
  tile::codegen::registerDebugOptions(); // -debug-only=tile-assign-layouts,... (hidden)
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) { os << "tile-cc " TILE_CC_VERSION_STRING " (MLIR/LLVM 22)\n"; });
  if (!cl::ParseCommandLineOptions(argc, argv, "tile-cc: compiles tile kernels (cuTile syntax)\n", &llvm::errs()))
    return 2;
  if (std::string repeated = tile::support::findRepeatedOption(category); !repeated.empty())
    return usage(repeated);

  // Numbers are parsed strictly (llvm::cl would take "-1" as the int -1 and 0x10 as 16).
  std::string optionError;
  std::optional<int64_t> numThreadsValue = 0; // 0: tile-choose-threads chooses
  if (numThreadsText.getNumOccurrences())
    numThreadsValue = tile::tools::parseNumThreads(numThreadsText, optionError);
  if (!numThreadsValue)
    return usage(optionError);
  const int64_t numThreads = *numThreadsValue;
  auto stagesValue = tile::tools::parseInt(pipelineStagesText, 0, 8, "--pipeline-stages", optionError);
  if (!stagesValue)
    return usage(optionError);
  pipelineStages = *stagesValue;
  auto errorLimit =
      tile::tools::parseInt(errorLimitText, 0, std::numeric_limits<int32_t>::max(), "--error-limit", optionError);
  if (!errorLimit)
    return usage(optionError);
  std::optional<unsigned> config;
  // --config all (a launcher over every configuration) is not --all-configs (a package).
  const bool launcherForEveryConfig = configIndex == "all";
  if (launcherForEveryConfig && emit != EmitKind::Launcher)
    return usage("--config all is only for --emit=launcher");
  if (allConfigs && emit == EmitKind::Launcher)
    return usage("--all-configs builds a package; a launcher over every configuration is --config all");
  if (configIndex.getNumOccurrences() && !launcherForEveryConfig) {
    auto v = tile::tools::parseInt(configIndex, 0, std::numeric_limits<int32_t>::max(), "--config", optionError);
    if (!v)
      return usage(optionError);
    config = static_cast<unsigned>(*v);
  }

  std::vector<std::string> archs(archList.begin(), archList.end());
  if (archs.empty())
    archs.push_back("sm_90a");
  if (archs.size() > 1 && emit != EmitKind::Launcher)
    return usage("several --arch are only for --emit=launcher");
  const std::string arch = archs.front();
  if (emit != EmitKind::Launcher) {
    for (const cl::Option *o :
         std::initializer_list<const cl::Option *>{&launcherName, &launcherNamespace, &ptxArch, &ptxOnly, &tuningTable})
      if (o->getNumOccurrences())
        return usage("--" + o->ArgStr.str() + " is only for --emit=launcher");
  }

  // --timing: every stage of the compile under one report (printed on exit, to stderr): the
  // front end, each MLIR pass, LLVM's translation to PTX and ptxas.
  mlir::DefaultTimingManager timingManager;
  timingManager.setEnabled(timing);
  mlir::TimingScope rootTiming = timingManager.getRootScope();

  SourceManager sources;
  DiagnosticEngine diags(sources, static_cast<unsigned>(*errorLimit));
  std::string readError;
  mlir::TimingScope parseTiming = rootTiming.nest("front end: read and parse");
  const SourceFile *file = sources.addFile(inputFile, &readError);
  if (!file) {
    errs() << "tile-cc: error: " << readError << "\n";
    return 3;
  }

  std::unique_ptr<Module> module = parseModule(*file, diags, hostFileOptions());
  if (!diags.hasErrors())
    imports.load(*module, sources, diags, ImportOptions{importDirs});
  parseTiming.stop();
  if (diags.hasErrors())
    return finish(diags);

  // A file with one kernel compiles it without --kernel.
  if (kernelName.empty() && !listKernels) {
    mlir::MLIRContext context;
    std::vector<std::string> kernels = kernelsOf(*module, imports, context, diags);
    if (kernels.size() == 1)
      kernelName = kernels.front();
  }

  if (listKernels) {
    mlir::MLIRContext context;
    unsigned listed = 0;
    for (const std::string &kernel : kernelsOf(*module, imports, context, diags)) {
      auto sig = inspectKernel(*module, kernel, context, diags, &imports);
      if (!sig)
        continue;
      ++listed;
      outs() << sig->name << ":";
      for (const std::string &p : sig->constantParams)
        outs() << " " << p << "(const)";
      for (const std::string &p : sig->runtimeParams)
        outs() << " " << p;
      if (!sig->autotuneConfigs.empty())
        outs() << " [" << sig->autotuneConfigs.size() << " autotune configs]";
      outs() << "\n";
    }
    // A script that lists kernels to compile them must not mistake an empty list for success.
    if (listed == 0 && !diags.hasErrors()) {
      errs() << "tile-cc: error: " << inputFile
             << " has no kernel: no function at the module's top level, or defined directly in the body of "
                "one (a factory), is decorated with @ct.kernel\n";
      return 1;
    }
    return finish(diags);
  }

  if (allConfigs) {
    if (configIndex.getNumOccurrences())
      return usage("--all-configs builds every configuration; --config picks one");
    if (kernelName.empty())
      return usage("--all-configs needs --kernel NAME");
    if (outputFile == "-")
      return usage("--all-configs needs -o DIR, the package directory");
    const EmitKind kind = emit.getNumOccurrences() ? emit.getValue() : EmitKind::Cubin;
    if (kind != EmitKind::Cubin && kind != EmitKind::PTX)
      return usage("--all-configs builds --emit=cubin (the default for it) or --emit=ptx");
    std::string error;
    if (tile::target::ptxFeatureFor(arch, error).empty())
      return usage("--arch: " + error);
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    if (jobsText.getNumOccurrences()) {
      auto v = tile::tools::parseInt(jobsText, 1, 1024, "-j", optionError);
      if (!v)
        return usage(optionError);
      jobs = static_cast<unsigned>(*v);
    }
    tile::tools::AllConfigsRequest request;
    if (int rc = parseSpecialization(request.spec))
      return rc;
    mlir::MLIRContext context;
    auto sig = inspectKernel(*module, kernelName, context, diags, &imports);
    if (!sig)
      return finish(diags);
    if (!sig->isKernel || sig->autotuneConfigs.empty())
      return usage("--all-configs: '" + kernelName + "' has no @ct.autotune configurations");
    request.configs = sig->autotuneConfigs;
    request.source = std::string(file->text());
    request.fileName = inputFile;
    request.options.arch = arch;
    request.options.numThreads = numThreads;
    request.options.optLevel = static_cast<unsigned>(optLevel.getValue());
    request.options.pipelineStages = pipelineStages;
    request.options.keepPtx = true;
    request.options.importPath = importDirs;
    // --emit=ptx, or no ptxas: a PTX package (the driver compiles it when loading).
    request.options.ptxOnly = kind == EmitKind::PTX || tile::target::findPtxas().empty();
    request.jobs = jobs;
    request.outDir = outputFile;
    return tile::tools::buildAllConfigs(request);
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
  if (emit == EmitKind::Launcher)
    return emitLauncher(*file, *module, diags, archs, config, launcherForEveryConfig, numThreads, commandLine);
  {
    std::vector<tile::tools::NamedPath> outputs;
    if (outputFile != "-")
      outputs.push_back({outputFile, "-o"});
    if (!metaPath.empty())
      outputs.push_back({metaPath, "--metadata"});
    if (std::string clash = tile::tools::checkOutputs(outputs, {{inputFile, "the input file"}}); !clash.empty())
      return usage(clash);
  }

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

  Specialization spec;
  if (int rc = buildSpecialization(*module, config, spec))
    return rc;
  spec.arch = arch;

  mlir::MLIRContext context;
  mlir::TimingScope irgenTiming = rootTiming.nest("front end: tile IR generation");
  auto ir = compileToTileIR(*module, spec, context, diags, &imports);
  irgenTiming.stop();
  if (!ir)
    return finish(diags);
  if (diags.numWarnings() != 0) { // shown now: a successful compile prints nothing else
    finish(diags);
    diags.clear();
  }
  if (emit != EmitKind::Tile) {
    mlir::PassManager pm(&context);
    tile::pipeline::PipelineOptions options{static_cast<unsigned>(optLevel.getValue()), numThreads, arch,
                                            pipelineStages};
    if (emit == EmitKind::TileOpt)
      tile::pipeline::buildTileOptPipeline(pm, options);
    else if (emit == EmitKind::GPU)
      tile::pipeline::buildGpuPipeline(pm, options);
    else
      tile::pipeline::buildLLVMDialectPipeline(pm, options);
    mlir::TimingScope passTiming = rootTiming.nest("pass pipeline");
    if (timing)
      pm.enableTiming(passTiming);
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
    MLIRDiagnosticBridge bridge(context, diags, remarks);
    if (mlir::failed(pm.run(*ir)) || diags.hasErrors()) {
      if (!diags.hasErrors())
        diags.error(SourceRange(), "compilation failed in the pass pipeline");
      return finish(diags);
    }
  }
  if (emit >= EmitKind::LLVM) {
    tile::target::TargetOptions target{arch, optLevel == O0 ? 0u : 3u};
    std::string text, error;
    mlir::TimingScope llvmTiming = rootTiming.nest(emit == EmitKind::LLVM ? "LLVM IR" : "LLVM: IR and PTX");
    bool ok = emit == EmitKind::LLVM ? tile::target::translateToLLVMIR(*ir, target, text, error)
                                     : tile::target::translateToPTX(*ir, target, text, error);
    llvmTiming.stop();
    if (ok && emit == EmitKind::Cubin) {
      std::string cubin, report, metadata;
      mlir::TimingScope ptxasTiming = rootTiming.nest("ptxas");
      ok = tile::target::assembleCubin(text, arch, cubin, report, error) &&
           tile::target::kernelMetadata(*ir, arch, metadata, error);
      ptxasTiming.stop();
      if (ok && ptxasVerbose)
        errs() << report;
      if (std::string spill = tile::target::kernelSpillWarning(*ir, report); ok && !spill.empty())
        errs() << "tile-cc: warning: " << spill << "\n";
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
