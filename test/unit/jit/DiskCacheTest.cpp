// The JIT's disk cache: round trips, atomic writes, and corrupt entries never trusted.

#include "runtime/jit/DiskCache.h"
#include "runtime/Error.h"
#include "runtime/jit/Jit.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace tile::jit;

namespace {

std::string tempDir() {
  char dir[] = "/tmp/tile-cache-test-XXXXXX";
  REQUIRE(mkdtemp(dir));
  return dir;
}

std::vector<std::string> filesIn(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeFile(const std::string &path, const std::string &data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

} // namespace

TEST_CASE("cache entries round-trip and leave no temporary files", "[jit][cache]") {
  std::string dir = tempDir() + "/nested/dir"; // created on demand
  DiskCache cache(dir);
  CacheEntry entry{R"({"format": "tile-kernel/1"})", std::string("\x7f"
                                                                 "ELF\0\1\2binary",
                                                                 13)};
  std::string error;
  REQUIRE(cache.store("abc", entry, error));
  std::vector<std::string> warnings;
  auto loaded = cache.load("abc", [&](const std::string &w) { warnings.push_back(w); });
  REQUIRE(loaded);
  CHECK(loaded->metadata == entry.metadata);
  CHECK(loaded->binary == entry.binary);
  CHECK(warnings.empty());
  CHECK(filesIn(dir) == std::vector<std::string>{"abc.tkc"});
  CHECK_FALSE(cache.load("missing", [&](const std::string &w) { warnings.push_back(w); }));
  CHECK(warnings.empty());
}

TEST_CASE("a corrupt or truncated entry is reported once, removed and not trusted", "[jit][cache]") {
  std::string dir = tempDir();
  DiskCache cache(dir);
  std::string error;
  REQUIRE(cache.store("k", {"{}", "payload-bytes"}, error));
  std::string good = readFile(cache.pathFor("k"));

  SECTION("a flipped byte") {
    std::string bad = good;
    bad[bad.size() / 2] ^= 0x20;
    writeFile(cache.pathFor("k"), bad);
  }
  SECTION("truncated") { writeFile(cache.pathFor("k"), good.substr(0, good.size() - 3)); }
  SECTION("empty") { writeFile(cache.pathFor("k"), ""); }
  SECTION("garbage with a valid checksum of the wrong layout") {
    std::string body = "not a cache entry";
    uint64_t sum = checksum(body);
    for (int i = 0; i < 8; ++i)
      body.push_back(static_cast<char>((sum >> (8 * i)) & 0xff));
    writeFile(cache.pathFor("k"), body);
  }

  std::vector<std::string> warnings;
  CHECK_FALSE(cache.load("k", [&](const std::string &w) { warnings.push_back(w); }));
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("ignoring corrupt entry") && Catch::Contains("recompiling"));
  // Removed, so the next lookup is a plain miss with no second report.
  CHECK_FALSE(cache.load("k", [&](const std::string &w) { warnings.push_back(w); }));
  CHECK(warnings.size() == 1);
}

TEST_CASE("the cache directory follows the environment", "[jit][cache]") {
  setenv("TILE_CACHE_DIR", "/tmp/somewhere", 1);
  CHECK(DiskCache::fromEnvironment().directory() == "/tmp/somewhere");
  setenv("TILE_CACHE", "0", 1);
  CHECK_FALSE(DiskCache::fromEnvironment().enabled());
  unsetenv("TILE_CACHE");
  unsetenv("TILE_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  CHECK(DiskCache::fromEnvironment().directory() == "/tmp/xdg/tile-cc");
  unsetenv("XDG_CACHE_HOME");
  CHECK(DiskCache::fromEnvironment().directory() == std::string(std::getenv("HOME")) + "/.cache/tile-cc");
}

TEST_CASE("an unwritable cache directory is an error, not a crash", "[jit][cache]") {
  DiskCache cache("/proc/no-such-dir/cache");
  std::string error;
  CHECK_FALSE(cache.store("k", {"{}", "x"}, error));
  CHECK_THAT(error, Catch::Contains("cannot create cache directory"));
}

TEST_CASE("cache keys change with everything that changes the code", "[jit][cache]") {
  KernelRequest base;
  base.source = "import cuda.tile as ct\n";
  base.kernel = "k";
  base.constants["B"] = int64_t(64);
  base.args["x"] = {"float32", 2};
  JitOptions options;
  std::string key = cacheKey(base, options, "sm_90a");
  CHECK(key.size() == 32);
  CHECK(cacheKey(base, options, "sm_90a") == key);
  auto differs = [&](KernelRequest r, JitOptions o = {}, std::string arch = "sm_90a") {
    return cacheKey(r, o, arch) != key;
  };
  KernelRequest r = base;
  r.source += " ";
  CHECK(differs(r));
  r = base;
  r.constants["B"] = int64_t(128);
  CHECK(differs(r));
  r = base;
  r.constants["B"] = 64.0; // a float 64 is not the int 64
  CHECK(differs(r));
  r = base;
  r.args["x"] = {"bfloat16", 2};
  CHECK(differs(r));
  r = base;
  r.config = 1;
  CHECK(differs(r));
  // An aligned array compiles to other code (TMA copies); with the facts switched off
  // (TILE_ALIGNED=0) it compiles, and is keyed, as a plain one.
  r = base;
  r.args["x"].aligned = true;
  CHECK(differs(r));
  JitOptions plain;
  plain.alignedArgs = false;
  CHECK(cacheKey(r, plain, "sm_90a") == key);
  CHECK(differs(base, options, "sm_80"));
  JitOptions more;
  more.numThreads = 256;
  CHECK(differs(base, more));
}

TEST_CASE("the target follows the device's compute capability", "[jit]") {
  CHECK(archForComputeCapability(9, 0) == "sm_90a");
  CHECK(archForComputeCapability(8, 0) == "sm_80");
  CHECK(archForComputeCapability(8, 6) == "sm_86");
  CHECK(archForComputeCapability(8, 9) == "sm_89");
  CHECK(archForComputeCapability(7, 5) == "sm_75");
  CHECK(archForComputeCapability(10, 0) == "sm_90");
}

namespace {

// An entry file whose checksum is right for `body`, so that only the layout is wrong.
std::string withChecksum(std::string body) {
  uint64_t sum = checksum(body);
  for (int i = 0; i < 8; ++i)
    body.push_back(static_cast<char>((sum >> (8 * i)) & 0xff));
  return body;
}

} // namespace

TEST_CASE("a header with absurd sizes is corrupt, not an exception", "[jit][cache]") {
  // "-1" used to read as SIZE_MAX through istream and wrap the size check into a substr that
  // threw std::out_of_range out of the JIT.
  for (const char *header : {"TILE-CACHE/1\n-1 3\nabc", "TILE-CACHE/1\n18446744073709551615 4\nabcd",
                             "TILE-CACHE/1\n2 18446744073709551615\nabcd", "TILE-CACHE/1\n99999999999999999999 1\nab",
                             "TILE-CACHE/1\n1 1", "TILE-CACHE/1\n", "TILE-CACHE/1", "TILE-CACHE/1\n1 1\nabc"}) {
    INFO(header);
    std::string why;
    CHECK_FALSE(DiskCache::parseEntry(withChecksum(header), why));
    CHECK_FALSE(why.empty());
  }
  std::string why;
  auto ok = DiskCache::parseEntry(withChecksum("TILE-CACHE/1\n2 3\n{}abc"), why);
  REQUIRE(ok);
  CHECK(ok->metadata == "{}");
  CHECK(ok->binary == "abc");
}

TEST_CASE("odd things at a cache key are reported once and never throw", "[jit][cache]") {
  std::string dir = tempDir();
  DiskCache cache(dir);
  std::string path = cache.pathFor("k");
  std::vector<std::string> warnings;
  auto warn = [&](const std::string &w) { warnings.push_back(w); };
  std::string error;

  SECTION("a directory is left alone, and storing skips it") {
    REQUIRE(mkdir(path.c_str(), 0755) == 0);
    CHECK_FALSE(cache.load("k", warn));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("ignoring unreadable entry " + path) && Catch::Contains("a directory") &&
                                Catch::Contains("recompiling"));
    cache.storeOrWarn("k", {"{}", "x"}, warn);
    CHECK(warnings.size() == 1); // no second report for the same key
    CHECK(cache.enabled());
    struct stat st;
    CHECK((stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)));
  }
  SECTION("a symbolic link is removed, not what it points to") {
    std::string target = dir + "/target";
    writeFile(target, "precious");
    REQUIRE(symlink(target.c_str(), path.c_str()) == 0);
    CHECK_FALSE(cache.load("k", warn));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("ignoring corrupt entry") && Catch::Contains("symbolic link"));
    CHECK(readFile(target) == "precious");
    CHECK(access(path.c_str(), F_OK) != 0);
  }
  SECTION("a file larger than any entry is removed unread") {
    int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(ftruncate(fd, off_t(DiskCache::kMaxEntryBytes) + 1) == 0); // sparse
    close(fd);
    CHECK_FALSE(cache.load("k", warn));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("ignoring corrupt entry") && Catch::Contains("the limit"));
    CHECK(access(path.c_str(), F_OK) != 0);
  }
  SECTION("a file it may not read is left alone") {
    if (geteuid() == 0) {
      WARN("skipped: root reads any file");
      return;
    }
    writeFile(path, "x");
    REQUIRE(chmod(path.c_str(), 0) == 0);
    CHECK_FALSE(cache.load("k", warn));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("Permission denied"));
    CHECK(access(path.c_str(), F_OK) == 0);
    // Storing replaces it: the rename needs only the directory.
    cache.storeOrWarn("k", {"{}", "x"}, warn);
    chmod(path.c_str(), 0644);
    CHECK(cache.load("k", warn));
  }
  SECTION("a FIFO does not block the load") {
    REQUIRE(mkfifo(path.c_str(), 0644) == 0);
    CHECK_FALSE(cache.load("k", warn));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("not a regular file"));
  }
}

