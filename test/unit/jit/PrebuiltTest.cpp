// Prebuilt kernel archives: round trips, malformed archives refused with their origin, corrupt
// entries never trusted, and the process-wide registry (TILE_PREBUILT=0 turns it off).

#include "runtime/jit/Prebuilt.h"
#include "runtime/Error.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

using namespace tile::jit;

namespace {

std::vector<PrebuiltRecord> sampleRecords() {
  PrebuiltRecord a{"00ff",
                   CacheEntry{"{\"meta\": 1}", std::string("\x7f"
                                                           "ELF\0bin",
                                                           8)},
                   ""};
  PrebuiltRecord b{"0a0b", std::nullopt, "cannot compile kernel 'k':\nssd.py:3:1: error: too big"};
  PrebuiltRecord c{"ffee", CacheEntry{"{}", "ptx text"}, ""};
  return {c, a, b}; // written sorted by key whatever the order given
}

std::string parseError(const std::string &bytes) {
  try {
    PrebuiltArchive::parse(bytes, "test.tkp");
  } catch (const tile::rt::Error &e) {
    return e.what();
  }
  return "";
}

struct EnvVar {
  EnvVar(const char *name, const char *value) : name(name) { setenv(name, value, 1); }
  ~EnvVar() { unsetenv(name); }
  const char *name;
};

} // namespace

TEST_CASE("prebuilt archives round-trip entries and compile failures", "[jit][prebuilt]") {
  const std::string bytes = writePrebuiltArchive(sampleRecords());
  CHECK(bytes.rfind(std::string(kPrebuiltFormat) + "\n3\n00ff E ", 0) == 0);
  PrebuiltArchive archive = PrebuiltArchive::parse(bytes, "test.tkp");
  CHECK(archive.size() == 3);
  std::vector<std::string> warnings;
  auto warn = [&](const std::string &w) { warnings.push_back(w); };
  auto a = archive.find("00ff", warn);
  REQUIRE(a);
  REQUIRE(a->entry);
  CHECK(a->entry->metadata == "{\"meta\": 1}");
  CHECK(a->entry->binary == std::string("\x7f"
                                        "ELF\0bin",
                                        8));
  auto b = archive.find("0a0b", warn);
  REQUIRE(b);
  CHECK(!b->entry);
  CHECK(b->error == "cannot compile kernel 'k':\nssd.py:3:1: error: too big");
  CHECK(archive.find("ffee", warn)->entry->binary == "ptx text");
  CHECK(!archive.find("1234", warn));
  CHECK(warnings.empty());
  CHECK(PrebuiltArchive::parse(writePrebuiltArchive({}), "empty").size() == 0);
}

TEST_CASE("malformed prebuilt archives are refused with their origin", "[jit][prebuilt]") {
  const std::string good = writePrebuiltArchive(sampleRecords());
  CHECK(parseError("") == "test.tkp: not a tile-prebuilt/1 archive");
  CHECK(parseError("TILE-CACHE/1\n") == "test.tkp: not a tile-prebuilt/1 archive");
  CHECK(parseError("tile-prebuilt/1\nx\n") == "test.tkp: bad record count");
  CHECK(parseError("tile-prebuilt/1\n-1\n") == "test.tkp: bad record count");
  CHECK(parseError(good.substr(0, good.size() - 1)) == "test.tkp: record 2: truncated");
  CHECK(parseError(good + "x") == "test.tkp: bytes after the last record");
  CHECK(parseError("tile-prebuilt/1\n2\n") == "test.tkp: record 0: bad header");
  CHECK(parseError("tile-prebuilt/1\n1\nab X 0\n") == "test.tkp: record 0: bad header");
  CHECK(parseError("tile-prebuilt/1\n1\nab E 99999999999999999999\n") == "test.tkp: record 0: bad header");
  CHECK(parseError("tile-prebuilt/1\n1\nab E 999\nxyz") == "test.tkp: record 0: truncated");
  CHECK(parseError("tile-prebuilt/1\n2\nab F 1\nxab F 1\ny") == "test.tkp: record 1: key ab appears twice");
  CHECK(parseError("tile-prebuilt/1\n1\na/b F 1\nx") == "test.tkp: record 0: bad header");
}

TEST_CASE("a prebuilt entry that fails its checksum is a miss, reported", "[jit][prebuilt]") {
  std::string bytes = writePrebuiltArchive(sampleRecords());
  const std::size_t at = bytes.find("{\"meta\"");
  REQUIRE(at != std::string::npos);
  bytes[at + 2] = 'M'; // one flipped byte inside 00ff's entry
  PrebuiltArchive archive = PrebuiltArchive::parse(bytes, "test.tkp");
  std::vector<std::string> warnings;
  CHECK(!archive.find("00ff", [&](const std::string &w) { warnings.push_back(w); }));
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "tile-cc: ignoring the prebuilt kernel 00ff of test.tkp (checksum mismatch); compiling it");
  CHECK(archive.find("ffee", [](const std::string &) {})); // the others are untouched
}

TEST_CASE("registered prebuilt archives answer every JIT; TILE_PREBUILT=0 turns them off", "[jit][prebuilt]") {
  static const std::string bytes = writePrebuiltArchive({{"c0ffee", CacheEntry{"{}", "x"}, ""}});
  const std::size_t before = prebuiltKernelCount();
  addPrebuilt(bytes, "the unit test's archive");
  addPrebuilt(bytes, "the unit test's archive"); // once per origin
  CHECK(prebuiltKernelCount() == before + 1);
  auto ignore = [](const std::string &) {};
  CHECK(findPrebuilt("c0ffee", ignore));
  CHECK(!findPrebuilt("c0ffef", ignore));
  {
    EnvVar off("TILE_PREBUILT", "0");
    CHECK(!findPrebuilt("c0ffee", ignore));
  }
  // A malformed archive is reported and ignored, never thrown.
  addPrebuilt("garbage", "a broken archive");
  CHECK(prebuiltKernelCount() == before + 1);
}
