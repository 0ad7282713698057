#include "runtime/File.h"

#include "runtime/Error.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <new>
#include <pthread.h>
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

// While alive, a write past the file size limit (ulimit -f) fails with EFBIG instead of
// killing the process with SIGXFSZ: the signal is blocked for this thread, and one it raised
// meanwhile is taken off the pending set before the old mask returns. An application that
// embeds the runtime keeps its own disposition of SIGXFSZ.
class FileSizeSignalGuard {
public:
  FileSizeSignalGuard() {
    sigset_t xfsz;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &xfsz, &old_);
    sigset_t pending;
    wasPending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1;
  }
  ~FileSizeSignalGuard() {
    sigset_t pending, xfsz;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    if (!wasPending_ && sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1) {
      const timespec now{0, 0};
      while (sigtimedwait(&xfsz, nullptr, &now) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  FileSizeSignalGuard(const FileSizeSignalGuard &) = delete;
  FileSizeSignalGuard &operator=(const FileSizeSignalGuard &) = delete;

private:
  sigset_t old_;
  bool wasPending_ = false;
};

} // namespace

std::string writeTempFileNextTo(const std::string &path, const std::string &bytes, std::string &error, bool *created) {
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "/." + base + ".tmp-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (created)
    *created = fd >= 0;
  if (fd < 0) {
    error = std::strerror(errno);
    return "";
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask); // mkstemp's 0600 -> the usual mode of a new file
  const char *p = bytes.data();
  std::size_t left = bytes.size();
  bool ok = true;
  FileSizeSignalGuard noSignal; // EFBIG, reported below, rather than SIGXFSZ
  while (ok && left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO;
      ok = false;
      break;
    }
    p += n;
    left -= std::size_t(n);
  }
  // fsync before the caller's rename: otherwise a crash can leave the new name on empty data.
  ok = ok && ::fsync(fd) == 0;
  int e = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (!ok) {
    ::unlink(temp.c_str());
    error = std::strerror(e);
    return "";
  }
  return temp;
}

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

ReadFailure readRegularFileInto(const std::string &path, std::uint64_t maxBytes, std::string &data) {
  using K = ReadFailure::Kind;
  auto failure = [](K kind, int error = 0, std::uint64_t size = 0) { return ReadFailure{kind, error, size}; };
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0)
    return failure(K::CannotOpen, errno);
  struct stat st;
  if (::fstat(f.fd, &st) != 0)
    return failure(K::CannotOpen, errno);
  if (S_ISDIR(st.st_mode))
    return failure(K::Directory);
  if (!S_ISREG(st.st_mode))
    return failure(K::NotRegular);
  std::uint64_t size = std::uint64_t(st.st_size);
  if (size > maxBytes)
    return failure(K::TooLarge, 0, size);
  ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  try {
    data.resize(size_t(size));
  } catch (const std::bad_alloc &) {
    return failure(K::OutOfMemory, 0, size);
  }
  std::uint64_t done = 0;
  while (done < size) {
    ssize_t n = ::read(f.fd, &data[size_t(done)], size_t(size - done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return failure(K::ReadError, errno);
    if (n == 0)
      return failure(K::Shrank);
    done += std::uint64_t(n);
  }
  char extra;
  ssize_t n;
  while ((n = ::read(f.fd, &extra, 1)) < 0 && errno == EINTR) {
  }
  if (n > 0)
    return failure(K::Grew);
  return {};
}

std::string readRegularFile(const std::string &path, std::uint64_t maxBytes) {
  std::string data;
  const ReadFailure why = readRegularFileInto(path, maxBytes, data);
  switch (why.kind) {
  case ReadFailure::Kind::None:
    return data;
  case ReadFailure::Kind::CannotOpen:
    fail(path, std::string("cannot open: ") + std::strerror(why.error));
  case ReadFailure::Kind::Directory:
    fail(path, "is a directory, not a file");
  case ReadFailure::Kind::NotRegular:
    fail(path, "is not a regular file");
  case ReadFailure::Kind::TooLarge:
    fail(path, "is " + formatBytes(why.size) + "; the limit for this kind of file is " + formatBytes(maxBytes));
  case ReadFailure::Kind::OutOfMemory:
    fail(path, "out of memory reading " + formatBytes(why.size));
  case ReadFailure::Kind::ReadError:
    fail(path, std::string("read error: ") + std::strerror(why.error));
  case ReadFailure::Kind::Shrank:
    fail(path, "shrank while being read");
  case ReadFailure::Kind::Grew:
    fail(path, "grew while being read");
  }
  fail(path, "cannot be read");
}

std::string readStandardInput(const std::string &name, std::uint64_t maxBytes) {
  std::string data;
  char buffer[65536];
  while (true) {
    ssize_t n = ::read(0, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      fail(name, std::string("read error: ") + std::strerror(errno));
    if (n == 0)
      return data;
    if (data.size() + std::uint64_t(n) > maxBytes)
      fail(name, "is more than " + formatBytes(maxBytes) + ", the limit for this kind of input");
    data.append(buffer, size_t(n));
  }
}

} // namespace tile::rt
