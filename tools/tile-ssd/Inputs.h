// tile-ssd's inputs in host memory, whichever backend runs them: each tensor in its kernel
// dtype's bits (what is uploaded to the backend) and as the float64 values those bits hold
// (what the reference gets).
#pragma once

#include "kernels/mamba2/Reference.h"
#include "kernels/mamba2/SsdPlan.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile::ssd {

struct HostTensor {
  rt::DType dtype = rt::DType::Float32;
  std::vector<unsigned char> bytes; // row-major
  mamba2::Tensor values;

  /// `values` rounded into `dtype` (bfloat16, float16 or float32).
  HostTensor(rt::DType dtype, mamba2::Tensor values);
};

/// Indexed by mamba2::SsdTensor (the inputs only); absent optional inputs are nullopt.
struct Inputs {
  std::array<std::optional<HostTensor>, mamba2::kNumSsdInputs> tensors;

  mamba2::SsdInputs reference() const;
};

/// DIR/x.npy, dt.npy, A.npy, B.npy, C.npy and optionally D.npy, z.npy, dt_bias.npy,
/// initial_states.npy (float16 and bfloat16 stay so, anything else becomes float32) and
/// seq_idx.npy (integers, read as int32). Throws
/// rt::Error(Io) for a missing required file, or an input that is a directory or not a
/// regular file.
Inputs loadInputs(const std::string &dir);
/// One .npy file read as loadInputs reads its tensors (the same dtypes and errors); nullopt when
/// it does not exist and is not `required`.
std::optional<HostTensor> loadNpyInput(const std::string &path, bool required);
/// Uniform random values in [-1, 1) rounded into `dtype`.
HostTensor randomTensor(rt::DType dtype, const mamba2::Shape &shape, unsigned seed);

/// The input files of DIR that exist (any of the names loadInputs reads), for the check that
/// an output never overwrites one.
std::vector<std::string> inputPaths(const std::string &dir);

/// The demo problem: random data of shape (b, T, H, P) for x, (b, T, G, N) for B and C, in
/// bf16; dt for softplus, A < 0, D per head in fp32.
struct DemoShape {
  std::int64_t b, T, H, P, G, N;
};
Inputs demoInputs(const DemoShape &shape);

/// The decode step's inputs (tile-ssd --decode), indexed by DecodeTensor; the first six are
/// required, absent optional ones are nullopt.
enum class DecodeTensor { State, X, Dt, A, B, C, D, Z, DtBias };
constexpr unsigned kNumDecodeInputs = 9;
struct DecodeInputs {
  std::array<std::optional<HostTensor>, kNumDecodeInputs> tensors;

  const HostTensor &operator[](DecodeTensor t) const { return *tensors[unsigned(t)]; }
  mamba2::SsdDecodeInputs reference() const;
};
/// The file name of a decode input without ".npy": state, x, dt, A, B, C, D, z, dt_bias.
const char *decodeTensorName(DecodeTensor t);

/// DIR/state.npy, x.npy, dt.npy, A.npy, B.npy, C.npy and optionally D.npy, z.npy, dt_bias.npy,
/// read as loadInputs reads (the same dtypes and errors).
DecodeInputs loadDecodeInputs(const std::string &dir);
/// The decode input files of DIR that exist, as inputPaths.
std::vector<std::string> decodeInputPaths(const std::string &dir);
/// The decode demo: state (b, H, P, N) in fp32, x and z (b, H, P) and B and C (b, G, N) in
/// bf16, dt (b, H) for softplus, A < 0, D and dt_bias per head in fp32 (shape.T is unused).
DecodeInputs demoDecodeInputs(const DemoShape &shape);

} // namespace tile::ssd
