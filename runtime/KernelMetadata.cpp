#include "runtime/KernelMetadata.h"

#include "runtime/Error.h"
#include "runtime/File.h"
#include "runtime/GpuArch.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>

namespace tile::rt {

using nlohmann::json;

namespace {

// Reads one metadata document; every failure names the origin and the JSON path.
class Reader {
public:
  explicit Reader(std::string_view origin) : origin_(origin) {}

  [[noreturn]] void fail(const std::string &path, const std::string &message) const {
    throw Error(Error::Kind::InvalidMetadata,
                fmt::format("kernel metadata {}: {}{}{}", origin_, path, path.empty() ? "" : ": ", message));
  }

  static const char *typeName(const json &v) {
    return v.is_number_integer() ? "an integer" : v.is_number() ? "a number" : v.type_name();
  }

  // Rejects keys outside `allowed` (typos would otherwise be silently ignored).
  void checkKeys(const json &obj, const std::string &path, std::initializer_list<const char *> allowed) const {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool known = false;
      for (const char *k : allowed)
        known |= it.key() == k;
      if (!known) {
        std::string list;
        for (const char *k : allowed)
          list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
        fail(join(path, it.key()), fmt::format("unknown field (expected one of: {})", list));
      }
    }
  }

  static std::string join(const std::string &path, const std::string &key) {
    return path.empty() ? key : path + "." + key;
  }

