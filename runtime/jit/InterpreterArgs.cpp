#include "runtime/jit/InterpreterArgs.h"

#include "runtime/DLPack.h"
#include "runtime/Error.h"

#include <fmt/format.h>

namespace tile::jit {

namespace {

// "a float32", "an int8" (planLaunch's wording).
std::string withArticle(rt::DType dtype) {
  const char *name = rt::dtypeName(dtype);
  return fmt::format("{} {}", name[0] == 'i' ? "an" : "a", name);
}

std::string describeArg(const rt::Arg &arg) {
  if (auto *s = std::get_if<rt::Scalar>(&arg.value()))
    return fmt::format("{} scalar", withArticle(s->dtype()));
  return "an array";
}

// [first, last] element offsets an array's shape and strides reach (the array is non-empty).
std::pair<std::int64_t, std::int64_t> elementSpan(const rt::ArrayArg &a) {
  std::int64_t low = 0, high = 0;
  for (size_t d = 0; d < a.shape.size(); ++d) {
    std::int64_t reach = (a.shape[d] - 1) * a.strides[d];
    (reach < 0 ? low : high) += reach;
  }
  return {low, high};
}

class Converter {
public:
  Converter(const std::string &kernel, const std::vector<rt::ParamInfo> &params, const HostHeap &heap)
      : kernel_(kernel), params_(params), heap_(heap) {}

  std::vector<interp::LaunchArg> convert(const std::vector<rt::Arg> &args) {
    if (args.size() != params_.size()) {
      std::string names;
      for (const rt::ParamInfo &p : params_)
        names += fmt::format("{}{}", names.empty() ? "" : ", ", p.name);
      fail(fmt::format("the kernel takes {} argument{} ({}), got {}", params_.size(), params_.size() == 1 ? "" : "s",
                       names, args.size()));
    }
    std::vector<interp::LaunchArg> out;
    for (param_ = 0; param_ < args.size(); ++param_) {
      const rt::ParamInfo &p = params_[param_];
      const rt::Arg &arg = args[param_];
      if (p.isArray()) {
        out.push_back(interp::LaunchArg::of(array(p, arg)));
        continue;
      }
      const rt::Scalar *s = std::get_if<rt::Scalar>(&arg.value());
      if (!s)
        fail(fmt::format("expected {} scalar, got {}", withArticle(p.dtype), describeArg(arg)));
      if (s->dtype() != p.dtype)
        fail(fmt::format("got {} scalar, the kernel expects {}", withArticle(s->dtype()), rt::dtypeName(p.dtype)));
      out.push_back(interp::LaunchArg::fromBits(p.dtype, s->bits()));
    }
    return out;
  }

  [[noreturn]] void fail(const std::string &message) const {
    std::string where =
        param_ < params_.size() ? fmt::format("argument {} ('{}'): ", param_, params_[param_].name) : std::string();
    throw rt::Error(rt::Error::Kind::InvalidArgument, fmt::format("launch of '{}': {}{}", kernel_, where, message));
  }

private:
  interp::HostArray array(const rt::ParamInfo &p, const rt::Arg &arg) {
    rt::ArrayArg a;
    bool fromDLPack = false;
    if (auto *x = std::get_if<rt::ArrayArg>(&arg.value())) {
      a = *x;
    } else if (auto *t = std::get_if<const DLTensor *>(&arg.value())) {
      if (!*t)
        fail("null DLTensor pointer");
      if ((*t)->device.device_type != kDLCPU)
        fail(fmt::format("DLPack tensor is not in host memory (device type {}{}); the interpreter backend runs "
                         "kernels on the CPU",
                         int((*t)->device.device_type), (*t)->device.device_type == kDLCUDA ? ", CUDA" : ""));
      try {
        a = rt::dlpackView(**t);
      } catch (const rt::Error &e) {
        fail(e.what());
      }
      fromDLPack = true;
    } else {
      fail(fmt::format("expected {} array of rank {}, got {}", withArticle(p.dtype), p.rank, describeArg(arg)));
    }
    if (a.dtype != p.dtype)
      fail(fmt::format("dtype is {}, the kernel expects {}", rt::dtypeName(a.dtype), rt::dtypeName(p.dtype)));
    const int rank = int(a.shape.size());
    if (rank != p.rank)
      fail(fmt::format("rank is {}, the kernel expects {}", rank, p.rank));
    if (!a.strides.empty() && a.strides.size() != a.shape.size())
      fail(fmt::format("{} dimensions but {} strides", rank, a.strides.size()));
    for (int d = 0; d < rank; ++d)
      if (a.shape[size_t(d)] < 0)
        fail(fmt::format("shape[{}] is {}", d, a.shape[size_t(d)]));
    a.strides = a.stridesOrContiguous();

    interp::HostArray h = interp::HostArray::strided(reinterpret_cast<void *>(a.data), a.dtype, a.shape, a.strides);
    if (a.numElements() == 0)
      return h; // the kernel touches no memory
    if (a.data == 0)
      fail("null data pointer for a non-empty array");
    const std::uint64_t size = rt::dtypeSize(a.dtype);
    if (a.data % size)
      fail(fmt::format("address {:#x} is not a multiple of the {}-byte element size", a.data, size));
    if (std::optional<HostHeap::Range> range = heap_.find(a.data)) {
      h.allocBegin = range->begin;
      h.allocEnd = range->begin + range->size;
    } else if (fromDLPack) {
      // Memory of the tensor's producer: what its shape and strides span is all we know.
      auto [low, high] = elementSpan(a);
      h.allocBegin = reinterpret_cast<const char *>(a.data) + low * std::int64_t(size);
      h.allocEnd = reinterpret_cast<const char *>(a.data) + (high + 1) * std::int64_t(size);
    } else {
      fail(fmt::format("address {:#x} is not in a buffer of the interpreter backend (a device pointer, or "
                       "memory this backend did not allocate? use Backend::allocate or Backend::upload)",
                       a.data));
    }
    return h;
  }

  const std::string &kernel_;
  const std::vector<rt::ParamInfo> &params_;
  const HostHeap &heap_;
  size_t param_ = size_t(-1);
};

} // namespace

interp::Dim3 toInterpreterGrid(const std::string &kernel, const rt::Grid &grid) {
  const rt::DeviceLimits limits;
  const std::int64_t dims[3] = {grid.x, grid.y, grid.z};
  for (int d = 0; d < 3; ++d)
    if (dims[d] < 1 || dims[d] > limits.maxGrid[size_t(d)])
      throw rt::Error(rt::Error::Kind::InvalidArgument,
                      fmt::format("launch of '{}': grid.{} = {} is out of range [1, {}]", kernel, "xyz"[d], dims[d],
                                  limits.maxGrid[size_t(d)]));
  return {grid.x, grid.y, grid.z};
}

std::vector<interp::LaunchArg> toInterpreterArgs(const std::string &kernel, const std::vector<rt::ParamInfo> &params,
                                                 const std::vector<rt::Arg> &args, const HostHeap &heap) {
  return Converter(kernel, params, heap).convert(args);
}

} // namespace tile::jit
