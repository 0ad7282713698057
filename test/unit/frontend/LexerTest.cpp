// Lexer: tokens, literals, layout (NEWLINE/INDENT/DEDENT), continuation and lexical errors.
#include "test/unit/frontend/FrontendTestUtil.h"

#include <catch2/catch.hpp>

using namespace tile::frontend;
using namespace tile::frontend::test;

TEST_CASE("lexer: simple statement", "[frontend][lexer]") {
  CHECK(tokenKinds("x = 1 + 2") == "Identifier Equal Integer Plus Integer Newline");
  CHECK(tokenKinds("x = 1 + 2\n") == "Identifier Equal Integer Plus Integer Newline");
  CHECK(tokenKinds("") == "");
  CHECK(tokenKinds("\n\n   \n# only a comment\n") == "");
}

TEST_CASE("lexer: token text and locations", "[frontend][lexer]") {
  Lexed l("def f(a):\n    return a ** 2\n");
  REQUIRE(l.tokens.size() == 15);
  CHECK(l.tokens[0].is(TokenKind::kw_def));
  CHECK(l.tokens[1].text == "f");
  CHECK(l.where(1) == "1:5");
  CHECK(l.tokens[5].is(TokenKind::Colon));
  CHECK(l.tokens[6].is(TokenKind::Newline));
  CHECK(l.where(6) == "1:10");
  CHECK(l.tokens[7].is(TokenKind::Indent));
  CHECK(l.tokens[8].is(TokenKind::kw_return));
  CHECK(l.where(8) == "2:5");
  CHECK(l.tokens[10].is(TokenKind::StarStar));
  CHECK(l.tokens[10].text == "**");
  CHECK(l.where(10) == "2:14");
  CHECK(l.tokens[10].range.size() == 2);
  CHECK(l.tokens[12].is(TokenKind::Newline));
  CHECK(l.tokens[13].is(TokenKind::Dedent));
  CHECK_FALSE(l.diags.hasErrors());
}

TEST_CASE("lexer: keywords", "[frontend][lexer]") {
  CHECK(tokenKinds("def return if elif else for in while and or not is None True False") ==
        "kw_def kw_return kw_if kw_elif kw_else kw_for kw_in kw_while kw_and kw_or kw_not "
        "kw_is kw_None kw_True kw_False Newline");
  CHECK(tokenKinds("import from as pass break continue lambda class with try except") ==
        "kw_import kw_from kw_as kw_pass kw_break kw_continue kw_lambda kw_class kw_with "
        "kw_try kw_except Newline");
  CHECK(tokenKinds("finally raise global nonlocal yield del assert async await") ==
        "kw_finally kw_raise kw_global kw_nonlocal kw_yield kw_del kw_assert kw_async "
        "kw_await Newline");
  // Not keywords: soft keywords, different case, prefixes of keywords.
  CHECK(tokenKinds("match case type none true define _if") ==
        "Identifier Identifier Identifier Identifier Identifier Identifier Identifier Newline");
}

TEST_CASE("lexer: operators use the longest match", "[frontend][lexer]") {
  CHECK(tokenKinds("+ - * / // % ** @ & | ^ ~ << >>") ==
        "Plus Minus Star Slash SlashSlash Percent StarStar At Amp Pipe Caret Tilde LessLess "
        "GreaterGreater Newline");
  CHECK(tokenKinds("< > <= >= == != = -> := ... . , : ;") ==
        "Less Greater LessEqual GreaterEqual EqualEqual NotEqual Equal Arrow ColonEqual "
        "Ellipsis Dot Comma Colon Semicolon Newline");
  CHECK(tokenKinds("+= -= *= /= //= %= **= @= &= |= ^= <<= >>=") ==
        "PlusEqual MinusEqual StarEqual SlashEqual SlashSlashEqual PercentEqual StarStarEqual "
        "AtEqual AmpEqual PipeEqual CaretEqual LessLessEqual GreaterGreaterEqual Newline");
  CHECK(tokenKinds("a**-b") == "Identifier StarStar Minus Identifier Newline");
  CHECK(tokenKinds("x[..]") == "Identifier LSquare Dot Dot RSquare Newline");
  CHECK(tokenKinds("(){}[]") == "LParen RParen LBrace RBrace LSquare RSquare Newline");
}

