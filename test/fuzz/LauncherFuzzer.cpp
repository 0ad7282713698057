// libFuzzer target over the launcher generator (tile-cc --emit=launcher) and its tuning-table
// reader. The input's first line is a --launcher-namespace, the second the command line the
// header quotes, the rest kernel parameter names (those that are Python identifiers); the
// whole input is also read as a --tuning-table. Checked, beyond "no crash":
//   - an accepted namespace has no component that is a C++ keyword or macro;
//   - the parameters' C++ names are distinct, and none is a keyword, a macro or one of the
//     generated code's own names;
//   - the header's comment block stays a comment: every line before `#pragma once` starts
//     with "//" (a newline or a trailing backslash in the command must not make code);
//   - the tuning-table reader gives decisions or a message, never a negative block count.
#include "runtime/KernelMetadata.h"
#include "tools/tile-cc/Launcher.h"
#include "tools/tile-cc/LauncherTuning.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace tile;

namespace {

bool isPythonIdentifier(const std::string &s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9'))
    return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

void check(bool ok) {
  if (!ok)
    std::abort();
}

// The tuning-table reader takes a path: one file per process, rewritten for each input.
std::string tablePath() {
  static std::string path = [] {
    char name[] = "/tmp/tile-launcher-fuzz-XXXXXX";
    int fd = ::mkstemp(name);
    if (fd >= 0)
      ::close(fd);
    return std::string(name);
  }();
  return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  while (lines.size() < 2)
    lines.push_back("");

  const std::string &nameSpace = lines[0];
  const bool nsAccepted = tools::checkIdentifier(nameSpace, "ns", true).empty();
  if (nsAccepted) {
    std::size_t start = 0;
    while (true) {
      std::size_t end = nameSpace.find("::", start);
      check(!tools::isCppReservedWord(nameSpace.substr(start, end == std::string::npos ? end : end - start)));
      if (end == std::string::npos)
        break;
      start = end + 2;
    }
  }

  tools::LauncherVariant variant;
  variant.metadata.name = "k";
  variant.metadata.kernel = "k";
  variant.metadata.threadsPerBlock = 128;
  std::set<std::string> seen;
  for (std::size_t i = 2; i < lines.size() && variant.metadata.params.size() < 16; ++i)
    if (isPythonIdentifier(lines[i]) && seen.insert(lines[i]).second) {
      rt::ParamInfo p;
      p.name = lines[i];
      p.kind = i % 2 ? rt::ParamInfo::Kind::Array : rt::ParamInfo::Kind::Scalar;
      p.rank = p.kind == rt::ParamInfo::Kind::Array ? 1 : 0;
      variant.metadata.params.push_back(p);
    }
  const std::vector<std::string> ids = tools::launcherParameterNames(variant.metadata);
  const std::set<std::string> generated = {"config", "embedded", "grid", "stream"};
  check(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  for (const std::string &id : ids)
    check(!tools::isCppReservedWord(id) && !generated.count(id));

  tools::LauncherImage image;
  image.arch = "sm_90a";
  image.isPtx = true;
  image.bytes = "ptx";
  variant.images.push_back(image);
  tools::LauncherOptions options;
  options.name = "k";
  options.nameSpace = nsAccepted ? nameSpace : "";
  options.headerName = "k.h";
  options.command = lines[1] + (lines.size() > 2 ? "\n" + lines[2] : "");
  std::string header, source;
  tools::writeLauncher({variant}, options, header, source);
  std::stringstream h(header);
  for (std::string line; std::getline(h, line) && line != "#pragma once";)
    check(line.rfind("//", 0) == 0 && (line.empty() || line.back() != '\\'));

  if (FILE *f = std::fopen(tablePath().c_str(), "wb")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    tools::LauncherTuningSpec spec;
    spec.kernel = "k";
    spec.keyNames = {"n"};
    spec.configLabels = {"B=64", "B=128"};
    tools::LauncherTuning tuning;
    std::vector<std::string> notes;
    std::string error;
    if (tools::readLauncherTuning(tablePath(), spec, tuning, notes, error))
      for (const tools::LauncherTuningEntry &e : tuning.entries) {
        check(e.blocks >= 0 && e.config < spec.configLabels.size());
        for (std::int64_t v : e.keyValues)
          check(v >= 0);
      }
  }
  return 0;
}