  const json *find(const json &obj, const std::string &path, const char *key, bool required) const {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required)
        fail(path, fmt::format("missing required field '{}'", key));
      return nullptr;
    }
    return &*it;
  }

  std::string string(const json &v, const std::string &path) const {
    if (!v.is_string())
      fail(path, fmt::format("expected a string, got {}", typeName(v)));
    return v.get<std::string>();
  }

  std::int64_t integer(const json &v, const std::string &path, std::int64_t lo, std::int64_t hi) const {
    if (!v.is_number_integer())
      fail(path, fmt::format("expected an integer, got {}", typeName(v)));
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(hi))
      fail(path, fmt::format("{} is out of range [{}, {}]", v.dump(), lo, hi));
    std::int64_t x = v.get<std::int64_t>();
    if (x < lo || x > hi)
      fail(path, fmt::format("{} is out of range [{}, {}]", x, lo, hi));
    return x;
  }

  bool boolean(const json &v, const std::string &path) const {
    if (!v.is_boolean())
      fail(path, fmt::format("expected true or false, got {}", typeName(v)));
    return v.get<bool>();
  }

  const json &array(const json &v, const std::string &path) const {
    if (!v.is_array())
      fail(path, fmt::format("expected an array, got {}", typeName(v)));
    return v;
  }

  std::vector<std::int64_t> intList(const json &v, const std::string &path, size_t size, std::int64_t lo,
                                    std::int64_t hi) const {
    array(v, path);
    if (v.size() != size)
      fail(path, fmt::format("expected {} entries, got {}", size, v.size()));
    std::vector<std::int64_t> out;
    for (size_t i = 0; i < v.size(); ++i)
      out.push_back(integer(v[i], fmt::format("{}[{}]", path, i), lo, hi));
    return out;
  }

  DType dtype(const json &v, const std::string &path) const {
    std::string s = string(v, path);
    if (auto d = parseDType(s))
      return *d;
    fail(path, fmt::format("unknown dtype '{}' (expected one of: {})", s, dtypeNameList()));
  }

  template <typename E>
  E choice(const json &v, const std::string &path, std::initializer_list<std::pair<const char *, E>> options) const {
    std::string s = string(v, path);
    std::string list;
    for (auto &[name, value] : options) {
      if (s == name)
        return value;
      list += fmt::format("{}{}", list.empty() ? "" : ", ", name);
    }
    fail(path, fmt::format("unknown value '{}' (expected one of: {})", s, list));
  }

  ParamInfo param(const json &v, const std::string &path) const {
    if (!v.is_object())
      fail(path, fmt::format("expected an object, got {}", typeName(v)));
    ParamInfo p;
    p.name = string(*find(v, path, "name", true), join(path, "name"));
    if (p.name.empty())
      fail(join(path, "name"), "must not be empty");
    p.kind = choice<ParamInfo::Kind>(*find(v, path, "kind", true), join(path, "kind"),
                                     {{"array", ParamInfo::Kind::Array}, {"scalar", ParamInfo::Kind::Scalar}});
    p.dtype = dtype(*find(v, path, "dtype", true), join(path, "dtype"));
    if (!p.isArray()) {
      checkKeys(v, path, {"name", "kind", "dtype"});
      return p;
    }
    checkKeys(v, path, {"name", "kind", "dtype", "rank", "alignment", "unit_stride_last"});
    p.rank = int(integer(*find(v, path, "rank", true), join(path, "rank"), 1, KernelMetadata::kMaxRank));
    p.alignment = int(dtypeSize(p.dtype));
    if (const json *a = find(v, path, "alignment", false)) {
      p.alignment = int(integer(*a, join(path, "alignment"), 1, 1 << 20));
      if (p.alignment & (p.alignment - 1))
        fail(join(path, "alignment"), fmt::format("{} is not a power of two", p.alignment));
    }
    if (const json *u = find(v, path, "unit_stride_last", false))
      p.unitStrideLast = boolean(*u, join(path, "unit_stride_last"));
    return p;
  }

  TmaInfo tma(const json &v, const std::string &path, const KernelMetadata &md) const {
    if (!v.is_object())
      fail(path, fmt::format("expected an object, got {}", typeName(v)));
    checkKeys(v, path, {"param", "box", "element_strides", "swizzle", "l2_promotion", "oob_fill"});
    TmaInfo t;
    t.param = string(*find(v, path, "param", true), join(path, "param"));
    for (size_t i = 0; i < md.params.size(); ++i)
      if (md.params[i].name == t.param)
        t.paramIndex = int(i);
    if (t.paramIndex < 0)
      fail(join(path, "param"), fmt::format("no parameter '{}'", t.param));
    const ParamInfo &p = md.params[size_t(t.paramIndex)];
    if (!p.isArray())
      fail(join(path, "param"), fmt::format("'{}' is not an array", t.param));
    if (p.rank > KernelMetadata::kMaxTmaRank)
      fail(join(path, "param"),
           fmt::format("'{}' has rank {}; TMA supports at most {}", t.param, p.rank, KernelMetadata::kMaxTmaRank));
    // TMA needs a unit-stride innermost dimension and a 16-byte aligned base (and strides):
    // the launch checks enforce both when the parameter declares them.
    if (!p.unitStrideLast || p.alignment < 16)
      fail(join(path, "param"), fmt::format("'{}' must declare \"unit_stride_last\": true and \"alignment\" >= 16 "
                                            "to be read through TMA",
                                            t.param));
    t.box = intList(*find(v, path, "box", true), join(path, "box"), size_t(p.rank), 1, 256);
    int64_t innerBytes = t.box.back() * dtypeSize(p.dtype);
    if (innerBytes % 16)
      fail(join(path, "box"), fmt::format("the innermost box dimension is {} bytes; TMA needs "
                                          "a multiple of 16",
                                          innerBytes));
    t.elementStrides.assign(size_t(p.rank), 1);
    if (const json *s = find(v, path, "element_strides", false))
      t.elementStrides = intList(*s, join(path, "element_strides"), size_t(p.rank), 1, 8);
    if (const json *s = find(v, path, "swizzle", false))
      t.swizzle = choice<TmaSwizzle>(
          *s, join(path, "swizzle"),
          {{"none", TmaSwizzle::None}, {"32B", TmaSwizzle::B32}, {"64B", TmaSwizzle::B64}, {"128B", TmaSwizzle::B128}});
    int span = t.swizzle == TmaSwizzle::B32    ? 32
               : t.swizzle == TmaSwizzle::B64  ? 64
               : t.swizzle == TmaSwizzle::B128 ? 128
                                               : 0;
    if (span && innerBytes > span)
      fail(join(path, "box"), fmt::format("the innermost box dimension is {} bytes, more than "
                                          "the {}-byte swizzle span",
                                          innerBytes, span));
    if (const json *s = find(v, path, "l2_promotion", false))
      t.l2Promotion = choice<TmaL2Promotion>(*s, join(path, "l2_promotion"),
                                             {{"none", TmaL2Promotion::None},
                                              {"64B", TmaL2Promotion::B64},
                                              {"128B", TmaL2Promotion::B128},
                                              {"256B", TmaL2Promotion::B256}});
    if (const json *s = find(v, path, "oob_fill", false))
      t.oobFill =
          choice<TmaOobFill>(*s, join(path, "oob_fill"), {{"zero", TmaOobFill::Zero}, {"nan", TmaOobFill::NaN}});
    if (t.oobFill == TmaOobFill::NaN && !isFloat(p.dtype))
      fail(join(path, "oob_fill"), fmt::format("\"nan\" needs a float array, '{}' is {}", t.param, dtypeName(p.dtype)));
    return t;
  }

  KernelMetadata document(const json &doc) const {
    if (!doc.is_object())
      fail("", fmt::format("expected a JSON object, got {}", typeName(doc)));
    std::string format = string(*find(doc, "", "format", true), "format");
    if (format != kMetadataFormat)
      fail("format", fmt::format("unsupported format '{}' (this runtime reads {})", format, kMetadataFormat));
    checkKeys(doc, "",
              {"format", "kernel", "name", "arch", "threads_per_block", "dynamic_shared_memory", "cluster", "constants",
               "params", "tma", "occupancy", "programmatic_dependent_launch", "preferred_cluster_size"});
    KernelMetadata md;
    md.kernel = string(*find(doc, "", "kernel", true), "kernel");
    if (md.kernel.empty())
      fail("kernel", "must not be empty");
    md.name = string(*find(doc, "", "name", true), "name");
    md.arch = string(*find(doc, "", "arch", true), "arch");
    if (!GpuArch::parse(md.arch))
      fail("arch", fmt::format("'{}' is not an architecture like sm_90a or sm_80", md.arch));
    md.threadsPerBlock = int(integer(*find(doc, "", "threads_per_block", true), "threads_per_block", 1, 1024));
    if (const json *v = find(doc, "", "dynamic_shared_memory", false))
      md.dynamicSharedMemory = int(integer(*v, "dynamic_shared_memory", 0, 1 << 30));
    if (const json *v = find(doc, "", "cluster", false)) {
      auto c = intList(*v, "cluster", 3, 1, 16);
      md.cluster = {int(c[0]), int(c[1]), int(c[2])};
      if (c[0] * c[1] * c[2] > 16)
        fail("cluster", fmt::format("{} blocks per cluster; at most 16 are supported", c[0] * c[1] * c[2]));
    }
    if (const json *v = find(doc, "", "preferred_cluster_size", false)) {
      md.preferredClusterSize = int(integer(*v, "preferred_cluster_size", 1, 16));
      if (md.preferredClusterSize & (md.preferredClusterSize - 1))
        fail("preferred_cluster_size", fmt::format("{} is not a power of two", md.preferredClusterSize));
    }
    if (const json *v = find(doc, "", "occupancy", false))
      md.occupancy = int(integer(*v, "occupancy", 1, 32));
    if (const json *v = find(doc, "", "programmatic_dependent_launch", false))
      md.programmaticLaunch = boolean(*v, "programmatic_dependent_launch");
    if (const json *v = find(doc, "", "constants", false)) {
      if (!v->is_object())
        fail("constants", fmt::format("expected an object, got {}", typeName(*v)));
      for (auto it = v->begin(); it != v->end(); ++it) {
        const json &c = it.value();
        std::string path = join("constants", it.key());
        if (c.is_boolean())
          md.constants[it.key()] = c.get<bool>();
        else if (c.is_number_integer())
          md.constants[it.key()] = integer(c, path, INT64_MIN, INT64_MAX);
        else if (c.is_number_float())
          md.constants[it.key()] = c.get<double>();
        else if (c.is_string())
          md.constants[it.key()] = c.get<std::string>();
        else
          fail(path, fmt::format("expected a number, bool or string, got {}", typeName(c)));
      }
    }
    const json &params = array(*find(doc, "", "params", true), "params");
    std::set<std::string> names;
    for (size_t i = 0; i < params.size(); ++i) {
      std::string path = fmt::format("params[{}]", i);
      md.params.push_back(param(params[i], path));
      if (!names.insert(md.params.back().name).second)
        fail(join(path, "name"), fmt::format("duplicate parameter '{}'", md.params.back().name));
    }
    if (const json *v = find(doc, "", "tma", false)) {
      array(*v, "tma");
      for (size_t i = 0; i < v->size(); ++i)
        md.tma.push_back(tma((*v)[i], fmt::format("tma[{}]", i), md));
    }
    return md;
  }

