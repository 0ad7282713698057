#include "runtime/jit/Jit.h"
#include "CompilerFingerprint.h" // generated (runtime/jit/CMakeLists.txt)
#include "runtime/jit/CompileWarnings.h"
#include "runtime/jit/Prebuilt.h"

#include "compiler/driver/Compile.h"
#include "compiler/frontend/Imports.h"
#include "compiler/target/NVPTX.h"
#include "runtime/File.h"
#include "runtime/GpuArch.h"

#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

namespace tile::jit {

/// Changes whenever the compiler's output for the same input may change.
// 2: .minnctapersm 1, 3: wgmma, 4: occupancy, atomics, scf.while, 5: pipelined loads,
// rematerialized broadcasts, accumulators stored from their fragments, 6: swizzled operand
// stages, 7: swizzled scratch operands in their own orientation, bound-free copies of tiles
// inside the array, room kept for loop-invariant operands, 8: aligned arguments, TMA copies,
// 9: stores of tiles inside the array without per-run bounds checks, 12: loads padded with
// other than zero pipelined (the padding selected from the stage), spill warnings on compile,
// 13: warp specialization (@ct.kernel(warp_specialize=True)) and its ping-pong order.
static constexpr const char *kCompilerVersion = "tile-cc 0.1.0 codegen/13";

const char *compilerVersion() { return kCompilerVersion; }

std::string archForComputeCapability(int major, int minor) {
  // Hopper gets its arch-specific features (wgmma); the architectures code generation knows
  // map to themselves, 8.7 and 8.x beyond to sm_80, 7.x to sm_70/sm_75, anything else to sm_90.
  if (major == 9 && minor == 0)
    return rt::GpuArch{9, 0, true}.name();
  if (major == 8)
    return rt::GpuArch{8, minor == 6 || minor == 9 ? minor : 0, false}.name();
  if (major == 7)
    return rt::GpuArch{7, minor >= 5 ? 5 : 0, false}.name();
  return rt::GpuArch{9, 0, false}.name();
}

std::string loadSource(const std::string &path) {
  try {
    return rt::readRegularFile(path, kMaxSourceBytes);
  } catch (const rt::Error &e) {
    throw rt::Error(rt::Error::Kind::Io, std::string("cannot read kernel source ") + e.what());
  }
}

std::string cacheKey(const KernelRequest &request, const JitOptions &options, const std::string &arch) {
  // Fields are length-prefixed so no two requests serialize alike.
  std::string text;
  auto add = [&](const std::string &field) { text += std::to_string(field.size()) + ":" + field + ";"; };
  add(kCompilerVersion);
  // The build's own sources too: kCompilerVersion is bumped by hand, and a build whose output
  // changed without a bump would otherwise load another build's cubins from a shared cache.
  add(TILE_COMPILER_FINGERPRINT);
  add(request.source);
  add(request.kernel);
  for (auto &[name, value] : request.constants) {
    add(name);
    add(std::to_string(value.index()) + frontend::formatConstant(value));
  }
  for (auto &[name, type] : request.args) {
    add(name);
    frontend::ArgType compiled = type;
    compiled.aligned &= options.alignedArgs;
    add(frontend::formatArgType(compiled));
  }
  add(request.config ? std::to_string(*request.config) : "-");
  add(arch);
  add(std::to_string(options.numThreads) + "/" + std::to_string(options.optLevel) + (options.usePtx ? "/ptx" : ""));
  if (options.pipelineStages > 0) // keys of the default (0, or -1 before it is resolved) stay as they were
    add("stages=" + std::to_string(options.pipelineStages));
  // The kernel modules the source imports, by name and contents (a source without them keeps
  // the key it had before imports were followed).
  auto imported = frontend::importedSources(request.source, request.fileName, {options.importPath});
  if (!imported.empty()) {
    add("imports/1");
    for (auto &[path, contents] : imported) {
      add(path);
      add(contents);
    }
  }
  auto hash = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  static const char *hex = "0123456789abcdef";
  std::string key;
  for (int i = 0; i < 16; ++i) { // 128 bits are plenty for a cache key
    key.push_back(hex[hash[i] >> 4]);
    key.push_back(hex[hash[i] & 15]);
  }
  return key;
}

Jit::Jit(rt::Device device, JitOptions options, DiskCache cache)
    : device_(std::move(device)), options_(std::move(options)), cache_(std::move(cache)) {
  arch_ = options_.arch.empty()
              ? archForComputeCapability(device_.computeCapabilityMajor(), device_.computeCapabilityMinor())
              : options_.arch;
  // Code generation knows targets up to Hopper; a newer device gets sm_90 PTX, which its driver
  // compiles (an sm_90 cubin from ptxas would not load there).
  if (options_.arch.empty() && device_.computeCapabilityMajor() > 9)
    options_.usePtx = true;
  if (options_.pipelineStages < 0)
    options_.pipelineStages = pipelineStagesFromEnvironment();
  if (const char *aligned = std::getenv("TILE_ALIGNED"); aligned && std::string(aligned) == "0")
    options_.alignedArgs = false;
  for (std::string &dir : kernelPathFromEnvironment())
    options_.importPath.push_back(std::move(dir));
  if (options_.pipelineStages > 8)
    throw rt::Error(rt::Error::Kind::InvalidArgument, "pipeline stages " + std::to_string(options_.pipelineStages) +
                                                          " must be 0 (from latency hints), 1 (off) or 2-8");
}

std::vector<std::string> kernelPathFromEnvironment() {
  std::vector<std::string> dirs;
  const char *v = std::getenv("TILE_KERNEL_PATH");
  std::string text = v ? v : "";
  for (size_t start = 0; start <= text.size();) {
    size_t colon = std::min(text.find(':', start), text.size());
    if (colon > start)
      dirs.push_back(text.substr(start, colon - start));
    start = colon + 1;
  }
  return dirs;
}

int64_t pipelineStagesFromEnvironment() {
  const char *v = std::getenv("TILE_PIPELINE_STAGES");
  if (!v || !*v)
    return 0;
  std::string text(v);
  if (text.size() == 1 && text[0] >= '0' && text[0] <= '8')
    return text[0] - '0';
  throw rt::Error(rt::Error::Kind::InvalidArgument,
                  "TILE_PIPELINE_STAGES='" + text + "' must be 0 (from latency hints), 1 (off) or 2-8");
}

Jit::Stats Jit::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

rt::Kernel Jit::load(const CacheEntry &entry, const std::string &origin) {
  rt::KernelMetadata metadata = rt::parseKernelMetadata(entry.metadata, origin);
  bool isElf = entry.binary.size() >= 4 && entry.binary.compare(0, 4,
                                                                "\x7f"
                                                                "ELF") == 0;
  rt::Module module = isElf ? rt::Module::fromCubin(device_, entry.binary.data(), entry.binary.size())
                            : rt::Module::fromPtx(device_, entry.binary);
  return module.kernel(metadata);
}

rt::Kernel Jit::compile(const KernelRequest &request) {
  // Only rt::Error leaves the public API (bad_alloc on an absurd module, say).
  try {
    return compileOrLoad(request);
  } catch (const rt::Error &) {
    throw;
  } catch (const std::bad_alloc &) {
    throw rt::Error(rt::Error::Kind::InvalidArgument, "compile of '" + request.kernel + "': out of host memory");
  } catch (const std::exception &e) {
    throw rt::Error(rt::Error::Kind::InvalidArgument, "compile of '" + request.kernel + "': " + e.what());
  }
}

std::optional<rt::Kernel> Jit::lookup(const std::string &key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = memory_.find(key); it != memory_.end()) {
      ++stats_.memoryHits;
      return it->second;
    }
  }
  auto warn = [this](const std::string &message) {
    std::cerr << message << "\n";
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.corruptEntries;
  };
  if (std::optional<rt::Kernel> kernel = lookupPrebuilt(key, warn))
    return kernel;
  if (auto entry = cache_.load(key, warn)) {
    try {
      return remember(key, load(*entry, cache_.pathFor(key)), &Stats::diskHits);
    } catch (const rt::Error &e) {
      if (e.noGpu())
        throw;
      // A well-formed entry the driver refuses is as good as corrupt: rebuild it.
      warn("tile-cc cache: ignoring unusable entry " + cache_.pathFor(key) + " (" + e.what() + "); recompiling");
      cache_.remove(key);
    } catch (const std::exception &e) { // bad_alloc on an absurd entry, say: still a rebuild
      warn("tile-cc cache: ignoring unusable entry " + cache_.pathFor(key) + " (" + e.what() + "); recompiling");
      cache_.remove(key);
    }
  }
  return std::nullopt;
}

