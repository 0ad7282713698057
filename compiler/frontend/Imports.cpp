// Resolving and loading imported kernel modules (see Imports.h).

#include "compiler/frontend/Imports.h"

#include "compiler/frontend/Parser.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string_view>

namespace tile::frontend {

namespace fs = std::filesystem;

namespace {

// Imported modules nested deeper than this are refused (a chain of files, not a cycle).
constexpr unsigned kMaxImportDepth = 64;

bool isRegularFile(const std::string &path) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(path), ec);
}

// The identity of a file: two spellings of one file load it once and close a cycle.
std::string fileKey(const std::string &path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::path(path), ec);
  return ec ? path : canonical.string();
}

// The directory (with a trailing '/', or empty for the current one) that the imports of `file`
// are looked up from: its own, when its name is a file on disk (an in-memory buffer such as
// the JIT's "<source>" has none).
std::optional<std::string> directoryOf(const SourceFile &file) {
  if (!isRegularFile(file.name()))
    return std::nullopt;
  std::string parent = fs::path(file.name()).parent_path().string();
  return parent.empty() ? std::string() : parent + "/";
}

std::vector<std::string> splitDotted(const std::string &dotted) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= dotted.size() && !dotted.empty()) {
    size_t dot = dotted.find('.', start);
    parts.push_back(dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos)
      break;
    start = dot + 1;
  }
  return parts;
}

// `a.b.c` relative to a directory: "a/b/c" ("" for no parts).
std::string joined(const std::vector<std::string> &parts) {
  std::string path;
  for (const std::string &p : parts)
    path += (path.empty() ? "" : "/") + p;
  return path;
}

std::string normal(const std::string &path) { return fs::path(path).lexically_normal().string(); }

// The file of module `parts` in `dir`: dir/a/b.py, else dir/a/b/__init__.py; `package` says
// which. Empty when neither exists.
std::string findModule(const std::string &dir, const std::vector<std::string> &parts, bool &package) {
  std::string base = dir + joined(parts);
  if (!parts.empty() && isRegularFile(base + ".py")) {
    package = false;
    return normal(base + ".py");
  }
  std::string init = parts.empty() ? dir + "__init__.py" : base + "/__init__.py";
  if (isRegularFile(init)) {
    package = true;
    return normal(init);
  }
  return "";
}

// Modules the front end itself knows, never looked up as files.
bool isKnownModule(const std::string &dotted) {
  std::string first = dotted.substr(0, dotted.find('.'));
  return first == "cuda" || first == "math" || first == "numpy" || first == "torch";
}

std::string baseName(const std::string &path) { return fs::path(path).filename().string(); }

} // namespace

int ImportedModules::indexOf(const Module *module) const {
  for (size_t i = 0; i < modules_.size(); ++i)
    if (modules_[i].module.get() == module)
      return static_cast<int>(i);
  return -1;
}

const ImportedModules::Binding *ImportedModules::binding(const ImportAlias &alias) const {
  auto it = bindings_.find(&alias);
  return it == bindings_.end() ? nullptr : &it->second;
}

bool ImportedModules::load(const Module &root, SourceManager &sources, DiagnosticEngine &diags,
                           const ImportOptions &options) {
  std::vector<std::pair<std::string, std::string>> stack; // (key, name) of the files being loaded
  stack.emplace_back(root.file ? fileKey(root.file->name()) : "<root>", root.file ? root.file->name() : "<root>");
  return loadModule(root, sources, diags, options, stack, 0);
}

const Module *ImportedModules::loadFile(const std::string &path, const std::string &key, const Stmt &at,
                                        SourceManager &sources, DiagnosticEngine &diags, const ImportOptions &options,
                                        std::vector<std::pair<std::string, std::string>> &stack, unsigned depth,
                                        bool &ok) {
  auto onStack = std::find_if(stack.begin(), stack.end(), [&](const auto &s) { return s.first == key; });
  if (onStack != stack.end()) {
    // The cycle, named by the files' own names: a.py imports b.py imports a.py.
    std::string cycle;
    for (auto it = onStack; it != stack.end(); ++it)
      cycle += baseName(it->second) + " imports ";
    diags.error(at.range, "import cycle: " + cycle + baseName(path));
    ok = false;
    return nullptr;
  }
  if (auto it = byKey_.find(key); it != byKey_.end())
    return modules_[it->second].module.get();
  if (depth >= kMaxImportDepth) {
    diags.error(at.range, "imports nested too deeply (more than " + std::to_string(kMaxImportDepth) + " files)");
    ok = false;
    return nullptr;
  }
  std::string error;
  const SourceFile *file = sources.addFile(path, &error);
  if (!file) {
    diags.error(at.range, "cannot import '" + path + "': " + error);
    ok = false;
    return nullptr;
  }
  bool hadErrors = diags.hasErrors();
  std::unique_ptr<Module> module = parseModule(*file, diags, hostFileOptions());
  if (!module || (!hadErrors && diags.hasErrors())) {
    diags.report(Severity::Note, at.range, "in '" + path + "', imported here");
    ok = false;
    return nullptr;
  }
  const Module *result = module.get();
  byKey_[key] = modules_.size();
  modules_.push_back(Entry{path, file, std::move(module)});
  stack.emplace_back(key, path);
  ok &= loadModule(*result, sources, diags, options, stack, depth + 1);
  stack.pop_back();
  return result;
}

