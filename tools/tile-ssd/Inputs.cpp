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
    interp::writeFloat(bytes.data() + i * size, idt, values.data[i]);
    values.data[i] = interp::readFloat(bytes.data() + i * size, idt);
  }
}

mamba2::SsdInputs Inputs::reference() const {
  auto get = [&](SsdTensor t) { return tensors[unsigned(t)]->values.view(); };
  auto opt = [&](SsdTensor t) {
    return tensors[unsigned(t)] ? std::optional<mamba2::TensorView>(get(t)) : std::nullopt;
  };
  return {get(SsdTensor::X), get(SsdTensor::Dt),     get(SsdTensor::A),
          get(SsdTensor::B), get(SsdTensor::C),      opt(SsdTensor::D),
          opt(SsdTensor::Z), opt(SsdTensor::DtBias), opt(SsdTensor::InitialStates)};
}

Inputs loadInputs(const std::string &dir) {
  Inputs in;
  for (unsigned i = 0; i < mamba2::kNumSsdInputs; ++i) {
    const SsdTensor t = SsdTensor(i);
    const std::string path = dir + "/" + mamba2::ssdTensorName(t) + ".npy";
    struct stat st;
    if (lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
      if (t <= SsdTensor::C)
        throw rt::Error(rt::Error::Kind::Io, "missing required input " + path);
      continue;
    }
    // The reader would take a directory for an empty file and could block on a FIFO.
    if (std::string why = tools::checkInputFile(path, ".npy input", std::numeric_limits<std::uint64_t>::max());
        !why.empty())
      throw rt::Error(rt::Error::Kind::Io, why);
    rt::NpyArray a = rt::readNpy(path);
    const rt::DType dtype =
        a.dtype == rt::DType::Float16 || a.dtype == rt::DType::BFloat16 ? a.dtype : rt::DType::Float32;
    mamba2::Tensor values(a.shape);
    values.data = std::move(a.values);
    in.tensors[i].emplace(dtype, std::move(values));
  }
  return in;
}

std::vector<std::string> inputPaths(const std::string &dir) {
  std::vector<std::string> paths;
  for (unsigned i = 0; i < mamba2::kNumSsdInputs; ++i) {
    std::string path = dir + "/" + mamba2::ssdTensorName(SsdTensor(i)) + ".npy";
    struct stat st;
    if (stat(path.c_str(), &st) == 0)
      paths.push_back(path);
  }
  return paths;
}

Inputs demoInputs(const DemoShape &s) {
  std::mt19937 rng(3);
  auto random = [&](mamba2::Shape shape, double lo, double hi) {
    std::uniform_real_distribution<double> d(lo, hi);
    mamba2::Tensor t(std::move(shape));
    for (double &e : t.data)
      e = d(rng);
    return t;
  };
  const rt::DType bf = rt::DType::BFloat16, f = rt::DType::Float32;
  Inputs in;
  auto set = [&](SsdTensor t, rt::DType dtype, mamba2::Tensor v) {
    in.tensors[unsigned(t)].emplace(dtype, std::move(v));
  };
  set(SsdTensor::X, bf, random({s.b, s.T, s.H, s.P}, -1, 1));
  set(SsdTensor::Dt, f, random({s.b, s.T, s.H}, -4, 0));
  set(SsdTensor::A, f, random({s.H}, -2, -0.5));
  set(SsdTensor::B, bf, random({s.b, s.T, s.G, s.N}, -1, 1));
  set(SsdTensor::C, bf, random({s.b, s.T, s.G, s.N}, -1, 1));
  set(SsdTensor::D, f, random({s.H}, 0, 1));
  return in;
}

} // namespace tile::ssd