std::optional<rt::Kernel> Jit::lookupPrebuilt(const std::string &key,
                                              const std::function<void(const std::string &)> &warn) {
  std::optional<PrebuiltRecord> record = findPrebuilt(key, warn);
  if (!record)
    return std::nullopt;
  if (!record->entry) // what compiling it said when the library was built: the same again
    throw rt::Error(rt::Error::Kind::InvalidArgument, record->error);
  try {
    return remember(key, load(*record->entry, "prebuilt kernel " + key), &Stats::prebuiltHits);
  } catch (const rt::Error &e) {
    if (e.noGpu())
      throw;
    warn("tile-cc: ignoring the prebuilt kernel " + key + " (" + e.what() + "); compiling it");
  }
  return std::nullopt;
}

CacheEntry Jit::build(const KernelRequest &request, std::vector<std::string> &warnings) const {
  return buildEntry(request, options_, arch_, warnings);
}

CacheEntry buildEntry(const KernelRequest &request, const JitOptions &options, const std::string &arch,
                      std::vector<std::string> &warnings) {
  driver::CompileOptions compileOptions;
  compileOptions.arch = arch;
  compileOptions.numThreads = options.numThreads;
  compileOptions.optLevel = options.optLevel;
  compileOptions.pipelineStages = std::max<int64_t>(options.pipelineStages, 0);
  compileOptions.importPath = options.importPath;
  // Without ptxas, hand PTX to the driver's JIT.
  compileOptions.ptxOnly = options.usePtx || target::findPtxas().empty();
  frontend::Specialization spec;
  spec.kernel = request.kernel;
  spec.constants = request.constants;
  spec.args = request.args;
  if (!options.alignedArgs)
    for (auto &[name, type] : spec.args)
      type.aligned = false;
  spec.config = request.config;
  spec.arch = arch;
  driver::CompiledKernel compiled;
  std::string diagnostics;
  if (!driver::compileKernel(request.source, request.fileName, spec, compileOptions, compiled, diagnostics))
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    "cannot compile kernel '" + request.kernel + "':\n" + diagnostics);
  warnings = std::move(compiled.warnings);
  return CacheEntry{compiled.metadata, compiled.cubin.empty() ? compiled.ptx : compiled.cubin};
}

