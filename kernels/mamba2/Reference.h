// The float64 oracles of docs/mamba2.md for every GPU and interpreter test of the SSD forward
// pass. `reference` is the sequential recurrence exactly as the doc writes it; `referenceChunked`
// is the chunked algorithm the three GPU kernels implement, also in float64, returning the
// intermediates each kernel produces so a test can compare stage by stage. The two agree to
// rounding (~1e-12 relative on unit-scale data), which the unit tests check.
#pragma once

#include "kernels/mamba2/HostTensor.h"
#include "kernels/mamba2/SsdProblem.h"

namespace tile::mamba2 {

struct SsdResult {
  Tensor y;           // (b, T, H, P)
  Tensor finalStates; // (b, H, P, N): the state after the last position
};

/// The sequential recurrence, per batch and head, over t = 0 .. T-1:
///   u = clamp(softplus?(dt + dt_bias)), S = exp(u*A) S + u x ⊗ B[g(h)],
///   y = S·C[g(h)] + D x, y *= z sigmoid(z) if z is given.
/// Throws tile::rt::Error(InvalidArgument) for inconsistent shapes (see validateShapes).
SsdResult reference(const SsdInputs &inputs, const SsdOptions &options = {});

/// The decode step's results: y (b, H, P) and the state after the step (b, H, P, N).
struct SsdDecodeResult {
  Tensor y;
  Tensor state;
};

/// One step of the recurrence above for one new token per sequence (mamba_ssm's
/// selective_state_update for Mamba-2; docs/mamba2.md, "The decode step"): per batch and head,
///   u = clamp(softplus?(dt + dt_bias)) (dt and dt_bias per head or per channel),
///   S = exp(u*A) S + u x ⊗ B[g(h)], y = S·C[g(h)] + D x, y *= z sigmoid(z) if z is given.
/// The clamp uses options' limits (pass dt_min -inf for none, as mamba_ssm's step has none).
/// Throws tile::rt::Error(InvalidArgument) for inconsistent shapes (validateDecodeShapes).
SsdDecodeResult referenceDecodeStep(const SsdDecodeInputs &inputs, const SsdOptions &options);

struct ChunkedResult {
  Tensor y;           // (b, T, H, P)
  Tensor finalStates; // (b, H, P, N)
  /// chunk_cumsum's outputs, (b, H, nc, Q). Padding positions (t >= T) hold dt = 0, so their
  /// dA_cumsum repeats the chunk's last valid value, as in the kernel that zeroes the padding.
  Tensor dt;
  Tensor dACumsum;
  /// fwd_pass_state's chunk-entry states, (b, nc, H, P, N): states[:, c] is the state before
  /// chunk c (initial_states or zeros for c = 0).
  Tensor states;
  std::int64_t chunkSize = 0;
  std::int64_t numChunks = 0;
};

/// The chunked algorithm with chunk size Q >= 1: chunk_cumsum, chunk states + state passing,
/// and the output (C·Bᵀ with the decayed causal mask, the entry state's contribution, D, z).
/// Exponents are not clamped: this is the exact math, the GPU kernels' clamps are no-ops on it.
ChunkedResult referenceChunked(const SsdInputs &inputs, std::int64_t chunkSize, const SsdOptions &options = {});

} // namespace tile::mamba2
