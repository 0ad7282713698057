# The PTX of reductions and scans: butterfly shuffles for a row reduction, shfl.sync.up (and
# down when reversed) for a row scan, shared memory only where warps meet.
# RUN: tile-cc %s --kernel rows --arg x=f32:2 --arg y=f32:2 --arg m=i32:1 --emit=ptx | FileCheck %s
# RUN: tile-cc %s --kernel cols --arg x=f32:2 --arg y=f32:1 --emit=ptx | FileCheck %s --check-prefix=COLS
# Without --emit, for compile-all.mlir (ptxas for sm_80 and sm_90a):
# RUN: tile-cc %s --kernel rows --arg x=bf16:2 --arg y=bf16:2 --arg m=i32:1 | FileCheck %s --check-prefix=IR
# RUN: tile-cc %s --kernel cols --arg x=f64:2 --arg y=f64:1 | FileCheck %s --check-prefix=IR
import cuda.tile as ct


@ct.kernel
def rows(x, y, m):
    t = ct.load(x, (ct.bid(0), 0), (16, 64), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(m, (ct.bid(0),), ct.argmax(t, axis=1))
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, (ct.bid(0), 0), ct.cumsum(e, axis=1) + ct.cumsum(e, axis=1, reverse=True))


@ct.kernel
def cols(x, y):
    t = ct.load(x, (0, ct.bid(0)), (64, 32), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (ct.bid(0),), ct.sum(t, axis=0))

# CHECK: .visible .entry rows__tile(
# CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
# CHECK: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
# CHECK: shfl.sync.up.b32 {{.*}}, 1, 0, -1;
# CHECK: shfl.sync.up.b32 {{.*}}, 2, 0, -1;
# CHECK: shfl.sync.up.b32 {{.*}}, 4, 0, -1;
# CHECK: shfl.sync.down.b32 {{.*}}, 1, 31, -1;
# CHECK: shfl.sync.down.b32 {{.*}}, 2, 31, -1;
# CHECK: shfl.sync.down.b32 {{.*}}, 4, 31, -1;
# CHECK: st.global

# IR: tile.reduce

# Columns of 64x32: lane offsets 4, 8, 16, then the warps' partials through shared memory.
# COLS: .visible .entry cols__tile(
# COLS: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
# COLS: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
# COLS: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
# COLS: bar.sync 0;
# COLS: st.shared.b32
# COLS: bar.sync 0;
# COLS: ld.shared.b32
