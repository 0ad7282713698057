// The runtime's one exception type. kind() tells an absent GPU (callers skip) from a real
// failure without parsing the message; driverCode() keeps the CUresult of a failed call.
#pragma once

#include <stdexcept>
#include <string>

namespace tile::rt {

class Error : public std::runtime_error {
public:
  enum class Kind {
    NoDriver,        // libcuda.so.1 missing, a stub, or lacking an entry point
    NoDevice,        // the driver loaded but there is no (such) device
    Driver,          // a driver call failed; driverCode() is its CUresult
    InvalidMetadata, // a kernel metadata file is malformed or unsupported
    InvalidArgument, // launch arguments or API use do not match the kernel/device
    Io,              // a file could not be read
  };

  Error(Kind kind, const std::string &message, int driverCode = 0)
      : std::runtime_error(message), kind_(kind), driverCode_(driverCode) {}

  Kind kind() const { return kind_; }
  int driverCode() const { return driverCode_; }
  /// True when the error only says that this machine has no usable GPU.
  bool noGpu() const { return kind_ == Kind::NoDriver || kind_ == Kind::NoDevice; }

private:
  Kind kind_;
  int driverCode_;
};

} // namespace tile::rt
