// The in-process JIT: compile a kernel from source for the current device, cached in memory
// and on disk, and get a launchable tile::rt::Kernel.
//
//   tile::rt::Device device;
//   tile::jit::Jit jit(device);
//   tile::jit::KernelRequest request;
//   request.source = "...";                       // or loadSource("kernel.py")
//   request.kernel = "scale_rows";
//   request.constants = {{"TM", int64_t(64)}};
//   request.args = {{"x", {"float32", 2}}, ...};
//   tile::rt::Kernel k = jit.compile(request);    // compiles once, then hits the caches
//   tile::rt::launch(k, grid, {...});
//
// Unlike the runtime core, this layer links the compiler (MLIR/LLVM).
#pragma once

#include "compiler/frontend/Specialization.h"
#include "runtime/Runtime.h"
#include "runtime/jit/DiskCache.h"

#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tile::jit {

struct KernelRequest {
  std::string source;
  /// Used in diagnostics; when it names the file on disk, kernel modules the source imports
  /// are read beside it (frontend/Imports.h).
  std::string fileName = "<source>";
  std::string kernel;
  std::map<std::string, frontend::ConstantValue> constants;
  std::map<std::string, frontend::ArgType> args;
  std::optional<unsigned> config; // @ct.autotune configuration
};

struct JitOptions {
  /// Target; empty picks the device's (sm_90a on Hopper, sm_80 on Ampere, ...).
  std::string arch;
  int64_t numThreads = 0; // threads per block; 0: the compiler chooses from the kernel's tiles
  unsigned optLevel = 2;
  /// Load PTX through the driver's JIT instead of a ptxas cubin (also the fallback when
  /// ptxas is not installed, and what a device newer than Hopper gets when `arch` is empty).
  bool usePtx = false;
  /// Stages of loops whose loads are copied ahead (tile-pipeline-loops): 0 derives them from
  /// the latency hints, 1 turns pipelining off, 2-8 forces that many; -1 (the default) takes
  /// TILE_PIPELINE_STAGES from the environment, else 0.
  int64_t pipelineStages = -1;
  /// Whether requests keep their arrays' aligned facts (frontend::ArgType::aligned: no
  /// alignment checks, TMA copies); false compiles every array as a plain one (TILE_ALIGNED=0
  /// in the environment: a switch for comparisons and for ruling TMA out).
  bool alignedArgs = true;
  /// Directories searched for the kernel modules a source imports (`import helpers`), after
  /// the directory of KernelRequest::fileName; the Jit appends TILE_KERNEL_PATH's.
  std::vector<std::string> importPath;
};

/// The directories of TILE_KERNEL_PATH (separated by ':'; empty entries skipped).
std::vector<std::string> kernelPathFromEnvironment();

/// TILE_PIPELINE_STAGES (0-8) when set, else 0; Error(InvalidArgument) for another value.
int64_t pipelineStagesFromEnvironment();

/// The architecture tile-cc targets for a compute capability; newer GPUs get sm_90 PTX, which
/// the driver compiles for them.
std::string archForComputeCapability(int major, int minor);

/// Kernel sources larger than this are refused (the front end keeps every line in memory).
inline constexpr uint64_t kMaxSourceBytes = 64u << 20;

/// The text of a kernel source file (Error(Io) when missing, unreadable, not a regular file or
/// larger than kMaxSourceBytes).
std::string loadSource(const std::string &path);

/// The compiler's version string: part of every cache and tuning key.
const char *compilerVersion();

/// What compiling one request of compileEach gave: the kernel, or the error's message.
struct CompileOutcome {
  std::optional<rt::Kernel> kernel;
  std::string error;            // set when kernel is empty
  std::exception_ptr exception; // what compile() would have thrown
};

/// The cache key of a request: a hash of everything that changes the compiled code, the
/// kernel modules the source imports included (their names and contents, read from disk:
/// beside request.fileName and on options.importPath).
std::string cacheKey(const KernelRequest &request, const JitOptions &options, const std::string &arch);

/// Compiles `request` for `arch` as a Jit with `options` would (no device, no caches; safe on
/// any thread): its cache entry, and what the compile warned of in `warnings`. A compile error
/// throws rt::Error(InvalidArgument) with the diagnostics. Options are taken as given
/// (`pipelineStages` -1 counts as 0; the environment is not read).
CacheEntry buildEntry(const KernelRequest &request, const JitOptions &options, const std::string &arch,
                      std::vector<std::string> &warnings);

class Jit {
public:
  explicit Jit(rt::Device device, JitOptions options = {}, DiskCache cache = DiskCache::fromEnvironment());

  /// The kernel for `request`: from the in-memory cache, else the kernels prebuilt into a
  /// library (Prebuilt.h), else the disk cache, else compiled.
  /// A compile error throws rt::Error(InvalidArgument) whose message holds the diagnostics.
  rt::Kernel compile(const KernelRequest &request);

  /// compile() for each request, in order, with the ones that neither cache holds compiled
  /// concurrently (front end, passes, LLVM and ptxas on up to `threads` worker threads, 0: one
  /// per hardware thread); loading into the driver stays on the calling thread. The first
  /// failing request (in order) throws after every compile has finished.
  std::vector<rt::Kernel> compileAll(const std::vector<KernelRequest> &requests, unsigned threads = 0);
  /// compileAll() that does not stop at a failure: each request gets its kernel or its error
  /// (the autotuner skips the configurations that do not compile, saying why).
  std::vector<CompileOutcome> compileEach(const std::vector<KernelRequest> &requests, unsigned threads = 0);

  struct Stats {
    unsigned memoryHits = 0, prebuiltHits = 0, diskHits = 0, compiles = 0, corruptEntries = 0;
  };
  Stats stats() const;
  const std::string &arch() const { return arch_; }
  const JitOptions &options() const { return options_; }
  const DiskCache &diskCache() const { return cache_; }
  const rt::Device &device() const { return device_; }

private:
  rt::Kernel compileOrLoad(const KernelRequest &request);
  /// The kernel of `key` from memory, the prebuilt kernels (Prebuilt.h) or the disk cache, if
  /// one has it; a key the prebuilt kernels know not to compile throws its compile error.
  std::optional<rt::Kernel> lookup(const std::string &key);
  std::optional<rt::Kernel> lookupPrebuilt(const std::string &key,
                                           const std::function<void(const std::string &)> &warn);
  /// Compiles `request` without touching the caches or the driver (safe on any thread); what
  /// the compile warns of goes to `warnings`, for the caller to show.
  CacheEntry build(const KernelRequest &request, std::vector<std::string> &warnings) const;
  /// Loads a built entry, stores it on disk and in memory.
  rt::Kernel install(const std::string &key, const CacheEntry &entry, const std::string &origin);
  rt::Kernel load(const CacheEntry &entry, const std::string &origin);
  /// Keeps a loaded kernel in memory under `key` and counts where it came from.
  rt::Kernel remember(const std::string &key, rt::Kernel kernel, unsigned Stats::*counter);

  rt::Device device_;
  JitOptions options_;
  DiskCache cache_;
  std::string arch_;
  mutable std::mutex mutex_;
  std::map<std::string, rt::Kernel> memory_;
  Stats stats_;
};

} // namespace tile::jit
