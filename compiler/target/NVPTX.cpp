#include "compiler/target/NVPTX.h"
#include "compiler/target/MetadataCheck.h"
#include "compiler/target/PtxasReport.h"
#include "runtime/GpuArch.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <mutex>

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace tile::target {

std::string ptxFeatureFor(const std::string &chip, std::string &error) {
  // The oldest PTX ISA version that knows each chip (LLVM aborts on a mismatch), except sm_90:
  // its bulk tensor copies and proxy fences need PTX 8.0 (with 7.8 LLVM cannot select
  // fence.proxy.async and aborts).
  static const std::pair<int, const char *> chips[] = {{70, "+ptx60"}, {75, "+ptx63"}, {80, "+ptx70"},
                                                       {86, "+ptx71"}, {89, "+ptx78"}, {90, "+ptx80"}};
  if (std::optional<rt::GpuArch> arch = rt::GpuArch::parse(chip); arch && (!arch->archSpecific || arch->sm() == 90))
    for (auto &[sm, feature] : chips)
      if (arch->sm() == sm)
        return feature;
  error = "unsupported target '" + chip + "' (expected sm_70, sm_75, sm_80, sm_86, sm_89, sm_90 or sm_90a)";
  return "";
}

static std::unique_ptr<llvm::TargetMachine> createTargetMachine(const TargetOptions &options, std::string &error) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit shared-memory pointers: every shared address then takes one register instead of
    // two, and LLVM hoists dozens of them out of a kernel's loops (the per-register addresses
    // of layout conversions), so this halves what they cost in registers. Shared memory is at
    // most 228 KB, so 32 bits always hold an address.
    auto &registered = llvm::cl::getRegisteredOptions();
    auto shortPointers = registered.find("nvptx-short-ptr");
    if (shortPointers != registered.end())
      static_cast<llvm::cl::opt<bool> *>(shortPointers->second)->setValue(true);
  });
  std::string feature = ptxFeatureFor(options.chip, error);
  if (feature.empty())
    return nullptr;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::TargetMachine>(
      target->createTargetMachine(triple, options.chip, feature, llvm::TargetOptions(), llvm::Reloc::PIC_));
}

// Translates to LLVM IR for the target and runs LLVM's optimization pipeline on it.
static std::unique_ptr<llvm::Module> optimizedLLVM(mlir::ModuleOp module, const TargetOptions &options,
                                                   llvm::LLVMContext &context, llvm::TargetMachine &tm,
                                                   std::string &error) {
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);
  // Translate under the target's data layout: accesses without an explicit alignment get the
  // ABI alignment it gives (the default layout aligns i64 to 4 bytes, so NVPTX would split
  // every i64 access into two 32-bit ones).
  module->setAttr(mlir::LLVM::LLVMDialect::getDataLayoutAttrName(),
                  mlir::StringAttr::get(module->getContext(), tm.createDataLayout().getStringRepresentation()));
  std::unique_ptr<llvm::Module> llvmModule = mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return nullptr;
  }
  llvmModule->setTargetTriple(tm.getTargetTriple());
  llvmModule->setDataLayout(tm.createDataLayout());
  if (auto err = mlir::makeOptimizingTransformer(options.optLevel, 0, &tm)(llvmModule.get())) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  return llvmModule;
}

bool translateToLLVMIR(mlir::ModuleOp module, const TargetOptions &options, std::string &llvmIR, std::string &error) {
  auto tm = createTargetMachine(options, error);
  llvm::LLVMContext context;
  auto llvmModule = tm ? optimizedLLVM(module, options, context, *tm, error) : nullptr;
  if (!llvmModule)
    return false;
  llvm::raw_string_ostream os(llvmIR);
  llvmModule->print(os, nullptr);
  return true;
}

bool translateToPTX(mlir::ModuleOp module, const TargetOptions &options, std::string &ptx, std::string &error) {
  auto tm = createTargetMachine(options, error);
  llvm::LLVMContext context;
  auto llvmModule = tm ? optimizedLLVM(module, options, context, *tm, error) : nullptr;
  if (!llvmModule)
    return false;
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
    error = "the NVPTX back end cannot emit assembly";
    return false;
  }
  pm.run(*llvmModule);
  ptx = buffer.str().str();
  return true;
}

