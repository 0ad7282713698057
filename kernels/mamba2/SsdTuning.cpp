#include "kernels/mamba2/SsdTuning.h"
#include "kernels/mamba2/SsdPrebuilt.h"

#include "runtime/jit/LaunchTimer.h"

namespace tile::mamba2 {

ChosenVariant chooseVariant(jit::Backend &backend, const SsdLaunch &l,
                            const std::function<std::vector<rt::Arg>()> &timingArgs, const rt::Stream *stream) {
  registerPrebuiltSsdKernels();
  std::vector<jit::TuneCandidate> candidates;
  for (const SsdVariant &v : l.variants)
    candidates.push_back(v.candidate);
  const auto &g = l.grid();
  const jit::TuneKey key = jit::makeTuneKey({l.request(), l.keyNames, l.keyValues, g[0] * g[1] * g[2],
                                             backend.deviceName(), backend.driverVersion(), backend.targetOptions()},
                                            candidates);
  jit::Tuner &tuner = backend.tuner();
  ChosenVariant chosen;
  if (std::optional<jit::TuneDecision> known = tuner.known(key, candidates)) {
    chosen.decision = *known;
    chosen.kernel = backend.compile(l.variants[known->winner].request);
  } else {
    std::vector<jit::KernelRequest> requests;
    std::vector<jit::LaunchTimer::Variant> variants;
    for (const SsdVariant &v : l.variants) {
      requests.push_back(v.request);
      variants.push_back({v.request, rt::Grid(v.grid[0], v.grid[1], v.grid[2])});
    }
    jit::LaunchTimer timer(backend, variants, timingArgs(), stream);
    timer.provide(backend.tryCompileAll(requests));
    chosen.decision = tuner.choose(key, candidates, timer);
    chosen.kernel = timer.kernel(chosen.decision.winner);
    // The timed launches are done before the caller frees or reuses what they wrote.
    if (stream)
      stream->synchronize();
    else
      backend.synchronize();
  }
  chosen.index = chosen.decision.winner;
  return chosen;
}

SsdKernelChoice choiceOf(const SsdLaunch &l, const ChosenVariant &chosen) {
  const SsdVariant &v = l.variants[chosen.index];
  SsdKernelChoice c;
  c.kernel = l.request().kernel;
  c.config = v.candidate.config;
  c.label = v.candidate.label();
  c.source = chosen.decision.source;
  c.ms = chosen.decision.msOf(v.candidate.config);
  c.config0Ms = chosen.decision.msOf(0);
  c.tuneMs = chosen.decision.tuneMs;
  return c;
}

} // namespace tile::mamba2
