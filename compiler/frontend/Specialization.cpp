#include "compiler/frontend/Specialization.h"

#include <cerrno>
#include <cstdlib>

namespace tile::frontend {

std::optional<std::string> canonicalDTypeName(const std::string &s) {
  static const std::map<std::string, std::string> names = {{"bool_", "bool_"},
                                                           {"bool", "bool_"},
                                                           {"i1", "bool_"},
                                                           {"int8", "int8"},
                                                           {"i8", "int8"},
                                                           {"int16", "int16"},
                                                           {"i16", "int16"},
                                                           {"int32", "int32"},
                                                           {"i32", "int32"},
                                                           {"int64", "int64"},
                                                           {"i64", "int64"},
                                                           {"uint8", "uint8"},
                                                           {"u8", "uint8"},
                                                           {"uint16", "uint16"},
                                                           {"u16", "uint16"},
                                                           {"uint32", "uint32"},
                                                           {"u32", "uint32"},
                                                           {"uint64", "uint64"},
                                                           {"u64", "uint64"},
                                                           {"float16", "float16"},
                                                           {"f16", "float16"},
                                                           {"half", "float16"},
                                                           {"bfloat16", "bfloat16"},
                                                           {"bf16", "bfloat16"},
                                                           {"float32", "float32"},
                                                           {"f32", "float32"},
                                                           {"float64", "float64"},
                                                           {"f64", "float64"},
                                                           {"tfloat32", "tfloat32"},
                                                           {"tf32", "tfloat32"},
                                                           {"float8_e4m3fn", "float8_e4m3fn"},
                                                           {"f8e4m3", "float8_e4m3fn"},
                                                           {"float8_e5m2", "float8_e5m2"},
                                                           {"f8e5m2", "float8_e5m2"}};
  auto it = names.find(s);
  if (it == names.end())
    return std::nullopt;
  return it->second;
}

bool isKernelOption(const std::string &name) {
  return name == "occupancy" || name == "num_ctas" || name == "num_threads" || name == "warp_specialize";
}

static bool splitAssignment(const std::string &text, std::string &name, std::string &value, std::string &error,
                            const char *form) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    error = "expected " + std::string(form) + ", got '" + text + "'";
    return false;
  }
  name = text.substr(0, eq);
  value = text.substr(eq + 1);
  return true;
}

bool parseConstantSpec(const std::string &text, std::string &name, ConstantValue &value, std::string &error) {
  std::string v;
  if (!splitAssignment(text, name, v, error, "NAME=VALUE"))
    return false;
  if (v == "True" || v == "true") {
    value = true;
    return true;
  }
  if (v == "False" || v == "false") {
    value = false;
    return true;
  }
  errno = 0;
  char *end = nullptr;
  long long i = std::strtoll(v.c_str(), &end, 0);
  if (end && *end == '\0' && errno == 0) {
    value = static_cast<int64_t>(i);
    return true;
  }
  errno = 0;
  double d = std::strtod(v.c_str(), &end);
  if (end && *end == '\0' && errno == 0) {
    value = d;
    return true;
  }
  error = "constant '" + name + "' has value '" + v + "', which is not an integer, a float, True or False";
  return false;
}

bool parseArgSpec(const std::string &text, std::string &name, ArgType &type, std::string &error) {
  std::string v;
  if (!splitAssignment(text, name, v, error, "NAME=DTYPE:RANK"))
    return false;
  // An optional ":list=N" suffix makes it a list of N arrays.
  int64_t listLength = -1;
  if (size_t at = v.rfind(":list="); at != std::string::npos) {
    std::string count = v.substr(at + 6);
    char *end = nullptr;
    errno = 0;
    long long n = std::strtoll(count.c_str(), &end, 10);
    if (count.empty() || !end || *end != '\0' || errno != 0 || n < 0 || n > kMaxListLength) {
      error = "argument '" + name + "': list length '" + count + "' is not an integer in [0, " +
              std::to_string(kMaxListLength) + "]";
      return false;
    }
    listLength = n;
    v.resize(at);
  }
  // An optional ":aligned" suffix states the TMA / vector-access facts of an array.
  bool aligned = false;
  static const std::string kAligned = ":aligned";
  if (v.size() > kAligned.size() && v.compare(v.size() - kAligned.size(), kAligned.size(), kAligned) == 0) {
    aligned = true;
    v.resize(v.size() - kAligned.size());
  }
  size_t colon = v.rfind(':');
  if (colon == std::string::npos) {
    error = "argument '" + name + "': expected DTYPE:RANK (rank 0 for a scalar), got '" + v + "'";
    return false;
  }
  std::string dtype = v.substr(0, colon), rank = v.substr(colon + 1);
  auto canonical = canonicalDTypeName(dtype);
  if (!canonical) {
    error = "argument '" + name + "': unknown dtype '" + dtype +
            "' (expected one of bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, "
            "bfloat16, float32, float64, tfloat32, float8_e4m3fn, float8_e5m2)";
    return false;
  }
  char *end = nullptr;
  errno = 0;
  long r = std::strtol(rank.c_str(), &end, 10);
  if (rank.empty() || !end || *end != '\0' || errno != 0 || r < 0 || r > 8) {
    error = "argument '" + name + "': rank '" + rank + "' is not an integer in [0, 8]";
    return false;
  }
  if (aligned && r == 0) {
    error = "argument '" + name + "': ':aligned' states facts of an array; a scalar (rank 0) has none";
    return false;
  }
  if (listLength >= 0 && r == 0) {
    error = "argument '" + name + "': a list holds arrays, not scalars (rank 0)";
    return false;
  }
  type.dtype = *canonical;
  type.rank = r;
  type.aligned = aligned;
  type.listLength = listLength;
  return true;
}

std::string formatArgType(const ArgType &type) {
  return type.dtype + ":" + std::to_string(type.rank) + (type.aligned ? ":aligned" : "") +
         (type.isList() ? ":list=" + std::to_string(type.listLength) : "");
}

std::string formatConstant(const ConstantValue &value) {
  if (auto *i = std::get_if<int64_t>(&value))
    return std::to_string(*i);
  if (auto *b = std::get_if<bool>(&value))
    return *b ? "True" : "False";
  std::string s = std::to_string(std::get<double>(value));
  return s;
}

} // namespace tile::frontend
