#include "tools/tile-run/GpuRun.h"

#include "runtime/Error.h"
#include "runtime/jit/Backend.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tile::run {

using interp::DType;

std::pair<double, double> defaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return {1e-12, 1e-12};
  case DType::Float32:
    // f32 results are mostly sums, which the GPU adds in another order: measured 9e-7 of the
    // value on a K = 70 product, 2.9e-6 absolute where terms cancel.
    return {1e-5, 1e-5};
  case DType::TFloat32:
    return {2e-3, 2e-3}; // two tf32 ulps (2^-9)
  case DType::Float16:
    return {2e-3, 2e-3}; // two f16 ulps (2^-9)
  case DType::BFloat16:
    return {1.6e-2, 1.6e-2}; // two bf16 ulps (2^-6)
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return {0.25, 0.25};
  default:
    return {0, 0}; // integers and bool: exact
  }
}

std::pair<double, double> toleranceFor(const ArrayArg &interpreted) {
  auto [rtol, atol] = defaultTolerance(interpreted.dtype);
  if (!interp::isFloat(interpreted.dtype) || rtol == 0)
    return {rtol, atol};
  // The array's scale: its RMS over finite elements, read through the view's strides.
  double sumSq = 0;
  int64_t finite = 0;
  const int64_t n = interpreted.view.numElements();
  std::vector<int64_t> index(interpreted.shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d)
      offset += index[d] * interpreted.view.strides[d];
    const double v = interp::readFloat(static_cast<const char *>(interpreted.view.data) +
                                           offset * interp::dtypeSize(interpreted.dtype),
                                       interpreted.dtype);
    if (std::isfinite(v))
      sumSq += v * v, ++finite;
    for (size_t d = index.size(); d-- > 0;)
      if (++index[d] < interpreted.shape[d])
        break;
      else
        index[d] = 0;
  }
  const double rms = finite ? std::sqrt(sumSq / double(finite)) : 0.0;
  return {rtol, std::max(atol, rtol * rms)};
}

namespace {

// The scalar argument as the runtime passes it: its dtype and bit pattern.
rt::Scalar runtimeScalar(const interp::LaunchArg &arg) {
  char bytes[8] = {};
  if (interp::isFloat(arg.dtype))
    interp::writeFloat(bytes, arg.dtype, arg.floatValue);
  else
    interp::writeInt(bytes, arg.dtype, arg.intValue);
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes, interp::dtypeSize(arg.dtype));
  return rt::Scalar::fromBits(arg.dtype, bits);
}

double elementValue(const char *p, DType dtype) {
  return interp::isFloat(dtype) ? interp::readFloat(p, dtype) : double(interp::readInt(p, dtype));
}

// "[3, 17]": an element's index, Python style.
std::string indexString(const std::vector<int64_t> &shape, int64_t linear) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? linear % shape[d] : 0;
    linear = shape[d] ? linear / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

// Compares the view's elements (row-major order) in two copies of the same allocation.
struct Comparison {
  int64_t compared = 0, mismatches = 0, firstBad = -1;
  double maxAbs = 0, maxRel = 0, firstGpu = 0, firstInterp = 0;
};

Comparison compare(const ArrayArg &a, const char *gpuBytes, double rtol, double atol) {
  Comparison c;
  const interp::HostArray &v = a.view;
  const char *base = static_cast<const char *>(v.data);
  const char *interpAlloc = a.bytes.data();
  int64_t n = v.numElements(), esize = interp::dtypeSize(v.dtype);
  std::vector<int64_t> idx(v.shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      offset += idx[d] * v.strides[d];
    std::ptrdiff_t at = (base - interpAlloc) + offset * esize;
    double want = elementValue(interpAlloc + at, v.dtype), got = elementValue(gpuBytes + at, v.dtype);
    ++c.compared;
    bool same = (std::isnan(want) && std::isnan(got)) || want == got;
    if (!same) {
      double abs = std::fabs(got - want);
      double rel = want != 0 ? abs / std::fabs(want) : (abs > 0 ? INFINITY : 0);
      if (std::isnan(abs))
        abs = rel = INFINITY;
      c.maxAbs = std::max(c.maxAbs, abs);
      c.maxRel = std::max(c.maxRel, rel);
      if (!(abs <= atol + rtol * std::fabs(want))) {
        if (c.mismatches++ == 0)
          c.firstBad = k, c.firstGpu = got, c.firstInterp = want;
      }
    }
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < v.shape[d])
        break;
      idx[d] = 0;
    }
  }
  return c;
}

} // namespace

