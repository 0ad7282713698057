// Helpers shared by the front-end syntax tests.
#pragma once

#include "compiler/frontend/ASTPrinter.h"
#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/Lexer.h"
#include "compiler/frontend/Parser.h"

#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace tile::frontend::test {

/// A source buffer parsed as a module, with its diagnostics.
struct Parsed {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  const SourceFile *file = nullptr;
  std::unique_ptr<Module> module;

  explicit Parsed(std::string text, unsigned errorLimit = DiagnosticEngine::kDefaultErrorLimit,
                  ParseOptions options = {}) {
    diags.setErrorLimit(errorLimit);
    file = sources.addBuffer("t.py", std::move(text));
    module = parseModule(*file, diags, options);
  }

  /// The AST dump, without locations unless asked.
  std::string ast(bool locations = false) const {
    ASTPrintOptions options;
    options.locations = locations;
    return dumpAST(*module, &sources, options);
  }
  std::string errors() const { return diags.str(); }
  /// Only the "file:line:col: severity: message" lines of the rendered diagnostics.
  std::string headlines() const {
    std::string result;
    for (const Diagnostic &d : diags.diagnostics()) {
      FullLoc loc = sources.decompose(d.range.begin);
      if (loc.isValid())
        result += loc.file->name() + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column) + ": ";
      result += std::string(severityName(d.severity)) + ": " + d.message + "\n";
    }
    return result;
  }
  /// The first diagnostic's headline (without the trailing newline), or "" if none.
  std::string firstError() const {
    std::string all = headlines();
    return all.substr(0, all.find('\n'));
  }
};

/// Parses `text` as one expression and returns its S-expression, or "ERROR: <diagnostics>".
inline std::string sexpr(const std::string &text) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  const SourceFile *file = sources.addBuffer("e.py", text);
  ExprPtr e = parseExpression(*file, diags);
  if (!e || diags.hasErrors())
    return "ERROR: " + diags.str();
  return toSExpr(*e);
}

/// The kinds of all tokens of `text`, space separated, without the final EndOfFile.
inline std::string tokenKinds(const std::string &text) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  Lexer lexer(*sources.addBuffer("t.py", text), diags);
  std::string result;
  for (const Token &t : lexer.lexAll()) {
    if (t.is(TokenKind::EndOfFile))
      break;
    result += (result.empty() ? "" : " ") + std::string(tokenKindName(t.kind));
  }
  return result;
}

/// The lexer's tokens and diagnostics for `text`.
struct Lexed {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  const SourceFile *file;
  std::vector<Token> tokens;

  explicit Lexed(std::string text) {
    file = sources.addBuffer("t.py", std::move(text));
    Lexer lexer(*file, diags);
    tokens = lexer.lexAll();
  }
  /// "line:col" of a token's start.
  std::string where(size_t i) const {
    LineColumn lc = file->lineColumn(tokens.at(i).range.begin);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }
};

} // namespace tile::frontend::test
