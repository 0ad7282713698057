// The GPU backend: the JIT compiles, device buffers hold the data, rt::launch launches.
#include "runtime/jit/BackendImpl.h"

namespace tile::jit::detail {

namespace {

class DeviceStorage : public BufferStorage {
public:
  explicit DeviceStorage(rt::DeviceBuffer buffer) : buffer_(std::move(buffer)) {}
  rt::DevicePtr address() const override { return buffer_.data(); }
  std::size_t size() const override { return buffer_.size(); }
  void copyFromHost(const void *src, std::size_t bytes, std::size_t offset) override {
    buffer_.copyFromHost(src, bytes, offset);
  }
  void copyToHost(void *dst, std::size_t bytes, std::size_t offset) const override {
    buffer_.copyToHost(dst, bytes, offset);
  }
  void fillBytes(std::uint8_t value) override { buffer_.fillBytes(value); }

private:
  rt::DeviceBuffer buffer_;
};

class GpuBackend : public BackendImpl {
public:
  GpuBackend(const BackendOptions &options, std::string reason)
      : BackendImpl(BackendKind::Gpu, std::move(reason)),
        jit_(rt::Device(options.deviceOrdinal), options.jit, options.diskCache.value_or(DiskCache::fromEnvironment())) {
  }

  std::string description() const override { return "the GPU (" + jit_.device().name() + ", " + jit_.arch() + ")"; }

  std::shared_ptr<const KernelState> compile(const KernelRequest &request) override {
    return stateOf(jit_.compile(request));
  }

  std::vector<std::shared_ptr<const KernelState>> compileAll(const std::vector<KernelRequest> &requests) override {
    std::vector<std::shared_ptr<const KernelState>> states;
    for (rt::Kernel &kernel : jit_.compileAll(requests))
      states.push_back(stateOf(std::move(kernel)));
    return states;
  }

  std::vector<CompileAttempt> tryCompileAll(const std::vector<KernelRequest> &requests) override {
    std::vector<CompileAttempt> attempts;
    for (CompileOutcome &outcome : jit_.compileEach(requests)) {
      CompileAttempt a;
      if (outcome.kernel)
        a.kernel = handleOf(stateOf(std::move(*outcome.kernel)));
      a.error = outcome.error;
      attempts.push_back(std::move(a));
    }
    return attempts;
  }

  std::string tuningDirectory() const override {
    return jit_.diskCache().enabled() ? jit_.diskCache().directory() : "";
  }

  static std::shared_ptr<const KernelState> stateOf(rt::Kernel kernel) {
    auto state = std::make_shared<KernelState>();
    state->backend = BackendKind::Gpu;
    state->name = kernel.metadata().name;
    state->params = kernel.metadata().params;
    state->gpuKernel = std::move(kernel);
    return state;
  }

  std::unique_ptr<BufferStorage> allocate(std::size_t bytes) override {
    return std::make_unique<DeviceStorage>(rt::DeviceBuffer(jit_.device(), bytes));
  }

  void launch(const KernelState &kernel, const rt::Grid &grid, const std::vector<rt::Arg> &args,
              const rt::Stream *stream) override {
    if (stream)
      rt::launch(*kernel.gpuKernel, grid, args, *stream);
    else
      rt::launch(*kernel.gpuKernel, grid, args);
  }

  void synchronize() override { jit_.device().synchronize(); }

  TimePoint now(const rt::Stream *stream) override {
    auto event = std::make_shared<rt::Event>(jit_.device());
    if (stream)
      event->record(*stream);
    else
      event->record(rt::Stream::defaultStream(jit_.device()));
    return eventTime(std::move(event));
  }

  Jit *jit() override { return &jit_; }

private:
  Jit jit_;
};

} // namespace

std::shared_ptr<BackendImpl> makeGpuBackend(const BackendOptions &options, std::string reason) {
  return std::make_shared<GpuBackend>(options, std::move(reason));
}

} // namespace tile::jit::detail
