# Lists of arrays as kernel parameters (TileGym's group GEMM, NVIDIA's AllGatherMatmul): a list
# of N arrays of one dtype and rank is the parameters NAME[0] ... NAME[N-1]; in the kernel NAME
# is a tuple (len(NAME), NAME[i] with i known at compile time), and `for g in range(len(NAME))`
# is unrolled so that its g is.
#
# RUN: tile-cc %s --kernel total --const TILE=4 --arg xs=f32:1:list=2 --arg out=f32:1 --emit=tile -o - | FileCheck %s --check-prefix=IR
# IR: tile.kernel @total(%[[X0:.*]]: !tile.array<?xf32>, %[[X1:.*]]: !tile.array<?xf32>, %{{.*}}: !tile.array<?xf32>)
# IR: tile.load %[[X0]]
# IR: tile.load %[[X1]]
# IR-NOT: scf.for
#
# The interpreter, with the list's arrays given as NAME[i]: out = xs[0] * 1 + xs[1] * 2.
# RUN: tile-run %s --kernel total --const TILE=4 --grid 2 --array 'xs[0]=f32:8:iota' --array 'xs[1]=f32:8:ones' --array out=f32:8 --print out | FileCheck %s --check-prefix=OUT
# RUN: tile-run %s --kernel total --const TILE=4 --grid 2 --array 'xs[0]=f32:8:iota' --array out=f32:8 --print out | FileCheck %s --check-prefix=ONE
# RUN: not tile-run %s --kernel total --const TILE=4 --grid 2 --array out=f32:8 --print out 2>&1 | FileCheck %s --check-prefix=NOLIST
# RUN: tile-cc %s --kernel total --const TILE=4 --arg xs=f32:1:list=0 --arg out=f32:1 --emit=tile -o - | FileCheck %s --check-prefix=EMPTY
# RUN: tile-cc %s --kernel total --const TILE=4 --arg xs=f32:1:aligned:list=3 --arg out=f32:1 --emit=launcher -o %t.h && FileCheck %s --check-prefix=LAUNCHER --input-file %t.h
# RUN: tile-cc %s --kernel total --const TILE=4 --arg xs=f32:1:list=1 --arg out=f32:1 --emit=gpu -o - | FileCheck %s --check-prefix=METADATA
# RUN: not tile-cc %s --kernel pick --const TILE=4 --arg xs=f32:1:list=2 --arg out=f32:1 --arg i=i32:0 2>&1 | FileCheck %s --check-prefix=RUNTIME-INDEX
# RUN: not tile-cc %s --kernel total --const TILE=4 --arg xs=f32:0:list=2 --arg out=f32:1 2>&1 | FileCheck %s --check-prefix=SCALARS
# RUN: not tile-cc %s --kernel total --const TILE=4 --arg xs=f32:1:list=x --arg out=f32:1 2>&1 | FileCheck %s --check-prefix=COUNT
# RUN: not tile-run %s --kernel total --const TILE=4 --grid 1 --array 'xs[0]=f32:8:iota' --array 'xs[1]=i32:8:ones' --array out=f32:8 2>&1 | FileCheck %s --check-prefix=MIXED
# RUN: not tile-run %s --kernel total --const TILE=4 --grid 1 --array 'xs[0]=f32:8:iota' --array 'xs[2]=f32:8:ones' --array out=f32:8 2>&1 | FileCheck %s --check-prefix=GAP
#
# OUT: out: float32 (8,)
# OUT-NEXT: [2, 3, 4, 5, 6, 7, 8, 9]
# ONE: [0, 1, 2, 3, 4, 5, 6, 7]
# NOLIST: no --array or --scalar for parameter 'xs'
# EMPTY: tile.kernel @total(%{{.*}}: !tile.array<?xf32>
# EMPTY-NOT: tile.load
# LAUNCHER: const ::tile::rt::Arg &xs_0, const ::tile::rt::Arg &xs_1, const ::tile::rt::Arg &xs_2, const ::tile::rt::Arg &out
# METADATA: tile.params = [{dtype = "float32", kind = "array", name = "xs[0]", rank = 1 : i64}, {dtype = "float32", kind = "array", name = "out", rank = 1 : i64}]
# RUNTIME-INDEX: list_args.py:[[# @LINE + 20]]:36: error: a list of arrays is indexed by compile-time integers, got scalar i32 (a loop `for i in range(len(LIST))` is unrolled, so that its i is one)
# SCALARS: argument 'xs': a list holds arrays, not scalars (rank 0)
# COUNT: argument 'xs': list length 'x' is not an integer in [0, 256]
# MIXED: --array xs[1] is int32:1, but xs[0] is float32:1 (the arrays of a list share a dtype and rank)
# GAP: --array xs[1] is missing (the list xs has 2 arrays given, numbered from 0)
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def total(xs, out, TILE: ConstInt):
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for g in range(len(xs)):
        acc = acc + ct.load(xs[g], (ct.bid(0),), (TILE,), padding_mode=ct.PaddingMode.ZERO) * (g + 1)
    ct.store(out, (ct.bid(0),), acc)


@ct.kernel
def pick(xs, out, i: int, TILE: ConstInt):
    ct.store(out, (0,), ct.load(xs[i], (0,), (TILE,)))
