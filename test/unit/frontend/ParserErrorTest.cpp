// Parser diagnostics: the exact message and location of syntax errors and unsupported
// constructs, recovery (several errors per run), notes, and the error limit.
#include "test/unit/frontend/FrontendTestUtil.h"

#include <catch2/catch.hpp>

using namespace tile::frontend;
using namespace tile::frontend::test;

namespace {

struct ErrorCase {
  const char *source;
  const char *firstError;
};

// Each source's first diagnostic, as "file:line:col: error: message".
const ErrorCase kErrorCases[] = {
    // Unsupported constructs, reported by name at their keyword.
    {"while x:\n    y = 1\nelse:\n    y = 2\n", "t.py:3:1: error: `else` clauses on `while` loops are not supported"},
    {"class A:\n    pass\n", "t.py:1:1: error: `class` definitions are not supported"},
    {"y = lambda a: a\n", "t.py:1:5: error: `lambda` expressions are not supported"},
    {"with open(f) as g:\n    pass\n", "t.py:1:1: error: `with` statements are not supported"},
    {"x = [i for i in y]\n", "t.py:1:8: error: list comprehensions are not supported"},
    {"x = {k: v for k in y}\n", "t.py:1:11: error: dict comprehensions are not supported"},
    {"x = {1, 2}\n", "t.py:1:5: error: set literals are not supported"},
    {"x = {**a}\n", "t.py:1:6: error: dictionary unpacking (`**`) is not supported"},
    {"x = (i for i in y)\n", "t.py:1:8: error: generator expressions are not supported"},
    {"f(x for x in y)\n", "t.py:1:5: error: generator expressions are not supported"},
    {"x = f'{y'\n", "t.py:1:7: error: f-string: expecting '}'"},
    {"x = b'abc'\n", "t.py:1:5: error: bytes literals are not supported"},
    {"def f():\n    global x\n", "t.py:2:5: error: `global` statements are not supported"},
    {"nonlocal x\n", "t.py:1:1: error: `nonlocal` statements are not supported"},
    {"def f():\n    yield x\n", "t.py:2:5: error: `yield` expressions are not supported"},
    {"del x\n", "t.py:1:1: error: `del` statements are not supported"},
    {"raise ValueError('x')\n", "t.py:1:1: error: `raise` statements are not supported"},
    {"f(*args)\n", "t.py:1:3: error: starred arguments are not supported"},
    {"f(**kw)\n", "t.py:1:3: error: keyword argument unpacking (`**`) is not supported"},
    {"a, *b = c\n", "t.py:1:4: error: starred expressions are not supported"},
    {"if (n := 10) > 5:\n    pass\n", "t.py:1:7: error: walrus operator `:=` is not supported"},
    {"for i in r:\n    pass\nelse:\n    pass\n", "t.py:3:1: error: `else` clauses on `for` loops are not supported"},
    {"async def f():\n    pass\n", "t.py:1:1: error: `async` functions are not supported"},
    {"x = await y\n", "t.py:1:5: error: `await` expressions are not supported"},
    {"from m import *\n", "t.py:1:15: error: wildcard imports (`from ... import *`) are not supported"},
    {"def f(*args):\n  pass\n", "t.py:1:7: error: variadic parameters (`*args`) are not supported"},
    {"def f(**kw):\n  pass\n", "t.py:1:7: error: variadic keyword parameters (`**kwargs`) are not supported"},
    {"def f(a, /):\n  pass\n", "t.py:1:10: error: positional-only parameter marker `/` is not supported"},

    // Syntax errors name what was expected and what was found.
    {"def f(x)\n    return x\n", "t.py:1:9: error: expected ':' after function parameters, found end of line"},
    {"def f(x) -> int\n    return x\n", "t.py:1:16: error: expected ':' after return annotation, found end of line"},
    {"if x\n    pass\n", "t.py:1:5: error: expected ':' after 'if' condition, found end of line"},
    {"if x = 1:\n    pass\n", "t.py:1:6: error: expected ':' after 'if' condition, found '='; use '==' to compare"},
    {"if x:\n    pass\nelif y\n    pass\n", "t.py:3:7: error: expected ':' after 'elif' condition, found end of line"},
    {"for i in range(3)\n    pass\n", "t.py:1:18: error: expected ':' after 'for' loop header, found end of line"},
    {"for x y:\n  pass\n", "t.py:1:7: error: expected 'in' after 'for' loop variable, found identifier 'y'"},
    {"x = 1 +\n", "t.py:1:8: error: expected expression after '+', found end of line"},
    {"x =\n", "t.py:1:4: error: expected expression after '=', found end of line"},
    {"x = y if z\n", "t.py:1:11: error: expected 'else' after condition in conditional expression, found end "
                     "of line"},
    {"x = 1 if y else\n", "t.py:1:16: error: expected expression after 'else', found end of line"},
    {"x = a.\n", "t.py:1:7: error: expected attribute name after '.', found end of line"},
    {"x = t[]\n", "t.py:1:7: error: expected index expression, found ']'"},
    {"x = f(,)\n", "t.py:1:7: error: expected an argument or ')', found ','"},
    {"print 'hi'\n", "t.py:1:7: error: expected end of line, found string literal"},
    {"x = 1 2\n", "t.py:1:7: error: expected end of line, found integer literal '2'"},
    {"@ct.kernel\nx = 1\n", "t.py:2:1: error: expected 'def' after decorator, found identifier 'x'"},
    {"@ct.kernel x\ndef f(): pass\n", "t.py:1:12: error: expected end of line after decorator, found identifier 'x'"},
    {"def (x):\n  pass\n", "t.py:1:5: error: expected function name after 'def', found '('"},
    {"def f x:\n  pass\n", "t.py:1:7: error: expected '(' after function name, found identifier 'x'"},
    {"def f(1):\n  pass\n", "t.py:1:7: error: expected parameter name, found integer literal '1'"},
    {"import\n", "t.py:1:7: error: expected module name after 'import', found end of line"},
    {"from x improt y\n", "t.py:1:8: error: expected 'import' after module name, found identifier 'improt'"},
    {"x = {'a' 1}\n", "t.py:1:10: error: expected ':' after dict key, found integer literal '1'"},
    {"elif x:\n  pass\n", "t.py:1:1: error: 'elif' without a matching 'if'"},
    {"else:\n  pass\n", "t.py:1:1: error: 'else' without a matching 'if' or 'for'"},
    {"except:\n  pass\n", "t.py:1:1: error: 'except' without a matching 'try'"},

    // Layout.
    {"for i in range(3):\nx = 1\n", "t.py:2:1: error: expected an indented block after 'for' statement on line 1"},
    {"def f():\n\n# comment\n", "t.py:4:1: error: expected an indented block after function "
                                "definition on line 1"},
    {"if x:\n  pass\nelse:\ny = 1\n", "t.py:4:1: error: expected an indented block after 'else' statement on line 3"},
    {"x = 1\n    y = 2\n", "t.py:2:5: error: unexpected indent"},

    // Checks that need the parsed expression.
    {"def f(a=1, b):\n    pass\n", "t.py:1:12: error: parameter without a default follows parameter with a default"},
    {"def f(a, a):\n    pass\n", "t.py:1:10: error: duplicate parameter 'a' in function definition"},
    {"f(a=1, b)\n", "t.py:1:8: error: positional argument follows keyword argument"},
    {"f(a=1, a=2)\n", "t.py:1:8: error: keyword argument repeated: 'a'"},
    {"f(a.b=1)\n", "t.py:1:6: error: invalid keyword argument: expected a name before '='"},
    {"f() = 3\n", "t.py:1:1: error: cannot assign to function call"},
    {"x, 1 = t\n", "t.py:1:4: error: cannot assign to literal"},
    {"a + b = c\n", "t.py:1:1: error: cannot assign to expression"},
    {"for 1 in x:\n  pass\n", "t.py:1:5: error: cannot assign to literal"},
    {"a, b += 1\n", "t.py:1:1: error: 'tuple' is an illegal expression for augmented assignment"},
    {"f() += 1\n", "t.py:1:1: error: 'function call' is an illegal expression for augmented assignment"},
    {"a, b: int = 1, 2\n", "t.py:1:1: error: only a single target (not a tuple) can be annotated"},
    {"x = 99999999999999999999\n", "t.py:1:5: error: integer literal is too large for a 64-bit signed integer"},
};

} // namespace

