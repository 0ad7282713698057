#include "runtime/jit/CompileWarnings.h"

#include <map>
#include <utility>

namespace tile::jit {

namespace {

std::string configName(const KernelRequest &r) { return r.config ? std::to_string(*r.config) : "default"; }

void ownLines(const KernelRequest &r, const std::vector<std::string> &warnings, std::vector<std::string> &lines) {
  for (const std::string &warning : warnings)
    lines.push_back("tile-cc: warning: " + r.fileName +
                    (r.config ? ", configuration " + std::to_string(*r.config) : std::string()) + ": " + warning);
}

} // namespace

std::vector<std::string> compileWarningLines(const std::vector<KernelRequest> &requests,
                                             const std::vector<size_t> &compiled,
                                             const std::vector<std::vector<std::string>> &warnings) {
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> byKernel; // (file, kernel)
  for (size_t i : compiled)
    byKernel[{requests[i].fileName, requests[i].kernel}].push_back(i);
  std::vector<std::string> lines;
  for (const auto &[where, indices] : byKernel) {
    if (indices.size() == 1) {
      ownLines(requests[indices[0]], warnings[indices[0]], lines);
      continue;
    }
    std::string spilling;
    size_t count = 0;
    for (size_t i : indices)
      if (!warnings[i].empty())
        spilling += (count++ ? ", " : "") + configName(requests[i]);
    if (count == 0)
      continue;
    lines.push_back("tile-cc: warning: " + where.first + ": kernel '" + where.second + "': " + std::to_string(count) +
                    " of the " + std::to_string(indices.size()) +
                    " configurations compiled for autotuning spill registers to local memory (configuration" +
                    (count > 1 ? "s " : " ") + spilling + "); the autotuner times them as they are (`tile-cc " +
                    where.first + " --kernel " + where.second + " --config N` shows each)");
  }
  return lines;
}

} // namespace tile::jit
