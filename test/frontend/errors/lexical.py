# Malformed source: bad tokens, brackets that do not match, incomplete statements. The lexer
# and parser recover at the end of each line, so every error is reported in one run.
# RUN: not tile-cc %s --kernel k --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ERR --strict-whitespace
import cuda.tile as ct


@ct.kernel
def k(x):
    # ERR: {{.*}}lexical.py:[[@LINE+3]]:11: error: invalid character '$' (U+0024)
    # ERR-NEXT: {{^}}    a = 1 $ 2
    # ERR-NEXT: {{^}}          ^
    a = 1 $ 2
    # ERR: {{.*}}lexical.py:[[@LINE+3]]:9: error: unterminated string literal
    # ERR-NEXT: {{^}}    b = "abc
    # ERR-NEXT: {{^}}        ^~~~
    b = "abc
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:9: error: invalid hexadecimal literal
    c = 0x
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:9: error: invalid decimal literal
    d = 1__0
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:9: error: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers
    e = 08
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:9: error: integer literal is too large for a 64-bit signed integer
    f = 99999999999999999999
    # ERR: {{.*}}lexical.py:[[@LINE+6]]:14: error: closing parenthesis ']' does not match opening parenthesis '('
    # ERR-NEXT: {{^}}    g = (1, 2]
    # ERR-NEXT: {{^}}             ^
    # ERR: {{.*}}lexical.py:[[@LINE+3]]:9: note: opening parenthesis is here
    # ERR-NEXT: {{^}}    g = (1, 2]
    # ERR-NEXT: {{^}}        ^
    g = (1, 2]
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:11: error: expected attribute name after '.', found end of line
    h = x.
    # ERR: {{.*}}lexical.py:[[@LINE+3]]:13: error: expected ':' after 'if' condition, found end of line
    # ERR-NEXT: {{^}}    if a > 0
    # ERR-NEXT: {{^}}            ^
    if a > 0
        pass
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:12: error: expected expression after '+', found end of line
    i = 1 +
    # ERR: {{.*}}lexical.py:[[@LINE+3]]:44: error: unmatched ')'
    # ERR-NEXT: {{^}}    j = ct.load(x, index=(0,), shape=(16,)))
    # ERR-NEXT: {{^}}                                           ^
    j = ct.load(x, index=(0,), shape=(16,)))
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:32: error: positional argument follows keyword argument
    k = ct.load(x, index=(0,), 16)
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:32: error: keyword argument repeated: 'index'
    l = ct.load(x, index=(0,), index=(1,))
    # ERR: {{.*}}lexical.py:[[@LINE+2]]:31: error: expected ',' or ')' after argument, found identifier 'shape'
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:16: note: to match this '('
    m = ct.load(x, index=(0,) shape=(16,))
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:5: error: cannot assign to literal
    1 = m
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:23: error: expected ':' after 'for' loop header, found 'pass'
    for i in range(4) pass
    # ERR: {{.*}}lexical.py:[[@LINE+1]]:5: error: 'elif' without a matching 'if'
    elif a:
        pass
    # ERR: {{.*}}lexical.py:[[@LINE+3]]:16: error: '(' was never closed
    # ERR-NEXT: {{^}}    n = ct.load(x, index=(0,), shape=(16,)
    # ERR-NEXT: {{^}}               ^
    n = ct.load(x, index=(0,), shape=(16,)
# ERR: 18 errors generated.


def after_unclosed():
    pass
