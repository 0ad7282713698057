# Attention forward (FlashAttention's online softmax), written the way cuTile's FMHA sample
# writes it: each block takes TILE_M queries of one (batch, head) and walks the keys TILE_N at a
# time, keeping the running row maximum m_i, the running row sum l_i and the output accumulator
# in float32. Q, K, V and Out are (batch, heads, sequence, D); K and V may have fewer heads
# (grouped-query attention: QUERY_GROUP_SIZE query heads share one). CAUSAL masks keys after
# the query; EVEN_K = False masks the keys past the end of a sequence that is not a multiple of
# TILE_N. Launch with grid (cdiv(S_q, TILE_M), batch * H).
#
# Nothing here is steered by hand: the compiler keeps the scores, P, the row statistics and the
# accumulator in the Tensor Core accumulator's registers (P is wgmma's register A operand),
# copies K and V into pipeline stages by TMA, and loads K^T in memory order.
import math

import numpy as np

import cuda.tile as ct
from cuda.tile import RoundingMode as RMd

INV_LOG_2 = 1.0 / math.log(2)
ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def attention(Q, K, V, Out, qk_scale: float,
              TILE_D: ConstInt, H: ConstInt, TILE_M: ConstInt, TILE_N: ConstInt,
              QUERY_GROUP_SIZE: ConstInt = 1, CAUSAL: ConstBool = False, EVEN_K: ConstBool = True):
    bid_x = ct.bid(0)
    bid_y = ct.bid(1)
    batch_idx = bid_y // H
    head_idx = bid_y % H
    off_kv_h = head_idx // QUERY_GROUP_SIZE
    qk_scale = qk_scale * INV_LOG_2  # exp2 below

    offs_m = (bid_x * TILE_M + ct.arange(TILE_M, dtype=np.int32))[:, None]
    offs_n_tile = ct.arange(TILE_N, dtype=np.int32)[None, :]

    m_i = ct.full((TILE_M, 1), -np.inf, dtype=np.float32)
    l_i = ct.full((TILE_M, 1), 0.0, dtype=np.float32)
    acc = ct.full((TILE_M, TILE_D), 0.0, dtype=np.float32)

    q = ct.load(Q, index=(batch_idx, head_idx, bid_x, 0), shape=(1, 1, TILE_M, TILE_D),
                padding_mode=ct.PaddingMode.ZERO).reshape((TILE_M, TILE_D))

    k_seqlen = K.shape[2]
    if CAUSAL:
        # Key blocks past the block's last query are all masked: stop before them.
        mask_start = min((bid_x * TILE_M) // TILE_N, k_seqlen // TILE_N)
        Tc = ct.cdiv(min((bid_x + 1) * TILE_M, k_seqlen), TILE_N)
    else:
        mask_start = k_seqlen // TILE_N
        Tc = ct.cdiv(k_seqlen, TILE_N)

    for j in range(0, Tc):
        k = ct.load(K, index=(batch_idx, off_kv_h, 0, j), shape=(1, 1, TILE_D, TILE_N),
                    order=(0, 1, 3, 2), padding_mode=ct.PaddingMode.ZERO, latency=2).reshape((TILE_D, TILE_N))
        qk = ct.mma(q, k, ct.full((TILE_M, TILE_N), 0.0, dtype=np.float32))

        if (CAUSAL or not EVEN_K) and j >= mask_start:
            offs_n = j * TILE_N + offs_n_tile
            mask = ct.full((TILE_M, TILE_N), True, dtype=np.bool_)
            if not EVEN_K:
                mask = mask & (offs_n < k_seqlen)
            if CAUSAL:
                mask = mask & (offs_m >= offs_n)
            qk += ct.where(mask, 0.0, -np.inf)

        # Online softmax: the new row maximum, P, the rescale of what came before.
        m_ij = max(m_i, ct.max(qk, axis=-1, keepdims=True) * qk_scale)
        p = ct.exp2(qk * qk_scale - m_ij, flush_to_zero=True)
        alpha = ct.exp2(m_i - m_ij, flush_to_zero=True)
        l_i = l_i * alpha + ct.sum(p, axis=-1, keepdims=True)
        acc = acc * alpha

        v = ct.load(V, index=(batch_idx, off_kv_h, j, 0), shape=(1, 1, TILE_N, TILE_D),
                    padding_mode=ct.PaddingMode.ZERO, latency=4).reshape((TILE_N, TILE_D))
        acc = ct.mma(p.astype(Q.dtype), v, acc)
        m_i = m_ij

    acc = ct.truediv(acc, l_i, flush_to_zero=True, rounding_mode=RMd.APPROX)
    ct.store(Out, index=(batch_idx, head_idx, bid_x, 0), tile=acc.reshape((1, 1, TILE_M, TILE_D)).astype(Out.dtype))
