// Each packed sequence's final state (mamba_ssm's return_varlen_states): after a forward pass
// over sequences packed into one row (SsdArrayInputs::seqIdx), the state after the last
// position of every sequence, from the pass's chunk-entry states and intermediates (one launch
// of ssd.py's varlen_states, nothing recomputed).
//
//   SsdOutputs out = ssdForward(backend, in, options);               // in.seqIdx set, batch 1
//   SsdOutput states = ssdVarlenStates(backend, in, out, cuSeqlens, options);   // (nseq, H, P, N)
#pragma once

#include "kernels/mamba2/SsdForward.h"

namespace tile::mamba2 {

/// Writes into `varlenStates` ((nseq, H, P, N) float32, contiguous) the state after position
/// cu_seqlens[s + 1] - 1 of sequence s, for the sequences cu_seqlens ((nseq + 1,) int32,
/// non-decreasing from 0 to T, in the backend's memory) delimits; an empty sequence's state is
/// zero. `forward` are the outputs of ssdForward/ssdForwardInto for `inputs` and `options`,
/// which must pack the sequences (seqIdx, the same boundaries) into batch 1. The first sequence's
/// state includes the initial state (it is sequence 0's, as in y; mamba_ssm leaves it out when
/// that sequence ends in the first chunk). With bf16 data and native products the states carried
/// between chunks are bf16, and so is that part of each sequence's state. Checks the arrays' dtypes
/// and shapes (rt::Error(InvalidArgument) naming the argument); cu_seqlens' values are the
/// caller's promise (device memory is not read back). Returns once the launch is queued on
/// `stream` unless `wait`.
void ssdVarlenStatesInto(jit::Backend &backend, const SsdArrayInputs &inputs, const SsdArrayOutputs &forward,
                         const rt::ArrayArg &cuSeqlens, const rt::ArrayArg &varlenStates,
                         const ForwardOptions &options = {}, const rt::Stream *stream = nullptr, bool wait = true);

/// ssdVarlenStatesInto into a buffer of the backend, waiting for it.
SsdOutput ssdVarlenStates(jit::Backend &backend, const SsdArrayInputs &inputs, const SsdOutputs &forward,
                          const rt::ArrayArg &cuSeqlens, const ForwardOptions &options = {},
                          const rt::Stream *stream = nullptr);

} // namespace tile::mamba2
