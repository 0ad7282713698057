#include "tools/common/Numbers.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace tile::tools {

namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string prefix(std::string_view what) { return what.empty() ? std::string() : std::string(what) + ": "; }

std::string formatDouble(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t pos = text.find(sep, start);
    parts.push_back(text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos)
      return parts;
    start = pos + 1;
  }
}

std::string countText(std::size_t minCount, std::size_t maxCount) {
  if (minCount == maxCount)
    return std::to_string(minCount);
  return std::to_string(minCount) + " to " + std::to_string(maxCount);
}

} // namespace

std::optional<std::int64_t> parseInt(std::string_view text, std::int64_t min, std::int64_t max, std::string_view what,
                                     std::string &error) {
  // Digits with an optional sign, nothing else: strtoll alone would skip leading blanks and
  // stop at trailing garbage.
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-'))
    ++i;
  bool digits = i < text.size();
  for (size_t j = i; j < text.size(); ++j)
    digits = digits && text[j] >= '0' && text[j] <= '9';
  if (!digits) {
    error = prefix(what) + quoted(text) + " is not an integer";
    return std::nullopt;
  }
  std::string s(text);
  errno = 0;
  long long v = std::strtoll(s.c_str(), nullptr, 10);
  if (errno == ERANGE || v < min || v > max) {
    error = prefix(what) + s + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    return std::nullopt;
  }
  return static_cast<std::int64_t>(v);
}

std::optional<std::int64_t> parseNumThreads(std::string_view text, std::string &error) {
  std::optional<std::int64_t> n = parseInt(text, 32, 1024, "--num-threads", error);
  if (n && (*n & (*n - 1))) {
    error = "--num-threads " + std::to_string(*n) + " must be a power of two from 32 to 1024";
    return std::nullopt;
  }
  return n;
}

std::optional<double> parseDouble(std::string_view text, std::string_view what, std::string &error,
                                  const DoubleRange &range) {
  std::string s(text);
  // strtod skips leading white space and accepts hex floats; neither belongs on a command line
  // that a person types, and "0x10" as a float is more likely a mistake.
  bool plausible = !s.empty() && s.find_first_of(" \t\n\r\f\vxX") == std::string::npos;
  char *end = nullptr;
  errno = 0;
  double v = plausible ? std::strtod(s.c_str(), &end) : 0;
  if (!plausible || end != s.c_str() + s.size()) {
    error = prefix(what) + quoted(text) + " is not a number";
    return std::nullopt;
  }
  if (std::isnan(v) && !range.allowNaN) {
    error = prefix(what) + quoted(text) + " is not a number (NaN is not allowed here)";
    return std::nullopt;
  }
  // ERANGE also flags underflow to a denormal or zero, which is harmless; only overflow matters.
  if (std::isinf(v) && !range.allowInfinity) {
    error = prefix(what) + quoted(text) + " is not finite";
    return std::nullopt;
  }
  if (!std::isnan(v) && (v < range.min || v > range.max)) {
    error = prefix(what) + s + " is out of range [" + formatDouble(range.min) + ", " + formatDouble(range.max) + "]";
    return std::nullopt;
  }
  return v;
}

namespace {

// A list of `noun`s separated by `sep`, each parsed by `one(field, inner error)`.
template <typename T, typename ParseOne>
std::optional<std::vector<T>> parseList(std::string_view text, char sep, std::size_t minCount, std::size_t maxCount,
                                        std::string_view what, std::string &error, const char *noun, ParseOne one) {
  std::vector<std::string_view> parts = split(text, sep);
  if (parts.size() < minCount || parts.size() > maxCount) {
    error = prefix(what) + "expected " + countText(minCount, maxCount) + " " + noun + (maxCount == 1 ? "" : "s") +
            " separated by '" + std::string(1, sep) + "', got " + quoted(text);
    return std::nullopt;
  }
  std::vector<T> values;
  for (std::string_view p : parts) {
    std::string inner;
    std::optional<T> v = one(p, inner);
    if (!v) {
      error = prefix(what) + (p.empty()           ? "empty field in " + quoted(text)
                              : parts.size() == 1 ? inner
                                                  : inner + " (in " + quoted(text) + ")");
      return std::nullopt;
    }
    values.push_back(*v);
  }
  return values;
}

} // namespace

std::optional<std::vector<std::int64_t>> parseIntList(std::string_view text, char sep, std::size_t minCount,
                                                      std::size_t maxCount, std::int64_t min, std::int64_t max,
                                                      std::string_view what, std::string &error) {
  return parseList<std::int64_t>(
      text, sep, minCount, maxCount, what, error, "integer",
      [&](std::string_view p, std::string &inner) { return parseInt(p, min, max, "", inner); });
}

std::optional<std::vector<double>> parseDoubleList(std::string_view text, char sep, std::size_t minCount,
                                                   std::size_t maxCount, std::string_view what, std::string &error,
                                                   const DoubleRange &range) {
  return parseList<double>(text, sep, minCount, maxCount, what, error, "number",
                           [&](std::string_view p, std::string &inner) { return parseDouble(p, "", inner, range); });
}

} // namespace tile::tools
