// ssd.py's varlen_states, launched over a forward pass's results (SsdVarlen.h).
#include "kernels/mamba2/SsdVarlen.h"

#include "runtime/Error.h"

#include <fmt/format.h>

#include <algorithm>

namespace tile::mamba2 {

namespace {

[[noreturn]] void invalid(const std::string &message) {
  throw rt::Error(rt::Error::Kind::InvalidArgument, "ssd_varlen_states: " + message);
}

frontend::ArgType argType(const rt::ArrayArg &a) {
  return {rt::dtypeName(a.dtype), static_cast<int64_t>(a.shape.size()), a.isAligned()};
}

} // namespace

void ssdVarlenStatesInto(jit::Backend &backend, const SsdArrayInputs &inputs, const SsdArrayOutputs &forward,
                         const rt::ArrayArg &cuSeqlens, const rt::ArrayArg &varlenStates, const ForwardOptions &options,
                         const rt::Stream *stream, bool wait) {
  const SsdDims d = validate(inputs, options);
  if (!inputs.seqIdx)
    invalid("the forward pass must pack the sequences with seq_idx (without it the state runs from one sequence "
            "into the next)");
  if (d.batch != 1)
    invalid(fmt::format("cu_seqlens needs the sequences packed into one row: batch is {}, expected 1", d.batch));
  if (cuSeqlens.dtype != rt::DType::Int32)
    invalid(fmt::format("cu_seqlens has dtype {}; expected int32", rt::dtypeName(cuSeqlens.dtype)));
  if (cuSeqlens.shape.size() != 1 || cuSeqlens.shape[0] < 2)
    invalid(fmt::format("cu_seqlens has shape {}; expected (nseq + 1,) with at least one sequence",
                        shapeString(cuSeqlens.shape)));
  const int64_t nseq = cuSeqlens.shape[0] - 1;
  const Shape expected = {nseq, d.nheads, d.headdim, d.dstate};
  if (varlenStates.dtype != rt::DType::Float32 || varlenStates.shape != expected || !varlenStates.isContiguous())
    invalid(fmt::format("varlen_states must be a contiguous float32 array of shape (nseq, H, P, N) = {}; got {} {}",
                        shapeString(expected), rt::dtypeName(varlenStates.dtype), shapeString(varlenStates.shape)));
  // The pass's intermediates carry its chunk size: dt_out is (b, H, nc, Q).
  if (forward.dtOut.shape.size() != 4 || forward.states.shape.size() != 5 || forward.dtOut.shape[0] != 1 ||
      forward.dtOut.shape[1] != d.nheads)
    invalid("forward's dt_out and states are not those of a pass over these inputs");
  const int64_t Q = forward.dtOut.shape[3];

  jit::KernelRequest request;
  request.source = ssdSource();
  request.fileName = "ssd.py";
  request.kernel = "varlen_states";
  const int64_t BP = pow2AtMost(d.headdim, 64), BN = pow2AtMost(d.dstate, 64);
  request.constants = {{"Q", Q}, {"BP", BP}, {"BN", BN}, {"TF32", options.precision == MatmulPrecision::TF32}};
  request.args = {{"x", argType(inputs.x)},
                  {"B", argType(inputs.B)},
                  {"dt_out", argType(forward.dtOut)},
                  {"dA_cumsum", argType(forward.dACumsum)},
                  {"states", argType(forward.states)},
                  {"cu_seqlens", argType(cuSeqlens)},
                  {"varlen", argType(varlenStates)},
                  {"nheads", {"int64", 0}},
                  {"ngroups", {"int64", 0}}};
  const jit::KernelHandle kernel = backend.compile(request);
  const rt::Grid grid((d.headdim + BP - 1) / BP, (d.dstate + BN - 1) / BN, nseq * d.nheads);
  backend.launch(kernel, grid,
                 {inputs.x, inputs.B, forward.dtOut, forward.dACumsum, forward.states, cuSeqlens, varlenStates,
                  rt::Scalar(d.nheads), rt::Scalar(d.ngroups)},
                 stream);
  if (!wait)
    return;
  if (stream)
    stream->synchronize();
  else
    backend.synchronize();
}

SsdOutput ssdVarlenStates(jit::Backend &backend, const SsdArrayInputs &inputs, const SsdOutputs &forward,
                          const rt::ArrayArg &cuSeqlens, const ForwardOptions &options, const rt::Stream *stream) {
  const SsdDims d = validate(inputs, options);
  const int64_t nseq = cuSeqlens.shape.empty() ? 0 : cuSeqlens.shape[0] - 1;
  SsdOutput out;
  out.buffer = backend.allocate(static_cast<size_t>(std::max<int64_t>(nseq, 0) * d.nheads * d.headdim * d.dstate) *
                                sizeof(float));
  out.view = out.buffer.array(rt::DType::Float32, {std::max<int64_t>(nseq, 0), d.nheads, d.headdim, d.dstate});
  const SsdArrayOutputs arrays{forward.y.view,        forward.finalStates.view, forward.dtOut.view,
                               forward.dACumsum.view, forward.states.view,      forward.cb.view};
  ssdVarlenStatesInto(backend, inputs, arrays, cuSeqlens, out.view, options, stream, /*wait=*/true);
  return out;
}

} // namespace tile::mamba2
