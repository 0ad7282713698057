# Kernels written the way NVIDIA's cuTile samples and TileGym write them (in our own words):
# numpy dtypes and -np.inf, ct.Constant aliases, torch annotations, plain helpers taking
# constants, a persistent loop with a run-time step, a 0-d load, ct.ByTarget, named operators
# with flush_to_zero/rounding_mode. Each compiles to PTX; the interpreter checks two of them.
# RUN: tile-cc %s --kernel persistent_rows --const TILE=32 --const KIND=0 --arg x=f32:2 --arg out=f32:2 --emit=gpu | FileCheck %s --check-prefix=PERSIST
# RUN: tile-cc %s --kernel persistent_rows --const TILE=32 --const KIND=1 --arg x=f32:2 --arg out=f32:2 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: tile-cc %s --kernel online_softmax --const TILE_M=16 --const TILE_N=16 --arg s=f32:2 --arg out=f32:2 --arg scale=f32:0 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: tile-cc %s --kernel routed --const TILE=16 --arg ids=i32:1 --arg x=f16:2 --arg out=f16:2 --emit=ptx | FileCheck %s --check-prefix=PTX
# RUN: tile-cc %s --kernel matmul --const tm=64 --const tn=64 --const tk=32 --arg A=f32:2 --arg B=f32:2 --arg C=f32:2 --emit=ptx 2>&1 | FileCheck %s --check-prefix=MATMUL
# RUN: tile-run %s --kernel persistent_rows --grid 2 --const TILE=4 --const KIND=1 --array x=f32:3x4:iota --array out=f32:3x4 --print out | FileCheck %s --check-prefix=ROWS
# RUN: tile-run %s --kernel online_softmax --const TILE_M=2 --const TILE_N=2 --array s=f32:2x4:zeros --array out=f32:2x4 --scalar scale=f32:1 --print out | FileCheck %s --check-prefix=SOFTMAX
import math

import cuda.tile as ct
import numpy as np
import torch
from cuda.tile import RoundingMode as RMd

ConstInt = ct.Constant[int]
INV_LN2 = 1.0 / math.log(2)


def _row(kind, x, out, row, TILE: ct.Constant[int]):
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
    if kind == 0:
        t = ct.mul(t, 2.0, flush_to_zero=True)
    else:
        t = ct.add(t, 1.0)
    ct.store(out, index=(row, 0), tile=t)


def _rows(kind, x, out, TILE):
    for row in range(ct.bid(0), x.shape[0], ct.num_blocks(0)):
        _row(kind, x, out, row, TILE)


# PERSIST: scf.for
# PERSIST: arith.mulf
# PTX: .visible .entry
# ROWS: {{\[\[}}1, 2, 3, 4],
# ROWS: [5, 6, 7, 8],
# ROWS: [9, 10, 11, 12]]
@ct.kernel
def persistent_rows(x: torch.Tensor, out: torch.Tensor, TILE: ConstInt, KIND: ConstInt) -> None:
    _rows(KIND, x, out, TILE)


# Softmax over rows, one column tile at a time with a running max (as flash attention does):
# zeros in, 1/4 everywhere out.
# SOFTMAX: [0.25, 0.25, 0.25, 0.25],
# SOFTMAX: [0.25, 0.25, 0.25, 0.25]]
@ct.kernel(occupancy=2)
def online_softmax(s, out, scale: float, TILE_M: ConstInt, TILE_N: ConstInt):
    m_i = ct.full((TILE_M, 1), -np.inf, dtype=np.float32)
    l_i = ct.full((TILE_M, 1), 0.0, dtype=np.float32)
    n_tiles = ct.cdiv(s.shape[1], TILE_N)
    qk_scale = scale * INV_LN2
    for j in range(0, n_tiles):
        qk = ct.load(s, index=(ct.bid(0), j), shape=(TILE_M, TILE_N), padding_mode=ct.PaddingMode.NEG_INF)
        m_ij = max(m_i, ct.max(qk, axis=-1, keepdims=True) * qk_scale)
        p = ct.exp2(qk * qk_scale - m_ij, flush_to_zero=True)
        alpha = ct.exp2(m_i - m_ij, flush_to_zero=True)
        l_i = l_i * alpha + ct.sum(p, axis=-1, keepdims=True)
        m_i = m_ij
    for j in range(0, n_tiles):
        qk = ct.load(s, index=(ct.bid(0), j), shape=(TILE_M, TILE_N), padding_mode=ct.PaddingMode.NEG_INF)
        p = ct.exp2(qk * qk_scale - m_i, flush_to_zero=True)
        ct.store(out, index=(ct.bid(0), j), tile=ct.truediv(p, l_i, flush_to_zero=True, rounding_mode=RMd.APPROX))


@ct.kernel
def routed(ids, x, out, TILE: ConstInt):
    which = ct.load(ids, index=ct.bid(0), shape=())
    cols = ct.arange(TILE, dtype=np.int32)
    rows = ct.full((TILE,), 0, dtype=np.int32) + which
    ct.scatter(out, (rows[:, None] * 0 + ct.bid(0), cols[None, :]), ct.gather(x, (rows[:, None], cols[None, :])))


# MATMUL-NOT: warning
# MATMUL: .visible .entry
@ct.kernel(num_ctas=ct.ByTarget(sm_100=2))
def matmul(A, B, C, tm: ConstInt, tn: ConstInt, tk: ConstInt):
    dtype = ct.tfloat32 if A.dtype == ct.float32 else A.dtype
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(ct.bid(0), k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO).astype(dtype)
        b = ct.load(B, index=(k, ct.bid(1)), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO).astype(dtype)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=ct.astype(acc, C.dtype))