private:
  std::string origin_;
};

} // namespace

const ParamInfo *KernelMetadata::param(std::string_view n) const {
  for (const ParamInfo &p : params)
    if (p.name == n)
      return &p;
  return nullptr;
}

KernelMetadata parseKernelMetadata(std::string_view text, std::string_view origin) {
  Reader reader(origin);
  if (text.size() > kMaxMetadataBytes)
    reader.fail("",
                fmt::format("{} of JSON; the limit is {}", formatBytes(text.size()), formatBytes(kMaxMetadataBytes)));
  // The keys leading to the value being parsed, so that an error the parser throws (a number
  // overflowing a double, say) names the field: keys[d - 1] is the key at depth d.
  std::vector<std::string> keys;
  auto track = [&keys](int depth, json::parse_event_t event, json &parsed) {
    size_t d = size_t(depth < 0 ? 0 : depth);
    if (event == json::parse_event_t::key) {
      keys.resize(d ? d - 1 : 0);
      keys.push_back(parsed.is_string() ? parsed.get<std::string>() : "");
    } else if (event == json::parse_event_t::object_end || event == json::parse_event_t::array_end) {
      if (keys.size() > d)
        keys.resize(d);
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(text.begin(), text.end(), track);
  } catch (const json::parse_error &e) {
    reader.fail("", fmt::format("not valid JSON ({})", e.what()));
  } catch (const json::exception &e) {
    // out_of_range (1e400), or anything else the parser throws: never past this API.
    std::string path;
    for (const std::string &k : keys) // an empty key stands for an array level
      path += k.empty() ? "[]" : fmt::format("{}{}", path.empty() ? "" : ".", k);
    reader.fail(path, fmt::format("not a valid value ({})", e.what()));
  } catch (const std::bad_alloc &) {
    reader.fail("", "out of memory parsing the JSON");
  }
  return reader.document(doc);
}

bool parseKernelMetadata(std::string_view json, std::string_view origin, KernelMetadata &metadata,
                         std::string &error) noexcept {
  try {
    metadata = parseKernelMetadata(json, origin);
    return true;
  } catch (const std::exception &e) {
    error = e.what();
  } catch (...) {
    error = "unknown failure";
  }
  return false;
}

KernelMetadata readKernelMetadata(const std::string &path) {
  std::string text;
  try {
    text = readRegularFile(path, kMaxMetadataBytes);
  } catch (const Error &e) {
    throw Error(Error::Kind::Io, fmt::format("cannot read kernel metadata {}", e.what()));
  }
  return parseKernelMetadata(text, path);
}

const char *tmaSwizzleName(TmaSwizzle s) {
  return s == TmaSwizzle::B32 ? "32B" : s == TmaSwizzle::B64 ? "64B" : s == TmaSwizzle::B128 ? "128B" : "none";
}

std::string toJson(const KernelMetadata &md) {
  using ojson = nlohmann::ordered_json;
  auto swizzle = tmaSwizzleName;
  auto l2 = [](TmaL2Promotion p) {
    return p == TmaL2Promotion::B64    ? "64B"
           : p == TmaL2Promotion::B128 ? "128B"
           : p == TmaL2Promotion::B256 ? "256B"
                                       : "none";
  };
  ojson doc;
  doc["format"] = kMetadataFormat;
  doc["kernel"] = md.kernel;
  doc["name"] = md.name;
  doc["arch"] = md.arch;
  doc["threads_per_block"] = md.threadsPerBlock;
  doc["dynamic_shared_memory"] = md.dynamicSharedMemory;
  doc["cluster"] = md.cluster;
  doc["occupancy"] = md.occupancy;
  if (md.preferredClusterSize > 1)
    doc["preferred_cluster_size"] = md.preferredClusterSize;
  if (md.programmaticLaunch)
    doc["programmatic_dependent_launch"] = true;
  doc["constants"] = ojson::object();
  for (auto &[k, v] : md.constants)
    std::visit([&, &k = k](auto &x) { doc["constants"][k] = x; }, v);
  doc["params"] = ojson::array();
  for (const ParamInfo &p : md.params) {
    ojson j;
    j["name"] = p.name;
    j["kind"] = p.isArray() ? "array" : "scalar";
    j["dtype"] = dtypeName(p.dtype);
    if (p.isArray()) {
      j["rank"] = p.rank;
      j["alignment"] = p.alignment;
      j["unit_stride_last"] = p.unitStrideLast;
    }
    doc["params"].push_back(j);
  }
  doc["tma"] = ojson::array();
  for (const TmaInfo &t : md.tma) {
    ojson j;
    j["param"] = t.param;
    j["box"] = t.box;
    j["element_strides"] = t.elementStrides;
    j["swizzle"] = swizzle(t.swizzle);
    j["l2_promotion"] = l2(t.l2Promotion);
    j["oob_fill"] = t.oobFill == TmaOobFill::NaN ? "nan" : "zero";
    doc["tma"].push_back(j);
  }
  // Replace, not throw, on invalid UTF-8 in a name (a constant from a command line, say).
  return doc.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

std::string archMismatch(std::string_view arch, int major, int minor, bool isPtx) {
  std::optional<GpuArch> need = GpuArch::parse(arch);
  if (!need)
    return fmt::format("invalid architecture '{}'", arch);
  const int needMajor = need->major, needMinor = need->minor;
  std::string device = fmt::format("compute capability {}.{}", major, minor);
  if (need->archSpecific) {
    if (major != needMajor || minor != needMinor)
      return fmt::format("code for {} runs only on compute capability {}.{}, the device has {}", arch, needMajor,
                         needMinor, device);
  } else if (isPtx) {
    if (major < needMajor || (major == needMajor && minor < needMinor))
      return fmt::format("PTX for {} needs compute capability {}.{} or newer, the device has {}", arch, needMajor,
                         needMinor, device);
  } else if (major != needMajor || minor < needMinor) {
    return fmt::format("a cubin for {} runs on compute capability {}.x (x >= {}), the device "
                       "has {}",
                       arch, needMajor, needMinor, device);
  }
  return "";
}

} // namespace tile::rt
