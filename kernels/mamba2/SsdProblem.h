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

/// The shapes of the optional inputs the forward pass and the decode step share (D, z, dt_bias)
/// of `in` into `shapes`.
template <typename Inputs, typename Shapes> void optionalShapes(const Inputs &in, Shapes &shapes) {
  if (in.D)
    shapes.D = in.D->shape;
  if (in.z)
    shapes.z = in.z->shape;
  if (in.dtBias)
    shapes.dtBias = in.dtBias->shape;
}

/// The shapes of the inputs; an absent optional input has no shape.
struct SsdShapes {
  Shape x, dt, A, B, C;
  std::optional<Shape> D, z, dtBias, initialStates, seqIdx;

  /// The shapes of any inputs struct with the members x ... seqIdx (host views or device
  /// arrays), each with a `shape`.
  template <typename Inputs> static SsdShapes of(const Inputs &in) {
    SsdShapes s{in.x.shape, in.dt.shape, in.A.shape, in.B.shape, in.C.shape, {}, {}, {}, {}, {}};
    optionalShapes(in, s);
    if (in.initialStates)
      s.initialStates = in.initialStates->shape;
    if (in.seqIdx)
      s.seqIdx = in.seqIdx->shape;
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
/// One tensor's shape check, rank first (so the message can say what the dimensions mean), then
/// extents: "C has shape (2, 3, 16) but expected (b, G, N) = (2, 2, 16)". Throws
/// tile::rt::Error(InvalidArgument).
void expectShape(const char *name, const Shape &actual, const char *dimNames, const Shape &expected);

/// The shapes of the decode step's arguments (SsdDecode.h): the state it updates, the token's
/// inputs; an absent optional input has no shape.
struct SsdDecodeShapes {
  Shape state, x, dt, A, B, C;
  std::optional<Shape> D, z, dtBias;

  /// The shapes of any struct with the members x ... dtBias (host views or device arrays), and
  /// the state's shape.
  template <typename Inputs> static SsdDecodeShapes of(const Shape &state, const Inputs &in) {
    SsdDecodeShapes s{state, in.x.shape, in.dt.shape, in.A.shape, in.B.shape, in.C.shape, {}, {}, {}};
    optionalShapes(in, s);
    return s;
  }
};

/// Checks the decode step's shapes against the state (b, H, P, N) and B (b, G, N): x and z
/// (b, H, P), dt (b, H) or (b, H, P), A (H,), dt_bias and D (H,) or (H, P), C like B; H, P, G and
/// N at least 1, G dividing H; b may be 0. Returns the dimensions with seqlen 1. Throws
/// tile::rt::Error(InvalidArgument) naming the tensor, with validateShapes' wording.
SsdDims validateDecodeShapes(const SsdDecodeShapes &shapes);

/// The float64 inputs of the reference (views: any strides). seq_idx (b, T) packs sequences
/// into one row of the batch: the state starts from zero wherever it changes (and the initial
/// state belongs to sequence 0), as in mamba_ssm; its values are integers.
struct SsdInputs {
  TensorView x, dt, A, B, C;
  std::optional<TensorView> D, z, dtBias, initialStates, seqIdx;

  SsdShapes shapes() const;
};

/// Validates shapes, strides (one per dimension, or none for contiguous) and data pointers,
/// and returns a copy of the inputs whose views all carry explicit strides.
SsdInputs validateInputs(const SsdInputs &inputs, const SsdOptions &options, SsdDims &dims);

/// u = clamp(softplus?(dt + bias), dtMin, dtMax), softplus(v) = v for v > 20 (as mamba_ssm).
double stepSize(double dt, double bias, const SsdOptions &options);
/// D for head h and channel p: D has shape (H,) or (H, P); 0 when absent.
double skipWeight(const SsdInputs &inputs, std::int64_t h, std::int64_t p);
double skipWeight(const std::optional<TensorView> &D, std::int64_t h, std::int64_t p);

/// The float64 inputs of the decode step's reference (views: any strides): the state before
/// the step and the token's inputs, shaped as SsdDecodeShapes says.
struct SsdDecodeInputs {
  TensorView state, x, dt, A, B, C;
  std::optional<TensorView> D, z, dtBias;

  SsdDecodeShapes shapes() const { return SsdDecodeShapes::of(state.shape, *this); }
};
/// validateInputs for the decode step: shapes (validateDecodeShapes), options, strides and data.
SsdDecodeInputs validateDecodeInputs(const SsdDecodeInputs &inputs, const SsdOptions &options, SsdDims &dims);
/// y * z * sigmoid(z).
double gate(double y, double z);

} // namespace tile::mamba2
