// tile-ssd-prebuild: compiles the Mamba-2 forward kernels for the library's prebuilt archive
// (kernels/mamba2/SsdPrebuilt.h, runtime/jit/Prebuilt.h). Run by the build, not installed.
//
//   tile-ssd-prebuild --set core|full --arch sm_90a,sm_80 [-j N] [-v] -o FILE
//   tile-ssd-prebuild --set core --list       # the signatures and their requests, no compile
//
// Every configuration of every signature is compiled for every target, as the JIT would compile
// it with its default options (the archive is keyed by jit::cacheKey). Records of an archive
// already at FILE whose keys are still asked for are kept, not compiled again. A configuration
// that does not compile is kept with its message, so the JIT skips it without trying again; -v
// prints what the compiles warned of (spills, as tile-cc and the JIT report them).
// Exit codes: 0 success, 1 a failure writing FILE, 2 bad command line.
#include "kernels/mamba2/SsdPrebuilt.h"
#include "runtime/File.h"
#include "runtime/jit/Prebuilt.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace tile;

namespace {

int usage(const char *why) {
  std::fprintf(stderr,
               "tile-ssd-prebuild: error: %s\nusage: tile-ssd-prebuild --set core|full --arch ARCH[,ARCH...] [-j N] "
               "[-v] -o FILE\n"
               "       tile-ssd-prebuild --set core|full --list\n",
               why);
  return 2;
}

struct Job {
  std::string key, arch;
  const jit::KernelRequest *request;
};

} // namespace

int main(int argc, char **argv) {
  std::string set, out;
  std::string targets;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  bool list = false, verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--set" || a == "--arch" || a == "-o" || a == "-j") {
      const char *v = value();
      if (!v)
        return usage((a + " needs a value").c_str());
      if (a == "--set")
        set = v;
      else if (a == "-o")
        out = v;
      else if (a == "--arch")
        targets = v;
      else {
        char *end = nullptr;
        long n = std::strtol(v, &end, 10);
        if (!*v || *end || n < 1 || n > 256)
          return usage("-j takes a thread count from 1 to 256");
        threads = unsigned(n);
      }
    } else if (a == "--list")
      list = true;
    else if (a == "-v")
      verbose = true;
    else
      return usage(("unknown argument '" + a + "'").c_str());
  }
  if (set.empty() || (!list && (out.empty() || targets.empty())))
    return usage("--set, and --arch with -o (or --list), are required");
  std::vector<std::string> archs;
  try {
    if (!list)
      archs = mamba2::parseTargets(targets);
  } catch (const rt::Error &e) {
    return usage(e.what());
  }

  std::vector<mamba2::SsdSignature> signatures;
  std::vector<std::vector<jit::KernelRequest>> requests;
  try {
    signatures = mamba2::prebuiltSignatures(set);
    for (const mamba2::SsdSignature &s : signatures)
      requests.push_back(mamba2::forwardRequests(s));
  } catch (const rt::Error &e) {
    std::fprintf(stderr, "tile-ssd-prebuild: error: %s\n", e.what());
    return 2;
  }
  if (list) {
    for (std::size_t i = 0; i < signatures.size(); ++i)
      std::printf("%s: %zu requests\n", signatures[i].str().c_str(), requests[i].size());
    return 0;
  }

  // The JIT's defaults, as a Jit resolves them with nothing set in the environment.
  jit::JitOptions options;
  options.pipelineStages = 0;
  std::vector<Job> jobs;
  std::map<std::string, bool> seen;
  for (const std::string &arch : archs)
    for (const auto &list : requests)
      for (const jit::KernelRequest &r : list) {
        std::string key = jit::cacheKey(r, options, arch);
        if (seen.emplace(key, true).second) // signatures share most kernels
          jobs.push_back({key, arch, &r});
      }

  const auto start = std::chrono::steady_clock::now();
  std::vector<jit::PrebuiltRecord> records(jobs.size());
  // The archive already at FILE lends every record whose key is still asked for: a key holds
  // the compiler's fingerprint and all else the code depends on, so relinking this tool or
  // adding a signature compiles only what is new. An unreadable or malformed one lends nothing.
  std::string previousBytes;
  std::optional<jit::PrebuiltArchive> previous;
  try {
    previousBytes = rt::readRegularFile(out, std::uint64_t(1) << 34);
    previous = jit::PrebuiltArchive::parse(previousBytes, out);
  } catch (const rt::Error &) {
  }
  std::vector<std::size_t> todo;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    std::optional<jit::PrebuiltRecord> kept;
    if (previous)
      kept = previous->find(jobs[j].key, [](const std::string &) {});
    if (kept)
      records[j] = std::move(*kept);
    else
      todo.push_back(j);
  }
  std::atomic<std::size_t> next{0}, spills{0};
  std::mutex printing;
  auto work = [&] {
    for (std::size_t t; (t = next.fetch_add(1)) < todo.size();) {
      const std::size_t j = todo[t];
      records[j].key = jobs[j].key;
      std::vector<std::string> warnings;
      try {
        records[j].entry = jit::buildEntry(*jobs[j].request, options, jobs[j].arch, warnings);
      } catch (const rt::Error &e) {
        records[j].error = e.what();
      } catch (const std::exception &e) {
        records[j].error = "compile of '" + jobs[j].request->kernel + "': " + e.what();
      }
      spills += !warnings.empty();
      if (verbose && !warnings.empty()) {
        std::lock_guard<std::mutex> lock(printing);
        std::printf("%s for %s, config %u:\n", jobs[j].request->kernel.c_str(), jobs[j].arch.c_str(),
                    *jobs[j].request->config);
        for (const std::string &w : warnings)
          std::printf("  %s\n", w.c_str());
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::min<std::size_t>(threads, todo.size()); ++t)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::size_t failed = std::count_if(records.begin(), records.end(), [](auto &r) { return !r.entry; });
  std::string error;
  std::string tmp = rt::writeTempFileNextTo(out, jit::writePrebuiltArchive(std::move(records)), error);
  if (tmp.empty() || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::fprintf(stderr, "tile-ssd-prebuild: error: cannot write %s: %s\n", out.c_str(),
                 tmp.empty() ? error.c_str() : std::strerror(errno));
    if (!tmp.empty())
      std::remove(tmp.c_str());
    return 1;
  }
  std::printf("tile-ssd-prebuild: %zu signatures (%s) x %zu targets: %zu kernels (%zu kept from the previous "
              "archive), %zu do not compile, %zu compiled with warnings (-v); %.1f s on %u threads -> %s\n",
              signatures.size(), set.c_str(), archs.size(), jobs.size(), jobs.size() - todo.size(), failed,
              std::size_t(spills), seconds, threads, out.c_str());
  return 0;
}
