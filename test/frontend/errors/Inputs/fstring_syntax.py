# f-strings the parser refuses (test/frontend/fstrings.py runs this file).
import cuda.tile as ct


@ct.kernel
def k(x):
    # CHECK: fstring_syntax.py:[[@LINE+1]]:32: error: f-string: single '}' is not allowed
    ct.static_assert(True, f"a } b")
    # CHECK: fstring_syntax.py:[[@LINE+1]]:32: error: f-string: empty expression not allowed
    ct.static_assert(True, f"a {} b")
    # CHECK: fstring_syntax.py:[[@LINE+1]]:32: error: f-string: '=' (self-documenting fields) is not supported
    ct.static_assert(True, f"a {x=} b")
    # CHECK: fstring_syntax.py:[[@LINE+1]]:34: error: f-string: expected 'r', 's' or 'a' after '!'
    ct.static_assert(True, f"a {x!q} b")
    # CHECK: fstring_syntax.py:[[@LINE+1]]:32: error: f-string: expecting '}'
    ct.static_assert(True, f"a {x")
    # CHECK: fstring_syntax.py:[[@LINE+1]]:36: error: expected expression after '+', found end of line
    ct.static_assert(True, f"a {x +} b")
