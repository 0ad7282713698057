#include "runtime/LaunchPlan.h"

#include "runtime/DLPack.h"
#include "runtime/Error.h"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

namespace tile::rt {

std::size_t ParamBuffer::add(const void *bytes, std::size_t size, std::size_t align) {
  std::size_t offset = (used_ + align - 1) / align * align;
  used_ = offset + size;
  storage_.resize((used_ + sizeof(Chunk) - 1) / sizeof(Chunk));
  if (bytes)
    std::memcpy(at(offset), bytes, size);
  else
    std::memset(at(offset), 0, size);
  params_.emplace_back(offset, size);
  return offset;
}

std::vector<void *> ParamBuffer::pointers() {
  std::vector<void *> p;
  for (auto &[offset, size] : params_)
    p.push_back(at(offset));
  return p;
}

namespace {

// "a float32", "an int8".
std::string withArticle(DType dtype) {
  const char *name = dtypeName(dtype);
  return fmt::format("{} {}", name[0] == 'i' ? "an" : "a", name);
}

std::string describeArg(const Arg &arg) {
  if (auto *s = std::get_if<Scalar>(&arg.value()))
    return fmt::format("{} scalar", withArticle(s->dtype()));
  return "an array";
}

// Checks arguments one by one; `fail` prefixes the kernel and the current parameter.
class Planner {
public:
  Planner(const KernelMetadata &md, const DeviceLimits &limits) : md_(md), limits_(limits) {}

  [[noreturn]] void fail(const std::string &message) const {
    std::string where =
        param_ < 0 ? std::string() : fmt::format("argument {} ('{}'): ", param_, md_.params[size_t(param_)].name);
    throw Error(Error::Kind::InvalidArgument, fmt::format("launch of '{}': {}{}", md_.name, where, message));
  }

  LaunchPlan plan(const std::vector<Arg> &args, const Grid &grid) {
    LaunchPlan plan;
    checkGrid(grid, plan);
    if (std::string problem = kernelFitProblem(md_, limits_); !problem.empty())
      fail(problem);
    if (args.size() != md_.params.size()) {
      std::string names;
      for (const ParamInfo &p : md_.params)
        names += fmt::format("{}{}", names.empty() ? "" : ", ", p.name);
      fail(fmt::format("the kernel takes {} argument{} ({}), got {}", md_.params.size(),
                       md_.params.size() == 1 ? "" : "s", names, args.size()));
    }
    std::vector<ArrayArg> arrays(args.size());
    for (param_ = 0; size_t(param_) < args.size(); ++param_) {
      const ParamInfo &p = md_.params[size_t(param_)];
      const Arg &arg = args[size_t(param_)];
      if (p.isArray()) {
        arrays[size_t(param_)] = array(p, arg);
        pack(arrays[size_t(param_)], plan.params);
      } else {
        const Scalar *s = std::get_if<Scalar>(&arg.value());
        if (!s)
          fail(fmt::format("expected {} scalar, got {}", withArticle(p.dtype), describeArg(arg)));
        if (s->dtype() != p.dtype)
          fail(fmt::format("got {} scalar, the kernel expects {}", withArticle(s->dtype()), dtypeName(p.dtype)));
        std::uint64_t bits = s->bits(); // little-endian: the low bytes hold the value
        plan.params.add(&bits, dtypeSize(p.dtype), dtypeSize(p.dtype));
      }
    }
    param_ = -1;
    for (size_t i = 0; i < md_.tma.size(); ++i) {
      param_ = md_.tma[i].paramIndex;
      plan.tensorMaps.push_back(tensorMap(int(i), arrays[size_t(param_)], plan.params));
    }
    return plan;
  }

private:
  void checkGrid(const Grid &grid, LaunchPlan &plan) {
    const std::int64_t dims[3] = {grid.x, grid.y, grid.z};
    for (int d = 0; d < 3; ++d) {
      if (dims[d] < 1 || dims[d] > limits_.maxGrid[size_t(d)])
        fail(fmt::format("grid.{} = {} is out of range [1, {}]", "xyz"[d], dims[d], limits_.maxGrid[size_t(d)]));
      plan.grid[size_t(d)] = unsigned(dims[d]);
    }
    for (int d = 0; d < 3; ++d) {
      if (dims[d] % md_.cluster[size_t(d)])
        fail(fmt::format("grid ({}, {}, {}) is not a multiple of the cluster shape ({}, {}, {})", grid.x, grid.y,
                         grid.z, md_.cluster[0], md_.cluster[1], md_.cluster[2]));
      plan.cluster[size_t(d)] = unsigned(md_.cluster[size_t(d)]);
    }
    // A preferred size (num_ctas=) is a hint: clusters along the first axis it divides.
    if (md_.cluster == std::array<int, 3>{1, 1, 1} && md_.preferredClusterSize > 1)
      for (int d = 0; d < 3; ++d)
        if (dims[d] % md_.preferredClusterSize == 0) {
          plan.cluster[size_t(d)] = unsigned(md_.preferredClusterSize);
          break;
        }
  }

