#include "runtime/KernelPackage.h"

#include "runtime/Error.h"
#include "runtime/File.h"
#include "runtime/KernelMetadata.h"
#include "runtime/Module.h"

#include <nlohmann/json.hpp>

namespace tile::rt {

using ojson = nlohmann::ordered_json;

namespace {

constexpr std::uint64_t kMaxManifestBytes = 16u << 20;
constexpr std::uint64_t kMaxBinaryBytes = std::uint64_t(1) << 30;

[[noreturn]] void invalid(const std::string &origin, const std::string &field, const std::string &problem) {
  throw Error(Error::Kind::InvalidMetadata, origin + ": " + field + ": " + problem);
}

std::string stringField(const ojson &j, const char *name, const std::string &origin, const std::string &at,
                        bool required = true) {
  auto it = j.find(name);
  if (it == j.end()) {
    if (required)
      invalid(origin, at + name, "missing");
    return "";
  }
  if (!it->is_string())
    invalid(origin, at + name, "expected a string");
  return it->get<std::string>();
}

void checkFileName(const std::string &name, const std::string &origin, const std::string &field) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      name.find('\0') != std::string::npos)
    invalid(origin, field, "'" + name + "' is not a file name inside the package");
}

} // namespace

std::string toJson(const PackageManifest &m) {
  ojson entries = ojson::array();
  for (const PackageEntry &e : m.entries) {
    ojson entry = {{"config", e.config}, {"constants", e.constants}};
    if (e.built()) {
      entry["binary"] = e.binary;
      entry["metadata"] = e.metadata;
    } else {
      entry["error"] = e.error;
    }
    entries.push_back(entry);
  }
  ojson j = {{"format", kPackageFormat}, {"kernel", m.kernel}, {"arch", m.arch}, {"configs", entries}};
  return j.dump(1) + "\n";
}

PackageManifest parsePackageManifest(const std::string &text, const std::string &origin) {
  ojson j;
  try {
    j = ojson::parse(text);
  } catch (const ojson::exception &e) {
    throw Error(Error::Kind::InvalidMetadata, origin + ": not valid JSON (" + std::string(e.what()) + ")");
  }
  if (!j.is_object())
    invalid(origin, "(top level)", "expected an object");
  std::string format = stringField(j, "format", origin, "");
  if (format != kPackageFormat)
    invalid(origin, "format", "'" + format + "' is not supported (this build reads " + kPackageFormat + ")");
  PackageManifest m;
  m.kernel = stringField(j, "kernel", origin, "");
  m.arch = stringField(j, "arch", origin, "");
  auto configs = j.find("configs");
  if (configs == j.end())
    invalid(origin, "configs", "missing");
  if (!configs->is_array())
    invalid(origin, "configs", "expected a list");
  for (size_t i = 0; i < configs->size(); ++i) {
    const ojson &c = (*configs)[i];
    const std::string at = "configs[" + std::to_string(i) + "].";
    if (!c.is_object())
      invalid(origin, at.substr(0, at.size() - 1), "expected an object");
    PackageEntry e;
    auto config = c.find("config");
    if (config == c.end() || !config->is_number_unsigned() || config->get<unsigned long long>() > 1000000)
      invalid(origin, at + "config", "expected an integer from 0 to 1000000");
    e.config = config->get<unsigned>();
    for (const PackageEntry &other : m.entries)
      if (other.config == e.config)
        invalid(origin, at + "config", "configuration " + std::to_string(e.config) + " is listed twice");
    auto constants = c.find("constants");
    if (constants == c.end() || !constants->is_object())
      invalid(origin, at + "constants", "expected an object");
    for (auto &[name, value] : constants->items()) {
      if (!value.is_string())
        invalid(origin, at + "constants." + name, "expected a string");
      e.constants[name] = value.get<std::string>();
    }
    e.error = stringField(c, "error", origin, at, false);
    if (c.contains("error") && e.error.empty())
      invalid(origin, at + "error", "empty");
    if (e.built()) {
      e.binary = stringField(c, "binary", origin, at);
      e.metadata = stringField(c, "metadata", origin, at);
      checkFileName(e.binary, origin, at + "binary");
      checkFileName(e.metadata, origin, at + "metadata");
    }
    m.entries.push_back(std::move(e));
  }
  return m;
}

std::vector<PackagedKernel> loadKernelPackage(const Device &device, const std::string &dir) {
  const std::string manifestPath = dir + "/manifest.json";
  PackageManifest m = parsePackageManifest(readRegularFile(manifestPath, kMaxManifestBytes), manifestPath);
  std::vector<PackagedKernel> kernels;
  for (const PackageEntry &e : m.entries) {
    if (!e.built())
      continue;
    KernelMetadata metadata = readKernelMetadata(dir + "/" + e.metadata);
    if (metadata.name != m.kernel)
      throw Error(Error::Kind::InvalidMetadata, dir + "/" + e.metadata + ": kernel '" + metadata.name +
                                                    "', but the package is of '" + m.kernel + "'");
    std::string binary = readRegularFile(dir + "/" + e.binary, kMaxBinaryBytes);
    bool isElf = binary.size() >= 4 && binary.compare(0, 4,
                                                      "\x7f"
                                                      "ELF") == 0;
    Module module = isElf ? Module::fromCubin(device, binary.data(), binary.size()) : Module::fromPtx(device, binary);
    kernels.push_back({e.config, e.constants, module.kernel(metadata)});
  }
  return kernels;
}

} // namespace tile::rt
