// ssd_forward's launch sequence, described once for every backend. From the inputs' dtypes and
// shapes and the options, planSsdForward checks the problem and returns the three launches of
// ssd.py — what to compile (a jit::KernelRequest), on which grid, and the argument list as
// references to named tensors or integer scalars. The executor (SsdForward.cpp, over a
// jit::Backend) only allocates the outputs, binds the tensor names to the backend's memory and
// runs the launches in order; the kernel choices (block sizes, constants, placeholders for
// absent inputs) live here alone, so the GPU and the interpreter run the very same kernels.
#pragma once

#include "kernels/mamba2/SsdProblem.h"
#include "runtime/jit/Jit.h"
#include "runtime/jit/TuneKey.h"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tile::mamba2 {

/// The operand type of the matrix products for 16-bit data (fp32 data always multiplies in
/// exact fp32).
enum class MatmulPrecision {
  Native, // the data's bf16/fp16: computed factors rounded to 8 (bf16) or 11 (fp16) bits
  TF32,   // tf32 operands: 11 bits for every factor, half the Tensor Core rate
};
/// "native" or "tf32"; parseMatmulPrecision returns nothing for any other text.
const char *matmulPrecisionName(MatmulPrecision p);
std::optional<MatmulPrecision> parseMatmulPrecision(const std::string &text);

struct ForwardOptions {
  SsdOptions dt; // dt_bias/softplus/limits, as the reference takes them
  /// A power of two from 16 to 256; 0 lets planSsdForward choose (defaultChunkSize). The result
  /// does not depend on it beyond rounding.
  int chunkSize = 0;
  MatmulPrecision precision = MatmulPrecision::Native;
  /// The dtype of y; default x's.
  std::optional<rt::DType> outputDType;
};
/// The chunk size chosen when ForwardOptions::chunkSize is 0: 128 for 16-bit data with native
/// products and dstate >= 128, else 64. A longer chunk halves the chunk-entry states written and
/// read (P x N per head and chunk) and doubles the intra-chunk work per row (Q x P), so it pays
/// where the states are large; measured on the H200 (docs/mamba2.md): chunk 128 is faster on the
/// four benchmark shapes with dstate 128, chunk 64 on the one with dstate 64.
int defaultChunkSize(std::int64_t dstate, rt::DType dataType, MatmulPrecision precision);

/// Every tensor a launch may reference: the inputs, then the outputs and intermediates.
enum class SsdTensor : unsigned {
  X,
  Dt,
  A,
  B,
  C,
  D,
  Z,
  DtBias,
  InitialStates,
  SeqIdx, // inputs (D .. SeqIdx optional)
  Y,
  FinalStates,
  DtOut,
  DACumsum,
  States,
  CB, // outputs, allocated by the executor
};
constexpr unsigned kNumSsdTensors = static_cast<unsigned>(SsdTensor::CB) + 1;
constexpr unsigned kNumSsdInputs = static_cast<unsigned>(SsdTensor::Y);
/// The tensor's name in docs/mamba2.md and messages: "x", "dt_bias", "dA_cumsum", ...
const char *ssdTensorName(SsdTensor t);

/// What the plan needs to know about a tensor (the executor owns the memory).
struct SsdTensorType {
  rt::DType dtype = rt::DType::Float32;
  Shape shape;
  /// The array keeps the aligned facts (rt::ArrayArg::isAligned): its kernels are compiled for
  /// an aligned argument (no alignment checks, TMA copies). Outputs the plan allocates are.
  bool aligned = false;
};
/// Indexed by SsdTensor; an absent optional input is nullopt.
using SsdTensorTypes = std::array<std::optional<SsdTensorType>, kNumSsdTensors>;

/// A tensor viewed with its last two dimensions swapped: the same memory, strides exchanged
/// (fwd_pass_state's swapped product writes the states transposed through it).
struct SsdTransposed {
  SsdTensor tensor;
};
/// One kernel argument: a tensor by name, a transposed view of one, or an int64 scalar.
using SsdLaunchArg = std::variant<SsdTensor, SsdTransposed, std::int64_t>;
/// `array` with its last two dimensions (and strides) swapped.
rt::ArrayArg transposedView(const rt::ArrayArg &array);

/// One way to run a launch: an @ct.autotune configuration of the kernel fitted to the shape
/// (block sizes no larger than the dimensions they tile), its request and its grid.
struct SsdVariant {
  jit::KernelRequest request; // source ssd.py, kernel name, constants, argument types, config
  std::array<std::int64_t, 3> grid{1, 1, 1};
  jit::TuneCandidate candidate; // the configuration index and its fitted block sizes
};

struct SsdLaunch {
  /// One per configuration, in the kernel's order, without duplicates (configurations that fit
  /// to the same block sizes on a small shape); variants[0] is configuration 0, what runs
  /// when tuning is off.
  std::vector<SsdVariant> variants;
  std::vector<SsdLaunchArg> args; // in the kernel's parameter order
  /// The kernel's autotune key= names, and the problem's dimensions they may name (batch,
  /// seqlen, nheads, headdim, ngroups, dstate, Q).
  std::vector<std::string> keyNames;
  std::map<std::string, std::int64_t> keyValues;

