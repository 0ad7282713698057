# A tile store checks once, uniformly, whether the tile lies wholly inside the array (each
# dimension's start and end against its extent, unsigned: a negative start is outside); inside,
# every run is one vector store with no bounds check of its own, and only a tile at a ragged
# edge takes the per-run checks (an element at a time where a run leaves the array).
# An array without the aligned facts adds a run-time check that its runs are aligned for
# vectors; a tile inside a strided view (unit stride not promised, e.g. a transposed view) then
# stores element by element, still without bounds checks.
# RUN: tile-cc %s --kernel k --arg x=f32:2:aligned --arg y=f32:2:aligned --emit=gpu | FileCheck %s
# RUN: tile-cc %s --kernel k --arg x=f32:2:aligned --arg y=f32:2 --emit=gpu | FileCheck %s --check-prefix=STRIDED
import cuda.tile as ct


@ct.kernel
def k(x, y):
    ct.store(y, (ct.bid(0), 0), ct.load(x, (ct.bid(0), 0), (16, 64)) * 2.0)

# CHECK: arith.cmpi ule, %{{[0-9]+}}, %arg6 : i64
# CHECK: arith.cmpi uge, %arg7, %c64_i64 : i64
# CHECK: scf.if %{{[0-9]+}} {
# CHECK-NOT: arith.cmpi
# CHECK: llvm.store %{{[0-9]+}}, %{{[0-9]+}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
# CHECK-NOT: arith.cmpi
# CHECK: llvm.store %{{[0-9]+}}, %{{[0-9]+}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
# CHECK-NEXT: } else {
# CHECK-NEXT: arith.cmpi ult, %{{[0-9]+}}, %arg6 : i64
# CHECK-NEXT: arith.cmpi ult, %{{[0-9]+}}, %arg7 : i64

# STRIDED: llvm.store %{{[0-9]+}}, %{{[0-9]+}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
# STRIDED: } else {
# STRIDED-NEXT: scf.if %{{[0-9]+}} {
# STRIDED-NOT: arith.cmpi
# STRIDED-COUNT-8: llvm.store %{{[0-9]+}}, %{{[0-9]+}} : f32, !llvm.ptr<1>
# STRIDED-NEXT: } else {