bool ImportedModules::loadModule(const Module &module, SourceManager &sources, DiagnosticEngine &diags,
                                 const ImportOptions &options, std::vector<std::pair<std::string, std::string>> &stack,
                                 unsigned depth) {
  bool ok = true;
  std::optional<std::string> dir = module.file ? directoryOf(*module.file) : std::nullopt;
  std::string importer = module.file ? baseName(module.file->name()) : "the source";
  // Where a module of `parts` is: relative to the importing file (level > 0), else beside it
  // and then on the search path.
  auto find = [&](unsigned level, const std::vector<std::string> &parts, bool &package) -> std::string {
    if (level > 0) {
      if (!dir)
        return "";
      std::string up = *dir;
      for (unsigned i = 1; i < level; ++i)
        up += "../";
      return findModule(up, parts, package);
    }
    std::vector<std::string> dirs;
    if (dir)
      dirs.push_back(*dir);
    for (const std::string &d : options.searchPath)
      dirs.push_back(d.empty() || d.back() == '/' ? d : d + "/");
    for (const std::string &d : dirs)
      if (std::string found = findModule(d, parts, package); !found.empty())
        return found;
    return "";
  };
  // The path a relative import points at, for the message when it is missing.
  auto wanted = [&](unsigned level, const std::vector<std::string> &parts) {
    std::string up;
    for (unsigned i = 1; i < level; ++i)
      up += "../";
    return up + (parts.empty() ? "__init__" : joined(parts)) + ".py";
  };
  auto missing = [&](const std::string &written, unsigned level, const std::vector<std::string> &parts,
                     SourceRange where) {
    Binding b;
    b.kind = Binding::Kind::Missing;
    b.where = where;
    b.from = written;
    b.relative = level > 0;
    b.message = "cannot import '" + written + "': no " + wanted(level, parts) + " beside " + importer +
                (level > 0 ? "" : " or on the search path (-I)");
    return b;
  };
  auto loadAt = [&](const std::string &path, const Stmt &at) {
    return loadFile(path, fileKey(path), at, sources, diags, options, stack, depth, ok);
  };

  for (const StmtPtr &stmt : module.body) {
    if (auto *imp = stmt->dynCast<ImportStmt>()) {
      for (const ImportAlias &alias : imp->names) {
        // `import a.b` binds `a`, which is a package rather than the module: left as before.
        if (isKnownModule(alias.name) || (alias.asName.empty() && alias.name.find('.') != std::string::npos))
          continue;
        bool package = false;
        std::string path = find(0, splitDotted(alias.name), package);
        if (path.empty()) {
          bindings_[&alias] = missing(alias.name, 0, splitDotted(alias.name), imp->range);
          continue;
        }
        if (const Module *m = loadAt(path, *imp))
          bindings_[&alias] = Binding{Binding::Kind::Module, m, "", imp->range, alias.name, false};
      }
    } else if (auto *from = stmt->dynCast<ImportFromStmt>()) {
      if (from->level == 0 && isKnownModule(from->module))
        continue;
      std::string written = std::string(from->level, '.') + from->module;
      std::vector<std::string> parts = splitDotted(from->module);
      bool package = false;
      std::string path = find(from->level, parts, package);
      for (const ImportAlias &alias : from->names) {
        // A submodule (`from . import x`, `from .pkg import x`) before a name of a package.
        if (path.empty() || package) {
          std::vector<std::string> sub = parts;
          sub.push_back(alias.name);
          bool subPackage = false;
          if (std::string subPath = find(from->level, sub, subPackage); !subPath.empty()) {
            if (const Module *m = loadAt(subPath, *from))
              bindings_[&alias] = Binding{Binding::Kind::Module, m, "", from->range, written, from->level > 0};
            continue;
          }
        }
        if (!path.empty()) {
          if (const Module *m = loadAt(path, *from))
            bindings_[&alias] = Binding{Binding::Kind::Name, m, "", from->range, written, from->level > 0};
        } else {
          bindings_[&alias] = parts.empty() ? missing(written + alias.name, from->level, {alias.name}, from->range)
                                            : missing(written, from->level, parts, from->range);
        }
      }
    }
    if (!ok)
      return false;
  }
  return ok;
}

std::vector<std::pair<std::string, std::string>> importedSources(const std::string &source, const std::string &fileName,
                                                                 const ImportOptions &options) {
  std::vector<std::pair<std::string, std::string>> result;
  // The JIT asks on every request: a source with no import that could name a kernel module
  // (only `import cuda.tile as ct`, math, numpy, torch) is not parsed.
  bool candidate = false;
  for (size_t start = 0; start < source.size() && !candidate;) {
    size_t end = std::min(source.find('\n', start), source.size());
    std::string_view line(source.data() + start, end - start);
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    for (std::string_view keyword : {"import ", "from "})
      if (line.substr(0, keyword.size()) == keyword) {
        std::string_view rest = line.substr(keyword.size());
        rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
        std::string module(rest.substr(0, rest.find_first_of(" \t,;\\(\r")));
        candidate |= module.empty() || !isKnownModule(module) || line.find(',') != std::string_view::npos;
      }
    start = end + 1;
  }
  if (!candidate)
    return result;
  SourceManager sources;
  DiagnosticEngine diags(sources);
  const SourceFile *file = sources.addBuffer(fileName, source);
  if (!file)
    return result;
  std::unique_ptr<Module> module = parseModule(*file, diags, hostFileOptions());
  if (!module)
    return result;
  ImportedModules imports;
  imports.load(*module, sources, diags, options);
  for (const ImportedModules::Entry &e : imports.modules())
    result.emplace_back(e.path, std::string(e.file->text()));
  return result;
}

} // namespace tile::frontend
