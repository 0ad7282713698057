// ssd_forward: the Mamba-2 chunked-scan forward pass on the GPU, the equivalent of the forward
// of mamba_ssm's mamba_chunk_scan_combined. Runs the three kernels of ssd.py as SsdPlan.h
// plans them, compiled by the JIT for the shapes and dtypes at hand (cached in memory and on
// disk). The same plan runs on the CPU through the interpreter: SsdInterpreted.h.
#pragma once

#include "kernels/mamba2/SsdPlan.h"
#include "runtime/jit/Jit.h"

#include <optional>

namespace tile::mamba2 {

/// Device arrays (any strides; bf16, fp16 or fp32 for x, z, B, C; dt fp32/bf16/fp16; A, D,
/// dt_bias, initial_states fp32).
struct SsdDeviceInputs {
  rt::ArrayArg x;    // (b, T, H, P)
  rt::ArrayArg dt;   // (b, T, H)
  rt::ArrayArg A;    // (H,)
  rt::ArrayArg B;    // (b, T, G, N)
  rt::ArrayArg C;    // (b, T, G, N)
  std::optional<rt::ArrayArg> D;               // (H,) or (H, P)
  std::optional<rt::ArrayArg> z;               // (b, T, H, P)
  std::optional<rt::ArrayArg> dtBias;          // (H,)
  std::optional<rt::ArrayArg> initialStates;   // (b, H, P, N)
  SsdShapes shapes() const;
  /// The inputs' dtypes and shapes, as planSsdForward takes them.
  SsdTensorTypes types() const;
};

/// Outputs live in buffers owned by this struct; the views describe them.
struct SsdOutputs {
  rt::DeviceBuffer y, finalStates, dtOut, dACumsum, states;
  rt::ArrayArg yView, finalStatesView, dtOutView, dACumsumView, statesView;
};

/// Checks the inputs' shapes (the reference's checks, same messages) and dtypes; throws
/// rt::Error(InvalidArgument) naming the tensor and the expected shape.
SsdDims validate(const SsdDeviceInputs &inputs, const ForwardOptions &options);

/// Runs the forward pass on `stream` (the default stream when null) and waits for it.
/// `timings` gets the GPU time of each kernel (CUDA events around each launch).
SsdOutputs ssdForward(jit::Jit &jit, const SsdDeviceInputs &inputs, const ForwardOptions &options = {},
                      const rt::Stream *stream = nullptr, SsdTimings *timings = nullptr);

}  // namespace tile::mamba2