std::string findPtxas() {
  if (const char *env = std::getenv("TILE_PTXAS"))
    return env;
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

// The kernel a PTX module defines, for ptxas's errors: "kernel 'mm'" (its .entry without the
// lowering's __tile suffix), or "the kernel" when there is none.
static std::string ptxKernelName(llvm::StringRef ptx) {
  size_t at = ptx.find(".entry ");
  if (at == llvm::StringRef::npos)
    return "the kernel";
  llvm::StringRef name = ptx.drop_front(at + 7).take_until([](char c) { return c == '(' || llvm::isSpace(c); });
  name.consume_back("__tile");
  return "kernel '" + name.str() + "'";
}

bool assembleCubin(const std::string &ptx, const std::string &chip, std::string &cubin, std::string &report,
                   std::string &error) {
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    error = "ptxas not found (set TILE_PTXAS or install the CUDA toolkit at /usr/local/cuda); "
            "use --emit=ptx to stop before assembling";
    return false;
  }
  llvm::SmallString<128> in, out, log;
  if (llvm::sys::fs::createTemporaryFile("tile", "ptx", in) ||
      llvm::sys::fs::createTemporaryFile("tile", "cubin", out) ||
      llvm::sys::fs::createTemporaryFile("tile", "log", log)) {
    error = "cannot create temporary files for ptxas";
    return false;
  }
  auto cleanup = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(in);
    llvm::sys::fs::remove(out);
    llvm::sys::fs::remove(log);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    if (ec) {
      error = "cannot write " + in.str().str() + ": " + ec.message();
      return false;
    }
    os << ptx;
  }
  std::string arch = "-arch=" + chip;
  // -v always: the report is how a spilling kernel is noticed (PtxasReport.h).
  llvm::SmallVector<llvm::StringRef> args = {ptxas, arch, "-O3", "-v", in, "-o", out};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &execError);
  auto logText = llvm::MemoryBuffer::getFile(log);
  report = logText ? (*logText)->getBuffer().str() : "";
  if (rc != 0) {
    error = "ptxas failed on " + ptxKernelName(ptx) + " (" +
            (execError.empty() ? "exit code " + std::to_string(rc) : execError) + "):\n" + report +
            "reproduce with: " + ptxas + " " + arch + " -O3 kernel.ptx (write it with --emit=ptx)";
    return false;
  }
  auto binary = llvm::MemoryBuffer::getFile(out, /*IsText=*/false);
  if (!binary) {
    error = "ptxas produced no cubin";
    return false;
  }
  // The output file exists before ptxas runs (a temporary file): a ptxas (or TILE_PTXAS
  // wrapper) that exits 0 without writing leaves it empty, which is no cubin.
  llvm::StringRef bytes = (*binary)->getBuffer();
  if (!bytes.starts_with("\x7f"
                         "ELF")) {
    error =
        ptxas + " exited 0 but wrote " +
        (bytes.empty() ? std::string("nothing") : std::to_string(bytes.size()) + " bytes that are not an ELF file") +
        " as the cubin" + (report.empty() ? "" : ":\n" + report);
    return false;
  }
  cubin = bytes.str();
  return true;
}

std::string kernelSpillWarning(mlir::ModuleOp module, const std::string &report) {
  ResourceUsage usage = parsePtxasReport(report);
  if (!usage.spills())
    return "";
  for (auto fn : module.getOps<mlir::LLVM::LLVMFuncOp>())
    if (auto name = fn->getAttrOfType<mlir::StringAttr>("tile.name")) {
      auto threads = fn->getAttrOfType<mlir::IntegerAttr>("tile.num_threads");
      auto most = fn->getAttrOfType<mlir::IntegerAttr>("tile.max_useful_threads");
      return spillWarning(name.getValue(), threads ? threads.getInt() : 0, usage, most ? most.getInt() : 1024);
    }
  return spillWarning("?", 0, usage);
}

