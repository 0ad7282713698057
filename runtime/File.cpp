#include "runtime/File.h"

#include "runtime/Error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

namespace tile::rt {

namespace {

[[noreturn]] void fail(const std::string &path, const std::string &what) {
  throw Error(Error::Kind::Io, path + ": " + what);
}

// Closes the descriptor on every path out, exceptions included.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

std::string formatBytes(std::uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024)
    return std::to_string(bytes) + " bytes";
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 4)
    v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string readRegularFile(const std::string &path, std::uint64_t maxBytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0)
    fail(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  if (::fstat(f.fd, &st) != 0)
    fail(path, std::string("cannot stat: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    fail(path, "is a directory, not a file");
  if (!S_ISREG(st.st_mode))
    fail(path, "is not a regular file");
  std::uint64_t size = std::uint64_t(st.st_size);
  if (size > maxBytes)
    fail(path, "is " + formatBytes(size) + "; the limit for this kind of file is " + formatBytes(maxBytes));
  std::string data;
  try {
    data.resize(size_t(size));
  } catch (const std::bad_alloc &) {
    fail(path, "out of memory reading " + formatBytes(size));
  }
  std::uint64_t done = 0;
  while (done < size) {
    ssize_t n = ::read(f.fd, &data[size_t(done)], size_t(size - done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      fail(path, std::string("read error: ") + std::strerror(errno));
    if (n == 0)
      fail(path, "shrank while being read");
    done += std::uint64_t(n);
  }
  char extra;
  ssize_t n;
  while ((n = ::read(f.fd, &extra, 1)) < 0 && errno == EINTR) {
  }
  if (n > 0)
    fail(path, "grew while being read");
  return data;
}

} // namespace tile::rt
