// Robustness: no input may crash, hang or exhaust the stack. Garbage, truncated kernels and
// pathological nesting all end with diagnostics, in bounded time.
#include "test/unit/frontend/FrontendTestUtil.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <random>

using namespace tile::frontend;
using namespace tile::frontend::test;

namespace {

const char *kKernel = R"(import cuda.tile as ct

@ct.autotune(configs=[dict(BLOCK=64, occupancy=2), dict(BLOCK=128)], key=["n"])
@ct.kernel(occupancy=2)
def softmax(x, out, n: int, BLOCK: ct.Constant[int]):
    """Row softmax."""
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, BLOCK), padding_mode=ct.PaddingMode.NEG_INF)
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    s = ct.sum(e, axis=1, keepdims=True)
    if BLOCK >= 128 and n % 2 == 0:
        e = e * (1.0 / s)
    elif not BLOCK < 64:
        e /= s
    else:
        e = e[:, ::1] / s[..., None] ** -1
    for i in range(0, ct.cdiv(n, BLOCK), 1):
        acc: ct.float32 = 0.0
        a, b = i, i + 1
    ct.store(out, index=(row, 0), tile=e.astype(out.dtype))

@ct.function
def helper(a, b=0x1F, *, c=1e-3) -> int:
    return a if b != c else -a
)";

/// Parses `text` and exercises everything that consumes the result: the AST dump, the
/// S-expressions and the diagnostic rendering.
bool parseAndRender(const std::string &text, unsigned errorLimit = 20) {
  Parsed p(text, errorLimit);
  std::string dump = p.ast(true);
  for (const StmtPtr &s : p.module->body)
    if (const auto *e = s->dynCast<ExprStmt>())
      (void)toSExpr(*e->value);
  std::string rendered = p.errors();
  (void)dump;
  (void)rendered;
  return p.diags.hasErrors();
}

struct Timer {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};

} // namespace

TEST_CASE("robustness: the reference kernel parses cleanly", "[frontend][robustness]") {
  Parsed p(kKernel);
  CHECK(p.errors() == "t.py:24:23: error: keyword-only parameter marker `*` is not supported\n"
                      "def helper(a, b=0x1F, *, c=1e-3) -> int:\n"
                      "                      ^\n");
  CHECK(p.module->functions().size() == 2);
}

TEST_CASE("robustness: every prefix of a kernel", "[frontend][robustness]") {
  Timer timer;
  const std::string kernel = kKernel;
  size_t withErrors = 0;
  for (size_t n = 0; n <= kernel.size(); ++n)
    withErrors += parseAndRender(kernel.substr(0, n));
  // Most prefixes end inside a statement or bracket; all of them must come back.
  CHECK(withErrors > kernel.size() / 2);
  // A prefix cut inside the call is an error.
  CHECK(parseAndRender(kernel.substr(0, kernel.find("keepdims=True)"))));
  CHECK(timer.seconds() < 60);
}

TEST_CASE("robustness: kernels with one byte changed or removed", "[frontend][robustness]") {
  Timer timer;
  const std::string kernel = kKernel;
  std::mt19937 rng(1234);
  const char replacements[] = "()[]{}:,.=+-*/\\'\"#@ \t\n\x01\xff"
                              "0aZ_";
  for (size_t i = 0; i < kernel.size(); i += 3) {
    std::string removed = kernel;
    removed.erase(i, 1);
    parseAndRender(removed);
    std::string changed = kernel;
    changed[i] = replacements[rng() % (sizeof replacements - 1)];
    parseAndRender(changed);
  }
  CHECK(timer.seconds() < 60);
}

TEST_CASE("robustness: random bytes", "[frontend][robustness]") {
  Timer timer;
  std::mt19937 rng(42);
  for (int i = 0; i < 2000; ++i) {
    std::string text(rng() % 200, '\0');
    for (char &c : text)
      c = static_cast<char>(rng() & 0xFF);
    INFO("input " << i);
    parseAndRender(text);
    // A leading invalid byte (not inside a comment or string) makes any input wrong.
    CHECK(parseAndRender("\x01" + text));
  }
  CHECK(timer.seconds() < 60);
}

