#include "runtime/jit/LaunchTimer.h"

namespace tile::jit {

LaunchTimer::LaunchTimer(Backend &backend, std::vector<Variant> variants, std::vector<rt::Arg> args,
                         const rt::Stream *stream)
    : backend_(backend), variants_(std::move(variants)), args_(std::move(args)), stream_(stream) {}

void LaunchTimer::provide(std::vector<CompileAttempt> compiled) {
  if (compiled.size() != variants_.size())
    throw rt::Error(rt::Error::Kind::InvalidArgument, "LaunchTimer::provide: " + std::to_string(compiled.size()) +
                                                          " compiled kernels for " + std::to_string(variants_.size()) +
                                                          " variants");
  compiled_ = std::move(compiled);
}

std::vector<std::string> LaunchTimer::prepare(std::size_t count) {
  if (count != variants_.size())
    throw rt::Error(rt::Error::Kind::InvalidArgument, "LaunchTimer::prepare: " + std::to_string(count) +
                                                          " candidates for " + std::to_string(variants_.size()) +
                                                          " variants");
  if (compiled_.empty()) {
    std::vector<KernelRequest> requests;
    for (const Variant &v : variants_)
      requests.push_back(v.request);
    compiled_ = backend_.tryCompileAll(requests);
  }
  std::vector<std::string> errors;
  for (const CompileAttempt &a : compiled_)
    errors.push_back(a.kernel ? "" : a.error.empty() ? "not compiled" : a.error);
  return errors;
}

const KernelHandle &LaunchTimer::kernel(std::size_t index) const {
  if (index >= compiled_.size() || !compiled_[index].kernel)
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    index < compiled_.size() ? compiled_[index].error : "LaunchTimer: variant not compiled");
  return *compiled_[index].kernel;
}

void LaunchTimer::preserve(std::vector<Buffer *> buffers) {
  preserved_ = std::move(buffers);
  saved_.clear();
}

void LaunchTimer::restore() {
  if (saved_.empty())
    return;
  backend_.synchronize(); // no launch may still be writing them
  for (size_t i = 0; i < preserved_.size(); ++i)
    preserved_[i]->copyFromHost(saved_[i].data(), saved_[i].size());
}

std::vector<double> LaunchTimer::time(std::size_t index, unsigned launches) {
  const KernelHandle &k = kernel(index);
  if (!preserved_.empty() && saved_.empty()) {
    backend_.synchronize();
    for (Buffer *b : preserved_) {
      saved_.emplace_back(b->size());
      b->copyToHost(saved_.back().data(), saved_.back().size());
    }
  }
  std::vector<TimePoint> points;
  for (unsigned i = 0; i < launches; ++i) {
    restore(); // outside the timed span
    points.push_back(backend_.now(stream_));
    backend_.launch(k, variants_[index].grid, args_, stream_);
    points.push_back(backend_.now(stream_));
  }
  // elapsedMs waits for each end event; a launch that failed asynchronously throws here.
  std::vector<double> times;
  for (unsigned i = 0; i < launches; ++i)
    times.push_back(TimePoint::elapsedMs(points[2 * i], points[2 * i + 1]));
  return times;
}

} // namespace tile::jit