TEST_CASE("lexer: decorators", "[frontend][lexer]") {
  CHECK(tokenKinds("@ct.kernel(occupancy=2)\ndef f(): pass\n") ==
        "At Identifier Dot Identifier LParen Identifier Equal Integer RParen Newline kw_def "
        "Identifier LParen RParen Colon kw_pass Newline");
}

TEST_CASE("lexer: integer literals", "[frontend][lexer]") {
  auto value = [](const std::string &text) {
    Lexed l(text);
    REQUIRE(l.tokens[0].is(TokenKind::Integer));
    CHECK_FALSE(l.diags.hasErrors());
    CHECK(l.tokens[0].text == text);
    return l.tokens[0].intValue;
  };
  CHECK(value("0") == 0);
  CHECK(value("00") == 0);
  CHECK(value("42") == 42);
  CHECK(value("1_000_000") == 1000000);
  CHECK(value("0x_ff") == 255);
  CHECK(value("0XdeadBEEF") == 0xdeadbeef);
  CHECK(value("0b1010") == 10);
  CHECK(value("0B1_1") == 3);
  CHECK(value("0o17") == 15);
  CHECK(value("9223372036854775807") == 9223372036854775807ull);
  CHECK(value("0xffffffffffffffff") == 0xffffffffffffffffull);

  Lexed big("18446744073709551616");
  CHECK(big.tokens[0].intOverflow);
  CHECK_FALSE(big.diags.hasErrors()); // the parser reports it where the value is used
}

TEST_CASE("lexer: float literals", "[frontend][lexer]") {
  auto value = [](const std::string &text) {
    Lexed l(text);
    REQUIRE(l.tokens[0].is(TokenKind::Float));
    CHECK(l.tokens[0].text == text);
    CHECK_FALSE(l.diags.hasErrors());
    return l.tokens[0].floatValue;
  };
  CHECK(value("1.0") == 1.0);
  CHECK(value("1e-3") == 1e-3);
  CHECK(value(".5") == 0.5);
  CHECK(value("1.") == 1.0);
  CHECK(value("1_0.2_5") == 10.25);
  CHECK(value("2.5E+2") == 250.0);
  CHECK(value("0.0") == 0.0);
  CHECK(value("00.5") == 0.5);
  CHECK(tokenKinds("1.e5 1..x") == "Float Float Dot Identifier Newline");
}

TEST_CASE("lexer: string literals", "[frontend][lexer]") {
  auto value = [](const std::string &text) {
    Lexed l(text);
    REQUIRE(l.tokens[0].is(TokenKind::String));
    CHECK(l.tokens[0].text == text);
    CHECK_FALSE(l.diags.hasErrors());
    return l.tokens[0].strValue;
  };
  CHECK(value("'abc'") == "abc");
  CHECK(value("\"x.dtype\"") == "x.dtype");
  CHECK(value("'it\\'s'") == "it's");
  CHECK(value("\"a\\n\\t\\\\b\"") == "a\n\t\\b");
  CHECK(value("'\\x41\\101\\0'") == std::string("AA\0", 3));
  CHECK(value("'\\u00e9'") == "\xC3\xA9");
  CHECK(value("'\\U0001F600'") == "\xF0\x9F\x98\x80");
  CHECK(value("'''a\n'b'\n\"\"'''") == "a\n'b'\n\"\"");
  CHECK(value("\"\"\"x\"\"\"") == "x");
  CHECK(value("r'a\\nb'") == "a\\nb");
  CHECK(value("R\"\\\"\"") == "\\\"");
  CHECK(value("'a\\\nb'") == "ab");
  CHECK(value("''") == "");

  Lexed prefixes("f'a' b'b' rb'c' Br'd' u'e' F\"g\"");
  REQUIRE(prefixes.tokens.size() == 8);
  CHECK(prefixes.tokens[0].strPrefix == StrPrefixFormat);
  CHECK(prefixes.tokens[1].strPrefix == StrPrefixBytes);
  CHECK(prefixes.tokens[2].strPrefix == (StrPrefixRaw | StrPrefixBytes));
  CHECK(prefixes.tokens[3].strPrefix == (StrPrefixRaw | StrPrefixBytes));
  CHECK(prefixes.tokens[4].strPrefix == StrPrefixUnicode);
  CHECK(prefixes.tokens[5].strPrefix == StrPrefixFormat);
  // Not prefixes: the identifier is a separate token.
  CHECK(tokenKinds("x'a' ur'b'") == "Identifier String Identifier String Newline");
}

