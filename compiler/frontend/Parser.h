// The parser: recursive descent over the lexer's tokens, producing the AST of AST.h.
//
// Python's grammar and operator precedence, restricted to what kernels use. Constructs outside
// the language (while, class, lambda, comprehensions, ...) are recognised and
// reported by name at their keyword. After a syntax error the parser skips to the next
// statement boundary and goes on, so one run reports several errors; it stops early once the
// DiagnosticEngine's error limit is reached.
//
// Robustness: every loop consumes a token or exits, and recursion is bounded by the limits in
// ParseOptions, so any byte string parses in linear time without exhausting the stack.
#pragma once

#include "compiler/frontend/AST.h"
#include "compiler/frontend/Diagnostics.h"

#include <memory>

namespace tile::frontend {

struct ParseOptions {
  /// Nesting of brackets, unary operators, `not`, `**`, conditional expressions, ...
  /// ("expression nested too deeply").
  unsigned maxNestingDepth = 200;
  /// Depth of an expression tree, where each link of an operator or `.`/call/subscript chain
  /// also counts (`a+b+c` is two deep, as is `a.b.c`); bounds the recursion of everything
  /// that later walks the AST (printing, sema, IR generation, destruction).
  unsigned maxExpressionDepth = 256;
  /// Nested indented blocks ("too many levels of indentation").
  unsigned maxBlockDepth = 100;
  /// Set aside top-level host code that does not parse (Module::hostCode) instead of
  /// reporting its errors; the compilers turn this on, parser tests see every error.
  bool setAsideHostCode = false;
};

/// The options for kernel files as users write them (host code set aside).
inline ParseOptions hostFileOptions() {
  ParseOptions options;
  options.setAsideHostCode = true;
  return options;
}

/// Parses a whole file. Always returns a Module, partial if there were errors: check
/// diags.hasErrors() before using it. Nodes never have null required children.
std::unique_ptr<Module> parseModule(const SourceFile &file, DiagnosticEngine &diags, const ParseOptions &options = {});

/// Parses a buffer holding one expression (for instance an autotune key such as "x.dtype").
/// Returns nullptr if no expression could be built; errors go to `diags`.
ExprPtr parseExpression(const SourceFile &file, DiagnosticEngine &diags, const ParseOptions &options = {});

} // namespace tile::frontend
