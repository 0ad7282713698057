#include "compiler/target/PtxasReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace tile::target {

namespace {

// The number right before `what` in `line` ("12 bytes spill stores"), or -1.
int64_t numberBefore(llvm::StringRef line, llvm::StringRef what) {
  size_t at = line.find(what);
  if (at == llvm::StringRef::npos)
    return -1;
  llvm::StringRef head = line.take_front(at).rtrim();
  llvm::StringRef digits = head.substr(head.find_last_not_of("0123456789") + 1);
  int64_t value = 0;
  return digits.empty() || digits.getAsInteger(10, value) ? -1 : value;
}

} // namespace

ResourceUsage parsePtxasReport(llvm::StringRef report) {
  ResourceUsage usage;
  llvm::SmallVector<llvm::StringRef> lines;
  report.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    // "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
    if (int64_t v = numberBefore(line, "bytes stack frame"); v > 0)
      usage.stackFrame += v;
    if (int64_t v = numberBefore(line, "bytes spill stores"); v > 0)
      usage.spillStores += v;
    if (int64_t v = numberBefore(line, "bytes spill loads"); v > 0)
      usage.spillLoads += v;
    // "ptxas info    : Used 242 registers, used 1 barriers"
    if (line.contains("Used ")) {
      int64_t v = numberBefore(line, " registers");
      if (v >= 0)
        usage.registers = std::max(usage.registers, v);
    }
  }
  return usage;
}

std::string spillWarning(llvm::StringRef kernel, int64_t threads, const ResourceUsage &usage, int64_t maxThreads) {
  if (!usage.spills())
    return "";
  std::string text =
      llvm::formatv("kernel '{0}' spills registers to local memory at {1} threads per block: ", kernel, threads);
  if (usage.registers >= 0)
    text += llvm::formatv("{0} registers, ", usage.registers);
  text += llvm::formatv("{0} bytes stored and {1} loaded per thread; give it ", usage.spillStores, usage.spillLoads);
  // Twice the threads halve each thread's share of the tiles (up to the block's limit, and
  // as long as a wgmma's accumulator still fits a thread's registers).
  if (threads > 0 && threads * 2 <= std::min<int64_t>(maxThreads, 1024))
    text += llvm::formatv(
        "more threads (@ct.kernel(num_threads={0}), or --num-threads {0} to tile-cc and tile-run) or ", threads * 2);
  return text + "smaller tiles";
}

} // namespace tile::target
