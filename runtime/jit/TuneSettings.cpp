#include "runtime/jit/TuneSettings.h"

#include "runtime/Error.h"

#include <cctype>
#include <cstdlib>

namespace tile::jit {

namespace {

[[noreturn]] void bad(const std::string &message) { throw rt::Error(rt::Error::Kind::InvalidArgument, message); }

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

bool isName(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

std::optional<unsigned> parseIndex(const std::string &s) {
  if (s.empty() || s.size() > 6)
    return std::nullopt;
  unsigned v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return std::nullopt;
    v = v * 10 + unsigned(c - '0');
  }
  return v;
}

bool flag(const char *name, bool fallback) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return fallback;
  std::string s(v);
  if (s == "1" || s == "true" || s == "yes")
    return true;
  if (s == "0" || s == "false" || s == "no")
    return false;
  bad(std::string(name) + "='" + s + "': expected 0 or 1");
}

} // namespace

std::vector<ForceRule> parseForceRules(const std::string &spec) {
  std::vector<ForceRule> rules;
  for (const std::string &text : split(spec, ';')) {
    if (text.empty())
      bad("TILE_AUTOTUNE_FORCE='" + spec + "': an empty rule (rules are [KERNEL:]INDEX or [KERNEL:]NAME=VALUE,...)");
    ForceRule rule;
    rule.text = text;
    std::string body = text;
    if (size_t colon = text.find(':'); colon != std::string::npos) {
      rule.kernel = text.substr(0, colon);
      body = text.substr(colon + 1);
      if (!isName(rule.kernel))
        bad("TILE_AUTOTUNE_FORCE rule '" + text + "': '" + rule.kernel + "' is not a kernel name");
    }
    if (std::optional<unsigned> index = parseIndex(body)) {
      rule.index = index;
    } else {
      for (const std::string &pair : split(body, ',')) {
        size_t eq = pair.find('=');
        std::string name = eq == std::string::npos ? pair : pair.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : pair.substr(eq + 1);
        if (eq == std::string::npos || !isName(name) || value.empty())
          bad("TILE_AUTOTUNE_FORCE rule '" + text + "': '" + pair +
              "' is neither a configuration index nor NAME=VALUE");
        if (!rule.constants.emplace(name, value).second)
          bad("TILE_AUTOTUNE_FORCE rule '" + text + "': " + name + " is given twice");
      }
    }
    rules.push_back(std::move(rule));
  }
  return rules;
}

TuneSettings TuneSettings::fromEnvironment() {
  TuneSettings s;
  if (const char *v = std::getenv("TILE_AUTOTUNE"); v && *v) {
    std::string mode(v);
    if (mode == "1")
      s.mode = TuneMode::Tune;
    else if (mode == "0")
      s.mode = TuneMode::Off;
    else if (mode == "table")
      s.mode = TuneMode::TableOnly;
    else
      bad("TILE_AUTOTUNE='" + mode + "': expected 1 (tune), 0 (first configuration) or table");
  }
  if (const char *v = std::getenv("TILE_AUTOTUNE_FORCE"); v && *v)
    s.force = parseForceRules(v);
  s.print = flag("TILE_AUTOTUNE_PRINT", false);
  if (const char *v = std::getenv("TILE_AUTOTUNE_TABLE"); v && *v)
    s.table = v;
  return s;
}

} // namespace tile::jit
