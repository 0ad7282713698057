#include "runtime/jit/TuneKey.h"

#include "runtime/Error.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/SHA256.h"

#include <set>

namespace tile::jit {

std::string TuneCandidate::label() const {
  if (constants.empty())
    return "config " + std::to_string(config);
  std::string s;
  for (auto &[name, value] : constants)
    s += (s.empty() ? "" : " ") + name + "=" + value;
  return s;
}

static std::string hexDigest(const std::string &text, int bytes) {
  auto hash = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  static const char *hex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < bytes; ++i) {
    out.push_back(hex[hash[i] >> 4]);
    out.push_back(hex[hash[i] & 15]);
  }
  return out;
}

std::string tuneDigest(const std::string &text) { return hexDigest(text, 16); }

std::string tuneSourceDigest(const std::string &source) { return hexDigest(source, 16); }

TuneKey TuneKey::make(std::string kernel, const std::vector<std::pair<std::string, std::string>> &fields,
                      std::string summary) {
  TuneKey key;
  key.kernel = std::move(kernel);
  key.text = "kernel=" + key.kernel + "\n";
  // Values never hold a newline (escaped), so no two field lists give the same text.
  for (auto &[name, value] : fields) {
    std::string escaped;
    for (char c : value)
      escaped += c == '\n' ? std::string("\\n") : c == '\\' ? std::string("\\\\") : std::string(1, c);
    key.text += name + "=" + escaped + "\n";
  }
  key.digest = tuneDigest(key.text);
  key.summary = std::move(summary);
  return key;
}

TuneKey makeTuneKey(const TuneKeyInputs &in, const std::vector<TuneCandidate> &candidates) {
  const KernelRequest &r = in.request;
  std::set<std::string> tuned;
  for (const TuneCandidate &c : candidates)
    for (auto &[name, value] : c.constants)
      tuned.insert(name);
  std::vector<std::pair<std::string, std::string>> fields;
  fields.push_back({"compiler", compilerVersion()});
  // The source by digest: the key file stays small, and any edit is a new key.
  fields.push_back({"source", tuneSourceDigest(r.source)});
  for (auto &[name, value] : r.constants)
    if (!tuned.count(name))
      fields.push_back({"const." + name, std::to_string(value.index()) + ":" + frontend::formatConstant(value)});
  for (auto &[name, type] : r.args)
    fields.push_back({"arg." + name, frontend::formatArgType(type)});
  std::string summary = r.kernel;
  for (const std::string &name : in.keyNames) {
    auto it = in.values.find(name);
    if (it == in.values.end())
      throw rt::Error(rt::Error::Kind::InvalidArgument,
                      "autotune of '" + r.kernel + "': the key= name '" + name + "' has no value at this launch");
    int64_t b = bucketPow2(it->second);
    fields.push_back({"key." + name, std::to_string(b)});
    summary += " " + name + "=" + std::to_string(it->second);
  }
  int64_t blocks = bucketPow2(in.blocks);
  int log2 = 0;
  while ((int64_t(1) << log2) < blocks)
    ++log2;
  fields.push_back({"blocks", std::to_string(blocks)});
  summary += " blocks~2^" + std::to_string(log2);
  std::string list;
  for (const TuneCandidate &c : candidates)
    list += std::to_string(c.config) + ":" + c.label() + "|";
  fields.push_back({"candidates", list});
  fields.push_back({"device", in.device});
  fields.push_back({"driver", in.driver});
  fields.push_back({"target", in.target});
  return TuneKey::make(r.kernel, fields, summary);
}

} // namespace tile::jit
