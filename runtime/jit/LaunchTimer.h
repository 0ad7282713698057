// The TuneTimer of real launches: each candidate is a request and its grid, launched on a
// Backend with the caller's arguments and timed by the backend's clock (CUDA events around
// each launch on the GPU). The timed launches write the caller's outputs; the caller then
// launches the winner, whose results are the ones it sees.
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

  /// Variant `index`'s kernel after prepare(); throws rt::Error(InvalidArgument) with its
  /// compile error when it has none.
  const KernelHandle &kernel(std::size_t index) const;

private:
  Backend &backend_;
  std::vector<Variant> variants_;
  std::vector<rt::Arg> args_;
  const rt::Stream *stream_;
  std::vector<CompileAttempt> compiled_;
};

} // namespace tile::jit
