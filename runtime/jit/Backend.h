// One launch API over two backends: the GPU (kernels compiled by the JIT and launched through
// the CUDA driver) and the interpreter (the same kernels' tile IR run on the CPU over host
// memory). An application or test written against Backend runs on either without code
// changes; which one it gets is chosen when the Backend is made:
//
//   tile::jit::Backend backend;                    // Auto: the GPU if there is one, unless
//                                                  // TILE_INTERPRET is set; else the interpreter
//   std::printf("running on %s\n", backend.description().c_str());
//   tile::jit::KernelHandle k = backend.compile(request);          // a jit::KernelRequest
//   tile::jit::Buffer x = backend.upload(hostX), out = backend.allocate(n * sizeof(float));
//   backend.launch(k, tile::rt::Grid(n / 1024), {x.array(tile::rt::DType::Float32, {n}),
//                                                out.array(tile::rt::DType::Float32, {n}), 2.0f});
//   std::vector<float> r = out.toHost<float>();
//
// Launches take the runtime's own types (rt::Grid, rt::Arg: ArrayArg, DLPack tensors, typed
// scalars) and are checked the same way on both backends, with the same messages naming the
// parameter. On the interpreter, an array must live in a Buffer of this backend (or be a CPU
// DLPack tensor): its allocation bounds every access, so an out-of-bounds store stops the
// launch with the kernel's source location instead of corrupting memory.
#pragma once

#include "runtime/jit/Buffer.h"
#include "runtime/jit/Jit.h"
#include "runtime/jit/Tuner.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tile::jit {

enum class BackendKind { Gpu, Interpreter };
/// "GPU", "interpreter".
const char *backendName(BackendKind kind);

struct BackendOptions {
  enum class Choice {
    Auto,        // the interpreter when TILE_INTERPRET is set or no GPU is usable, else the GPU
    Gpu,         // the GPU or an rt::Error (NoDriver/NoDevice) saying why not
    Interpreter, // always the interpreter
  };
  Choice choice = Choice::Auto;
  int deviceOrdinal = 0;
  JitOptions jit;                     // GPU: target, threads, PTX path
  std::optional<DiskCache> diskCache; // GPU: default DiskCache::fromEnvironment()
  /// The autotuner's knobs; default TuneSettings::fromEnvironment(). The interpreter never
  /// times (a CPU's timings say nothing of a GPU's): it runs the first configuration unless
  /// a forcing rule picks another.
  std::optional<TuneSettings> tuning;
};

namespace detail {
struct KernelState;
class BackendImpl;
} // namespace detail

/// A compiled kernel, launchable on the Backend that compiled it. Copies share it.
class KernelHandle {
public:
  /// The kernel's name in the source.
  const std::string &name() const;
  /// Its parameters in order (name; array with dtype and rank, or scalar with dtype).
  const std::vector<rt::ParamInfo> &params() const;
  BackendKind backend() const;

private:
  friend class Backend;
  friend class detail::BackendImpl;
  explicit KernelHandle(std::shared_ptr<const detail::KernelState> state) : state_(std::move(state)) {}
  std::shared_ptr<const detail::KernelState> state_;
};

/// A point in the work of a stream, for timing launches: a recorded CUDA event on the GPU; the
/// host clock on the interpreter, whose launches are done when launch() returns.
class TimePoint {
public:
  /// Milliseconds from `start` to `end` (waits for `end` on the GPU).
  static double elapsedMs(const TimePoint &start, const TimePoint &end);

private:
  friend class detail::BackendImpl;
  std::shared_ptr<rt::Event> event_;
  std::chrono::steady_clock::time_point host_;
};

class KernelHandle;
/// One request of Backend::tryCompileAll: its kernel, or why it does not compile.
struct CompileAttempt;

class Backend {
public:
  explicit Backend(const BackendOptions &options = {});

  BackendKind kind() const;
  bool onGpu() const { return kind() == BackendKind::Gpu; }
  /// Why this backend: "TILE_INTERPRET is set", "no GPU: <the driver's reason>", "requested",
  /// "a GPU is available".
  const std::string &reason() const;
  /// "the GPU (NVIDIA H200, sm_90a)" or "the interpreter (TILE_INTERPRET is set)", for logs.
  std::string description() const;

  /// Compiles `request` (GPU: through the JIT's memory and disk caches; interpreter: to tile IR,
  /// once per process). A compile error throws rt::Error(InvalidArgument) with the diagnostics.
  KernelHandle compile(const KernelRequest &request);
  /// compile() of each request, in order; on the GPU the requests that no cache holds are
  /// compiled concurrently (one worker per hardware thread), so several kernels cost about as
  /// much as the slowest. Throws for the first failing request, naming it.
  std::vector<KernelHandle> compileAll(const std::vector<KernelRequest> &requests);
  /// compileAll() that does not stop at a failure: each request gets its kernel or its
  /// error (what the autotuner needs to skip configurations that do not compile).
  std::vector<CompileAttempt> tryCompileAll(const std::vector<KernelRequest> &requests);

  /// `bytes` of uninitialised memory (the interpreter fills it with 0xff bytes: NaN floats).
  Buffer allocate(std::size_t bytes);
  /// A buffer holding a copy of host memory.
  Buffer upload(const void *data, std::size_t bytes);
  template <typename T> Buffer upload(const std::vector<T> &values) {
    return upload(values.data(), values.size() * sizeof(T));
  }

  /// Launches `kernel` on `grid` with `args` (as rt::launch takes them), on `stream` or the
  /// default stream. Asynchronous on the GPU; the interpreter runs the whole grid before
  /// returning and ignores the stream. Argument errors throw rt::Error(InvalidArgument) naming
  /// the parameter; a kernel the interpreter stops (out-of-bounds access, failed assert) throws
  /// one with the source location and the block.
  void launch(const KernelHandle &kernel, const rt::Grid &grid, const std::vector<rt::Arg> &args,
              const rt::Stream *stream = nullptr);
  /// Waits for every launch.
  void synchronize();
  /// Now, in `stream`'s work (default stream when null).
  TimePoint now(const rt::Stream *stream = nullptr);

  /// The GPU backend's JIT and device (for its statistics, streams and events); null on the
  /// interpreter.
  Jit *jit() const;
  const rt::Device *device() const;

  /// The autotuner of this backend's launches: its decisions are kept next to the JIT's
  /// disk cache (GPU; in memory only on the interpreter or with the disk cache off).
  Tuner &tuner() const { return *tuner_; }
  /// What a tuning key says about the target: device name and driver version ("" on the
  /// interpreter) and the JIT's options ("interpreter" there).
  std::string deviceName() const;
  std::string driverVersion() const;
  std::string targetOptions() const;

private:
  std::shared_ptr<detail::BackendImpl> impl_;
  std::shared_ptr<Tuner> tuner_;
};

struct CompileAttempt {
  std::optional<KernelHandle> kernel;
  std::string error; // set when kernel is empty
};

} // namespace tile::jit
