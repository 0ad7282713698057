// Text dumps of the AST, for tests and `tile-cc --emit=ast`.
//
// The tree dump prints one node per line, children indented by two spaces, a child's role in
// its parent as a prefix where it is not obvious, and the node's start as <line:col>:
//
//   FunctionDef 'f' <4:1>
//     decorator: Attribute 'kernel' <3:2>
//       Name 'ct' <3:2>
//     param 'x' <4:7>
//     body:
//       Assign <5:5>
//         target: Name 'i' <5:5>
//         value: Call <5:9>
//           func: Attribute 'bid' <5:9>
//             Name 'ct' <5:9>
//           IntLit 0 <5:16>
//
// toSExpr() renders an expression on one line as an S-expression, `(+ a (* b c))`, which is
// handy for checking precedence.
#pragma once

#include "compiler/frontend/AST.h"

#include <iosfwd>
#include <string>

namespace tile::frontend {

struct ASTPrintOptions {
  bool locations = true; // append <line:col>
  bool ranges = false;   // append <line:col-line:col> (the end is exclusive) instead
};

/// Locations are resolved through `sources`; for a Module without `sources`, through its own
/// file. Without either, no locations are printed.
void printAST(std::ostream &os, const Module &module, const SourceManager *sources = nullptr,
              ASTPrintOptions options = {});
void printAST(std::ostream &os, const Stmt &stmt, const SourceManager *sources = nullptr, ASTPrintOptions options = {});
void printAST(std::ostream &os, const Expr &expr, const SourceManager *sources = nullptr, ASTPrintOptions options = {});

std::string dumpAST(const Module &module, const SourceManager *sources = nullptr, ASTPrintOptions options = {});
std::string dumpAST(const Stmt &stmt, const SourceManager *sources = nullptr, ASTPrintOptions options = {});
std::string dumpAST(const Expr &expr, const SourceManager *sources = nullptr, ASTPrintOptions options = {});

/// One-line S-expression: names and literals as written (strings in double quotes), `(op a b)`
/// for operators, `(cmp a < b <= c)` for chained comparisons, `(if test body orelse)`,
/// `(call f a (kw name v))`, `(. value attr)`, `([] value index)`, `(: lower upper step)` with
/// `_` for a missing part, `(tuple ...)`, `(list ...)`, `(dict (k v) ...)`, `<error>`.
std::string toSExpr(const Expr &expr);

/// A double-quoted, escaped rendering of a string value (used by both dumps).
std::string quoteString(const std::string &value);
/// The shortest decimal text that reads back as `value`, always with a '.' or exponent.
std::string formatFloat(double value);

} // namespace tile::frontend
