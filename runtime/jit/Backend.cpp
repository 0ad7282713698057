// Choosing a backend, and the backend-neutral half of the API (the rest is in GpuBackend.cpp
// and InterpreterBackend.cpp).
#include "runtime/jit/BackendImpl.h"
#include "runtime/jit/Interpreted.h"

namespace tile::jit {

const char *backendName(BackendKind kind) { return kind == BackendKind::Gpu ? "GPU" : "interpreter"; }

namespace detail {

TimePoint BackendImpl::hostTime() {
  TimePoint t;
  t.host_ = std::chrono::steady_clock::now();
  return t;
}

TimePoint BackendImpl::eventTime(std::shared_ptr<rt::Event> recorded) {
  TimePoint t;
  t.event_ = std::move(recorded);
  return t;
}

std::vector<CompileAttempt> BackendImpl::tryCompileAll(const std::vector<KernelRequest> &requests) {
  std::vector<CompileAttempt> attempts;
  for (const KernelRequest &r : requests) {
    CompileAttempt a;
    try {
      a.kernel = handleOf(compile(r));
    } catch (const rt::Error &e) {
      a.error = e.what();
    } catch (const std::exception &e) {
      a.error = "compile of '" + r.kernel + "': " + e.what();
    }
    attempts.push_back(std::move(a));
  }
  return attempts;
}

void checkBufferRange(std::size_t bytes, std::size_t offset, std::size_t size, const char *what) {
  if (offset > size || bytes > size - offset)
    throw rt::Error(rt::Error::Kind::InvalidArgument, std::string(what) + ": bytes [" + std::to_string(offset) + ", " +
                                                          std::to_string(offset + bytes) + ") are outside the " +
                                                          std::to_string(size) + "-byte buffer");
}

// The one exception type of the public API: whatever a standard-library or JSON call below
// throws (bad_alloc on a huge buffer or module, filesystem_error, out_of_range...) leaves as an
// rt::Error naming the call.
template <typename F> auto guarded(const char *what, F &&f) -> decltype(f()) {
  try {
    return f();
  } catch (const rt::Error &) {
    throw;
  } catch (const std::bad_alloc &) {
    throw rt::Error(rt::Error::Kind::InvalidArgument, std::string(what) + ": out of host memory");
  } catch (const std::exception &e) {
    throw rt::Error(rt::Error::Kind::InvalidArgument, std::string(what) + ": " + e.what());
  }
}

} // namespace detail

using detail::guarded;

double TimePoint::elapsedMs(const TimePoint &start, const TimePoint &end) {
  if (start.event_ && end.event_)
    return rt::Event::elapsedMs(*start.event_, *end.event_);
  if (start.event_ || end.event_)
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    "TimePoint::elapsedMs: the two points come from different backends");
  return std::chrono::duration<double, std::milli>(end.host_ - start.host_).count();
}

const std::string &KernelHandle::name() const { return state_->name; }
const std::vector<rt::ParamInfo> &KernelHandle::params() const { return state_->params; }
BackendKind KernelHandle::backend() const { return state_->backend; }

static std::shared_ptr<detail::BackendImpl> makeImpl(const BackendOptions &options) {
  using Choice = BackendOptions::Choice;
  switch (options.choice) {
  case Choice::Gpu:
    return detail::makeGpuBackend(options, "requested");
  case Choice::Interpreter:
    return detail::makeInterpreterBackend("requested");
  case Choice::Auto:
    break;
  }
  if (interpretRequested())
    return detail::makeInterpreterBackend("TILE_INTERPRET is set");
  std::string why;
  if (rt::Device::available(options.deviceOrdinal, &why))
    return detail::makeGpuBackend(options, "a GPU is available");
  return detail::makeInterpreterBackend("no GPU: " + why);
}

Backend::Backend(const BackendOptions &options) : impl_(makeImpl(options)) {
  TuneSettings settings = options.tuning ? *options.tuning : TuneSettings::fromEnvironment();
  if (impl_->kind() == BackendKind::Interpreter)
    settings.mode = TuneMode::Off;
  tuner_ = std::make_shared<Tuner>(impl_->tuningDirectory(), std::move(settings));
}

BackendKind Backend::kind() const { return impl_->kind(); }
const std::string &Backend::reason() const { return impl_->reason(); }
std::string Backend::description() const { return impl_->description(); }

KernelHandle Backend::compile(const KernelRequest &request) {
  return guarded("compile", [&] { return KernelHandle(impl_->compile(request)); });
}

std::vector<KernelHandle> Backend::compileAll(const std::vector<KernelRequest> &requests) {
  return guarded("compile", [&] {
    std::vector<KernelHandle> handles;
    for (std::shared_ptr<const detail::KernelState> &state : impl_->compileAll(requests))
      handles.push_back(KernelHandle(std::move(state)));
    return handles;
  });
}

std::vector<CompileAttempt> Backend::tryCompileAll(const std::vector<KernelRequest> &requests) {
  return guarded("compile", [&] { return impl_->tryCompileAll(requests); });
}

std::string Backend::deviceName() const {
  const rt::Device *d = device();
  return d ? d->name() : "";
}
std::string Backend::driverVersion() const {
  const rt::Device *d = device();
  return d ? std::to_string(d->driverVersion()) : "";
}
std::string Backend::targetOptions() const {
  Jit *j = impl_->jit();
  if (!j)
    return "interpreter";
  const JitOptions &o = j->options();
  return j->arch() + "/" + std::to_string(o.numThreads) + "/O" + std::to_string(o.optLevel) + (o.usePtx ? "/ptx" : "") +
         (o.pipelineStages > 0 ? "/stages" + std::to_string(o.pipelineStages) : "");
}

Buffer Backend::allocate(std::size_t bytes) {
  return guarded("allocate", [&] { return Buffer(impl_->allocate(bytes)); });
}

Buffer Backend::upload(const void *data, std::size_t bytes) {
  Buffer b = allocate(bytes);
  b.copyFromHost(data, bytes);
  return b;
}

void Backend::launch(const KernelHandle &kernel, const rt::Grid &grid, const std::vector<rt::Arg> &args,
                     const rt::Stream *stream) {
  if (kernel.backend() != kind())
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    "launch of '" + kernel.name() + "': the kernel was compiled by the " +
                        backendName(kernel.backend()) + " backend, this is the " + backendName(kind()) + " backend");
  guarded("launch", [&] { impl_->launch(*kernel.state_, grid, args, stream); });
}

void Backend::synchronize() {
  guarded("synchronize", [&] { impl_->synchronize(); });
}
TimePoint Backend::now(const rt::Stream *stream) {
  return guarded("now", [&] { return impl_->now(stream); });
}

Jit *Backend::jit() const { return impl_->jit(); }
const rt::Device *Backend::device() const {
  Jit *j = impl_->jit();
  return j ? &j->device() : nullptr;
}

} // namespace tile::jit