  ArrayArg array(const ParamInfo &p, const Arg &arg) {
    std::string expected = fmt::format("{} array of rank {}", withArticle(p.dtype), p.rank);
    ArrayArg a;
    if (auto *x = std::get_if<ArrayArg>(&arg.value())) {
      a = *x;
    } else if (auto *t = std::get_if<const DLTensor *>(&arg.value())) {
      if (!*t)
        fail("null DLTensor pointer");
      try {
        a = arrayFromDLPack(**t, limits_.ordinal);
      } catch (const Error &e) {
        fail(e.what());
      }
    } else {
      fail(fmt::format("expected {}, got {}", expected, describeArg(arg)));
    }
    if (a.dtype != p.dtype)
      fail(fmt::format("dtype is {}, the kernel expects {}", dtypeName(a.dtype), dtypeName(p.dtype)));
    int rank = int(a.shape.size());
    if (rank != p.rank)
      fail(fmt::format("rank is {}, the kernel expects {}", rank, p.rank));
    if (!a.strides.empty() && a.strides.size() != a.shape.size())
      fail(fmt::format("{} dimensions but {} strides", rank, a.strides.size()));
    for (int d = 0; d < rank; ++d)
      if (a.shape[size_t(d)] < 0)
        fail(fmt::format("shape[{}] is {}", d, a.shape[size_t(d)]));
    a.strides = a.stridesOrContiguous();
    if (a.numElements() == 0)
      return a; // the kernel touches no memory
    if (a.data == 0)
      fail("null data pointer for a non-empty array");
    // The specialization assumed the base address and every stride in bytes except the
    // last dimension's (which vector accesses step along) to be multiples of `alignment`.
    auto align = std::uint64_t(p.alignment);
    if (a.data % align)
      fail(fmt::format("address {:#x} is not a multiple of {} bytes, the alignment the kernel "
                       "was compiled for",
                       a.data, align));
    std::int64_t elem = dtypeSize(a.dtype);
    for (int d = 0; d + 1 < rank; ++d) {
      std::int64_t s = a.strides[size_t(d)];
      if (a.shape[size_t(d)] > 1 && (s * elem) % std::int64_t(align))
        fail(fmt::format("strides[{}] is {} elements ({} bytes), not a multiple of the {}-byte "
                         "alignment the kernel was compiled for",
                         d, s, s * elem, align));
    }
    if (p.unitStrideLast && a.shape.back() > 1 && a.strides.back() != 1)
      fail(fmt::format("the last dimension has stride {}; the kernel requires stride 1", a.strides.back()));
    return a;
  }

  static void pack(const ArrayArg &a, ParamBuffer &params) {
    std::uint64_t ptr = a.data;
    params.add(&ptr, 8, 8);
    for (std::int64_t d : a.shape)
      params.add(&d, 8, 8);
    for (std::int64_t s : a.strides)
      params.add(&s, 8, 8);
  }

  TensorMapRequest tensorMap(int index, const ArrayArg &a, ParamBuffer &params) {
    const TmaInfo &t = md_.tma[size_t(index)];
    TensorMapRequest r;
    r.tmaIndex = index;
    r.param = t.param;
    r.dtype = a.dtype;
    r.address = a.data;
    r.swizzle = t.swizzle;
    r.l2Promotion = t.l2Promotion;
    r.oobFill = t.oobFill;
    size_t rank = a.shape.size();
    std::uint64_t elem = dtypeSize(a.dtype);
    for (size_t i = 0; i < rank; ++i) { // CUDA orders dimensions innermost first
      size_t d = rank - 1 - i;
      // Tile coordinates are signed 32-bit: the kernel's reach ends below 2^31.
      if (a.shape[d] < 1 || a.shape[d] >= (std::int64_t(1) << 31))
        fail(fmt::format("tma[{}]: shape[{}] = {} is out of the TMA range [1, 2^31)", index, d, a.shape[d]));
      r.globalDim.push_back(std::uint64_t(a.shape[d]));
      r.box.push_back(std::uint32_t(t.box[d]));
      r.elementStrides.push_back(std::uint32_t(t.elementStrides[d]));
      if (i == 0)
        continue;
      std::int64_t bytes = a.strides[d] * std::int64_t(elem);
      if (a.shape[d] == 1) { // never stepped along: give TMA a valid (packed) stride
        std::uint64_t inner = i == 1 ? elem : r.globalStrides[i - 2];
        bytes = std::int64_t((inner * r.globalDim[i - 1] + 15) / 16 * 16);
      }
      if (bytes <= 0 || bytes % 16 || std::uint64_t(bytes) >= (std::uint64_t(1) << 40))
        fail(fmt::format("tma[{}]: strides[{}] = {} bytes; TMA needs a positive multiple of 16 "
                         "below 2^40",
                         index, d, bytes));
      r.globalStrides.push_back(std::uint64_t(bytes));
    }
    r.offset = params.add(nullptr, 128, 128);
    return r;
  }

  const KernelMetadata &md_;
  const DeviceLimits &limits_;
  int param_ = -1;
};

} // namespace

std::string kernelFitProblem(const KernelMetadata &md, const DeviceLimits &limits) {
  if (md.threadsPerBlock > limits.maxThreadsPerBlock)
    return fmt::format("the kernel uses {} threads per block, the device allows at most {}", md.threadsPerBlock,
                       limits.maxThreadsPerBlock);
  if (md.dynamicSharedMemory > limits.maxDynamicSharedMemory)
    return fmt::format("the kernel needs {} bytes of dynamic shared memory, the device allows "
                       "at most {}",
                       md.dynamicSharedMemory, limits.maxDynamicSharedMemory);
  return "";
}

std::vector<std::uint64_t> TensorMapRequest::key() const {
  std::vector<std::uint64_t> k{std::uint64_t(dtype),       address,
                               globalDim.size(),           std::uint64_t(swizzle),
                               std::uint64_t(l2Promotion), std::uint64_t(oobFill)};
  k.insert(k.end(), globalDim.begin(), globalDim.end());
  k.insert(k.end(), globalStrides.begin(), globalStrides.end());
  k.insert(k.end(), box.begin(), box.end());
  k.insert(k.end(), elementStrides.begin(), elementStrides.end());
  return k;
}

LaunchPlan planLaunch(const KernelMetadata &metadata, const std::vector<Arg> &args, const Grid &grid,
                      const DeviceLimits &limits) {
  return Planner(metadata, limits).plan(args, grid);
}

} // namespace tile::rt