int runOnGpu(const jit::KernelRequest &requestIn, const GpuRunOptions &options, std::map<std::string, ArrayArg> &arrays,
             const std::map<std::string, std::vector<char>> &initial, llvm::raw_ostream &os, llvm::raw_ostream &errs) {
  try {
    jit::BackendOptions backendOptions;
    backendOptions.choice = jit::BackendOptions::Choice::Gpu;
    jit::Backend backend(backendOptions);
    jit::KernelRequest request = requestIn;
    std::map<std::string, jit::Buffer> buffers;
    std::vector<rt::Arg> args;
    for (const std::string &name : options.paramNames) {
      if (auto it = arrays.find(name); it != arrays.end()) {
        const ArrayArg &a = it->second;
        const std::vector<char> &bytes = initial.at(name);
        jit::Buffer buffer = bytes.empty() ? backend.allocate(1) : backend.upload(bytes.data(), bytes.size());
        std::size_t offset = static_cast<const char *>(a.view.data) - a.bytes.data();
        rt::ArrayArg view = buffer.array(a.dtype, a.view.shape, a.view.strides, offset);
        request.args[name] = {interp::dtypeName(a.dtype), static_cast<int64_t>(a.shape.size()), view.isAligned()};
        args.push_back(view);
        buffers.emplace(name, std::move(buffer));
      } else {
        const interp::LaunchArg &s = options.scalars.at(name);
        request.args[name] = {interp::dtypeName(s.dtype), 0};
        args.push_back(runtimeScalar(s));
      }
    }
    jit::KernelHandle kernel = backend.compile(request);
    rt::Grid grid(options.grid.x, options.grid.y, options.grid.z);
    backend.launch(kernel, grid, args);
    backend.synchronize();
    os << "tile-run: ran on " << backend.description()
       << (options.compare ? "; compared with the interpreter:\n" : " (not compared: --no-compare)\n");
    int failures = 0;
    for (auto &[name, buffer] : buffers) {
      ArrayArg &a = arrays.at(name);
      std::vector<char> gpu(a.bytes.size());
      if (!gpu.empty())
        buffer.copyToHost(gpu.data(), gpu.size());
      if (!options.compare) {
        std::memcpy(a.bytes.data(), gpu.data(), gpu.size()); // the view points into a.bytes
        continue;
      }
      auto [rtol, atol] = toleranceFor(a);
      rtol = options.rtol.value_or(rtol);
      atol = options.atol.value_or(atol);
      Comparison c = compare(a, gpu.data(), rtol, atol);
      char line[256];
      std::snprintf(line, sizeof line, "  %s: %lld elements, max abs err %.3g, max rel err %.3g (rtol %.3g, atol %.3g)",
                    name.c_str(), static_cast<long long>(c.compared), c.maxAbs, c.maxRel, rtol, atol);
      os << line;
      if (c.mismatches) {
        ++failures;
        std::snprintf(line, sizeof line, ": %lld differ, first at %s: GPU %.9g, interpreter %.9g",
                      static_cast<long long>(c.mismatches), indexString(a.view.shape, c.firstBad).c_str(), c.firstGpu,
                      c.firstInterp);
        os << line;
      }
      os << "\n";
      // The arrays now hold the GPU's results (what --print shows).
      std::memcpy(a.bytes.data(), gpu.data(), gpu.size());
    }
    if (failures) {
      errs << "tile-run: error: " << failures << " of " << buffers.size()
           << " arrays differ between the GPU and the interpreter\n";
      return 1;
    }
    if (options.compare)
      os << "tile-run: every array matches the interpreter\n";
    if (options.benchLaunches > 0) {
      // The arrays keep changing in place (outputs written again, inputs an in-place kernel
      // updates); the comparison above is over, so only the time matters now.
      for (int i = 0; i < 2; ++i)
        backend.launch(kernel, grid, args);
      std::vector<double> ms;
      for (int i = 0; i < options.benchLaunches; ++i) {
        jit::TimePoint t0 = backend.now();
        backend.launch(kernel, grid, args);
        jit::TimePoint t1 = backend.now();
        ms.push_back(jit::TimePoint::elapsedMs(t0, t1));
      }
      std::sort(ms.begin(), ms.end());
      double median = ms[ms.size() / 2];
      double bytes = 0;
      for (auto &[name, a] : arrays)
        bytes += double(a.view.numElements()) * interp::dtypeSize(a.dtype);
      char line[256];
      std::snprintf(line, sizeof line,
                    "tile-run: median %.4f ms over %d launches (min %.4f, max %.4f); %.1f GB/s counting each array "
                    "once (%.3g MB)",
                    median, options.benchLaunches, ms.front(), ms.back(), bytes / (median * 1e-3) / 1e9, bytes / 1e6);
      os << line;
      if (options.flops) {
        std::snprintf(line, sizeof line, "; %.1f TFLOP/s at %.4g FLOP per launch",
                      *options.flops / (median * 1e-3) / 1e12, *options.flops);
        os << line;
      }
      os << "\n";
    }
    return 0;
  } catch (const rt::Error &e) {
    errs << "tile-run: error: --backend gpu: " << e.what() << "\n";
    return 1;
  }
}

} // namespace tile::run
