// ssd_forward: the Mamba-2 chunked-scan forward pass, the equivalent of the forward of
// mamba_ssm's mamba_chunk_scan_combined. Runs the four kernels of ssd.py as SsdPlan.h plans
// them on a jit::Backend: on the GPU, compiled by the JIT for the shapes and dtypes at hand
// (cached in memory and on disk); or through the interpreter on the CPU — one executor, the
// same launches, so CI (no GPU) checks what the GPU computes and tile-ssd runs anywhere.
//
//   jit::Backend backend;                                  // GPU, or the interpreter
//   jit::Buffer x = backend.upload(xBytes), ...;           // inputs in their dtype's bits
//   SsdArrayInputs in{x.array(rt::DType::BFloat16, {b, T, H, P}), ...};
//   SsdOutputs out = ssdForward(backend, in, options);
//   Tensor y = out.y.values();
#pragma once

#include "kernels/mamba2/SsdPlan.h"
#include "runtime/jit/Backend.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tile::mamba2 {

/// Arrays in the backend's memory (Buffer::array views; any strides; bf16, fp16 or fp32 for x,
/// z, B, C; dt fp32/bf16/fp16; A, D, dt_bias, initial_states fp32). The kernels only read them.
struct SsdArrayInputs {
  rt::ArrayArg x;                            // (b, T, H, P)
  rt::ArrayArg dt;                           // (b, T, H)
  rt::ArrayArg A;                            // (H,)
  rt::ArrayArg B;                            // (b, T, G, N)
  rt::ArrayArg C;                            // (b, T, G, N)
  std::optional<rt::ArrayArg> D;             // (H,) or (H, P)
  std::optional<rt::ArrayArg> z;             // (b, T, H, P)
  std::optional<rt::ArrayArg> dtBias;        // (H,)
  std::optional<rt::ArrayArg> initialStates; // (b, H, P, N)
  /// (b, T) int32: sequences packed along T, the state reset where the index changes and the
  /// initial state sequence 0's (mamba_ssm's seq_idx; each sequence one contiguous run).
  std::optional<rt::ArrayArg> seqIdx;
  SsdShapes shapes() const;
  /// The inputs' dtypes and shapes, as planSsdForward takes them.
  SsdTensorTypes types() const;
};

/// One output: a buffer of the backend and the contiguous array it holds.
struct SsdOutput {
  jit::Buffer buffer;
  rt::ArrayArg view;
  /// The elements as float64 values, exactly the stored ones (y is already rounded to its dtype).
  Tensor values() const;
};

/// The elements of a contiguous array at the start of `buffer` as float64 values.
Tensor valuesOf(const jit::Buffer &buffer, const rt::ArrayArg &view);

/// Which configuration of a kernel ran, and why (the autotuner's decision).
struct SsdKernelChoice {
  std::string kernel;
  unsigned config = 0;
  std::string label; // its block sizes, "BQ=64 BP=64 BN=32"
  jit::TuneSource source = jit::TuneSource::Only;
  /// From the tuning that chose it (now or in an earlier process; 0 when not timed): the
  /// winner's and configuration 0's median launch times, and how long tuning took (now).
  double ms = 0, config0Ms = 0, tuneMs = 0;
  /// Not launched: nothing read its output (chunk_bmm, when compute_out's configuration has
  /// no blocks below the diagonal: SsdPlan.h readsChunkBmm).
  bool skipped = false;
  /// "BQ=64 BP=64 BN=32 (config 0, tuned)".
  std::string str() const;
};

/// What a pass ran: the chunk size, chunk_bmm's row block and each kernel's configuration.
struct SsdRun {
  std::int64_t cbBlock = 0;   // chunk_bmm's row block (its BQ) in the configuration that ran; 0
                              // when it did not run
  std::int64_t chunkSize = 0; // Q: ForwardOptions::chunkSize, or the plan's choice when it was 0
  /// The configuration each kernel ran in (SsdPlan::launches' order).
  std::array<SsdKernelChoice, 4> choices;
};