TEST_CASE("parser errors: exact first message and location", "[frontend][parser][errors]") {
  for (const ErrorCase &c : kErrorCases) {
    INFO("source: " << c.source);
    Parsed p(c.source);
    CHECK(p.firstError() == c.firstError);
    CHECK(p.diags.hasErrors());
  }
}

TEST_CASE("parser errors: full clang-style rendering with a note", "[frontend][parser][errors]") {
  Parsed p("x = (1 + 2\n"
           "y = 3\n");
  CHECK(p.errors() == "t.py:2:1: error: expected ',' or ')', found identifier 'y'\n"
                      "y = 3\n"
                      "^\n"
                      "t.py:1:5: note: to match this '('\n"
                      "x = (1 + 2\n"
                      "    ^\n"
                      "t.py:1:5: error: '(' was never closed\n"
                      "x = (1 + 2\n"
                      "    ^\n");
  Parsed q("def kernel(x):\n"
           "    while x > 0\n"
           "        x = x - 1\n");
  CHECK(q.headlines() == "t.py:2:16: error: expected ':' after 'while' condition, found end of line\n");
  Parsed r("t = ct.load(x, index=(i, j) shape=(2, 2))\n");
  CHECK(r.errors() == "t.py:1:29: error: expected ',' or ')' after argument, found identifier "
                      "'shape'\n"
                      "t = ct.load(x, index=(i, j) shape=(2, 2))\n"
                      "                            ^~~~~\n"
                      "t.py:1:12: note: to match this '('\n"
                      "t = ct.load(x, index=(i, j) shape=(2, 2))\n"
                      "           ^\n");
}

