#include "tools/tile-ssd/Inputs.h"

#include "compiler/interpreter/DType.h"
#include "runtime/npy/Npy.h"
#include "tools/common/Files.h"

#include <cerrno>
#include <limits>

#include <random>
#include <sys/stat.h>

namespace tile::ssd {

using mamba2::SsdTensor;

HostTensor::HostTensor(rt::DType dtype, mamba2::Tensor v) : dtype(dtype), values(std::move(v)) {
  const auto idt = static_cast<interp::DType>(dtype);
  const unsigned size = interp::dtypeSize(idt);
  bytes.resize(values.data.size() * size);
  for (size_t i = 0; i < values.data.size(); ++i) {
    if (interp::isInteger(idt)) { // seq_idx
      interp::writeInt(bytes.data() + i * size, idt, static_cast<std::int64_t>(values.data[i]));
      values.data[i] = static_cast<double>(interp::readInt(bytes.data() + i * size, idt));
      continue;
    }
    interp::writeFloat(bytes.data() + i * size, idt, values.data[i]);
    values.data[i] = interp::readFloat(bytes.data() + i * size, idt);
  }
}

mamba2::SsdInputs Inputs::reference() const {
  auto get = [&](SsdTensor t) { return tensors[unsigned(t)]->values.view(); };
  auto opt = [&](SsdTensor t) {
    return tensors[unsigned(t)] ? std::optional<mamba2::TensorView>(get(t)) : std::nullopt;
  };
  return {get(SsdTensor::X),     get(SsdTensor::Dt),     get(SsdTensor::A),
          get(SsdTensor::B),     get(SsdTensor::C),      opt(SsdTensor::D),
          opt(SsdTensor::Z),     opt(SsdTensor::DtBias), opt(SsdTensor::InitialStates),
          opt(SsdTensor::SeqIdx)};
}

std::optional<HostTensor> loadNpyInput(const std::string &path, bool required) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
    if (required)
      throw rt::Error(rt::Error::Kind::Io, "missing required input " + path);
    return std::nullopt;
  }
  // The reader would take a directory for an empty file and could block on a FIFO.
  if (std::string why = tools::checkInputFile(path, ".npy input", std::numeric_limits<std::uint64_t>::max());
      !why.empty())
    throw rt::Error(rt::Error::Kind::Io, why);
  rt::NpyArray a = rt::readNpy(path);
  const rt::DType dtype = a.dtype == rt::DType::Float16 || a.dtype == rt::DType::BFloat16 ? a.dtype
                          : interp::isInteger(a.dtype)                                    ? rt::DType::Int32
                                                                                          : rt::DType::Float32;
  mamba2::Tensor values(a.shape);
  values.data = std::move(a.values);
  return HostTensor(dtype, std::move(values));
}

namespace {

// DIR/NAME.npy for the first `count` tensors of an enum, each read into its kernel dtype (float16
// and bfloat16 stay so, integers become int32 (seq_idx), anything else float32); those up to
// `lastRequired` must exist.
template <typename Tensor, std::size_t Count>
std::array<std::optional<HostTensor>, Count> loadTensors(const std::string &dir, const char *(*name)(Tensor),
                                                         Tensor lastRequired) {
  std::array<std::optional<HostTensor>, Count> tensors;
  for (unsigned i = 0; i < Count; ++i) {
    const Tensor t = Tensor(i);
    tensors[i] = loadNpyInput(dir + "/" + name(t) + ".npy", t <= lastRequired);
  }
  return tensors;
}

// The paths of DIR/NAME.npy that exist, for the first `count` tensors of an enum.
template <typename Tensor>
std::vector<std::string> existingPaths(const std::string &dir, const char *(*name)(Tensor), unsigned count) {
  std::vector<std::string> paths;
  for (unsigned i = 0; i < count; ++i) {
    std::string path = dir + "/" + name(Tensor(i)) + ".npy";
    struct stat st;
    if (stat(path.c_str(), &st) == 0)
      paths.push_back(path);
  }
  return paths;
}

// Uniform random tensors from one seeded generator, the demos' inputs.
struct Random {
  std::mt19937 rng{3};
  template <typename Tensor, std::size_t Count>
  void set(std::array<std::optional<HostTensor>, Count> &tensors, Tensor which, rt::DType dtype, mamba2::Shape shape,
           double lo, double hi) {
    std::uniform_real_distribution<double> d(lo, hi);
    mamba2::Tensor t(std::move(shape));
    for (double &e : t.data)
      e = d(rng);
    tensors[unsigned(which)].emplace(dtype, std::move(t));
  }
};

} // namespace

