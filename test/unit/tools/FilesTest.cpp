// The tools' file checks and all-or-nothing output.
#include "tools/common/Files.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tile::tools;

namespace {

std::string tempDir() {
  char name[] = "/tmp/tile-files-test-XXXXXX";
  REQUIRE(mkdtemp(name) != nullptr);
  return name;
}

std::string contents(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void put(const std::string &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }

std::vector<std::string> entries(const std::string &dir) {
  std::vector<std::string> names;
  DIR *d = opendir(dir.c_str());
  while (dirent *e = readdir(d))
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
      names.push_back(e->d_name);
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace

TEST_CASE("tools: checkInputFile names what is wrong", "[tools]") {
  const std::string dir = tempDir();
  CHECK(checkInputFile(dir, "kernel file", 100) == "'" + dir + "' is a directory, not a kernel file");
  CHECK(checkInputFile("/dev/zero", "kernel file", 100) ==
        "'/dev/zero' is not a regular file (a device, FIFO or socket), not a kernel file");
  CHECK(checkInputFile(dir + "/none", "kernel file", 100) ==
        "cannot open '" + dir + "/none': No such file or directory");
  put(dir + "/k.py", "x");
  CHECK(checkInputFile(dir + "/k.py", "kernel file", 100).empty());
  CHECK(checkInputFile(dir + "/k.py", "kernel file", 0).find("may have at most") != std::string::npos);
  unlink((dir + "/k.py").c_str());
  rmdir(dir.c_str());
}

TEST_CASE("tools: sameFile follows symlinks and hard links", "[tools]") {
  const std::string dir = tempDir();
  put(dir + "/a", "a");
  put(dir + "/b", "b");
  REQUIRE(symlink((dir + "/a").c_str(), (dir + "/link").c_str()) == 0);
  REQUIRE(link((dir + "/a").c_str(), (dir + "/hard").c_str()) == 0);
  CHECK(sameFile(dir + "/a", dir + "/link"));
  CHECK(sameFile(dir + "/a", dir + "/hard"));
  CHECK_FALSE(sameFile(dir + "/a", dir + "/b"));
  CHECK_FALSE(sameFile(dir + "/a", dir + "/none"));
  for (const char *n : {"/a", "/b", "/link", "/hard"})
    unlink((dir + n).c_str());
  rmdir(dir.c_str());
}

TEST_CASE("tools: makeDirectories reports the real cause", "[tools]") {
  const std::string dir = tempDir();
  std::string error;
  CHECK(makeDirectories(dir + "/p/q", error));
  struct stat st;
  CHECK((stat((dir + "/p/q").c_str(), &st) == 0 && S_ISDIR(st.st_mode)));
  put(dir + "/file", "x");
  CHECK_FALSE(makeDirectories(dir + "/file", error));
  CHECK(error == "'" + dir + "/file' exists and is not a directory");
  CHECK_FALSE(makeDirectories(dir + "/file/sub", error));
  CHECK(error == "cannot use directory '" + dir + "/file/sub': Not a directory");
  CHECK(checkWritableDirectory(dir, error));
  CHECK(entries(dir) == std::vector<std::string>{"file", "p"}); // the probe is gone
  rmdir((dir + "/p/q").c_str());
  rmdir((dir + "/p").c_str());
  unlink((dir + "/file").c_str());
  rmdir(dir.c_str());
}

TEST_CASE("tools: writeFilesAtomically writes both files or neither", "[tools]") {
  const std::string dir = tempDir();
  std::string error;
  put(dir + "/y", "old y");
  put(dir + "/s", "old s");
  REQUIRE(writeFilesAtomically({{dir + "/y", "new y"}, {dir + "/s", "new s"}}, error));
  CHECK(contents(dir + "/y") == "new y");
  CHECK(contents(dir + "/s") == "new s");

  // A file size limit: the second file does not fit, so neither is replaced and no temporary
  // file stays behind. (SIGXFSZ ignored: the write fails with EFBIG instead.)
  struct rlimit old;
  getrlimit(RLIMIT_FSIZE, &old);
  struct rlimit small = old;
  small.rlim_cur = 1000;
  auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  bool ok = writeFilesAtomically({{dir + "/y", "newer y"}, {dir + "/s", std::string(5000, 's')}}, error);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  CHECK_FALSE(ok);
  CHECK(error == "cannot write '" + dir + "/s': File too large");
  CHECK(contents(dir + "/y") == "new y");
  CHECK(contents(dir + "/s") == "new s");
  CHECK(entries(dir) == std::vector<std::string>{"s", "y"});

  // A symlink at the destination is replaced, not written through.
  put(dir + "/target", "input");
  REQUIRE(symlink((dir + "/target").c_str(), (dir + "/out").c_str()) == 0);
  REQUIRE(writeFilesAtomically({{dir + "/out", "output"}}, error));
  CHECK(contents(dir + "/target") == "input");
  CHECK(contents(dir + "/out") == "output");
  for (const char *n : {"/y", "/s", "/target", "/out"})
    unlink((dir + n).c_str());
  rmdir(dir.c_str());
}
