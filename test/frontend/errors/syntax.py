# Python constructs outside the kernel language are named and pointed at. The parser reports
# every one of them in a single run, then semantic analysis does not start.
# RUN: not tile-cc %s --kernel unsupported --arg x=f32:1 --arg n=i32:0 2>&1 | FileCheck %s --check-prefix=ERR --strict-whitespace
# After --error-limit errors the compiler stops with a fatal error.
# RUN: not tile-cc %s --kernel unsupported --arg x=f32:1 --arg n=i32:0 --error-limit=2 2>&1 | FileCheck %s --check-prefix=LIMIT
import cuda.tile as ct


@ct.kernel
def unsupported(x, n: int):
    i = 0
    # ERR: {{.*}}syntax.py:[[@LINE+3]]:9: error: `lambda` expressions are not supported
    # ERR-NEXT: {{^}}    f = lambda v: v + 1
    # ERR-NEXT: {{^}}        ^~~~~~
    f = lambda v: v + 1
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:5: error: `with` statements are not supported
    with open(x) as fh:
        pass
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:5: error: `try` statements are not supported
    try:
        pass
    except Exception:
        pass
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:12: error: list comprehensions are not supported
    s = [v for v in range(4)]
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:13: error: f-string: expected 'r', 's' or 'a' after '!'
    m = f"{n!q}"
    # ERR: {{.*}}syntax.py:[[@LINE+3]]:11: error: walrus operator `:=` is not supported
    # ERR-NEXT: {{^}}    if (y := n) > 0:
    # ERR-NEXT: {{^}}          ^~
    if (y := n) > 0:
        pass
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:17: error: starred arguments are not supported
    t = ct.load(*x)
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:20: error: keyword argument unpacking (`**`) is not supported
    u = ct.load(x, **n)
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:5: error: `global` statements are not supported
    global g
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:5: error: `del` statements are not supported
    del i
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:5: error: `raise` statements are not supported
    raise ValueError()
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:9: error: set literals are not supported
    u = {1, 2}
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:12: error: generator expressions are not supported
    z = (v for v in range(4))
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:5: error: `yield` expressions are not supported
    yield n
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:15: error: dict comprehensions are not supported
    d = {k: v for k, v in x}
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:5: error: `async` functions are not supported
    async def h():
        pass
    # ERR: {{.*}}syntax.py:[[@LINE+1]]:9: error: bytes literals are not supported
    a = b"xy"


# Host code (a class here) that no kernel uses is set aside without an error (host_code.py).
class C:
    pass
# ERR-NOT: class
# ERR: 17 errors generated.

# LIMIT: {{.*}}syntax.py:[[@LINE-49]]:9: error: `lambda` expressions are not supported
# LIMIT: {{.*}}syntax.py:[[@LINE-48]]:5: error: `with` statements are not supported
# LIMIT: fatal error: too many errors emitted, stopping now
# LIMIT: 2 errors generated.
