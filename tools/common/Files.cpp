#include "tools/common/Files.h"

#include "runtime/File.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace tile::tools {

namespace {

std::string errnoText(int e) { return std::strerror(e); }

std::string parentOf(const std::string &path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

} // namespace

std::string checkInputFile(const std::string &path, const std::string &noun, std::uint64_t maxBytes) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return "cannot open '" + path + "': " + errnoText(errno);
  if (S_ISDIR(st.st_mode))
    return "'" + path + "' is a directory, not a " + noun;
  if (!S_ISREG(st.st_mode))
    return "'" + path + "' is not a regular file (a device, FIFO or socket), not a " + noun;
  if (static_cast<std::uint64_t>(st.st_size) > maxBytes)
    return "'" + path + "' has " + std::to_string(st.st_size) + " bytes; a " + noun + " may have at most " +
           std::to_string(maxBytes >> 20) + " MiB";
  if (::access(path.c_str(), R_OK) != 0)
    return "cannot read '" + path + "': " + errnoText(errno);
  return "";
}

bool sameFile(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

namespace {

// `path` absolute, with its folder's symbolic links, '.' and '..' resolved (the folder as
// realpath gives it when it exists; the text, made absolute, otherwise).
std::string canonicalPath(const std::string &path) {
  std::string dir = parentOf(path), base = path.substr(path.find_last_of('/') + 1);
  if (path.find('/') == std::string::npos)
    base = path;
  if (char *real = ::realpath(dir.c_str(), nullptr)) {
    std::string out(real);
    std::free(real);
    return (out == "/" ? "" : out) + "/" + base;
  }
  // The folder does not exist (yet): '.' and '..' removed from the absolute text, as the
  // kernel would resolve them once the folders exist.
  char cwd[4096];
  std::string absolute = !path.empty() && path[0] == '/' ? path
                         : ::getcwd(cwd, sizeof cwd)     ? std::string(cwd) + "/" + path
                                                         : path;
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= absolute.size()) {
    std::size_t end = absolute.find('/', start);
    std::string part = absolute.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part == "..") {
      if (!parts.empty())
        parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  std::string out;
  for (const std::string &part : parts)
    out += "/" + part;
  return out.empty() ? "/" : out;
}

} // namespace

bool samePath(const std::string &output, const std::string &input) {
  struct stat so, si;
  const bool outExists = ::stat(output.c_str(), &so) == 0, inExists = ::stat(input.c_str(), &si) == 0;
  if (outExists && !S_ISREG(so.st_mode))
    return false; // /dev/null twice is harmless
  if (outExists && inExists)
    return sameFile(output, input);
  return canonicalPath(output) == canonicalPath(input);
}

std::string checkOutputs(const std::vector<NamedPath> &outputs, const std::vector<NamedPath> &inputs) {
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    const NamedPath &out = outputs[o];
    for (const NamedPath &in : inputs)
      if (!in.path.empty() && in.path != "-" && samePath(out.path, in.path))
        return out.what + " '" + out.path + "' is " + in.what + "; refusing to overwrite it";
    for (std::size_t p = 0; p < o; ++p)
      if (samePath(out.path, outputs[p].path))
        return out.what + " '" + out.path + "' and " + outputs[p].what + " '" + outputs[p].path + "' are the same file";
  }
  return "";
}

bool makeDirectories(const std::string &dir, std::string &error) {
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return true;
    error = "'" + dir + "' exists and is not a directory";
    return false;
  }
  if (errno != ENOENT) {
    error = "cannot use directory '" + dir + "': " + errnoText(errno);
    return false;
  }
  std::string parent = parentOf(dir);
  if (parent != dir && parent != "." && parent != "/" && !makeDirectories(parent, error))
    return false;
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    error = "cannot create directory '" + dir + "': " + errnoText(errno);
    return false;
  }
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    error = "'" + dir + "' exists and is not a directory";
    return false;
  }
  return true;
}

bool checkWritableDirectory(const std::string &dir, std::string &error) {
  std::string why, temp = rt::writeTempFileNextTo(dir + "/probe", "", why);
  if (temp.empty()) {
    error = "cannot write in directory '" + dir + "': " + why;
    return false;
  }
  ::unlink(temp.c_str());
  return true;
}

bool writeFilesAtomically(const std::vector<std::pair<std::string, std::string>> &files, std::string &error) {
  std::vector<std::string> temps;
  auto removeTemps = [&] {
    for (const std::string &t : temps)
      ::unlink(t.c_str());
  };
  for (const auto &[path, bytes] : files) {
    std::string why, temp = rt::writeTempFileNextTo(path, bytes, why);
    if (temp.empty()) {
      error = "cannot write '" + path + "': " + why;
      removeTemps();
      return false;
    }
    temps.push_back(temp);
  }
  for (size_t i = 0; i < files.size(); ++i)
    if (::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
      error = "cannot rename '" + temps[i] + "' to '" + files[i].first + "': " + errnoText(errno);
      for (size_t j = i; j < temps.size(); ++j)
        ::unlink(temps[j].c_str());
      return false;
    }
  return true;
}

} // namespace tile::tools
