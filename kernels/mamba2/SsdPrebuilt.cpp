#include "kernels/mamba2/SsdPrebuilt.h"

#include "runtime/GpuArch.h"

#include <fmt/format.h>

namespace tile::mamba2 {

std::string SsdSignature::str() const {
  return fmt::format("H={} P={} G={} N={} data={} dt={} params={} chunk={}", nheads, headdim, ngroups, dstate,
                     rt::dtypeName(data), rt::dtypeName(dt), rt::dtypeName(params),
                     chunkSize ? std::to_string(chunkSize) : "auto");
}

std::vector<SsdSignature> prebuiltSignatures(const std::string &set) {
  using rt::DType;
  struct Family {
    std::int64_t H, P, G, N;
  };
  // The benchmark shapes' families (2.7B, Codestral 7B, the small model): only H/G among the
  // heads, P, G and N reach the kernels' constants, so batch and sequence length never matter.
  std::vector<Family> families = {{80, 64, 1, 128}, {128, 64, 8, 128}, {32, 64, 1, 64}};
  if (set == "core") { // the library's chunk size, and tile-bench's default 256
    std::vector<SsdSignature> out;
    for (const Family &f : families)
      for (int chunk : {0, 256})
        for (DType dt : {DType::Float32, DType::BFloat16}) // only chunk_cumsum reads dt
          out.push_back({f.H, f.P, f.G, f.N, DType::BFloat16, DType::Float32, chunk, dt});
    for (int chunk : {0, 256}) // and 2.7B in float32
      out.push_back({80, 64, 1, 128, DType::Float32, DType::Float32, chunk});
    return out;
  }
  if (set != "full")
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    fmt::format("prebuilt signature set '{}': expected core or full", set));
  // Also mamba2-130m, 370m, 780m and 1.3b (24, 32, 48 and 64 heads of 64, dstate 128).
  for (std::int64_t H : {24, 32, 48, 64})
    families.push_back({H, 64, 1, 128});
  std::vector<SsdSignature> out;
  for (const Family &f : families)
    for (DType data : {DType::BFloat16, DType::Float16, DType::Float32})
      for (int chunk : {64, 128, 256})
        out.push_back({f.H, f.P, f.G, f.N, data, DType::Float32, chunk});
  return out;
}

std::vector<std::string> parseTargets(const std::string &commaList) {
  std::vector<std::string> targets;
  for (std::size_t start = 0; start <= commaList.size();) {
    std::size_t comma = std::min(commaList.find(',', start), commaList.size());
    std::string name = commaList.substr(start, comma - start);
    if (!name.empty() && !rt::GpuArch::parse(name))
      throw rt::Error(rt::Error::Kind::InvalidArgument, fmt::format("unknown target '{}'", name));
    if (!name.empty())
      targets.push_back(name);
    start = comma + 1;
  }
  if (targets.empty())
    throw rt::Error(rt::Error::Kind::InvalidArgument, "no target given");
  return targets;
}

std::vector<jit::KernelRequest> forwardRequests(const SsdSignature &s) {
  // Two chunks of two sequences: no dimension of 1, so the aligned facts are those of any
  // longer contiguous problem of the signature.
  const std::int64_t b = 2, T = 2 * (s.chunkSize ? s.chunkSize : 256);
  auto contiguous = [](rt::DType dtype, Shape shape) {
    rt::ArrayArg allocated{256, dtype, shape, {}};
    return SsdTensorType{dtype, std::move(shape), allocated.isAligned()};
  };
  SsdTensorTypes inputs;
  auto set = [&](SsdTensor t, rt::DType dtype, Shape shape) {
    inputs[unsigned(t)] = contiguous(dtype, std::move(shape));
  };
  set(SsdTensor::X, s.data, {b, T, s.nheads, s.headdim});
  set(SsdTensor::B, s.data, {b, T, s.ngroups, s.dstate});
  set(SsdTensor::C, s.data, {b, T, s.ngroups, s.dstate});
  set(SsdTensor::Dt, s.dt, {b, T, s.nheads});
  set(SsdTensor::A, s.params, {s.nheads});
  set(SsdTensor::D, s.params, {s.nheads});
  set(SsdTensor::DtBias, s.params, {s.nheads});
  ForwardOptions options;
  options.chunkSize = s.chunkSize;
  options.dt.dtSoftplus = true;
  SsdPlan plan = planSsdForward(inputs, options);
  std::vector<jit::KernelRequest> requests;
  for (const SsdLaunch &launch : plan.launches)
    for (const SsdVariant &variant : launch.variants)
      requests.push_back(variant.request);
  return requests;
}

} // namespace tile::mamba2
