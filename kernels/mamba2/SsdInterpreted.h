// ssd_forward on the CPU: the launches SsdPlan.h plans, run by the tile IR interpreter over
// host memory — the same kernels, constants and grids as the GPU path, so CI (no GPU) checks
// what the GPU would compute, and tile-ssd works on a machine without one.
//
//   SsdHostInputs in{HostArray::contiguous(x, DType::BFloat16, {b, T, H, P}), ...};
//   SsdHostOutputs out = ssdForwardInterpreted(in, options);
//   compare(out.y, reference(...).y, ...);
#pragma once

#include "compiler/interpreter/HostArray.h"
#include "kernels/mamba2/SsdPlan.h"

#include <optional>

namespace tile::mamba2 {

/// Host arrays holding elements in their dtype's bits (bf16, fp16 or fp32; see SsdDeviceInputs
/// for which tensor takes what). Any strides; empty strides mean row-major contiguous. The
/// kernels only read them.
struct SsdHostInputs {
  interp::HostArray x;   // (b, T, H, P)
  interp::HostArray dt;  // (b, T, H)
  interp::HostArray A;   // (H,)
  interp::HostArray B;   // (b, T, G, N)
  interp::HostArray C;   // (b, T, G, N)
  std::optional<interp::HostArray> D;              // (H,) or (H, P)
  std::optional<interp::HostArray> z;              // (b, T, H, P)
  std::optional<interp::HostArray> dtBias;         // (H,)
  std::optional<interp::HostArray> initialStates;  // (b, H, P, N)

  /// The inputs' dtypes and shapes, as planSsdForward takes them.
  SsdTensorTypes types() const;
};

/// What the kernels wrote, as float64 values (exactly the stored ones: y is already rounded to
/// its dtype). Shapes as in docs/mamba2.md.
struct SsdHostOutputs {
  Tensor y;            // (b, T, H, P), in yDType
  Tensor finalStates;  // (b, H, P, N)
  Tensor dtOut;        // (b, H, nc, Q)
  Tensor dACumsum;     // (b, H, nc, Q)
  Tensor states;       // (b, nc, H, P, N): the state entering each chunk
  rt::DType yDType = rt::DType::Float32;
};

/// Runs the forward pass with the interpreter. Checks like ssdForward (same messages); a
/// kernel the interpreter stops throws rt::Error(InvalidArgument) with its message. The
/// kernels are compiled once per specialization and process. `timings`, when given, gets each
/// kernel's host wall-clock time.
SsdHostOutputs ssdForwardInterpreted(const SsdHostInputs &inputs, const ForwardOptions &options = {},
                                     SsdTimings *timings = nullptr);

}  // namespace tile::mamba2
