// The driver loader's failure paths and Device::available, which need no GPU.
#include "runtime/Driver.h"
#include "runtime/Device.h"
#include "runtime/Error.h"

#include <catch2/catch.hpp>

using namespace tile::rt;

TEST_CASE("driver: a missing library says there is no CUDA driver", "[runtime][driver]") {
  try {
    detail::openDriver("libtile-no-such-driver.so.1");
    FAIL("opened");
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::NoDriver);
    CHECK(e.noGpu());
    CHECK_THAT(e.what(), Catch::StartsWith("no CUDA driver (libtile-no-such-driver.so.1 not "
                                           "found: "));
  }
}

TEST_CASE("driver: a library without the entry points is refused", "[runtime][driver]") {
  try {
    detail::openDriver("libc.so.6");
    FAIL("opened");
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::NoDriver);
    CHECK(std::string(e.what()) == "no usable CUDA driver (libc.so.6 lacks the entry point cuGetErrorName)");
  }
}

TEST_CASE("driver: Device::available never throws", "[runtime][driver]") {
  std::string why;
  if (Device::available(0, &why)) {
    CHECK(why.empty());
    std::string none;
    CHECK(!Device::available(1000, &none));
    CHECK(none.rfind("no CUDA device 1000", 0) == 0);
  } else {
    INFO(why);
    CHECK(why.rfind("no ", 0) == 0); // "no CUDA driver (...)" or "no CUDA device (...)"
  }
}