TEST_CASE("robustness: random token soup", "[frontend][robustness]") {
  Timer timer;
  static const char *const pieces[] = {"(",     ")",      "[",    "]",    "{",     "}",     ":",     ",",      ".",
                                       "...",   "=",      "==",   "+",    "-",     "*",     "**",    "/",      "//",
                                       "@",     "->",     ":=",   "+=",   "<",     "not",   "in",    "is",     "and",
                                       "or",    "if",     "else", "elif", "for",   "while", "def",   "return", "lambda",
                                       "class", "import", "from", "as",   "yield", "await", "async", "try",    "with",
                                       "pass",  "None",   "True", "x",    "ct",    "1",     "0x1",   "1.5",    "1e",
                                       "'s'",   "f'x'",   "'''",  "\"",   "#c",    "\\",    "\n",    "\n    ", "\n  ",
                                       "\n\t",  " ",      ";",    "*",    "$",     "\r\n"};
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    std::string text;
    size_t n = rng() % 60;
    for (size_t k = 0; k < n; ++k) {
      text += pieces[rng() % (sizeof pieces / sizeof pieces[0])];
      if (rng() % 2)
        text += ' ';
    }
    INFO("input " << i << ": " << text);
    parseAndRender(text);
  }
  CHECK(timer.seconds() < 60);
}

TEST_CASE("robustness: pathological nesting is diagnosed, not crashed on", "[frontend][robustness]") {
  Timer timer;
  auto rep = [](const std::string &s, size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (size_t i = 0; i < n; ++i)
      out += s;
    return out;
  };
  const size_t n = 100000;
  const std::string tooDeep = "error: expression nested too deeply";
  struct Case {
    std::string text;
    const char *expected;
  };
  const Case cases[] = {
      {"x = " + rep("(", n) + "1" + rep(")", n) + "\n", "expression nested too deeply"},
      {"x = " + rep("(", n) + "\n", "expression nested too deeply"},
      {"x = " + rep("[", n) + "\n", "expression nested too deeply"},
      {"x = " + rep("{", n) + "\n", "expression nested too deeply"},
      {"x = " + rep("f(", n) + "\n", "expression nested too deeply"},
      {"x = a" + rep("[b", n) + "\n", "expression nested too deeply"},
      {"x = " + rep("-", n) + "1\n", "expression nested too deeply"},
      {"x = " + rep("not ", n) + "a\n", "expression nested too deeply"},
      {"x = " + rep("2**", n) + "2\n", "expression nested too deeply"},
      {"x = " + rep("a if b else ", n) + "c\n", "expression nested too deeply"},
      {"x = " + rep("await ", n) + "c\n", "`await` expressions are not supported"},
      {"x = " + rep("lambda: ", n) + "c\n", "`lambda` expressions are not supported"},
      {"x = " + rep("yield ", n) + "c\n", "`yield` expressions are not supported"},
      {"x = 1" + rep(" + 1", n) + "\n", "expression nested too deeply"},
      {"x = a" + rep(".b", n) + "\n", "expression nested too deeply"},
      {"x = a" + rep("()", n) + "\n", "expression nested too deeply"},
      {"x = " + rep("(1, ", n) + "\n", "expression nested too deeply"},
      {rep("@", n) + "\n", "expected decorator expression after '@', found '@'"},
      {"x = " + rep("1 < ", n) + "1\n", nullptr},                      // a flat chain: fine
      {"x = " + rep("1, ", n) + "1\n", nullptr},                       // a flat tuple: fine
      {"x = " + rep("'s' ", n) + "\n", nullptr},                       // string concatenation: fine
      {"x = " + rep("a and ", n) + "b\n", nullptr},                    // a flat BoolOp: fine
      {rep("x = 1\n", n), nullptr},                                    // many statements: fine
      {"if a:\n  pass\n" + rep("elif b:\n  pass\n", n / 10), nullptr}, // elif chains stay flat
  };
  for (const Case &c : cases) {
    INFO("case starting " << c.text.substr(0, 40));
    Parsed p(c.text);
    if (c.expected) {
      CHECK(p.headlines().find(c.expected) != std::string::npos);
    } else {
      CHECK(p.errors().empty());
    }
    (void)p.ast(true);
  }

  // Deeply indented blocks.
  std::string blocks;
  for (int i = 0; i < 1000; ++i)
    blocks += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  blocks += std::string(1000, ' ') + "pass\ny = 1\n";
  Parsed p(blocks);
  CHECK(p.headlines() == "t.py:102:102: error: too many levels of indentation\n");
  REQUIRE(p.module->body.size() == 2);
  CHECK(p.module->body[1]->isa<AssignStmt>());

  CHECK(timer.seconds() < 60);
}
