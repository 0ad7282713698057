// What tile-bench's modes (ssd, ssd --decode, gemm) share: the GPU check and the JSON file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tile::bench {

/// Whether GPU 0 can run kernels; prints "tile-bench: no GPU here (why)" when it cannot (the
/// mode then exits 77, the skip code).
bool haveGpu();

/// Writes `results` to `path` (nothing when it is empty); false, with an error on stderr, when
/// the file cannot be written (the mode then exits 3).
bool writeJson(const std::string &path, const nlohmann::json &results);

} // namespace tile::bench
