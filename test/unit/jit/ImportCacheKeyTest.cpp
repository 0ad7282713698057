// Imported kernel modules and the JIT: the cache key hashes what a source imports (a change
// in a sibling module compiles the kernel again), the search path is honoured, and a source
// without kernel-module imports keeps the key it had before imports were followed.

#include "compiler/frontend/Imports.h"
#include "runtime/jit/Interpreted.h"
#include "runtime/jit/Jit.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace tile::jit;

namespace {

std::string tempDir() {
  char dir[] = "/tmp/tile-import-test-XXXXXX";
  REQUIRE(mkdtemp(dir));
  return dir;
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  REQUIRE(out.good());
}

const char *kKernel = R"(import cuda.tile as ct
import torch
from .gelu import gelu
import onpath

@ct.kernel
def k(x, T: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(T,))
    ct.store(x, index=(0,), tile=onpath.twice(gelu(t)))
)";

} // namespace

TEST_CASE("the JIT's cache key hashes the imported modules' sources", "[jit][imports]") {
  std::string dir = tempDir(), path = tempDir();
  writeFile(dir + "/kernel.py", kKernel);
  writeFile(dir + "/gelu.py", "from .consts import HALF\ndef gelu(x):\n    return x * HALF\n");
  writeFile(dir + "/consts.py", "HALF = 0.5\n");
  writeFile(path + "/onpath.py", "def twice(x):\n    return x + x\n");

  KernelRequest request;
  request.source = kKernel;
  request.fileName = dir + "/kernel.py";
  request.kernel = "k";
  request.constants["T"] = int64_t(16);
  request.args["x"] = {"float32", 1};
  JitOptions options;
  options.importPath = {path};

  // Every module reached, transitively, once, in the order reached.
  auto sources = tile::frontend::importedSources(request.source, request.fileName, {options.importPath});
  REQUIRE(sources.size() == 3);
  CHECK(sources[0].first == dir + "/gelu.py");
  CHECK(sources[1].first == dir + "/consts.py");
  CHECK(sources[2].first == path + "/onpath.py");
  CHECK(sources[1].second == "HALF = 0.5\n");

  const std::string key = cacheKey(request, options, "sm_90a");
  CHECK(cacheKey(request, options, "sm_90a") == key);
  // A module two imports deep changes: a new key; changed back: the old one.
  writeFile(dir + "/consts.py", "HALF = 0.25\n");
  CHECK(cacheKey(request, options, "sm_90a") != key);
  writeFile(dir + "/consts.py", "HALF = 0.5\n");
  CHECK(cacheKey(request, options, "sm_90a") == key);
  // The module found on the search path counts too.
  writeFile(path + "/onpath.py", "def twice(x):\n    return x * 2.0\n");
  CHECK(cacheKey(request, options, "sm_90a") != key);
  writeFile(path + "/onpath.py", "def twice(x):\n    return x + x\n");
  CHECK(cacheKey(request, options, "sm_90a") == key);
  // Without the search path onpath is a host module: fewer sources, another key.
  CHECK(cacheKey(request, JitOptions{}, "sm_90a") != key);

  // The interpreter path compiles the kernel with its imports.
  auto params = compileForInterpreter([&] {
    KernelRequest r = request;
    setenv("TILE_KERNEL_PATH", path.c_str(), 1);
    return r;
  }());
  unsetenv("TILE_KERNEL_PATH");
  REQUIRE(params.size() == 1);
  CHECK(params[0].name == "x");

  for (const char *f : {"/kernel.py", "/gelu.py", "/consts.py"})
    std::remove((dir + f).c_str());
  std::remove((path + "/onpath.py").c_str());
  rmdir(dir.c_str());
  rmdir(path.c_str());
}

TEST_CASE("a source without kernel-module imports keeps its cache key", "[jit][imports]") {
  // Host modules and missing files add nothing: the key depends on the source, not on where
  // the file is, as before imports were followed.
  KernelRequest a;
  a.source = "import cuda.tile as ct\nimport torch\nimport math\nfrom .absent import f\n\n@ct.kernel\ndef k(x):\n"
             "    pass\n";
  a.kernel = "k";
  a.fileName = "/nonexistent/dir/kernel.py";
  KernelRequest b = a;
  b.fileName = "<source>";
  CHECK(tile::frontend::importedSources(a.source, a.fileName, {}).empty());
  CHECK(cacheKey(a, {}, "sm_90a") == cacheKey(b, {}, "sm_90a"));
}
