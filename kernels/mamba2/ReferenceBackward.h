// The float64 gradients of the SSD forward pass (Reference.h's `reference`): the oracle the
// backward kernels are checked against. Written as the reverse of the sequential recurrence,
// and itself checked against central finite differences of `reference` (ReferenceBackwardTest).
#pragma once

#include "kernels/mamba2/Reference.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tile::mamba2 {

/// d loss / d input for loss = sum(dy * y) + sum(dFinalStates * final_states), each gradient in
/// its input's shape; absent inputs have no gradient (an empty tensor).
struct SsdGradients {
  Tensor dx, ddt, dA, dB, dC; // (b, T, H, P), (b, T, H), (H,), (b, T, G, N), (b, T, G, N)
  Tensor dD, dz, dDtBias;     // D's shape ((H,) or (H, P)), (b, T, H, P), (H,)
  Tensor dInitialStates;      // (b, H, P, N)
};

/// The gradients by their inputs' names ("x", "dt", "A", "B", "C", "D", "z", "dt_bias",
/// "initial_states"), in that order, without those of absent inputs (empty tensors).
std::vector<std::pair<std::string, const Tensor *>> namedGradients(const SsdGradients &gradients);

/// The gradients of `reference(inputs, options)` for the output gradient dy (b, T, H, P) and
/// optionally the final states' dFinalStates (b, H, P, N). Through every option the forward
/// takes: dt_bias and softplus (d softplus(v) = sigmoid(v), and 1 above 20 where the forward
/// passes v through), the dt limits (no gradient where u is clamped, as a clamp's), D per head
/// or per channel, the z gate (d (y z sigmoid(z)) / dz = y sigmoid(z) (1 + z (1 - sigmoid(z)))),
/// initial states and packed sequences (a new sequence starts from zero, so nothing flows back
/// past its first position). Throws rt::Error(InvalidArgument) for inconsistent shapes.
SsdGradients referenceBackward(const SsdInputs &inputs, const TensorView &dy,
                               const std::optional<TensorView> &dFinalStates = std::nullopt,
                               const SsdOptions &options = {});

} // namespace tile::mamba2