TEST_CASE("lexer: indentation produces INDENT and DEDENT", "[frontend][lexer]") {
  const char *src = "if a:\n"
                    "    if b:\n"
                    "        x\n"
                    "\n"
                    "      # comment at another indentation\n"
                    "    y\n"
                    "z\n";
  CHECK(tokenKinds(src) == "kw_if Identifier Colon Newline Indent kw_if Identifier Colon Newline "
                           "Indent Identifier Newline Dedent Identifier Newline Dedent "
                           "Identifier Newline");
  // Several levels closed at once, and at end of file without a final newline.
  CHECK(tokenKinds("if a:\n if b:\n  x\ny") ==
        "kw_if Identifier Colon Newline Indent kw_if Identifier Colon Newline Indent "
        "Identifier Newline Dedent Dedent Identifier Newline");
  CHECK(tokenKinds("if a:\n  x") == "kw_if Identifier Colon Newline Indent Identifier Newline Dedent");
  // Tabs count to the next multiple of 8, consistently used.
  CHECK(tokenKinds("if a:\n\tx\n\ty\n") ==
        "kw_if Identifier Colon Newline Indent Identifier Newline Identifier Newline Dedent");
}

TEST_CASE("lexer: layout tokens' locations", "[frontend][lexer]") {
  Lexed l("if a:\n    x\ny");
  // if a : NL INDENT x NL DEDENT y NL(at EOF) EOF
  REQUIRE(l.tokens.size() == 11);
  CHECK(l.tokens[4].is(TokenKind::Indent));
  CHECK(l.where(4) == "2:1");
  CHECK(l.tokens[4].range.size() == 4);
  CHECK(l.tokens[7].is(TokenKind::Dedent));
  CHECK(l.where(7) == "3:1");
  CHECK(l.tokens[9].is(TokenKind::Newline));
  CHECK(l.tokens[9].range.size() == 0);
  CHECK(l.where(9) == "3:2");
}

TEST_CASE("lexer: line continuation", "[frontend][lexer]") {
  // Implicit inside brackets: no NEWLINE, no INDENT, comments and blank lines allowed.
  CHECK(tokenKinds("f(a,\n      b,  # comment\n\n  c)\nx\n") ==
        "Identifier LParen Identifier Comma Identifier Comma Identifier RParen Newline "
        "Identifier Newline");
  CHECK(tokenKinds("x = [\n1,\n]\n") == "Identifier Equal LSquare Integer Comma RSquare Newline");
  CHECK(tokenKinds("d = {\n  'a': 1}\n") == "Identifier Equal LBrace String Colon Integer RBrace Newline");
  // Explicit with a backslash.
  CHECK(tokenKinds("x = 1 + \\\n        2\ny\n") == "Identifier Equal Integer Plus Integer Newline Identifier Newline");
  CHECK(tokenKinds("x = 1 + \\\r\n  2\r\n") == "Identifier Equal Integer Plus Integer Newline");
}

TEST_CASE("lexer: CRLF and CR line endings", "[frontend][lexer]") {
  Lexed l("if a:\r\n    b\r\nc\rd\n");
  std::string kinds;
  for (const Token &t : l.tokens)
    kinds += std::string(tokenKindName(t.kind)) + " ";
  CHECK(kinds == "kw_if Identifier Colon Newline Indent Identifier Newline Dedent Identifier "
                 "Newline Identifier Newline EndOfFile ");
  CHECK(l.where(10) == "4:1");
  CHECK_FALSE(l.diags.hasErrors());
}

TEST_CASE("lexer: a byte order mark is skipped", "[frontend][lexer]") {
  CHECK(tokenKinds("\xEF\xBB\xBFx = 1\n") == "Identifier Equal Integer Newline");
}

