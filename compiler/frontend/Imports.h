// Imports between kernel modules: `from .gelu import gelu_tanh`, `import helpers as h`.
//
// An import names a kernel module when a file exists where it points: relative imports
// (`from .x import f`, `from . import x`, `from ..pkg.x import f`) are looked up from the
// importing file's directory; absolute ones (`import x`, `import x as y`, `from x import f`,
// `from pkg.x import f`) beside the importing file, then in each directory of the search path
// (`tile-cc -I DIR`, JitOptions::importPath, TILE_KERNEL_PATH). `a.b.c` is `a/b/c.py`, else
// `a/b/c/__init__.py`. Everything else (torch, numpy, math, typing, `cuda.tile` itself: never
// looked up) stays what it was before imports existed: a host module the front end knows or
// ignores.
//
// ImportedModules::load reads and parses every kernel module a file reaches, transitively and
// once per file, before any IR is generated: a syntax error in an imported file and an import
// cycle are errors then (located in the file where they are). An import that finds no file,
// and a name that an imported module does not define, are reported only when a kernel uses
// the name, at the import statement (host code often imports sibling host modules that kernels
// never touch; such imports stay host modules, as before).
#pragma once

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Diagnostics.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tile::frontend {

struct ImportOptions {
  /// Directories searched for absolute imports after the importing file's own directory.
  std::vector<std::string> searchPath;
};

class ImportedModules {
public:
  /// One imported file, parsed.
  struct Entry {
    std::string path; // as the SourceFile names it
    const SourceFile *file = nullptr;
    std::unique_ptr<Module> module;
  };
  /// What one name of an import statement binds.
  struct Binding {
    enum class Kind {
      Module, // `import x`, `import x as y`, `from . import x`: the module itself
      Name,   // `from x import f`: the name `f` of the module
      Missing // no file where the import points: `message` says so if a kernel uses the name
    };
    Kind kind = Kind::Missing;
    const Module *module = nullptr;
    std::string message;
    SourceRange where; // the import statement
    std::string from;  // the module as written (`.gelu`), for messages
    bool relative = false;
  };

  /// Loads every kernel module `root` imports, transitively. False when an error was reported
  /// (an imported file that does not read or parse, an import cycle).
  bool load(const Module &root, SourceManager &sources, DiagnosticEngine &diags, const ImportOptions &options);

  /// The binding of one name of an import statement of a loaded module; null when the import
  /// is not a kernel module's (left to the host-module rules).
  const Binding *binding(const ImportAlias &alias) const;
  /// The imported files, in the order they were first reached (the root is not among them).
  const std::vector<Entry> &modules() const { return modules_; }
  /// The index of an imported module in modules(), or -1.
  int indexOf(const Module *module) const;

private:
  bool loadModule(const Module &module, SourceManager &sources, DiagnosticEngine &diags, const ImportOptions &options,
                  std::vector<std::pair<std::string, std::string>> &stack, unsigned depth);
  const Module *loadFile(const std::string &path, const std::string &key, const Stmt &at, SourceManager &sources,
                         DiagnosticEngine &diags, const ImportOptions &options,
                         std::vector<std::pair<std::string, std::string>> &stack, unsigned depth, bool &ok);

  std::vector<Entry> modules_;
  std::map<std::string, size_t> byKey_; // canonical path -> index in modules_
  std::map<const ImportAlias *, Binding> bindings_;
};

/// The source files a kernel file imports (transitively), each with its path and contents, in
/// the order they were reached: what the JIT's cache key hashes. Errors (the file does not
/// parse, an imported file is unreadable) leave the list short; compiling reports them.
std::vector<std::pair<std::string, std::string>> importedSources(const std::string &source, const std::string &fileName,
                                                                 const ImportOptions &options);

} // namespace tile::frontend
