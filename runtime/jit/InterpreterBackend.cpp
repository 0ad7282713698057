// The interpreter backend: kernels compiled to tile IR and run on the CPU (Interpreted.h),
// buffers from a HostHeap whose registry bounds every array argument.
#include "runtime/jit/BackendImpl.h"
#include "runtime/jit/HostHeap.h"
#include "runtime/jit/Interpreted.h"
#include "runtime/jit/InterpreterArgs.h"

#include <cstring>

namespace tile::jit::detail {

namespace {

class HostStorage : public BufferStorage {
public:
  HostStorage(std::shared_ptr<HostHeap> heap, std::size_t bytes)
      : heap_(std::move(heap)), data_(static_cast<unsigned char *>(heap_->allocate(bytes))), size_(bytes) {}
  HostStorage(const HostStorage &) = delete;
  HostStorage &operator=(const HostStorage &) = delete;
  ~HostStorage() override { heap_->release(data_); }

  rt::DevicePtr address() const override { return reinterpret_cast<rt::DevicePtr>(data_); }
  std::size_t size() const override { return size_; }
  void copyFromHost(const void *src, std::size_t bytes, std::size_t offset) override {
    checkBufferRange(bytes, offset, size_, "Buffer::copyFromHost");
    if (bytes)
      std::memcpy(data_ + offset, src, bytes);
  }
  void copyToHost(void *dst, std::size_t bytes, std::size_t offset) const override {
    checkBufferRange(bytes, offset, size_, "Buffer::copyToHost");
    if (bytes)
      std::memcpy(dst, data_ + offset, bytes);
  }
  void fillBytes(std::uint8_t value) override { std::memset(data_, value, size_); }

private:
  std::shared_ptr<HostHeap> heap_; // outlives the allocation, whatever the Backend does
  unsigned char *data_;
  std::size_t size_;
};

class InterpreterBackend : public BackendImpl {
public:
  explicit InterpreterBackend(std::string reason) : BackendImpl(BackendKind::Interpreter, std::move(reason)) {}

  std::string description() const override { return "the interpreter (" + reason() + ")"; }

  std::shared_ptr<const KernelState> compile(const KernelRequest &request) override {
    auto state = std::make_shared<KernelState>();
    state->backend = BackendKind::Interpreter;
    state->params = compileForInterpreter(request);
    state->name = request.kernel;
    state->request = request;
    return state;
  }

  std::unique_ptr<BufferStorage> allocate(std::size_t bytes) override {
    return std::make_unique<HostStorage>(heap_, bytes);
  }

  void launch(const KernelState &kernel, const rt::Grid &grid, const std::vector<rt::Arg> &args,
              const rt::Stream *) override {
    interp::Dim3 dim = toInterpreterGrid(kernel.name, grid);
    std::vector<interp::LaunchArg> launchArgs = toInterpreterArgs(kernel.name, kernel.params, args, *heap_);
    interpret(kernel.request, dim, launchArgs);
  }

  void synchronize() override {} // launches finish before they return
  TimePoint now(const rt::Stream *) override { return hostTime(); }

private:
  std::shared_ptr<HostHeap> heap_ = std::make_shared<HostHeap>();
};

} // namespace

std::shared_ptr<BackendImpl> makeInterpreterBackend(std::string reason) {
  return std::make_shared<InterpreterBackend>(std::move(reason));
}

} // namespace tile::jit::detail
