# Indentation errors, reported by the lexer and parser in one run: an unexpected indent, a
# dedent to a column no enclosing block uses, a missing block, and tabs mixed with spaces
# (the line below the tab check is indented with one tab).
# RUN: not tile-cc %s --kernel k --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=ERR --strict-whitespace
import cuda.tile as ct


@ct.kernel
def k(x):
    a = 1
    # ERR: {{.*}}indentation.py:[[@LINE+3]]:9: error: unexpected indent
    # ERR-NEXT: {{^}}        b = 2
    # ERR-NEXT: {{^}}        ^
        b = 2
    c = 3
    if a:
        d = 1
    # ERR: {{.*}}indentation.py:[[@LINE+3]]:7: error: unindent does not match any outer indentation level
    # ERR-NEXT: {{^}}      e = 2
    # ERR-NEXT: {{^}}      ^
      e = 2
    for i in range(3):
    # ERR: {{.*}}indentation.py:[[@LINE+3]]:5: error: expected an indented block after 'for' statement on line [[@LINE-1]]
    # ERR-NEXT: {{^}}    pass
    # ERR-NEXT: {{^}}    ^
    pass
    if a:
    # ERR: {{.*}}indentation.py:[[@LINE+3]]:1: error: inconsistent use of tabs and spaces in indentation
    # ERR-NEXT: {{^}}	f = 1
    # ERR-NEXT: {{^}}^
	f = 1
    g = 4
    if a:
        pass
    else:
    # ERR: {{.*}}indentation.py:[[@LINE+1]]:5: error: expected an indented block after 'else' statement on line [[@LINE-1]]
    h = 5


@ct.function
def no_body(x):
# ERR: {{.*}}indentation.py:[[@LINE+1]]:1: error: expected an indented block after function definition on line [[@LINE-1]]
@ct.function
def last(x):
    return x
# ERR: 6 errors generated.
