// rt::EmbeddedKernel and selectEmbeddedImage without a GPU: which image each compute capability
// gets (cubins before PTX, newest first, arch-specific before portable), the message when none
// fits, and metadata problems caught when the kernel is constructed.
#include "runtime/Embedded.h"
#include "runtime/Error.h"

#include <catch2/catch.hpp>

using namespace tile::rt;

namespace {

const unsigned char kBytes[] = {0};
const char kMetadata[] = R"({"format": "tile-kernel/1", "kernel": "k__tile", "name": "k", "arch": "sm_80",
  "threads_per_block": 128, "params": [{"name": "x", "kind": "array", "dtype": "float32", "rank": 1}]})";

EmbeddedImage image(const char *arch, bool isPtx) { return {arch, isPtx, kBytes, sizeof kBytes, kMetadata}; }

int select(const std::vector<EmbeddedImage> &images, int major, int minor) {
  std::string why;
  return selectEmbeddedImage(images.data(), images.size(), major, minor, why);
}

} // namespace

TEST_CASE("embedded kernels: the image for each device", "[runtime][embedded]") {
  const std::vector<EmbeddedImage> images = {image("sm_80", false), image("sm_90a", false), image("sm_86", false),
                                             image("sm_90", true)};
  CHECK(select(images, 8, 0) == 0);
  CHECK(select(images, 8, 6) == 2); // the newest cubin of the same major
  CHECK(select(images, 8, 9) == 2);
  CHECK(select(images, 9, 0) == 1);  // sm_90a runs on exactly 9.0 and wins over the PTX
  CHECK(select(images, 10, 0) == 3); // only the PTX runs on a newer major
  CHECK(select(images, 12, 0) == 3);

  // Arch-specific over portable for the same version; a portable cubin on 9.x with x > 0.
  const std::vector<EmbeddedImage> hopper = {image("sm_90", false), image("sm_90a", false)};
  CHECK(select(hopper, 9, 0) == 1);
  CHECK(select(hopper, 9, 1) == 0);
  // Among PTX the newest that the device can run.
  const std::vector<EmbeddedImage> ptx = {image("sm_70", true), image("sm_80", true), image("sm_75", true)};
  CHECK(select(ptx, 7, 5) == 2);
  CHECK(select(ptx, 9, 0) == 1);
}

TEST_CASE("embedded kernels: no image fits, with the reason for each", "[runtime][embedded]") {
  const std::vector<EmbeddedImage> images = {image("sm_80", false), image("sm_90a", false)};
  std::string why;
  CHECK(selectEmbeddedImage(images.data(), images.size(), 7, 5, why) == -1);
  CHECK(why == "sm_80 cubin: a cubin for sm_80 runs on compute capability 8.x (x >= 0), the device has compute "
               "capability 7.5; sm_90a cubin: code for sm_90a runs only on compute capability 9.0, the device has "
               "compute capability 7.5");
  CHECK(selectEmbeddedImage(images.data(), 0, 9, 0, why) == -1);
  CHECK(why == "no images");
  const std::vector<EmbeddedImage> bad = {image("gfx90a", false)};
  CHECK(selectEmbeddedImage(bad.data(), bad.size(), 9, 0, why) == -1);
  CHECK(why == "gfx90a cubin: invalid architecture 'gfx90a'");
}

TEST_CASE("embedded kernels: metadata is parsed up front", "[runtime][embedded]") {
  const std::vector<EmbeddedImage> images = {image("sm_80", false)};
  EmbeddedKernel kernel("k", images.data(), images.size());
  CHECK(kernel.metadata().name == "k");
  REQUIRE(kernel.metadata().params.size() == 1);
  CHECK(kernel.metadata().params[0].rank == 1);

  CHECK_THROWS_WITH(EmbeddedKernel("k", images.data(), 0), "embedded kernel 'k': no images");
  const EmbeddedImage broken[] = {{"sm_80", false, kBytes, sizeof kBytes, "{\"format\": \"tile-kernel/0\"}"}};
  try {
    EmbeddedKernel k("k", broken, 1);
    FAIL("malformed metadata was accepted");
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::InvalidMetadata);
    CHECK_THAT(e.what(), Catch::Contains("embedded kernel 'k' (sm_80 cubin)"));
  }
}

TEST_CASE("embedded tuning tables: the decision for a device, key= values and block count", "[runtime][embedded]") {
  const std::int64_t keys[] = {1024, 64, 65536, 128, 65536, 128};
  const EmbeddedTuning table[] = {
      {"NVIDIA H200", keys + 0, 8, 1}, {"NVIDIA H200", keys + 2, 512, 0}, {"NVIDIA A100-SXM4-80GB", keys + 4, 512, 2}};
  auto lookup = [&](const std::string &device, std::vector<std::int64_t> key, std::int64_t blocks) {
    return lookupEmbeddedTuning(table, 3, 2, device, key, blocks, "k");
  };
  // Values and the block count are rounded up to powers of two, as the tuner's keys are.
  CHECK(lookup("NVIDIA H200", {1024, 64}, 8) == 1);
  CHECK(lookup("NVIDIA H200", {1000, 33}, 5) == 1);
  CHECK(lookup("NVIDIA H200", {40000, 100}, 300) == 0);
  CHECK(lookup("NVIDIA A100-SXM4-80GB", {40000, 100}, 300) == 2);
  // No decision: another device, another bucket of a value or of the block count.
  CHECK(lookup("NVIDIA H100", {1024, 64}, 8) == -1);
  CHECK(lookup("NVIDIA H200", {1025, 64}, 8) == -1);
  CHECK(lookup("NVIDIA H200", {1024, 64}, 9) == -1);
  CHECK(lookupEmbeddedTuning(nullptr, 0, 2, "NVIDIA H200", {1, 2}, 1, "k") == -1);
  // The caller's key must have one value per key= name.
  try {
    lookup("NVIDIA H200", {1024}, 8);
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::InvalidArgument);
    CHECK(std::string(e.what()) == "k: the tuning table's decisions depend on 2 key= value(s), 1 given");
  }
}