  const jit::KernelRequest &request() const { return variants.front().request; }
  const std::array<std::int64_t, 3> &grid() const { return variants.front().grid; }
  /// No blocks (an empty batch or sequence): the executor skips the launch, which is exactly its
  /// effect (fwd_pass_state still runs for T = 0, so final_states = initial_states).
  bool empty() const {
    const auto &g = grid();
    return g[0] == 0 || g[1] == 0 || g[2] == 0;
  }
};

struct SsdPlan {
  SsdDims dims;
  std::int64_t chunkSize = 0, numChunks = 0;
  /// The inputs as given, plus the outputs' dtypes and shapes (always present).
  SsdTensorTypes tensors;
  /// chunk_cumsum, chunk_bmm, fwd_pass_state, compute_out, to run in this order (chunk_bmm only
  /// when compute_out's configuration reads it: readsChunkBmm).
  std::array<SsdLaunch, 4> launches;

  const SsdTensorType &type(SsdTensor t) const { return *tensors[static_cast<unsigned>(t)]; }
};

/// Per-kernel times of one call, in milliseconds (what the backend can measure: GPU events
/// or host wall-clock time; compiling is never included).
struct SsdTimings {
  /// In: how many times the call runs the pass back to back (its launches are idempotent: the
  /// same inputs give the same outputs), as a benchmark that enqueues many calls does; with
  /// more than one, the host enqueues while the GPU runs, so launch gaps between the kernels
  /// do not count.
  int repeats = 1;
  /// Out: the kernels' times, of the last pass.
  double chunkCumsumMs = 0, chunkBmmMs = 0, fwdPassStateMs = 0, computeOutMs = 0;
  /// Out: from the first launch's start to the last one's end, divided by `repeats`: what a
  /// caller waits per pass (GPU events around all launches, no synchronisation between them; on
  /// the interpreter the same as the sum).
  double endToEndMs = 0;
  double totalMs() const { return chunkCumsumMs + chunkBmmMs + fwdPassStateMs + computeOutMs; }
  /// The time of SsdPlan::launches[k].
  double &kernelMs(std::size_t k) {
    return k == 0 ? chunkCumsumMs : k == 1 ? chunkBmmMs : k == 2 ? fwdPassStateMs : computeOutMs;
  }
};

/// Checks shapes (validateShapes' messages), dtypes (bf16/f16/f32; B and C alike), dt options,
/// chunk size (a power of two from 16 to 256) and dstate (a power of two up to 256), and plans
/// the launches. Throws rt::Error(InvalidArgument) naming the tensor.
/// Only the input entries of `inputs` are read.
SsdPlan planSsdForward(const SsdTensorTypes &inputs, const ForwardOptions &options);

/// Whether compute_out in configuration `computeOut` (a variant of launches[3]) reads chunk_bmm's
/// C.B^T: only its blocks below the diagonal do, which exist when its row block BQ is smaller
/// than the chunk (it computes the diagonal block itself). The executor skips chunk_bmm otherwise.
bool readsChunkBmm(const SsdPlan &plan, const SsdVariant &computeOut);

/// The kernel source: ssd.py as compiled into the library, or the file named by the
/// TILE_SSD_SOURCE environment variable (throws rt::Error when it cannot be read).
std::string ssdSource();
/// A kernel file's source: the one named by `environmentVariable` when it is set (throws
/// rt::Error(InvalidArgument) naming the variable when that file cannot be read or is empty),
/// else the `size` bytes compiled into the library.
std::string kernelSource(const char *environmentVariable, const unsigned char *embedded, std::size_t size);

/// A kernel's constants by name.
using KernelConstants = std::map<std::string, frontend::ConstantValue>;
/// The launch of `base.kernel` (its source, constants and argument types set) in each of its
/// @ct.autotune configurations: their constants fitted to the shape by `fit`, configurations
/// that fit to the same constants merged, each on the grid `grid` gives; keyed by the kernel's
/// key= names, with `dims` the values they may name. Its args are left to the caller.
SsdLaunch autotunedLaunch(const jit::KernelRequest &base, const std::function<void(KernelConstants &)> &fit,
                          const std::function<std::array<std::int64_t, 3>(const KernelConstants &)> &grid,
                          const std::map<std::string, std::int64_t> &dims);
/// The constant `name` of `constants` as an integer.
std::int64_t intOf(const KernelConstants &constants, const char *name);
/// The largest power of two no larger than min(v, cap) (1 when v < 2): block sizes are powers of
/// two (tiles must be) no larger than the dimension they tile, so a tiny test shape gets tiny
/// blocks rather than mostly-padding ones; a dimension that is not a power of two is covered by
/// several blocks with a padded edge.
std::int64_t pow2AtMost(std::int64_t v, std::int64_t cap);
/// Throws rt::Error(InvalidArgument) "<prefix><name> has dtype D; expected bfloat16, float16 or
/// float32" unless `dtype` is one of those.
void expectFloatDType(const char *prefix, const std::string &name, rt::DType dtype);

} // namespace tile::mamba2
