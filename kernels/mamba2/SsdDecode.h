// ssd_decode_step: the Mamba-2 decode step, one new token per sequence on the state the forward
// pass (ssdForward's final_states) or the previous step left: the equivalent of mamba_ssm's
// selective_state_update for Mamba-2 (multi-head, per-head A, groups). Runs decode.py's
// decode_step on a jit::Backend (the GPU, or the interpreter on the CPU), updating the state in
// place:
//
//   SsdDecodeArrayInputs in{x, dt, A, B, C, D, z, dtBias};   // this token's inputs
//   ssdDecodeStep(backend, in, state, y, options);           // state (b, H, P, N) in place, y out
//
// docs/mamba2.md ("The decode step") has the semantics, the shapes and what was matched against
// mamba_ssm.
#pragma once

#include "kernels/mamba2/SsdForward.h"

#include <limits>

namespace tile::mamba2 {

/// Arrays in the backend's memory (Buffer::array views; any strides, zero strides included,
/// as mamba_ssm's Mamba-2 step passes dt, dt_bias and D broadcast over P). Each bf16, fp16 or
/// fp32. The kernel only reads them.
struct SsdDecodeArrayInputs {
  rt::ArrayArg x;                     // (b, H, P)
  rt::ArrayArg dt;                    // (b, H), or (b, H, P): one step size per channel
  rt::ArrayArg A;                     // (H,)
  rt::ArrayArg B;                     // (b, G, N)
  rt::ArrayArg C;                     // (b, G, N)
  std::optional<rt::ArrayArg> D;      // (H,) or (H, P)
  std::optional<rt::ArrayArg> z;      // (b, H, P)
  std::optional<rt::ArrayArg> dtBias; // (H,) or (H, P)
};

struct DecodeOptions {
  /// dt_bias is added when given; softplus; then the clamp to [dtMin, dtMax]. The default has
  /// no clamp, as mamba_ssm's selective_state_update (it takes no dt_limit); to continue a
  /// forward pass exactly, pass the forward's ForwardOptions::dt (its default clamps at 0).
  SsdOptions dt{false, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
};

/// The decode step's arguments checked: shapes (validateDecodeShapes: x, dt, A, B, C, D, z,
/// dt_bias against the state (b, H, P, N)), y (b, H, P), dtypes (bf16, fp16 or fp32 for every
/// array), dstate (a power of two up to 256), the dt limits, the state's strides (no stride
/// below 1 on a dimension of more than one element: the update in place must not write one
/// element twice) and memory (no null pointer unless empty). Throws rt::Error(InvalidArgument)
/// "ssd_decode_step: <argument> ...". Returns the dimensions (seqlen 1).
SsdDims validateDecode(const SsdDecodeArrayInputs &inputs, const rt::ArrayArg &state, const rt::ArrayArg &y,
                       const DecodeOptions &options = {});

struct SsdDecodePrepared;
/// Earlier ssdDecodeStep calls' kernels and grids, by the arguments' dtypes, shapes and alignment
/// and the options: a serving loop's step then costs its launch. One per backend.
using SsdDecodeCache = PreparedCache<SsdDecodePrepared>;

/// One decode step on `stream` (the default stream when null; the interpreter ignores it):
/// `state` (b, H, P, N; fp32, bf16 or fp16) is updated in place and y (b, H, P; any of those
/// dtypes, any strides) written. Waits for it unless `wait` is false. The block size is the
/// tuner's choice (jit::Backend::tuner(): on the GPU, timed on the first call for a new key with
/// the new state written to scratch memory, so tuning never applies the step twice; the
/// interpreter takes configuration 0 unless forced). With `cache` (of this backend), a call for
/// shapes it holds launches at once. Returns the configuration that ran (`skipped` when b = 0:
/// nothing to do). Throws what validateDecode throws, and rt::Error(InvalidArgument) with the
/// interpreter's message for a kernel it stops.
SsdKernelChoice ssdDecodeStep(jit::Backend &backend, const SsdDecodeArrayInputs &inputs, const rt::ArrayArg &state,
                              const rt::ArrayArg &y, const DecodeOptions &options = {},
                              const rt::Stream *stream = nullptr, bool wait = true, SsdDecodeCache *cache = nullptr);

/// decode.py as compiled into the library, or the file named by TILE_SSD_DECODE_SOURCE.
std::string decodeSource();

} // namespace tile::mamba2
