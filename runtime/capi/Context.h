// The state behind a tilecc_context: a jit::Backend and the kernels it has compiled for the
// launches of the C API, by program and specialization, and the autotuner's choices.
#pragma once

#include "kernels/mamba2/SsdForward.h"
#include "runtime/Stream.h"
#include "runtime/capi/Bind.h"
#include "runtime/jit/Backend.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tile::capi {

/// A kernel source; `id` tells programs apart in a context's caches (unique in the process).
struct Program {
  std::string source;
  std::string fileName;
  std::uint64_t id = 0;
};

using GridDims = std::array<std::uint32_t, 3>;

class Context {
public:
  Context(jit::BackendOptions::Choice choice, int device);

  jit::Backend &backend() { return backend_; }
  const std::string &description() const { return description_; }
  /// The caller's CUstream as an rt::Stream; none for a null one or on the interpreter.
  std::optional<rt::Stream> borrow(void *stream);
  /// The Mamba-2 passes prepared on this context's backend (tilecc_ssd_forward).
  mamba2::SsdPassCache &ssdPasses() { return ssdPasses_; }

  /// Compiles (once) and launches `kernel` of `program`; `grids` holds one grid, or one per
  /// autotune configuration.
  void launch(const Program &program, const std::string &kernel, const std::vector<GridDims> &grids,
              const tilecc_arg *args, std::size_t numArgs, void *stream);

private:
  /// The kernel for `request` from this context's map, else compiled by the backend.
  jit::KernelHandle compiled(const std::string &key, const jit::KernelRequest &request);
  /// The configuration to run (tuned on the first launch of a new key).
  unsigned chooseConfig(const Program &program, const jit::KernelDecl &decl, const BoundLaunch &bound,
                        const std::vector<GridDims> &grids, const rt::Stream *stream);

  jit::Backend backend_;
  std::string description_;
  std::mutex mutex_;
  std::map<std::string, jit::KernelHandle> kernels_; // by program id and BoundLaunch::key (+ config)
  std::map<std::string, unsigned> choices_;          // tuned launches: by the same and the grids
  mamba2::SsdPassCache ssdPasses_;
};

} // namespace tile::capi
