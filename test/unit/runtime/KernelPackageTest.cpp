// The kernel package manifest (tile-package/1): round trips, and manifests that are not
// packages fail with the file and the field named — never a file outside the package.
#include "runtime/KernelPackage.h"
#include "runtime/Error.h"

#include <catch2/catch.hpp>

using namespace tile::rt;

namespace {

PackageManifest sample() {
  PackageManifest m;
  m.kernel = "compute_out";
  m.arch = "sm_90a";
  m.entries.push_back({0, {{"BQ", "64"}, {"BP", "64"}}, "compute_out.config0.cubin", "compute_out.config0.json", ""});
  m.entries.push_back({1, {{"BQ", "32"}}, "", "", "ssd.py:120:5: error: BQ must divide Q"});
  return m;
}

std::string errorOf(const std::string &text) {
  try {
    parsePackageManifest(text, "pkg/manifest.json");
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::InvalidMetadata);
    return e.what();
  }
  return "";
}

std::string replaced(std::string s, const std::string &from, const std::string &to) {
  size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("a package manifest round-trips", "[runtime][package]") {
  const std::string text = toJson(sample());
  PackageManifest m = parsePackageManifest(text, "m.json");
  CHECK(m.kernel == "compute_out");
  CHECK(m.arch == "sm_90a");
  REQUIRE(m.entries.size() == 2);
  CHECK(m.entries[0].built());
  CHECK(m.entries[0].constants.at("BP") == "64");
  CHECK(m.entries[0].binary == "compute_out.config0.cubin");
  CHECK_FALSE(m.entries[1].built());
  CHECK(m.entries[1].error.find("BQ must divide Q") != std::string::npos);
  CHECK(toJson(m) == text);
}

TEST_CASE("bad package manifests name the file and the field", "[runtime][package]") {
  const std::string good = toJson(sample());
  CHECK(errorOf("nope").find("pkg/manifest.json: not valid JSON") == 0);
  CHECK(errorOf("[]") == "pkg/manifest.json: (top level): expected an object");
  CHECK(errorOf(replaced(good, "tile-package/1", "tile-package/9")) ==
        "pkg/manifest.json: format: 'tile-package/9' is not supported (this build reads tile-package/1)");
  CHECK(errorOf(replaced(good, "\"config\": 1", "\"config\": 0")) ==
        "pkg/manifest.json: configs[1].config: configuration 0 is listed twice");
  CHECK(errorOf(replaced(good, "\"config\": 1", "\"config\": -1")) ==
        "pkg/manifest.json: configs[1].config: expected an integer from 0 to 1000000");
  CHECK(errorOf(replaced(good, "\"compute_out.config0.cubin\"", "\"../../etc/passwd\"")) ==
        "pkg/manifest.json: configs[0].binary: '../../etc/passwd' is not a file name inside the package");
  CHECK(errorOf(replaced(good, "\"compute_out.config0.json\"", "\"..\"")) ==
        "pkg/manifest.json: configs[0].metadata: '..' is not a file name inside the package");
  CHECK(errorOf(replaced(good, "\"binary\"", "\"bin\"")) == "pkg/manifest.json: configs[0].binary: missing");
  CHECK(errorOf(replaced(good, "\"BQ\": \"32\"", "\"BQ\": 32")) ==
        "pkg/manifest.json: configs[1].constants.BQ: expected a string");
  CHECK(errorOf(replaced(good, "\"configs\"", "\"entries\"")) == "pkg/manifest.json: configs: missing");
}
