// The Mamba-2 SSD forward problem, independent of where it runs: the inputs (as float64 views
// for the reference), the dt options, the dimensions, and the shape validation every
// implementation shares. validateShapes works on shapes alone so the GPU host API can run the
// very same checks (and give the very same messages) on device arrays.
#pragma once

#include "kernels/mamba2/HostTensor.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace tile::mamba2 {

/// The dimensions of docs/mamba2.md: b, T, H, P, G, N.
struct SsdDims {
  std::int64_t batch = 0, seqlen = 0, nheads = 0, headdim = 0, ngroups = 0, dstate = 0;
  /// Heads per group: head h reads group h / headsPerGroup().
  std::int64_t headsPerGroup() const { return nheads / ngroups; }
};

/// How dt becomes the step size u (bias, softplus, clamp; the clamp is always applied).
struct SsdOptions {
  bool dtSoftplus = false;
  double dtMin = 0.0;
  double dtMax = std::numeric_limits<double>::infinity();
};

/// The shapes of the inputs; an absent optional input has no shape.
struct SsdShapes {
  Shape x, dt, A, B, C;
  std::optional<Shape> D, z, dtBias, initialStates;

  /// The shapes of any inputs struct with the members x ... initialStates (host views or
  /// device arrays), each with a `shape`.
  template <typename Inputs> static SsdShapes of(const Inputs &in) {
    SsdShapes s{in.x.shape, in.dt.shape, in.A.shape, in.B.shape, in.C.shape, {}, {}, {}, {}};
    if (in.D)
      s.D = in.D->shape;
    if (in.z)
      s.z = in.z->shape;
    if (in.dtBias)
      s.dtBias = in.dtBias->shape;
    if (in.initialStates)
      s.initialStates = in.initialStates->shape;
    return s;
  }
};

/// Checks every shape against x (b, T, H, P) and B (b, T, G, N) and returns the dimensions.
/// Throws tile::rt::Error(InvalidArgument) naming the tensor and the expected shape, e.g.
/// "C has shape (2, 100, 3, 16) but expected (b, T, G, N) = (2, 100, 2, 16)" or
/// "nheads 6 is not divisible by ngroups 4"; H, P, G and N must be at least 1 ("dstate (B's
/// dimension 3) is 0; it must be at least 1"), b and T may be 0 (nothing to compute).
SsdDims validateShapes(const SsdShapes &shapes);
/// Checks dtMin <= dtMax (neither NaN). Throws tile::rt::Error(InvalidArgument).
void validateOptions(const SsdOptions &options);

/// The float64 inputs of the reference (views: any strides).
struct SsdInputs {
  TensorView x, dt, A, B, C;
  std::optional<TensorView> D, z, dtBias, initialStates;

  SsdShapes shapes() const;
};

/// Validates shapes, strides (one per dimension, or none for contiguous) and data pointers,
/// and returns a copy of the inputs whose views all carry explicit strides.
SsdInputs validateInputs(const SsdInputs &inputs, const SsdOptions &options, SsdDims &dims);

/// u = clamp(softplus?(dt + bias), dtMin, dtMax), softplus(v) = v for v > 20 (as mamba_ssm).
double stepSize(double dt, double bias, const SsdOptions &options);
/// D for head h and channel p: D has shape (H,) or (H, P); 0 when absent.
double skipWeight(const SsdInputs &inputs, std::int64_t h, std::int64_t p);
/// y * z * sigmoid(z).
double gate(double y, double z);

} // namespace tile::mamba2
