#include "tools/tile-bench/Common.h"

#include "runtime/Args.h"
#include "runtime/Device.h"

#include <algorithm>
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

std::vector<Shape> defaultShapes() {
  return {{"mamba2-2.7b_b4_L4096", 4, 4096, 80, 64, 1, 128, 256},
          {"mamba2-2.7b_b1_L16384", 1, 16384, 80, 64, 1, 128, 256},
          {"codestral7b_b2_L4096", 2, 4096, 128, 64, 8, 128, 256},
          {"small_b8_L2048", 8, 2048, 32, 64, 1, 64, 256},
          {"mamba2-2.7b_b16_L2048", 16, 2048, 80, 64, 1, 128, 256}};
}

jit::Buffer randomBuffer(jit::Backend &backend, std::int64_t n, rt::DType dtype, std::mt19937 &rng, float lo,
                         float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(static_cast<std::size_t>(n));
  for (float &v : values)
    v = dist(rng);
  if (dtype == rt::DType::Float32)
    return backend.upload(values);
  std::vector<std::uint16_t> bits(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    bits[i] = static_cast<std::uint16_t>(rt::Scalar::bfloat16(values[i]).bits());
  return backend.upload(bits);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace tile::bench