Inputs loadInputs(const std::string &dir) {
  return {loadTensors<SsdTensor, mamba2::kNumSsdInputs>(dir, mamba2::ssdTensorName, SsdTensor::C)};
}

std::vector<std::string> inputPaths(const std::string &dir) {
  return existingPaths(dir, mamba2::ssdTensorName, mamba2::kNumSsdInputs);
}

HostTensor randomTensor(rt::DType dtype, const mamba2::Shape &shape, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  mamba2::Tensor t(shape);
  for (double &e : t.data)
    e = d(rng);
  return HostTensor(dtype, std::move(t));
}

Inputs demoInputs(const DemoShape &s) {
  Random random;
  const rt::DType bf = rt::DType::BFloat16, f = rt::DType::Float32;
  Inputs in;
  random.set(in.tensors, SsdTensor::X, bf, {s.b, s.T, s.H, s.P}, -1, 1);
  random.set(in.tensors, SsdTensor::Dt, f, {s.b, s.T, s.H}, -4, 0);
  random.set(in.tensors, SsdTensor::A, f, {s.H}, -2, -0.5);
  random.set(in.tensors, SsdTensor::B, bf, {s.b, s.T, s.G, s.N}, -1, 1);
  random.set(in.tensors, SsdTensor::C, bf, {s.b, s.T, s.G, s.N}, -1, 1);
  random.set(in.tensors, SsdTensor::D, f, {s.H}, 0, 1);
  return in;
}

const char *decodeTensorName(DecodeTensor t) {
  static const char *const names[kNumDecodeInputs] = {"state", "x", "dt", "A", "B", "C", "D", "z", "dt_bias"};
  return names[unsigned(t)];
}

mamba2::SsdDecodeInputs DecodeInputs::reference() const {
  auto get = [&](DecodeTensor t) { return (*this)[t].values.view(); };
  auto opt = [&](DecodeTensor t) {
    return tensors[unsigned(t)] ? std::optional<mamba2::TensorView>(get(t)) : std::nullopt;
  };
  using T = DecodeTensor;
  return {get(T::State), get(T::X), get(T::Dt), get(T::A), get(T::B), get(T::C), opt(T::D), opt(T::Z), opt(T::DtBias)};
}

DecodeInputs loadDecodeInputs(const std::string &dir) {
  return {loadTensors<DecodeTensor, kNumDecodeInputs>(dir, decodeTensorName, DecodeTensor::C)};
}

std::vector<std::string> decodeInputPaths(const std::string &dir) {
  return existingPaths(dir, decodeTensorName, kNumDecodeInputs);
}

DecodeInputs demoDecodeInputs(const DemoShape &s) {
  Random random;
  const rt::DType bf = rt::DType::BFloat16, f = rt::DType::Float32;
  DecodeInputs in;
  random.set(in.tensors, DecodeTensor::State, f, {s.b, s.H, s.P, s.N}, -1, 1);
  random.set(in.tensors, DecodeTensor::X, bf, {s.b, s.H, s.P}, -1, 1);
  random.set(in.tensors, DecodeTensor::Dt, f, {s.b, s.H}, -4, 0);
  random.set(in.tensors, DecodeTensor::A, f, {s.H}, -2, -0.5);
  random.set(in.tensors, DecodeTensor::B, bf, {s.b, s.G, s.N}, -1, 1);
  random.set(in.tensors, DecodeTensor::C, bf, {s.b, s.G, s.N}, -1, 1);
  random.set(in.tensors, DecodeTensor::D, f, {s.H}, 0, 1);
  random.set(in.tensors, DecodeTensor::Z, bf, {s.b, s.H, s.P}, -1, 1);
  random.set(in.tensors, DecodeTensor::DtBias, f, {s.H}, -1, 1);
  return in;
}

} // namespace tile::ssd
