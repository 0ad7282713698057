// The TuneTimer of real launches: each candidate is a request and its grid, launched on a
// Backend with the caller's arguments and timed by the backend's clock (CUDA events around
// each launch on the GPU). The timed launches write the caller's outputs; the caller then
// launches the winner, whose results are the ones it sees. A kernel that reads what it writes
// (accumulates into an output) names those buffers with preserve(): each launch then starts
// from their original contents, and restore() puts them back before the caller's launch.
#pragma once

#include "runtime/jit/Backend.h"
#include "runtime/jit/TuneTimer.h"

namespace tile::jit {

class LaunchTimer : public TuneTimer {
public:
  struct Variant {
    KernelRequest request;
    rt::Grid grid;
  };
  LaunchTimer(Backend &backend, std::vector<Variant> variants, std::vector<rt::Arg> args,
              const rt::Stream *stream = nullptr);

  /// The variants compiled beforehand (one attempt each, as Backend::tryCompileAll returns
  /// them), so prepare() compiles nothing.
  void provide(std::vector<CompileAttempt> compiled);

  std::vector<std::string> prepare(std::size_t count) override;
  std::vector<double> time(std::size_t index, unsigned launches) override;

  /// Buffers the kernel both reads and writes: saved (to host memory) before the first timed
  /// launch and restored before every launch, so the timing never compounds them.
  void preserve(std::vector<Buffer *> buffers);
  /// Puts the preserved buffers back as they were before tuning (call it before launching the
  /// winner); nothing when none were saved.
  void restore();

  /// Variant `index`'s kernel after prepare(); throws rt::Error(InvalidArgument) with its
  /// compile error when it has none.
  const KernelHandle &kernel(std::size_t index) const;

private:
  Backend &backend_;
  std::vector<Variant> variants_;
  std::vector<rt::Arg> args_;
  const rt::Stream *stream_;
  std::vector<CompileAttempt> compiled_;
  std::vector<Buffer *> preserved_;
  std::vector<std::vector<unsigned char>> saved_;
};

} // namespace tile::jit
