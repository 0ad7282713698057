#include "tools/tile-cc/AllConfigs.h"

#include "runtime/KernelPackage.h"
#include "tools/common/Files.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>
#include <vector>

namespace tile::tools {

int buildAllConfigs(const AllConfigsRequest &request) {
  const unsigned n = static_cast<unsigned>(request.configs.size());
  // Every file the package may hold, checked against the input before any compile (a kernel
  // source named pk/manifest.json must survive -o pk).
  std::vector<NamedPath> outputs{{request.outDir + "/manifest.json", "the package's manifest"}};
  for (unsigned i = 0; i < n; ++i)
    for (const char *ext : {".cubin", ".ptx", ".json"})
      outputs.push_back(
          {request.outDir + "/" + request.spec.kernel + ".config" + std::to_string(i) + ext, "the package's file"});
  if (std::string clash = checkOutputs(outputs, {{request.fileName, "the input file"}}); !clash.empty()) {
    std::cerr << "tile-cc: error: " << clash << "\n";
    return 2;
  }
  std::vector<driver::CompiledKernel> built(n);
  std::vector<std::string> errors(n);
  std::vector<bool> ok(n, false);
  std::vector<double> seconds(n, 0);
  std::atomic<unsigned> next{0};
  auto work = [&] {
    for (unsigned i; (i = next.fetch_add(1)) < n;) {
      auto start = std::chrono::steady_clock::now();
      frontend::Specialization spec = request.spec;
      spec.config = i;
      ok[i] = driver::compileKernel(request.source, request.fileName, spec, request.options, built[i], errors[i]);
      seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  };
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < std::min(request.jobs, n); ++w)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::string &kernel = request.spec.kernel;
  rt::PackageManifest manifest;
  manifest.kernel = kernel;
  manifest.arch = request.options.arch;
  std::vector<std::pair<std::string, std::string>> files;
  unsigned builtCount = 0;
  for (unsigned i = 0; i < n; ++i) {
    rt::PackageEntry e;
    e.config = i;
    // The configuration's constants as they took effect (a --const overrides a configuration's).
    for (auto &[name, value] : request.configs[i]) {
      auto given = request.spec.constants.find(name);
      e.constants[name] = frontend::formatConstant(given != request.spec.constants.end() ? given->second : value);
    }
    if (ok[i]) {
      const std::string stem = kernel + ".config" + std::to_string(i);
      const bool ptx = built[i].cubin.empty();
      e.binary = stem + (ptx ? ".ptx" : ".cubin");
      e.metadata = stem + ".json";
      files.push_back({request.outDir + "/" + e.binary, ptx ? built[i].ptx : built[i].cubin});
      files.push_back({request.outDir + "/" + e.metadata, built[i].metadata});
      ++builtCount;
      for (const std::string &warning : built[i].warnings)
        std::cerr << "tile-cc: warning: configuration " << i << ": " << warning << "\n";
    } else {
      std::string first = errors[i].substr(0, errors[i].find('\n'));
      e.error = first.empty() ? "compilation failed" : first;
      std::cerr << "tile-cc: configuration " << i << " of '" << kernel << "' is not built:\n" << errors[i];
    }
    manifest.entries.push_back(std::move(e));
  }
  files.push_back({request.outDir + "/manifest.json", rt::toJson(manifest)});
  std::string error;
  if (!makeDirectories(request.outDir, error) || !writeFilesAtomically(files, error)) {
    std::cerr << "tile-cc: error: " << error << "\n";
    return 3;
  }
  for (unsigned i = 0; i < n; ++i)
    std::printf("tile-cc: %s config %u: %s (%.2f s)\n", kernel.c_str(), i,
                ok[i] ? manifest.entries[i].binary.c_str() : "not built", seconds[i]);
  std::printf("tile-cc: %u of %u configurations of '%s' in %s (%.2f s on %u threads)\n", builtCount, n, kernel.c_str(),
              request.outDir.c_str(), total, std::min(request.jobs, n));
  return builtCount ? 0 : 1;
}

} // namespace tile::tools
