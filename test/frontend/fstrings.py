# f-strings in kernels (TileGym's ct.static_assert messages): each field a compile-time value,
# converted and formatted as Python does ([[fill]align][sign][0][width][,][.precision][type]).
# RUN: not tile-cc %s --kernel k --const N=3 --const M=4 --arg x=f32:1 2>&1 | FileCheck %s
# RUN: tile-cc %s --kernel k --const N=4 --const M=4 --arg x=f32:1 --emit=tile -o /dev/null
# RUN: not tile-cc %s --kernel bad --arg x=f32:1 --error-limit 0 2>&1 | FileCheck %s --check-prefix=BAD
# The parser's errors, each at its place in the string:
# RUN: not tile-cc %S/errors/Inputs/fstring_syntax.py --kernel k --arg x=f32:1 --error-limit 0 2>&1 | FileCheck %S/errors/Inputs/fstring_syntax.py
import cuda.tile as ct


@ct.kernel
def k(x, N: ct.Constant[int], M: ct.Constant[int]):
    # CHECK: fstrings.py:[[@LINE+2]]:9: error: static assertion failed: N == M, got 3 vs 4 (0.750, [    3|4   |   3   |00004], 3,000,000 float32 's' 0.30000000000000004 1e-05 a {braces} True None
    ct.static_assert(
        N == M, f"N == M, got {N} vs {M} ({N / M:.3f}, [{N:>5}|{M:<4}|{N:^7}|{M:05d}], {N * 1000000:,} "
        f"{x.dtype} {'s'!r} {0.1 + 0.2} {1e-5} {N + 7:x} {{braces}} {N < M} {None}")
    ct.store(x, (0,), ct.zeros((4,), dtype=ct.float32))


@ct.kernel
def bad(x):
    t = ct.load(x, (0,), (4,))
    # BAD: fstrings.py:[[@LINE+1]]:32: error: f-string fields must be known at compile time, got tile<4xf32> (print run-time values as print() arguments)
    ct.static_assert(False, f"{t}")
    # BAD: fstrings.py:[[@LINE+1]]:32: error: f-string: format spec '.2f' does not apply to string "x"
    ct.static_assert(False, f"{'x':.2f}")