rt::Kernel Jit::install(const std::string &key, const CacheEntry &entry, const std::string &origin) {
  rt::Kernel kernel = load(entry, origin);
  // A cache that cannot store only costs the next process a compile: warnings, never errors.
  cache_.storeOrWarn(key, entry, [](const std::string &message) { std::cerr << message << "\n"; });
  return remember(key, kernel, &Stats::compiles);
}

rt::Kernel Jit::remember(const std::string &key, rt::Kernel kernel, unsigned Stats::*counter) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++(stats_.*counter);
  memory_.emplace(key, kernel);
  return kernel;
}

rt::Kernel Jit::compileOrLoad(const KernelRequest &request) {
  std::string key = cacheKey(request, options_, arch_);
  if (std::optional<rt::Kernel> cached = lookup(key))
    return *cached;
  std::vector<std::string> warnings;
  CacheEntry entry = build(request, warnings);
  for (const std::string &line : compileWarningLines({request}, {0}, {warnings}))
    std::cerr << line << "\n";
  return install(key, entry, request.fileName);
}

// What one request became: an rt::Error's message, or any other exception as compile() words it.
static std::string messageOf(const std::exception_ptr &error, const std::string &kernel) {
  try {
    std::rethrow_exception(error);
  } catch (const rt::Error &e) {
    return e.what();
  } catch (const std::bad_alloc &) {
    return "compile of '" + kernel + "': out of host memory";
  } catch (const std::exception &e) {
    return "compile of '" + kernel + "': " + e.what();
  }
}

