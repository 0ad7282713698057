// The runtime's one reader and writer (runtime/File.h) under hostile conditions: a FIFO, a
// device without end, standard input past its limit, and a file size limit with SIGXFSZ at its
// default action (which would kill the process) — each an error, never a hang or a signal.
#include "runtime/File.h"
#include "runtime/Error.h"

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tile::rt;

namespace {

// Runs `body` in a child process and returns its wait status: a signal that kills the child
// cannot take the test binary with it.
template <typename F> int inChild(F body) {
  pid_t pid = ::fork();
  if (pid == 0)
    ::_exit(body());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

} // namespace

TEST_CASE("file: readRegularFile refuses FIFOs and devices at once", "[runtime][file]") {
  namespace fs = std::filesystem;
  const std::string fifo = (fs::temp_directory_path() / ("tile-file-fifo-" + std::to_string(::getpid()))).string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // No writer ever opens it: a reader that waited would hang the test.
  CHECK_THROWS_WITH(readRegularFile(fifo, 1 << 20), fifo + ": is not a regular file");
  ::unlink(fifo.c_str());
  CHECK_THROWS_WITH(readRegularFile("/dev/zero", 1 << 20), "/dev/zero: is not a regular file");
}

TEST_CASE("file: readStandardInput stops at its limit", "[runtime][file]") {
  // /dev/zero as standard input never ends: the reader must stop one buffer past the limit.
  int status = inChild([] {
    int fd = ::open("/dev/zero", O_RDONLY);
    ::dup2(fd, 0);
    try {
      readStandardInput("<stdin>", 1 << 20);
    } catch (const Error &e) {
      return std::string(e.what()) == "<stdin>: is more than 1.0 MiB, the limit for this kind of input" ? 0 : 2;
    }
    return 1;
  });
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("file: a write past the file size limit is an error, not SIGXFSZ", "[runtime][file]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("tile-file-fsize-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "record.json").string();
  int status = inChild([&] {
    std::signal(SIGXFSZ, SIG_DFL); // the default: the kernel kills the writer
    struct rlimit small = {4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &small) != 0)
      return 3;
    std::string error;
    std::string temp = writeTempFileNextTo(path, std::string(100000, 'x'), error);
    if (!temp.empty())
      return 1;
    // The signal the write raised was consumed: unblocked again, nothing is delivered.
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGXFSZ))
      return 4;
    return error == "File too large" ? 0 : 2;
  });
  INFO("wait status " << status);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // No temporary file stays behind.
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 0);
  fs::remove_all(dir);
}
