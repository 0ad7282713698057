#include "runtime/capi/Context.h"

#include "runtime/Error.h"
#include "runtime/Stream.h"
#include "runtime/jit/LaunchTimer.h"
#include "runtime/jit/TuneKey.h"

#include <fmt/format.h>

#include <optional>

namespace tile::capi {

namespace {

rt::Grid gridOf(const GridDims &dims) { return rt::Grid(dims[0], dims[1], dims[2]); }

std::string gridsText(const std::vector<GridDims> &grids) {
  std::string text;
  for (const GridDims &g : grids)
    text += fmt::format("{}x{}x{};", g[0], g[1], g[2]);
  return text;
}

} // namespace

Context::Context(jit::BackendOptions::Choice choice, int device)
    : backend_([&] {
        jit::BackendOptions options;
        options.choice = choice;
        options.deviceOrdinal = device;
        return options;
      }()),
      description_(backend_.description()) {}

std::optional<rt::Stream> Context::borrow(void *stream) {
  if (!stream || !backend_.onGpu())
    return std::nullopt;
  return rt::Stream::borrow(*backend_.device(), stream);
}

jit::KernelHandle Context::compiled(const std::string &key, const jit::KernelRequest &request) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = kernels_.find(key); it != kernels_.end())
      return it->second;
  }
  // Compiled outside the lock: another thread's launch of a cached kernel need not wait.
  jit::KernelHandle kernel = backend_.compile(request);
  std::lock_guard<std::mutex> lock(mutex_);
  return kernels_.emplace(key, kernel).first->second;
}

unsigned Context::chooseConfig(const Program &program, const jit::KernelDecl &decl, const BoundLaunch &bound,
                               const std::vector<GridDims> &grids, const rt::Stream *stream) {
  const std::string choiceKey = fmt::format("{}\n{}\n{}", program.id, bound.key, gridsText(grids));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = choices_.find(choiceKey); it != choices_.end())
      return it->second;
  }
  std::vector<jit::TuneCandidate> candidates;
  std::vector<jit::LaunchTimer::Variant> variants;
  for (unsigned i = 0; i < decl.configs.size(); ++i) {
    jit::TuneCandidate candidate;
    candidate.config = i;
    jit::KernelRequest request = bound.request;
    request.config = i;
    for (auto &[name, value] : decl.configs[i]) {
      candidate.constants[name] = frontend::formatConstant(value);
      // A constant the caller gave overrides the configuration's (as --const does).
      if (!frontend::isKernelOption(name) && !bound.request.constants.count(name))
        request.constants[name] = value;
    }
    candidates.push_back(candidate);
    variants.push_back({request, gridOf(grids.size() == 1 ? grids[0] : grids[i])});
  }
  std::map<std::string, int64_t> values;
  for (const std::string &name : decl.key) {
    auto it = bound.integers.find(name);
    if (it == bound.integers.end())
      throw rt::Error(rt::Error::Kind::InvalidArgument,
                      fmt::format("autotune key '{}' of {}: only integer parameters (scalars or constants) can be "
                                  "keys, and '{}' is not one given to this launch",
                                  name, bound.request.kernel, name));
    values[name] = it->second;
  }
  const rt::Grid first = variants.front().grid;
  jit::TuneKey key = jit::makeTuneKey({bound.request, decl.key, values, first.x * first.y * first.z,
                                       backend_.deviceName(), backend_.driverVersion(), backend_.targetOptions()},
                                      candidates);
  std::optional<jit::TuneDecision> decision = backend_.tuner().known(key, candidates);
  if (!decision) {
    jit::LaunchTimer timer(backend_, variants, bound.args, stream);
    decision = backend_.tuner().choose(key, candidates, timer);
  }
  const unsigned config = candidates[decision->winner].config;
  std::lock_guard<std::mutex> lock(mutex_);
  choices_[choiceKey] = config;
  return config;
}

void Context::launch(const Program &program, const std::string &kernel, const std::vector<GridDims> &grids,
                     const tilecc_arg *args, std::size_t numArgs, void *stream) {
  const jit::KernelDecl decl = jit::kernelDecl(program.source, program.fileName, kernel);
  BoundLaunch bound = bindArgs(program.source, program.fileName, kernel, decl, args, numArgs);
  const std::size_t configs = decl.configs.size();
  if (grids.size() != 1 && grids.size() != configs)
    throw rt::Error(
        rt::Error::Kind::InvalidArgument,
        configs ? fmt::format("{} has {} autotune configurations: give one grid, or one per "
                              "configuration, not {}",
                              kernel, configs, grids.size())
                : fmt::format("{} has no autotune configurations: give one grid, not {}", kernel, grids.size()));
  std::optional<rt::Stream> borrowed = borrow(stream);
  const rt::Stream *launchStream = borrowed ? &*borrowed : nullptr;
  unsigned config = 0;
  jit::KernelRequest request = bound.request;
  if (configs) {
    config = chooseConfig(program, decl, bound, grids, launchStream);
    request.config = config;
    for (auto &[name, value] : decl.configs[config])
      if (!frontend::isKernelOption(name) && !bound.request.constants.count(name))
        request.constants[name] = value;
  }
  const std::string key = fmt::format("{}\n{}\nconfig={}", program.id, bound.key, config);
  jit::KernelHandle handle = compiled(key, request);
  backend_.launch(handle, gridOf(grids.size() == 1 ? grids[0] : grids[config]), bound.args, launchStream);
}

} // namespace tile::capi