TEST_CASE("parser errors: recovery reports several errors in one run", "[frontend][parser][errors]") {
  Parsed p("import cuda.tile as ct\n"
           "\n"
           "@ct.kernel\n"
           "def f(x, TM: ct.Constant[int])\n"
           "    i = ct.bid(0)\n"
           "    return i\n"
           "\n"
           "@ct.kernel\n"
           "def g(x):\n"
           "    i = ct.bid(0) $\n"
           "    while i < 3:\n"
           "        i += \n"
           "    for j in range(4):\n"
           "        t = [k for k in x]\n"
           "    else:\n"
           "        pass\n"
           "    return t ** \n"
           "\n"
           "def h(y):\n"
           "    return y\n");
  CHECK(p.headlines() == "t.py:4:31: error: expected ':' after function parameters, found end of line\n"
                         "t.py:10:19: error: invalid character '$' (U+0024)\n"
                         "t.py:12:13: error: expected expression after '+=', found end of line\n"
                         "t.py:14:16: error: list comprehensions are not supported\n"
                         "t.py:15:5: error: `else` clauses on `for` loops are not supported\n"
                         "t.py:17:16: error: expected expression after '**', found end of line\n");
  // Everything that could be parsed is in the module.
  REQUIRE(p.module->functions().size() == 2);
  CHECK(p.module->functions()[0]->name == "g");
  CHECK(p.module->functions()[1]->name == "h");
  CHECK(p.module->functions()[1]->body.size() == 1);
  CHECK(p.diags.summary() == "6 errors generated.");
}

TEST_CASE("parser errors: a try statement is reported once", "[frontend][parser][errors]") {
  Parsed p("try:\n    x = 1\nexcept E as e:\n    pass\nelse:\n    pass\nfinally:\n    pass\n"
           "y = 2\n");
  CHECK(p.headlines() == "t.py:1:1: error: `try` statements are not supported\n");
  REQUIRE(p.module->body.size() == 1);
  CHECK(p.module->body[0]->isa<AssignStmt>());
}

TEST_CASE("parser errors: errors inside while loops are found", "[frontend][parser][errors]") {
  Parsed p("while x:\n    y = (1 +)\n");
  CHECK(p.headlines() == "t.py:2:13: error: expected expression after '+', found ')'\n");
}

TEST_CASE("parser: host code is set aside only with setAsideHostCode", "[frontend][parser][errors]") {
  const std::string text = "class C:\n    pass\n\ndef host(x):\n    raise ValueError()\n\n"
                           "@ct.kernel\ndef k(x):\n    y = [v for v in x]\n";
  Parsed all(text);
  CHECK(all.headlines() == "t.py:1:1: error: `class` definitions are not supported\n"
                           "t.py:5:5: error: `raise` statements are not supported\n"
                           "t.py:9:12: error: list comprehensions are not supported\n");
  Parsed host(text, DiagnosticEngine::kDefaultErrorLimit, hostFileOptions());
  // The kernel's error stays; the class and the raising function are set aside by name.
  CHECK(host.headlines() == "t.py:9:12: error: list comprehensions are not supported\n");
  REQUIRE(host.module->hostCode.size() == 2);
  CHECK(host.module->findHostCode("C") != nullptr);
  CHECK(host.module->findHostCode("host") != nullptr);
  CHECK(host.module->findHostCode("host")->diagnostics.front().message == "`raise` statements are not supported");
  CHECK(host.module->findHostCode("k") == nullptr);
}

TEST_CASE("parser errors: the error limit stops the parser", "[frontend][parser][errors]") {
  std::string source;
  for (int i = 0; i < 100; ++i)
    source += "x = (\ndef f(:\n";
  Parsed p(source, 5);
  CHECK(p.diags.numErrors() == 5);
  CHECK(p.diags.stopped());
  CHECK(p.headlines().substr(p.headlines().rfind("fatal")) == "fatal error: too many errors emitted, stopping now\n");
}

TEST_CASE("parser errors: nesting limits", "[frontend][parser][errors]") {
  ParseOptions small;
  small.maxNestingDepth = 10;
  small.maxBlockDepth = 3;
  small.maxExpressionDepth = 20;
  Parsed ok("x = ((((((((1))))))))\n", 20, small);
  CHECK(ok.errors().empty());
  Parsed deep("x = (((((((((((1)))))))))))\n", 20, small);
  CHECK(deep.headlines() == "t.py:1:15: error: expression nested too deeply\n");
  Parsed chain("x = 1" + std::string(30, '+') + "1\n", 20, small);
  // `1+++...` is a binary plus followed by nested unary pluses.
  CHECK(chain.firstError() == "t.py:1:16: error: expression nested too deeply");
  std::string sum = "x = 1";
  for (int i = 0; i < 30; ++i)
    sum += " + 1";
  Parsed longSum(sum + "\n", 20, small);
  CHECK(longSum.headlines() == "t.py:1:85: error: expression nested too deeply\n");
  Parsed blocks("if a:\n if b:\n  if c:\n   if d:\n    x = 1\ny = 2\n", 20, small);
  CHECK(blocks.headlines() == "t.py:5:5: error: too many levels of indentation\n");
  REQUIRE(blocks.module->body.size() == 2);
  CHECK(blocks.module->body[1]->isa<AssignStmt>());
}
