// writeNpy is atomic: a failed write leaves the existing file as it was, a symlink at the
// destination is replaced rather than written through, and no temporary file stays behind.
#include "runtime/Error.h"
#include "runtime/npy/Npy.h"

#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace tile::rt;

namespace {

std::string contents(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("npy: writeNpy replaces a file atomically", "[runtime][npy]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tile-npy-atomic-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "y.npy").string();
  writeNpy(path, {2}, {1.0, 2.0}, DType::Float32);
  const std::string before = contents(path);
  CHECK(readNpy(path).values == std::vector<double>{1.0, 2.0});

  // Over a file size limit: the write fails, the old file is intact and no temporary is left.
  struct rlimit old;
  getrlimit(RLIMIT_FSIZE, &old);
  struct rlimit small = old;
  small.rlim_cur = 4096;
  auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  bool threw = false;
  try {
    writeNpy(path, {10000}, std::vector<double>(10000, 3.0), DType::Float32);
  } catch (const Error &e) {
    threw = true;
    CHECK(std::string(e.what()) == path + ": write error: File too large");
  }
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  CHECK(threw);
  CHECK(contents(path) == before);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);

  // A symlink at the destination: the link is replaced, its target (say, an input) is not.
  const std::string input = (dir / "x.npy").string(), link = (dir / "out.npy").string();
  writeNpy(input, {1}, {7.0}, DType::Float32);
  fs::create_symlink(input, link);
  writeNpy(link, {1}, {8.0}, DType::Float32);
  CHECK(readNpy(input).values == std::vector<double>{7.0});
  CHECK(readNpy(link).values == std::vector<double>{8.0});
  CHECK_FALSE(fs::is_symlink(link));
  fs::remove_all(dir);
}
