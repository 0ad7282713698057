// SourceManager::addFile reads regular files only, and only up to its size limit: a directory
// used to read as an empty file and /dev/zero until memory ran out.
#include "compiler/frontend/Source.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace tile::frontend;

namespace {

std::string tempDir() {
  char name[] = "/tmp/tile-source-test-XXXXXX";
  REQUIRE(mkdtemp(name) != nullptr);
  return name;
}

} // namespace

TEST_CASE("source: addFile refuses directories, devices and FIFOs", "[frontend][source]") {
  SourceManager sm;
  std::string error;
  const std::string dir = tempDir();
  CHECK(sm.addFile(dir, &error) == nullptr);
  CHECK(error == "'" + dir + "' is a directory, not a kernel source file");

  CHECK(sm.addFile("/dev/zero", &error) == nullptr);
  CHECK(error == "'/dev/zero' is not a regular file (a device, FIFO or socket), not a kernel source file");

  // A FIFO without a writer: opening it must not block.
  const std::string fifo = dir + "/k.py";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(sm.addFile(fifo, &error) == nullptr);
  CHECK(error == "'" + fifo + "' is not a regular file (a device, FIFO or socket), not a kernel source file");
  unlink(fifo.c_str());
  rmdir(dir.c_str());
}

TEST_CASE("source: addFile has a size limit and reads regular files whole", "[frontend][source]") {
  SourceManager sm;
  std::string error;
  const std::string dir = tempDir();
  const std::string big = dir + "/big.py", small = dir + "/small.py";
  // Sparse: one byte past the limit costs no disk.
  int fd = open(big.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  REQUIRE(ftruncate(fd, off_t(SourceManager::kMaxSourceFileBytes + 1)) == 0);
  close(fd);
  CHECK(sm.addFile(big, &error) == nullptr);
  CHECK(error == "file '" + big + "' is larger than the 64 MiB limit on kernel source files");

  FILE *f = std::fopen(small.c_str(), "wb");
  REQUIRE(f);
  std::fputs("x = 1\n", f);
  std::fclose(f);
  const SourceFile *file = sm.addFile(small, &error);
  REQUIRE(file != nullptr);
  CHECK(file->text() == "x = 1\n");
  unlink(big.c_str());
  unlink(small.c_str());
  rmdir(dir.c_str());
}
