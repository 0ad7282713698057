// Choosing one launch's @ct.autotune configuration (SsdPlan.h's SsdLaunch) for the Mamba-2
// calls that launch their kernels one at a time (the decode step, the backward pass): what the
// backend's tuner already knows (forced, off, in memory, a tuning file), else every variant
// timed on the call's own arguments.
#pragma once

#include "kernels/mamba2/SsdForward.h"

#include <functional>
#include <optional>
#include <vector>

namespace tile::mamba2 {

/// The configuration chosen, compiled.
struct ChosenVariant {
  std::size_t index = 0; // into SsdLaunch::variants
  std::optional<jit::KernelHandle> kernel; // always set: optional only for want of a default
  jit::TuneDecision decision;
};

/// Chooses `l`'s variant and compiles it. When the tuner has to time them, each variant runs on
/// the arguments `timingArgs` gives (called only then) on `stream`, so the launch must be one
/// that can run again: it writes only what a later launch overwrites, or the caller's scratch;
/// the stream is synchronized before this returns. `l` must not be empty.
ChosenVariant chooseVariant(jit::Backend &backend, const SsdLaunch &l,
                            const std::function<std::vector<rt::Arg>()> &timingArgs, const rt::Stream *stream);

/// What SsdKernelChoice reports of a choice.
SsdKernelChoice choiceOf(const SsdLaunch &l, const ChosenVariant &chosen);

} // namespace tile::mamba2
