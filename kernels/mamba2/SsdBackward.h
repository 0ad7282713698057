// ssd_backward: the gradients of the SSD forward pass (mamba_ssm's mamba_chunk_scan_combined
// under autograd), from ssd.py's backward kernels on a jit::Backend, as ssdForward runs its
// forward: the GPU or the interpreter.
//
//   SsdGradientOutputs g = ssdBackward(backend, in, dy, dFinalStates, options);
//   Tensor dx = g.dx.values();
//
// The forward is recomputed first (its intermediates are not kept between the calls), without
// the gate and with a float32 y; then five kernels (ssd.py, "The backward pass"), each in the
// @ct.autotune configuration the backend's tuner picks (SsdTuning.h). This first version
// computes in float32 (no Tensor Cores).
#pragma once

#include "kernels/mamba2/SsdForward.h"

namespace tile::mamba2 {

/// Each input's gradient (float32, contiguous, in its input's shape); absent inputs' gradients
/// are empty (no buffer).
struct SsdGradientOutputs {
  SsdOutput dx, ddt, dA, dB, dC;
  SsdOutput dD, dz, dDtBias, dInitialStates;
};

/// The gradients of loss = sum(dy * y) + sum(dFinalStates * final_states) for ssdForward(inputs,
/// options), through every option it takes (dt_bias, softplus, dt limits, D per head or
/// channel, z, initial states, packed sequences). dy (b, T, H, P) and dFinalStates (b, H, P, N)
/// in any float dtype and strides. Checks shapes and dtypes (rt::Error(InvalidArgument) naming
/// the argument) and waits for the result. Reference: ReferenceBackward.h.
SsdGradientOutputs ssdBackward(jit::Backend &backend, const SsdArrayInputs &inputs, const rt::ArrayArg &dy,
                               const std::optional<rt::ArrayArg> &dFinalStates = std::nullopt,
                               const ForwardOptions &options = {}, const rt::Stream *stream = nullptr);

/// The gradients' arrays for ssdBackwardInto: contiguous float32, each in its input's shape, one
/// for each input given (D, z, dt_bias and initial_states only when those inputs are).
struct SsdGradientArrays {
  rt::ArrayArg dx, ddt, dA, dB, dC;
  std::optional<rt::ArrayArg> dD, dz, dDtBias, dInitialStates;
};

/// ssdBackward into the caller's arrays (checked: dtype, shape, contiguity, one exactly for each
/// optional input given), on `stream`. Returns when the stream has run it: its scratch (the
/// recomputed forward's outputs, the gradients between kernels) is freed then.
void ssdBackwardInto(jit::Backend &backend, const SsdArrayInputs &inputs, const rt::ArrayArg &dy,
                     const std::optional<rt::ArrayArg> &dFinalStates, const SsdGradientArrays &gradients,
                     const ForwardOptions &options = {}, const rt::Stream *stream = nullptr);

} // namespace tile::mamba2