/// Shapes as in docs/mamba2.md.
struct SsdOutputs : SsdRun {
  SsdOutput y;           // (b, T, H, P), in ForwardOptions::outputDType (default x's dtype)
  SsdOutput finalStates; // (b, H, P, N)
  SsdOutput dtOut;       // (b, H, nc, Q)
  SsdOutput dACumsum;    // (b, H, nc, Q)
  SsdOutput states;      // (b, nc, H, P, N): the state entering each chunk (bf16 for bf16 data
                         // with native products, else fp32)
  SsdOutput cb;          // (b, nc, G, Q, Q): C.B^T per chunk; only blocks on or below the
                         // causal diagonal, in blocks of cbBlock rows, are written, and
                         // nothing when chunk_bmm was skipped (cbBlock 0)
};

/// The outputs in memory the caller owns (a framework's allocator, a CUDA graph's pool):
/// contiguous arrays of the dtypes and shapes the plan gives (SsdPlan::type of SsdTensor::Y ..
/// SsdTensor::CB), in the backend's memory.
struct SsdArrayOutputs {
  rt::ArrayArg y, finalStates, dtOut, dACumsum, states, cb;
};

/// Checks the inputs' shapes (the reference's checks, same messages) and dtypes; throws
/// rt::Error(InvalidArgument) naming the tensor and the expected shape.
SsdDims validate(const SsdArrayInputs &inputs, const ForwardOptions &options);

/// Runs the forward pass on `stream` (the default stream when null; the interpreter ignores
/// it) and waits for it. Each kernel runs in the configuration the backend's tuner chooses
/// (jit::Backend::tuner(): timed on the first call for a new key, then from memory or the
/// tuning cache; the interpreter takes configuration 0 unless forced). A call that tunes
/// first runs the whole pass once while timing (each kernel's configurations on the previous
/// kernels' results), then the pass proper: what it returns comes from the chosen
/// configurations alone (no kernel reads what it writes, so the timed launches leave nothing
/// behind that the final ones do not overwrite, except cb blocks no configuration reads). Every kernel is compiled
/// first, so `timings` (GPU: CUDA events around each launch and around all of them; interpreter: host wall-clock time)
/// never include compiling. A kernel the interpreter stops throws rt::Error(InvalidArgument) with its message.
SsdOutputs ssdForward(jit::Backend &backend, const SsdArrayInputs &inputs, const ForwardOptions &options = {},
                      const rt::Stream *stream = nullptr, SsdTimings *timings = nullptr);

/// Prepared launches (plans with their kernels chosen and compiled) by a key of the inputs'
/// dtypes, shapes and alignment and the options: a caller that runs the same shapes again (a
/// serving loop, a model's layers) skips planning and the tuner's and the compiler's cache
/// lookups, and a call costs its launches. One per backend (the kernels are its); thread-safe.
template <typename Prepared> class PreparedCache {
public:
  std::shared_ptr<const Prepared> find(const std::string &key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second;
  }
  void insert(const std::string &key, std::shared_ptr<const Prepared> prepared) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_[key] = std::move(prepared);
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
  }

private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Prepared>> entries_;
};

struct SsdPrepared;
/// Earlier ssdForwardInto calls' plans and kernel choices.
using SsdPassCache = PreparedCache<SsdPrepared>;

/// ssdForward into the caller's `outputs` (checked against the plan: dtype, shape, contiguity;
/// rt::Error(InvalidArgument) naming the output). Returns once the launches are queued on
/// `stream` unless `wait` (or `timings`, whose events it reads): nothing is allocated and
/// nothing synchronizes once every kernel's configuration is known, so a CUDA graph can capture
/// a call whose kernels an earlier call compiled and tuned. With `cache` (of this backend), a
/// call for shapes it holds launches at once (its SsdRun is the preparing call's).
SsdRun ssdForwardInto(jit::Backend &backend, const SsdArrayInputs &inputs, const SsdArrayOutputs &outputs,
                      const ForwardOptions &options = {}, const rt::Stream *stream = nullptr,
                      SsdTimings *timings = nullptr, bool wait = true, SsdPassCache *cache = nullptr);

} // namespace tile::mamba2
