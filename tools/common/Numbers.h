// Strict number parsing for the command-line tools (tile-cc, tile-run, tile-ssd, tile-bench):
// the whole text must be the number, so "16abc", "", "1e999", " 7" and out-of-range values are
// refused with a message that names the option and quotes the text, e.g.
//   "--chunk-size: '16abc' is not an integer"
//   "--iters: 0 is out of range [1, 1000000]"
// Standard library only (no MLIR/LLVM), so every tool and the unit tests can link it.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile::tools {

/// A decimal integer (optional sign) in [min, max]. `what` names the value in the message
/// (usually the option, e.g. "--chunk-size"); on failure returns nullopt and sets `error`.
std::optional<std::int64_t> parseInt(std::string_view text, std::int64_t min, std::int64_t max, std::string_view what,
                                     std::string &error);

/// Threads per block for --num-threads: a power of two from 32 to 1024.
std::optional<std::int64_t> parseNumThreads(std::string_view text, std::string &error);

struct DoubleRange {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  /// "inf"/"-inf" (and values that overflow to them) are refused unless allowed.
  bool allowInfinity = false;
  /// "nan" is refused unless allowed (it would slip through every range check).
  bool allowNaN = false;
};

/// A finite decimal floating-point number ("0.5", "-1e-3", "2") within `range`.
std::optional<double> parseDouble(std::string_view text, std::string_view what, std::string &error,
                                  const DoubleRange &range = {});

/// `count` integers (between minCount and maxCount of them) separated by `sep`, each in
/// [min, max]: "2,3,1" or "100x70". An empty field ("2,,3", "2,") is an error.
std::optional<std::vector<std::int64_t>> parseIntList(std::string_view text, char sep, std::size_t minCount,
                                                      std::size_t maxCount, std::int64_t min, std::int64_t max,
                                                      std::string_view what, std::string &error);

/// Like parseIntList, for floating-point numbers.
std::optional<std::vector<double>> parseDoubleList(std::string_view text, char sep, std::size_t minCount,
                                                   std::size_t maxCount, std::string_view what, std::string &error,
                                                   const DoubleRange &range = {});

} // namespace tile::tools
