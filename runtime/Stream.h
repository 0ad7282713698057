// A CUDA stream on a device. Streams are blocking by default (ordered with the legacy default
// stream), so DeviceBuffer's synchronous copies see the results of earlier launches.
#pragma once

#include "runtime/Device.h"

namespace tile::rt {

class Stream {
public:
  enum class Flags { Blocking, NonBlocking };

  explicit Stream(const Device &device, Flags flags = Flags::Blocking);
  /// The device's legacy default stream (not owned).
  static Stream defaultStream(const Device &device);
  /// Wraps a stream made elsewhere (e.g. torch.cuda.current_stream().cuda_stream, a CUstream
  /// of the same device's primary context); not destroyed by this object.
  static Stream borrow(const Device &device, void *cuStream);

  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  const Device &device() const { return device_; }
  void synchronize() const;

private:
  friend struct detail::Native;
  Stream(const Device &device, void *handle, bool owned);
  Device device_;
  void *handle_ = nullptr; // CUstream; null is the legacy default stream
  bool owned_ = false;
};

} // namespace tile::rt
