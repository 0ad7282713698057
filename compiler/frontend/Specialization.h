// What a kernel is compiled for: the values of its ct.Constant parameters, the types of its
// other arguments, and (for autotuned kernels) which configuration to take.
//
// The command-line spellings (`--const CHUNK=256`, `--arg x=bf16:4`, `--arg eps=f32:0`) are
// parsed here so tile-cc, tests and the JIT agree on them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

namespace tile::frontend {

/// A compile-time constant: int, float or bool (as Python spells them).
using ConstantValue = std::variant<int64_t, double, bool>;

/// The type of a non-constant kernel argument: an array of `dtype` and `rank` (rank >= 1), or a
/// scalar (rank 0). dtype uses cuTile's names: bool_, int8, int16, int32, int64, uint8 ...
/// uint64 (arrays only), float16, bfloat16, float32, float64, tfloat32, float8_e4m3fn,
/// float8_e5m2 (short forms such as i32, u8, f32, bf16, f16 are accepted and normalised).
/// The most arrays a list argument may hold (each is a kernel parameter).
inline constexpr int64_t kMaxListLength = 256;

struct ArgType {
  std::string dtype;
  int64_t rank = 0;
  /// Arrays only, spelled "DTYPE:RANK:aligned": the caller promises that the base address and
  /// the stride of every dimension but the last are multiples of 16 bytes, that the last
  /// stride is 1 and that every dimension is below 2^31 elements (what TMA and 16-byte vector
  /// accesses need). The compiler then drops its run-time alignment checks and may copy tiles
  /// with TMA; the runtime refuses a launch whose array breaks the promise.
  bool aligned = false;
  /// A list of `listLength` arrays of this dtype and rank (spelled "DTYPE:RANK[:aligned]:list=N",
  /// `ct.launch` passing a Python list), aligned when every one is; -1 for one array or scalar.
  /// The kernel takes them as parameters NAME[0] ... NAME[N-1]; in the kernel NAME is a tuple
  /// (`len(NAME)`, `NAME[i]` with i known at compile time; `for g in range(len(NAME))` unrolls).
  int64_t listLength = -1;
  bool isArray() const { return rank > 0; }
  bool isList() const { return listLength >= 0; }
};

/// A kernel parameter as declared: its name, whether it is a ct.Constant, and whether it has a
/// default value (only constants may).
struct ParamDecl {
  std::string name;
  bool constant = false;
  bool hasDefault = false;
};

/// How the caller spells the two kinds of values in its messages: tile-cc's defaults, or
/// tile-run's --array/--scalar, so an error never names an option the tool lacks.
struct SpecOptionNames {
  std::string constant = "--const";
  std::string constantForm = "--const NAME=VALUE";
  std::string arg = "--arg";
  std::string argForm = "--arg NAME=DTYPE:RANK, rank 0 for a scalar";
};

struct Specialization {
  std::string kernel;
  std::map<std::string, ConstantValue> constants;
  std::map<std::string, ArgType> args;
  /// Index into the kernel's @ct.autotune configs; default 0 when the kernel has configs.
  std::optional<unsigned> config;
  /// The target ("sm_90a") that `ct.ByTarget` picks values for; empty for the interpreter
  /// (ByTarget then takes its default).
  std::string arch;
  SpecOptionNames optionNames;
};

/// The symbol of the kernel a tool or a launch names: a kernel of a factory is asked for as
/// "factory.kernel" (or its plain name) and emitted as `kernel`.
inline std::string kernelSymbolName(const std::string &name) {
  size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

/// The parameter that element `i` of list argument `list` is: "As[2]".
inline std::string listElementName(const std::string &list, int64_t i) { return list + "[" + std::to_string(i) + "]"; }

/// The argument a parameter belongs to: "As" for "As[2]", the name itself otherwise.
inline std::string listParamName(const std::string &param) { return param.substr(0, param.find('[')); }

/// The canonical cuTile dtype name for a spelling ("bf16" -> "bfloat16"), or nullopt.
std::optional<std::string> canonicalDTypeName(const std::string &spelling);

/// Whether `name` is a kernel option (occupancy, num_ctas, num_threads) rather than a constant:
/// in `@ct.kernel(...)` and in an autotune configuration, where the option does not change
/// what the kernel computes.
bool isKernelOption(const std::string &name);

/// Parses "NAME=VALUE" (VALUE: integer, float, True/False). On error returns false and sets
/// `error`.
bool parseConstantSpec(const std::string &text, std::string &name, ConstantValue &value, std::string &error);
/// Parses "NAME=DTYPE:RANK", optionally followed by ":aligned" and ":list=N". On error returns
/// false and sets `error`.
bool parseArgSpec(const std::string &text, std::string &name, ArgType &type, std::string &error);

/// "bfloat16:4", "bfloat16:4:aligned" or "bfloat16:2:list=3" (what parseArgSpec reads back).
std::string formatArgType(const ArgType &type);

/// "256", "0.5", "True".
std::string formatConstant(const ConstantValue &value);

} // namespace tile::frontend
