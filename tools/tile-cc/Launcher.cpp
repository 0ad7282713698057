#include "tools/tile-cc/Launcher.h"

#include "runtime/Error.h"

#include <cstdio>
#include <set>
#include <sstream>

namespace tile::tools {

namespace {

// The C++ parameter type of a scalar: its natural type, or a tile::rt::Scalar for the dtypes
// C++ has no type for (the caller builds it with Scalar::bfloat16(x), Scalar::fromBits ...).
const char *scalarType(rt::DType dtype) {
  switch (dtype) {
  case rt::DType::Bool:
    return "bool";
  case rt::DType::Int8:
    return "::std::int8_t";
  case rt::DType::Int16:
    return "::std::int16_t";
  case rt::DType::Int32:
    return "::std::int32_t";
  case rt::DType::Int64:
    return "::std::int64_t";
  case rt::DType::UInt8:
    return "::std::uint8_t";
  case rt::DType::UInt16:
    return "::std::uint16_t";
  case rt::DType::UInt32:
    return "::std::uint32_t";
  case rt::DType::UInt64:
    return "::std::uint64_t";
  case rt::DType::Float32:
    return "float";
  case rt::DType::Float64:
    return "double";
  default:
    return "const ::tile::rt::Scalar &";
  }
}

// A C++ string literal holding `text` exactly (escapes for quotes, backslashes, control bytes).
std::string cString(const std::string &text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += i + 1 < text.size() ? "\\n\"\n    \"" : "\\n"; // one JSON line per source line
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

// `text` made safe for a // comment: control bytes as \xNN (a newline would end the comment and
// make the rest code), and a final backslash followed by a marker (it would splice the next line
// into the comment).
std::string commentText(const std::string &text) {
  std::string out;
  for (char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  if (!out.empty() && out.back() == '\\')
    out += " (end)";
  return out;
}

// The bytes as a brace initializer body, 24 a line.
std::string byteList(const std::string &bytes) {
  std::string out;
  out.reserve(bytes.size() * 4 + bytes.size() / 6);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out += std::to_string(unsigned(static_cast<unsigned char>(bytes[i])));
    out += ',';
    if (i % 24 == 23 && i + 1 < bytes.size())
      out += "\n  ";
  }
  return out;
}

std::string constantText(const rt::ConstantValue &value) {
  if (const bool *b = std::get_if<bool>(&value))
    return *b ? "True" : "False";
  if (const std::int64_t *i = std::get_if<std::int64_t>(&value))
    return std::to_string(*i);
  if (const double *d = std::get_if<double>(&value)) {
    std::ostringstream os;
    os << *d;
    return os.str();
  }
  return "'" + commentText(std::get<std::string>(value)) + "'";
}

// "BM=128 BN=128 BK=64" (no constants: "none").
std::string constantsText(const rt::KernelMetadata &md) {
  std::string out;
  for (const auto &[name, value] : md.constants)
    out += (out.empty() ? "" : " ") + name + "=" + constantText(value);
  return out.empty() ? "none" : out;
}

std::string imagesText(const LauncherVariant &v) {
  std::string out;
  for (const LauncherImage &image : v.images)
    out += (out.empty() ? "" : ", ") + image.arch + (image.isPtx ? " PTX" : " cubin");
  return out;
}

} // namespace

// C++ keywords and alternative tokens, and the standard library's macros a parameter name could
// hit: a kernel parameter (or a namespace) may be any Python identifier.
bool isCppReservedWord(const std::string &name) {
  static const std::set<std::string> words = {
      "alignas",     "alignof",  "and",       "and_eq",    "asm",       "auto",         "bitand",
      "bitor",       "bool",     "break",     "case",      "catch",     "char",         "char8_t",
      "char16_t",    "char32_t", "class",     "co_await",  "co_return", "co_yield",     "compl",
      "concept",     "const",    "consteval", "constexpr", "constinit", "const_cast",   "continue",
      "decltype",    "default",  "delete",    "do",        "double",    "dynamic_cast", "else",
      "enum",        "explicit", "export",    "extern",    "false",     "float",        "for",
      "friend",      "goto",     "if",        "inline",    "int",       "long",         "mutable",
      "namespace",   "new",      "noexcept",  "not",       "not_eq",    "nullptr",      "operator",
      "or",          "or_eq",    "private",   "protected", "public",    "register",     "reinterpret_cast",
      "requires",    "return",   "short",     "signed",    "sizeof",    "static",       "static_assert",
      "static_cast", "struct",   "switch",    "template",  "this",      "thread_local", "throw",
      "true",        "try",      "typedef",   "typeid",    "typename",  "union",        "unsigned",
      "using",       "virtual",  "void",      "volatile",  "wchar_t",   "while",        "xor",
      "xor_eq",      "NULL",     "EOF",       "errno",     "stdin",     "stdout",       "stderr",
      "assert",      "offsetof", "INFINITY",  "NAN"};
  return words.count(name) != 0;
}

namespace {

// Names the C++ standard reserves to the implementation (a double underscore, or an underscore
// and a capital letter first): the compiler's own macros live there.
bool isReservedIdentifier(const std::string &name) {
  return name.find("__") != std::string::npos ||
         (name.size() > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z');
}

// The kernel parameters' names in C++: a Python name that is a C++ keyword or macro, or one of
// the names the generated functions use themselves (their parameters `config`, `stream` and
// `grid`, and the file's `embedded`), gets trailing '_'s until it differs from all of those and
// from every other parameter (so `stream` and `stream_` stay two names); element i of a list
// argument, As[i], is As_i.
} // namespace

std::vector<std::string> launcherParameterNames(const rt::KernelMetadata &md) {
  static const std::set<std::string> generated = {"config", "embedded", "grid", "stream"};
  std::set<std::string> taken;
  for (const rt::ParamInfo &p : md.params)
    taken.insert(p.name);
  std::vector<std::string> names;
  for (const rt::ParamInfo &p : md.params) {
    std::string id = p.name;
    // Element i of a list argument, As[i], is the parameter As_i.
    if (size_t open = id.find('['); open != std::string::npos) {
      id = id.substr(0, open) + "_" + id.substr(open + 1, id.size() - open - 2);
      while (taken.count(id) || generated.count(id))
        id += '_';
      taken.insert(id);
    }
    if (isCppReservedWord(id) || generated.count(id)) {
      do
        id += '_';
      while (taken.count(id) || generated.count(id));
      taken.insert(id);
    }
    names.push_back(id);
  }
  return names;
}

namespace {

// ", const tile::rt::Arg &a, float eps" and "a, eps".
void parameterLists(const rt::KernelMetadata &md, std::string &declared, std::string &passed) {
  const std::vector<std::string> ids = launcherParameterNames(md);
  for (std::size_t i = 0; i < md.params.size(); ++i) {
    const rt::ParamInfo &p = md.params[i];
    const std::string type = p.isArray() ? "const ::tile::rt::Arg &" : scalarType(p.dtype);
    declared += ", " + type + (type.back() == '&' ? "" : " ") + ids[i];
    passed += (passed.empty() ? "" : ", ") + ids[i];
  }
}

// The parameter list, documented: " *   a: bfloat16 array of rank 2 (an ArrayArg or a DLPack tensor)".
std::string parameterDoc(const rt::KernelMetadata &md) {
  std::string out;
  const std::vector<std::string> ids = launcherParameterNames(md);
  for (std::size_t i = 0; i < md.params.size(); ++i) {
    const rt::ParamInfo &p = md.params[i];
    out += "///   " + ids[i] + ": ";
    if (p.isArray())
      out += std::string(rt::dtypeName(p.dtype)) + " array of rank " + std::to_string(p.rank) +
             " (a tile::rt::ArrayArg or a DLPack tensor)\n";
    else
      out += std::string(rt::dtypeName(p.dtype)) + " scalar\n";
  }
  return out;
}

void openNamespace(std::ostream &os, const std::string &ns) {
  if (!ns.empty())
    os << "namespace " << ns << " {\n\n";
}
void closeNamespace(std::ostream &os, const std::string &ns) {
  if (!ns.empty())
    os << "} // namespace " << ns << "\n";
}

} // namespace

bool parseLauncherMetadata(LauncherVariant &variant, std::string &error) {
  try {
    for (std::size_t i = 0; i < variant.images.size(); ++i) {
      const LauncherImage &image = variant.images[i];
      rt::KernelMetadata md = rt::parseKernelMetadata(image.metadata, image.arch + " metadata");
      if (i == 0) {
        variant.metadata = std::move(md);
        continue;
      }
      bool same = md.params.size() == variant.metadata.params.size();
      for (std::size_t p = 0; same && p < md.params.size(); ++p) {
        const rt::ParamInfo &a = md.params[p], &b = variant.metadata.params[p];
        same = a.name == b.name && a.kind == b.kind && a.dtype == b.dtype && a.rank == b.rank;
      }
      if (!same) {
        error = "the " + image.arch + " image's parameters differ from the " + variant.images[0].arch + " image's";
        return false;
      }
    }
  } catch (const rt::Error &e) {
    error = e.what();
    return false;
  }
  if (variant.images.empty()) {
    error = "no images to embed";
    return false;
  }
  for (const rt::ParamInfo &p : variant.metadata.params)
    if (isReservedIdentifier(p.name)) {
      error = "parameter '" + p.name +
              "' is a name C++ reserves to the implementation (a double underscore, or '_' and a capital "
              "first); rename it to generate a launcher";
      return false;
    }
  return true;
}

std::string checkIdentifier(const std::string &text, const std::string &what, bool allowNested) {
  auto bad = [&] {
    return what + " '" + text + "' is not a C++ identifier" + (allowNested ? " (or names joined by '::')" : "");
  };
  if (text.empty())
    return what + " is empty";
  std::size_t start = 0;
  while (true) {
    std::size_t end = allowNested ? text.find("::", start) : std::string::npos;
    const std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || (part[0] >= '0' && part[0] <= '9'))
      return bad();
    for (char c : part)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
        return bad();
    if (isCppReservedWord(part))
      return what + " '" + text + "': '" + part + "' is a C++ keyword or a standard macro";
    if (isReservedIdentifier(part))
      return what + " '" + text + "': '" + part +
             "' is reserved to the C++ implementation (a double underscore, or '_' and a capital first)";
    if (allowNested && start == 0 && part == "std")
      return what + " '" + text + "': a program may not add to namespace std";
    if (end == std::string::npos)
      return "";
    start = end + 2;
  }
}

void writeLauncher(const std::vector<LauncherVariant> &variants, const LauncherOptions &options, std::string &header,
                   std::string &source) {
  const std::string &name = options.name;
  const bool multi = variants.size() > 1;
  const rt::KernelMetadata &first = variants.front().metadata;
  std::string declared, passed;
  parameterLists(first, declared, passed);

  std::ostringstream h;
  h << "// Generated by tile-cc --emit=launcher: do not edit.\n//   " << commentText(options.command) << "\n//\n"
    << "// Kernel '" << first.name << "'" << (multi ? "; per configuration:" : ":") << "\n";
  // Each configuration's own block size (configurations may differ in num_threads).
  for (const LauncherVariant &v : variants)
    h << "//   " << (v.config >= 0 ? "config " + std::to_string(v.config) + ": " : "") << v.metadata.threadsPerBlock
      << " threads per block; constants " << constantsText(v.metadata) << "; images: " << imagesText(v) << "\n";
  h << "// Needs only the tile-cc runtime core (CMake: TileCC::runtime).\n"
    << "#pragma once\n\n#include \"runtime/Args.h\"\n#include \"runtime/Device.h\"\n#include \"runtime/Kernel.h\"\n"
    << "#include \"runtime/KernelMetadata.h\"\n#include \"runtime/LaunchPlan.h\"\n#include \"runtime/Stream.h\"\n\n"
    << "#include <cstdint>\n"
    << (multi && options.tuning ? "#include <vector>\n" : "") << "\n";
  openNamespace(h, options.nameSpace);
  const std::string config = multi ? "unsigned config" : "";
  const std::string configArg = multi ? "unsigned config, " : "";
  if (multi)
    h << "/// The @ct.autotune configurations compiled in: config 0 .. " << variants.size() - 1
      << ", numbered as in the source.\n"
      << "inline constexpr unsigned " << name << "_num_configs = " << variants.size() << ";\n\n";
  h << "/// The kernel's metadata" << (multi ? " for a configuration" : "")
    << ": parameters, constants (to size the grid), threads per block. No device needed.\n"
    << "const ::tile::rt::KernelMetadata &" << name << "_metadata(" << config << ");\n"
    << "/// The kernel on `device`: the image for its architecture, loaded on first use.\n"
    << "::tile::rt::Kernel " << name << "_kernel(const ::tile::rt::Device &device" << (multi ? ", unsigned config" : "")
    << ");\n"
    << "/// Launches the kernel on `grid` blocks on `stream` (asynchronous). The arguments are checked as\n"
    << "/// tile::rt::launch checks them; a mismatch throws tile::rt::Error naming the parameter"
    << (multi ? ", and so does\n/// a configuration out of range" : "") << ".\n"
    << parameterDoc(first) << "void launch_" << name << "(" << configArg
    << "const ::tile::rt::Stream &stream, const ::tile::rt::Grid &grid" << declared << ");\n\n";
  const LauncherTuning *tuning = multi ? options.tuning : nullptr;
  if (tuning) {
    std::string keys;
    for (const std::string &k : tuning->keyNames)
      keys += (keys.empty() ? "" : ", ") + k;
    h << "/// The autotuner's decisions compiled in (tile-cc --tuning-table): " << tuning->entries.size()
      << " decision(s), by device name, the\n/// key= values (" << (keys.empty() ? "none" : keys)
      << ") and the launch's block count.\n"
      << "inline constexpr unsigned " << name << "_tuning_key_count = " << tuning->keyNames.size() << ";\n"
      << "/// The configuration the tuner chose on `device` for a launch with these key= values (in the order\n"
      << "/// above) whose configuration-0 grid has `blocks` blocks, each rounded up to a power of two as the\n"
      << "/// tuner's keys are; `fallback` when no decision compiled in fits. Throws tile::rt::Error when\n"
      << "/// key_values does not hold " << name << "_tuning_key_count values.\n"
      << "unsigned " << name
      << "_tuned_config(const ::tile::rt::Device &device, const ::std::vector<::std::int64_t> &key_values,\n"
      << "    ::std::int64_t blocks, unsigned fallback = 0);\n\n";
  }
  closeNamespace(h, options.nameSpace);
  header = h.str();

  std::ostringstream s;
  s << "// Generated by tile-cc --emit=launcher: do not edit.\n//   " << commentText(options.command) << "\n"
    << "#include \"" << options.headerName << "\"\n\n#include \"runtime/Embedded.h\"\n#include \"runtime/Error.h\"\n\n"
    << "#include <string>\n\n";
  openNamespace(s, options.nameSpace);
  s << "namespace {\n\n";
  for (std::size_t v = 0; v < variants.size(); ++v) {
    const LauncherVariant &variant = variants[v];
    for (std::size_t i = 0; i < variant.images.size(); ++i) {
      const LauncherImage &image = variant.images[i];
      s << "// " << image.arch << (image.isPtx ? " PTX" : " cubin") << ", " << image.bytes.size() << " bytes\n"
        << "const unsigned char kImage" << v << "_" << i << "[] = {\n  " << byteList(image.bytes) << "};\n"
        << "const char kMetadata" << v << "_" << i << "[] =\n    " << cString(image.metadata) << ";\n\n";
    }
    s << "const ::tile::rt::EmbeddedImage kImages" << v << "[] = {\n";
    for (std::size_t i = 0; i < variant.images.size(); ++i)
      s << "    {\"" << variant.images[i].arch << "\", " << (variant.images[i].isPtx ? "true" : "false") << ", kImage"
        << v << "_" << i << ", sizeof kImage" << v << "_" << i << ", kMetadata" << v << "_" << i << "},\n";
    s << "};\n\n";
  }
  s << "::tile::rt::EmbeddedKernel &embedded(" << config << ") {\n";
  if (multi) {
    s << "  switch (config) {\n";
    for (std::size_t v = 0; v < variants.size(); ++v)
      s << "  case " << v << ": {\n    static ::tile::rt::EmbeddedKernel kernel(\"" << first.name << "\", kImages" << v
        << ", sizeof kImages" << v << " / sizeof kImages" << v << "[0]);\n    return kernel;\n  }\n";
    s << "  default:\n    throw ::tile::rt::Error(::tile::rt::Error::Kind::InvalidArgument,\n"
      << "                          \"" << name << ": config \" + ::std::to_string(config) + \" is out of range (\" +\n"
      << "                              ::std::to_string(" << name << "_num_configs) + \" configurations)\");\n  }\n";
  } else {
    s << "  static ::tile::rt::EmbeddedKernel kernel(\"" << first.name
      << "\", kImages0, sizeof kImages0 / sizeof kImages0[0]);\n  return kernel;\n";
  }
  s << "}\n\n";
  if (tuning) {
    // Decisions in the table's order (the first that fits wins); key values flattened.
    const std::size_t k = tuning->keyNames.size();
    if (!tuning->entries.empty() && k) {
      std::string list;
      for (const LauncherTuningEntry &t : tuning->entries)
        for (std::int64_t v : t.keyValues)
          list += (list.empty() ? "" : ", ") + std::to_string(v);
      s << "const ::std::int64_t kTuningKeys[] = {" << list << "};\n";
    }
    if (!tuning->entries.empty()) {
      s << "const ::tile::rt::EmbeddedTuning kTuning[] = {\n";
      for (std::size_t e = 0; e < tuning->entries.size(); ++e) {
        const LauncherTuningEntry &t = tuning->entries[e];
        s << "    {" << cString(t.device) << ", " << (k ? "kTuningKeys + " + std::to_string(e * k) : "nullptr") << ", "
          << t.blocks << ", " << t.config << "},\n";
      }
      s << "};\n";
    }
    s << "\n";
  }
  s << "} // namespace\n\n";
  const std::string configName = multi ? "config" : "";
  s << "const ::tile::rt::KernelMetadata &" << name << "_metadata(" << config << ") { return embedded(" << configName
    << ").metadata(); }\n\n"
    << "::tile::rt::Kernel " << name << "_kernel(const ::tile::rt::Device &device" << (multi ? ", unsigned config" : "")
    << ") { return embedded(" << configName << ").load(device); }\n\n"
    << "void launch_" << name << "(" << configArg << "const ::tile::rt::Stream &stream, const ::tile::rt::Grid &grid"
    << declared << ") {\n  embedded(" << configName << ").launch(stream, grid, {" << passed << "});\n}\n\n";
  if (tuning) {
    s << "unsigned " << name
      << "_tuned_config(const ::tile::rt::Device &device, const ::std::vector<::std::int64_t> &key_values,\n"
      << "    ::std::int64_t blocks, unsigned fallback) {\n";
    if (tuning->entries.empty())
      s << "  // The table held no decision for this specialization: only the key's size is checked.\n"
        << "  int config = ::tile::rt::lookupEmbeddedTuning(nullptr, 0, " << tuning->keyNames.size()
        << ", device.name(), key_values, blocks, \"" << name << "\");\n";
    else
      s << "  int config = ::tile::rt::lookupEmbeddedTuning(kTuning, sizeof kTuning / sizeof kTuning[0], "
        << tuning->keyNames.size() << ", device.name(), key_values, blocks, \"" << name << "\");\n";
    s << "  return config < 0 ? fallback : unsigned(config);\n}\n\n";
  }
  closeNamespace(s, options.nameSpace);
  source = s.str();
}

} // namespace tile::tools
