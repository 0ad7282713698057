#include "tools/tile-run/GpuRun.h"
#include "tools/tile-run/Compare.h"

#include "runtime/Error.h"
#include "runtime/jit/Backend.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tile::run {

using interp::DType;

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

} // namespace

int runOnGpu(const jit::KernelRequest &requestIn, const GpuRunOptions &options, std::map<std::string, ArrayArg> &arrays,
             const std::map<std::string, std::vector<char>> &initial, llvm::raw_ostream &os, llvm::raw_ostream &errs) {
  try {
    jit::BackendOptions backendOptions;
    backendOptions.choice = jit::BackendOptions::Choice::Gpu;
    backendOptions.jit.numThreads = options.numThreads;
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