bool kernelMetadata(mlir::ModuleOp module, const std::string &chip, std::string &json, std::string &error) {
  for (auto fn : module.getOps<mlir::LLVM::LLVMFuncOp>()) {
    auto name = fn->getAttrOfType<mlir::StringAttr>("tile.name");
    if (!name)
      continue;
    llvm::json::Object root;
    root["format"] = "tile-kernel/1";
    root["kernel"] = fn.getSymName().str();
    root["name"] = name.str();
    root["arch"] = chip;
    root["threads_per_block"] = fn->getAttrOfType<mlir::IntegerAttr>("tile.num_threads").getInt();
    root["dynamic_shared_memory"] = fn->getAttrOfType<mlir::IntegerAttr>("tile.shared_bytes").getInt();
    root["cluster"] = llvm::json::Array{1, 1, 1};
    if (auto minCtas = fn->getAttrOfType<mlir::IntegerAttr>(mlir::NVVM::NVVMDialect::getMinctasmAttrName()))
      root["occupancy"] = minCtas.getInt();
    if (auto clusterSize = fn->getAttrOfType<mlir::IntegerAttr>("tile.preferred_cluster_size"))
      root["preferred_cluster_size"] = clusterSize.getInt();
    if (fn->hasAttr("tile.programmatic_launch"))
      root["programmatic_dependent_launch"] = true;
    llvm::json::Object constants;
    if (auto dict = fn->getAttrOfType<mlir::DictionaryAttr>("tile.constants"))
      for (mlir::NamedAttribute c : dict) {
        if (auto b = llvm::dyn_cast<mlir::BoolAttr>(c.getValue()))
          constants[c.getName().str()] = b.getValue();
        else if (auto i = llvm::dyn_cast<mlir::IntegerAttr>(c.getValue()))
          constants[c.getName().str()] = i.getInt();
        else if (auto f = llvm::dyn_cast<mlir::FloatAttr>(c.getValue()))
          constants[c.getName().str()] = f.getValueAsDouble();
      }
    root["constants"] = std::move(constants);
    llvm::json::Array params;
    for (mlir::Attribute p : fn->getAttrOfType<mlir::ArrayAttr>("tile.params")) {
      auto dict = llvm::cast<mlir::DictionaryAttr>(p);
      llvm::json::Object param;
      param["name"] = dict.getAs<mlir::StringAttr>("name").str();
      param["kind"] = dict.getAs<mlir::StringAttr>("kind").str();
      param["dtype"] = dict.getAs<mlir::StringAttr>("dtype").str();
      if (auto rank = dict.getAs<mlir::IntegerAttr>("rank")) {
        param["rank"] = rank.getInt();
        // An aligned argument's promise (16-byte base and strides, unit last stride) is
        // checked at launch; other arrays need only the natural alignment of an element.
        bool aligned = bool(dict.get("aligned"));
        param["alignment"] = aligned ? 16 : 1;
        param["unit_stride_last"] = aligned;
      }
      params.push_back(std::move(param));
    }
    root["params"] = std::move(params);
    llvm::json::Array tma;
    if (auto maps = fn->getAttrOfType<mlir::ArrayAttr>("tile.tma"))
      for (mlir::Attribute a : maps) {
        auto map = llvm::cast<mlir::DictionaryAttr>(a);
        llvm::json::Object entry;
        entry["param"] = map.getAs<mlir::StringAttr>("param").str();
        llvm::json::Array box;
        for (int64_t d : map.getAs<mlir::DenseI64ArrayAttr>("box").asArrayRef())
          box.push_back(d);
        entry["box"] = std::move(box);
        int64_t swizzle = map.getAs<mlir::IntegerAttr>("swizzle").getInt();
        entry["swizzle"] = swizzle ? std::to_string(swizzle) + "B" : "none";
        entry["l2_promotion"] = "128B";
        entry["oob_fill"] = map.getAs<mlir::BoolAttr>("nan_fill").getValue() ? "nan" : "zero";
        tma.push_back(std::move(entry));
      }
    root["tma"] = std::move(tma);
    json.clear();
    llvm::raw_string_ostream os(json);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
    if (std::string why = metadataMismatch(fn, json); !why.empty()) {
      error = "internal error: the launch metadata of kernel '" + name.str() + "' does not describe its code: " + why;
      return false;
    }
    return true;
  }
  error = "the module holds no lowered kernel";
  return false;
}

} // namespace tile::target