TEST_CASE("lexer: errors have locations and lexing continues", "[frontend][lexer]") {
  auto errorsOf = [](const std::string &text) {
    Parsed p(text);
    return p.headlines();
  };
  CHECK(errorsOf("x = $ + 1\n") == "t.py:1:5: error: invalid character '$' (U+0024)\n");
  // One error for a run of invalid characters, and none from the parser right after it.
  CHECK(errorsOf("x = 1 ?? 2\n") == "t.py:1:7: error: invalid character '?' (U+003F)\n");
  CHECK(errorsOf("x = a ! b\n") == "t.py:1:7: error: invalid character '!' (U+0021)\n");
  CHECK(errorsOf("x = $\ny = 1 +\n") == "t.py:1:5: error: invalid character '$' (U+0024)\n"
                                        "t.py:2:8: error: expected expression after '+', found end of line\n");
  CHECK(errorsOf("x = \xE2\x82\xAC\n") == "t.py:1:5: error: invalid character '\xE2\x82\xAC' "
                                          "(U+20AC)\n");
  CHECK(errorsOf("x = 1\x01\n") == "t.py:1:6: error: invalid non-printable character U+0001\n");
  CHECK(errorsOf("x = 1\xFF\n") == "t.py:1:6: error: invalid UTF-8 byte 0xFF in source\n");
  CHECK(errorsOf("s = 'abc\nt = 1\n") == "t.py:1:5: error: unterminated string literal\n");
  CHECK(errorsOf("s = '''abc\nt = 1\n") == "t.py:1:5: error: unterminated triple-quoted string literal\n");
  CHECK(errorsOf("x = 0123\n") ==
        "t.py:1:5: error: leading zeros in decimal integer literals are not permitted; use an "
        "0o prefix for octal integers\n");
  CHECK(errorsOf("x = 0x\n") == "t.py:1:5: error: invalid hexadecimal literal\n");
  CHECK(errorsOf("x = 0b102\n") == "t.py:1:5: error: invalid digit '2' in binary literal\n");
  CHECK(errorsOf("x = 0o8\n") == "t.py:1:5: error: invalid digit '8' in octal literal\n");
  CHECK(errorsOf("x = 1abc\n") == "t.py:1:5: error: invalid decimal literal\n");
  CHECK(errorsOf("x = 1__0\n") == "t.py:1:5: error: invalid decimal literal\n");
  CHECK(errorsOf("x = 1_\n") == "t.py:1:5: error: invalid decimal literal\n");
  CHECK(errorsOf("x = 2j\n") == "t.py:1:5: error: complex literals are not supported\n");
  CHECK(errorsOf("x = 1e999\n") == "t.py:1:5: error: floating-point literal is out of range\n");
  CHECK(errorsOf("x = '\\x4'\n") == "t.py:1:6: error: invalid '\\x' escape: expected 2 hex digits\n");
  CHECK(errorsOf("x = '\\N{DASH}'\n") == "t.py:1:6: error: '\\N{...}' escapes are not supported\n");
  CHECK(errorsOf("x = '\\q'\n") == "t.py:1:6: warning: invalid escape sequence '\\q'\n");
  CHECK(errorsOf("x = 1 + \\ 2\n") == "t.py:1:9: error: unexpected character after line continuation character\n");
  CHECK(errorsOf("x = 1)\n") == "t.py:1:6: error: unmatched ')'\n");
  CHECK(errorsOf("x = f(a]\n") == "t.py:1:8: error: closing parenthesis ']' does not match opening parenthesis '('\n");
  CHECK(errorsOf("x = f(a,\n") == "t.py:1:6: error: '(' was never closed\n");
}

TEST_CASE("lexer: indentation errors", "[frontend][lexer]") {
  Parsed dedent("if a:\n    x = 1\n  y = 2\n");
  CHECK(dedent.headlines() == "t.py:3:3: error: unindent does not match any outer indentation level\n");
  // Python's rule: a tab and eight spaces are ambiguous when compared with one space.
  Parsed tabs("if a:\n        x = 1\n\ty = 2\n");
  CHECK(tabs.headlines() == "t.py:3:1: error: inconsistent use of tabs and spaces in indentation\n");
  Parsed tabs2("if a:\n        if b:\n\t x = 1\n");
  CHECK(tabs2.headlines() == "t.py:3:1: error: inconsistent use of tabs and spaces in indentation\n");
}

TEST_CASE("lexer: an unclosed bracket is reported before the next definition", "[frontend][lexer]") {
  Parsed p("def f(x):\n"
           "    return g(x\n"
           "def h(y):\n"
           "    return y +\n");
  CHECK(p.headlines() == "t.py:2:13: error: '(' was never closed\n"
                         "t.py:4:15: error: expected expression after '+', found end of line\n");
  // h was still parsed.
  CHECK(p.module->findFunction("h") != nullptr);
}
