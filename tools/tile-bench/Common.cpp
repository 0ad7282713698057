#include "tools/tile-bench/Common.h"

#include "runtime/Device.h"

#include <cstdio>
#include <fstream>

namespace tile::bench {

bool haveGpu() {
  std::string why;
  if (rt::Device::available(0, &why))
    return true;
  std::printf("tile-bench: no GPU here (%s)\n", why.c_str());
  return false;
}

bool writeJson(const std::string &path, const nlohmann::json &results) {
  if (path.empty())
    return true;
  std::ofstream out(path);
  out << results.dump(1) << "\n";
  out.close();
  if (out)
    return true;
  std::fprintf(stderr, "tile-bench: error: cannot write %s\n", path.c_str());
  return false;
}

} // namespace tile::bench