TEST_CASE("an unwritable cache directory turns the disk cache off with one warning", "[jit][cache]") {
  DiskCache cache("/proc/no-such-dir/cache");
  DiskCache copy = cache; // the JIT's copy and the application's see the same state
  std::vector<std::string> warnings;
  auto warn = [&](const std::string &w) { warnings.push_back(w); };
  CHECK(cache.enabled());
  cache.storeOrWarn("k", {"{}", "x"}, warn);
  cache.storeOrWarn("k2", {"{}", "y"}, warn);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("cannot create cache directory /proc/no-such-dir/cache") &&
                              Catch::Contains("continuing without the disk cache"));
  CHECK_FALSE(cache.enabled());
  CHECK_FALSE(copy.enabled());
  CHECK_FALSE(cache.load("k", warn));
  CHECK(warnings.size() == 1);
}

TEST_CASE("kernel sources that are not regular files are Io errors", "[jit]") {
  for (const char *path : {"/nonexistent/k.py", "/tmp", "/dev/null"}) {
    INFO(path);
    try {
      loadSource(path);
      FAIL("no error");
    } catch (const tile::rt::Error &e) {
      CHECK(e.kind() == tile::rt::Error::Kind::Io);
      CHECK_THAT(e.what(), Catch::StartsWith(std::string("cannot read kernel source ") + path + ": "));
    }
  }
}