std::vector<CompileOutcome> Jit::compileEach(const std::vector<KernelRequest> &requests, unsigned threads) {
  std::vector<std::optional<rt::Kernel>> kernels(requests.size());
  std::vector<std::exception_ptr> errors(requests.size());
  std::vector<std::string> keys;
  std::vector<size_t> misses;
  for (size_t i = 0; i < requests.size(); ++i) {
    try {
      keys.push_back(cacheKey(requests[i], options_, arch_));
      // The same request twice compiles once: the later one finds the first in memory.
      bool duplicate = std::find(keys.begin(), keys.end() - 1, keys.back()) != keys.end() - 1;
      if (!duplicate && !(kernels[i] = lookup(keys[i])))
        misses.push_back(i);
    } catch (const rt::Error &e) {
      if (e.noGpu())
        throw;
      errors[i] = std::current_exception();
    }
  }
  // Compile the misses concurrently: each compile has its own MLIR context; only the driver
  // calls (load, in install) need the calling thread, which holds the CUDA context.
  std::vector<std::optional<CacheEntry>> built(requests.size());
  std::vector<std::vector<std::string>> warnings(requests.size());
  unsigned workers = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min<unsigned>(workers, static_cast<unsigned>(misses.size()));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t m; (m = next.fetch_add(1)) < misses.size();) {
      size_t i = misses[m];
      try {
        built[i] = build(requests[i], warnings[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
  for (const std::string &line : compileWarningLines(requests, misses, warnings))
    std::cerr << line << "\n";
  std::vector<CompileOutcome> result(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    if (!errors[i]) {
      try {
        if (built[i])
          kernels[i] = install(keys[i], *built[i], requests[i].fileName);
        else if (!kernels[i])
          kernels[i] = compileOrLoad(requests[i]); // a duplicate of an earlier request: in memory now
      } catch (const rt::Error &e) {
        if (e.noGpu())
          throw;
        errors[i] = std::current_exception();
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
    if (errors[i]) {
      result[i].error = messageOf(errors[i], requests[i].kernel);
      result[i].exception = errors[i];
    } else
      result[i].kernel = std::move(kernels[i]);
  }
  return result;
}

std::vector<rt::Kernel> Jit::compileAll(const std::vector<KernelRequest> &requests, unsigned threads) {
  try {
    std::vector<rt::Kernel> result;
    for (CompileOutcome &outcome : compileEach(requests, threads)) {
      if (!outcome.kernel)
        std::rethrow_exception(outcome.exception);
      result.push_back(std::move(*outcome.kernel));
    }
    return result;
  } catch (const rt::Error &) {
    throw;
  } catch (const std::bad_alloc &) {
    throw rt::Error(rt::Error::Kind::InvalidArgument, "compiling kernels: out of host memory");
  } catch (const std::exception &e) {
    throw rt::Error(rt::Error::Kind::InvalidArgument, std::string("compiling kernels: ") + e.what());
  }
}

} // namespace tile::jit
