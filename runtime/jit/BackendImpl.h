// Inside Backend: what each backend implements (GpuBackend.cpp, InterpreterBackend.cpp) and
// the state behind a KernelHandle. Not for applications.
#pragma once

#include "runtime/jit/Backend.h"

#include <optional>

namespace tile::jit::detail {

struct KernelState {
  BackendKind backend = BackendKind::Gpu;
  std::string name;
  std::vector<rt::ParamInfo> params;
  std::optional<rt::Kernel> gpuKernel; // GPU
  KernelRequest request;               // interpreter: what jit::interpret runs
};

class BackendImpl {
public:
  BackendImpl(BackendKind kind, std::string reason) : kind_(kind), reason_(std::move(reason)) {}
  virtual ~BackendImpl() = default;

  BackendKind kind() const { return kind_; }
  const std::string &reason() const { return reason_; }
  virtual std::string description() const = 0;
  virtual std::shared_ptr<const KernelState> compile(const KernelRequest &request) = 0;
  /// compile() of each request, in order; the GPU backend compiles them concurrently.
  virtual std::vector<std::shared_ptr<const KernelState>> compileAll(const std::vector<KernelRequest> &requests) {
    std::vector<std::shared_ptr<const KernelState>> states;
    for (const KernelRequest &r : requests)
      states.push_back(compile(r));
    return states;
  }
  virtual std::vector<CompileAttempt> tryCompileAll(const std::vector<KernelRequest> &requests);
  virtual std::unique_ptr<BufferStorage> allocate(std::size_t bytes) = 0;
  virtual void launch(const KernelState &kernel, const rt::Grid &grid, const std::vector<rt::Arg> &args,
                      const rt::Stream *stream) = 0;
  virtual void synchronize() = 0;
  virtual TimePoint now(const rt::Stream *stream) = 0;
  virtual Jit *jit() { return nullptr; }
  /// Where the tuner keeps its decisions ("" for memory only).
  virtual std::string tuningDirectory() const { return ""; }

  static KernelHandle handleOf(std::shared_ptr<const KernelState> state) { return KernelHandle(std::move(state)); }

protected:
  static TimePoint hostTime();
  static TimePoint eventTime(std::shared_ptr<rt::Event> recorded);

private:
  BackendKind kind_;
  std::string reason_;
};

std::shared_ptr<BackendImpl> makeGpuBackend(const BackendOptions &options, std::string reason);
std::shared_ptr<BackendImpl> makeInterpreterBackend(std::string reason);

/// "Buffer::copyFromHost: bytes [a, b) are outside the n-byte buffer" unless the range fits.
void checkBufferRange(std::size_t bytes, std::size_t offset, std::size_t size, const char *what);

} // namespace tile::jit::detail
