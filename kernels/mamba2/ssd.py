# Mamba-2 SSD forward pass: the kernels of docs/mamba2.md in the tile language (chunk_cumsum,
# chunk_bmm, fwd_pass_state, compute_out, launched in that order by SsdPlan.cpp), and
# varlen_states, each packed sequence's final state from the pass's results (SsdVarlen.cpp).
#
# Shapes (row-major): x, z, y (b, T, H, P); dt (b, T, H); A, dt_bias (H,); D (H,) or (H, P);
# B, C (b, T, G, N); initial_states, final_states (b, H, P, N); intermediates dt_out and
# dA_cumsum (b, H, nc, Q) and chunk-entry states (b, nc, H, P, N), all float32.
# Positions t >= T are padding: their dt is zero, so they add nothing to any sum or state.
#
# Optional inputs are always passed (a placeholder array when absent); the HAS_* constants
# decide whether the kernel reads them, so an absent input costs nothing.
#
# Packed sequences (HAS_SEQ, seq_idx (b, T) int32, mamba_ssm's semantics): a position sees the
# state and the positions before it only where seq_idx is the same. The state entering a chunk
# is the state of the sequence at the previous chunk's last position (sequence 0 before the
# first chunk, which is the one initial_states belong to); a chunk's state keeps only the
# positions of the sequence at its last position, and the entering state only when that
# sequence is the same.
#
# Matrix products of 16-bit data run on Tensor Cores in the data's own type by default: bf16/fp16
# operands hold every input exactly and round the computed factors (decay-weighted B, the
# masked C.B^T, states) to 8 (bf16) or 11 (fp16) significant bits, as mamba_ssm does; the
# caller's float32 initial states reach y with ~16 (initial_state_remainder). With
# TF32=True they take tf32 operands instead (11 bits, half the Tensor Core rate). fp32 data
# keeps exact fp32 products.
#
# Occupancy: the serial chunk loop of fwd_pass_state and the short loops of compute_out copy
# their loads into shared memory iterations ahead (tile-pipeline-loops); resident blocks per
# SM trade against registers; the values are the fastest measured on the H200
# (docs/mamba2.md), a few registers spill.
#
# C.B^T depends only on (batch, chunk, group): compute_out computes the diagonal block of its
# rows itself, once for the heads of a block; chunk_bmm computes the blocks below it once, for
# compute_out configurations whose row blocks are smaller than the chunk (the executor skips
# chunk_bmm when the configuration that runs has BQ = Q).
import cuda.tile as ct


LOG2E = 1.4426950408889634  # exp(x) = exp2(x * LOG2E)


@ct.function
def product_type(dtype, tf32):
    """The operand type of the matrix products for data of `dtype`."""
    if dtype == ct.float32:
        return ct.float32
    if tf32:
        return ct.tfloat32
    return dtype


@ct.function
def chunk_sequences(seq_idx, bi, c, Q):
    """The sequence index at the last position of chunk c (the last valid one for the final
    chunk) and at the position before the chunk (0 before the first chunk)."""
    T = seq_idx.shape[1]
    last = ct.reshape(ct.load(seq_idx, (bi, min(c * Q + Q - 1, T - 1)), (1, 1)), ())
    before = ct.reshape(ct.load(seq_idx, (bi, max(c * Q - 1, 0)), (1, 1)), ())
    return last, ct.where(c > 0, before, 0)


@ct.function
def cb_block(B, C, bi, g, row_block, col_block, N, BQ, BN, MT):
    """C.B^T for the BQ rows of block `row_block` and the BQ columns (positions of B) of block
    `col_block` of batch bi, group g: f32 products of MT operands, over N in BN-wide steps."""
    acc = ct.zeros((BQ, BQ), dtype=ct.float32)
    for nb in range(N // BN):
        cr = ct.reshape(ct.load(C, (bi, row_block, g, nb), (1, BQ, 1, BN),
                                padding_mode=ct.PaddingMode.ZERO), (BQ, BN)).astype(MT)
        bc = ct.reshape(ct.load(B, (bi, col_block, g, nb), (1, BQ, 1, BN),
                                padding_mode=ct.PaddingMode.ZERO), (BQ, BN)).astype(MT)
        acc = ct.mma(cr, ct.transpose(bc), acc)
    return acc


@ct.autotune(configs=[dict(BH=8), dict(BH=16), dict(BH=4)], key=["nheads", "Q"])
@ct.kernel(occupancy=3)
def chunk_cumsum(dt, A, dt_bias, dt_out, dA_cumsum, seqlen: int,
                 Q: ct.Constant[int], BH: ct.Constant[int],
                 HAS_BIAS: ct.Constant[bool] = False, SOFTPLUS: ct.Constant[bool] = False,
                 DT_MIN: ct.Constant[float] = 0.0, DT_MAX: ct.Constant[float] = 3.0e38):
    c = ct.bid(0)
    hb = ct.bid(1)
    bi = ct.bid(2)
    # Heads along rows, the chunk's positions along columns: the scan runs along each row
    # (runs of consecutive elements per thread, then warp shuffles) and both stores write the
    # rows as they are: one transpose instead of two, 2 barriers instead of 6 (H200, 2.7B:
    # 0.015 -> 0.012 ms).
    u = ct.reshape(ct.load(dt, (bi, c, hb), (1, Q, BH), padding_mode=ct.PaddingMode.ZERO), (Q, BH))
    u = ct.transpose(u)
    u = u.astype(ct.float32)
    if HAS_BIAS:
        u = u + ct.load(dt_bias, (hb,), (BH,), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)[:, None]
    if SOFTPLUS:
        u = ct.where(u > 20.0, u, ct.log(1.0 + ct.exp(u)))
    u = ct.minimum(ct.maximum(u, DT_MIN), DT_MAX)
    valid = (c * Q + ct.arange(Q)) < seqlen
    u = ct.where(valid[None, :], u, 0.0)
    a = ct.load(A, (hb,), (BH,), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    s = ct.cumsum(u * a[:, None], axis=1)
    ct.store(dt_out, (bi, hb, c, 0), ct.reshape(u, (1, BH, 1, Q)))
    ct.store(dA_cumsum, (bi, hb, c, 0), ct.reshape(s, (1, BH, 1, Q)))


# Config 0 is the fastest measured on the H200 at chunk 64 with the loop's loads pipelined
# (32x32 blocks, 3 blocks per SM: 0.75 ms on the 2.7B shape against 1.08 at 4 per SM, where
# the copies' addresses spill); larger blocks hold more registers, so they ask for fewer
# resident blocks. SWAP configurations compute the transposed state (below); those with 64-wide
# P blocks spill at their occupancy (24-424 bytes per thread) and are not listed.
@ct.autotune(configs=[dict(BP=32, BN=32, occupancy=3), dict(BP=32, BN=64, occupancy=2),
                      dict(BP=32, BN=32, occupancy=4), dict(BP=64, BN=32, occupancy=2),
                      dict(BP=32, BN=64, occupancy=3), dict(BP=32, BN=128, occupancy=2),
                      dict(BP=64, BN=64, occupancy=2), dict(BP=64, BN=32, occupancy=3),
                      dict(BP=32, BN=64, occupancy=4), dict(BP=64, BN=64, occupancy=3),
                      dict(BP=32, BN=64, occupancy=4, SWAP=True), dict(BP=32, BN=64, occupancy=3, SWAP=True),
                      dict(BP=64, BN=64, occupancy=3, XW=True), dict(BP=64, BN=32, occupancy=2, XW=True),
                      dict(BP=64, BN=32, occupancy=3, XW=True), dict(BP=64, BN=128, occupancy=2, XW=True),
                      dict(BP=64, BN=32, occupancy=2, TMA=False), dict(BP=64, BN=64, occupancy=3, TMA=False),
                      dict(BP=64, BN=128, occupancy=2, XW=True, TMA=False), dict(BP=32, BN=64, occupancy=2, TMA=False),
                      dict(BP=64, BN=64, occupancy=3, SQ=64)],
             key=["headdim", "dstate"])
@ct.kernel
def fwd_pass_state(x, B, dt_out, dA_cumsum, initial_states, states, final_states, states_t, final_states_t,
                   nheads: int, ngroups: int, nchunks: int, seq_idx,
                   Q: ct.Constant[int], BP: ct.Constant[int], BN: ct.Constant[int],
                   HAS_INIT: ct.Constant[bool] = False, HAS_SEQ: ct.Constant[bool] = False,
                   TF32: ct.Constant[bool] = False,
                   SWAP: ct.Constant[bool] = False, XW: ct.Constant[bool] = False,
                   TMA: ct.Constant[bool] = True, SQ: ct.Constant[int] = 0):
    """states_t and final_states_t are states and final_states viewed with their last two
    dimensions swapped (the same memory): SWAP configurations carry the transposed state
    S^T = sum_t (decay-weighted B_t)^T x_t, whose computed factor is the product's A operand,
    which the Tensor Cores take from registers, and store it through them. XW configurations
    weight x instead of B: S += (w x)^T B, whose computed factor (w x)^T is the A operand of the
    state as it is stored, built in registers from x's pipeline stage, while B is read in place:
    no operand goes through shared memory and no barrier guards one. The state entering each
    chunk goes out as a TMA bulk store (fewer registers: no addresses or bounds per thread) or,
    with TMA=False, as element stores (no barrier per chunk: the serial chunk loop of long
    sequences is bound by latency). SQ < Q walks each chunk in parts of SQ rows (state_in_parts)."""
    MT = product_type(x.dtype, TF32)
    pb = ct.bid(0)
    nb = ct.bid(1)
    bi = ct.bid(2) // nheads
    h = ct.bid(2) % nheads
    g = h // (nheads // ngroups)
    if HAS_INIT:
        S = ct.reshape(ct.load(initial_states, (bi, h, pb, nb), (1, 1, BP, BN),
                               padding_mode=ct.PaddingMode.ZERO), (BP, BN)).astype(ct.float32)
        if SWAP:
            S = ct.transpose(S)
    elif SWAP:
        S = ct.zeros((BN, BP), dtype=ct.float32)
    else:
        S = ct.zeros((BP, BN), dtype=ct.float32)
    if SQ != 0 and SQ < Q:
        ct.static_assert(not SWAP and not XW, "SQ configurations weight B and store S as it is")
        S = state_in_parts(x, B, dt_out, dA_cumsum, seq_idx, states, S, bi, h, g, pb, nb, nchunks, Q, SQ, BP, BN,
                           MT, HAS_SEQ)
    else:
        for c in range(nchunks):
            s = ct.reshape(ct.load(dA_cumsum, (bi, h, c, 0), (1, 1, 1, Q)), (Q,))
            u = ct.reshape(ct.load(dt_out, (bi, h, c, 0), (1, 1, 1, Q)), (Q,))
            # The chunk's last cumulative decay, loaded as one element (every thread reads it)
            # rather than extracted from s by a reduction across the block.
            s_last = ct.reshape(ct.load(dA_cumsum, (bi, h, c, Q - 1), (1, 1, 1, 1)), ())
            w = ct.exp(ct.minimum(s_last - s, 0.0)) * u
            goes_on = True
            if HAS_SEQ:
                seq_last, seq_before = chunk_sequences(seq_idx, bi, c, Q)
                seq = ct.reshape(ct.load(seq_idx, (bi, c), (1, Q), padding_mode=ct.PaddingMode.ZERO), (Q,))
                w = ct.where(seq == seq_last, w, 0.0)
                goes_on = seq_last == seq_before
            xc = ct.reshape(ct.load(x, (bi, c, h, pb), (1, Q, 1, BP), padding_mode=ct.PaddingMode.ZERO), (Q, BP))
            bc = ct.reshape(ct.load(B, (bi, c, g, nb), (1, Q, 1, BN), padding_mode=ct.PaddingMode.ZERO), (Q, BN))
            if SWAP:
                wbt = (ct.transpose(bc).astype(ct.float32) * w[None, :]).astype(MT)
                S_next = ct.mma(wbt, xc.astype(MT), entering(S, s_last, goes_on, HAS_SEQ))
            elif XW:
                xw = (ct.transpose(xc).astype(ct.float32) * w[None, :]).astype(MT)
                S_next = ct.mma(xw, bc.astype(MT), entering(S, s_last, goes_on, HAS_SEQ))
            else:
                wb = (bc.astype(ct.float32) * w[:, None]).astype(MT)
                S_next = ct.mma(ct.transpose(xc.astype(MT)), wb, entering(S, s_last, goes_on, HAS_SEQ))
            # The state entering chunk c, stored while the Tensor Cores compute the next one.
            if SWAP:
                ct.store(states_t, (bi, c, h, nb, pb), ct.reshape(S, (1, 1, 1, BN, BP)).astype(states_t.dtype),
                         allow_tma=TMA)
            else:
                ct.store(states, (bi, c, h, pb, nb), ct.reshape(S, (1, 1, 1, BP, BN)).astype(states.dtype),
                         allow_tma=TMA)
            S = S_next
    if SWAP:
        ct.store(final_states_t, (bi, h, nb, pb), ct.reshape(S, (1, 1, BN, BP)))
    else:
        ct.store(final_states, (bi, h, pb, nb), ct.reshape(S, (1, 1, BP, BN)))


@ct.function
@ct.function
def entering(S, log_decay, goes_on, HAS_SEQ):
    """The state S decayed by exp(log_decay) into the chunk (or part) that follows; with packed
    sequences zero unless its sequence goes on there."""
    decay = ct.exp(log_decay)
    if HAS_SEQ:
        decay = ct.where(goes_on, decay, 0.0)
    return S * decay


@ct.function
def state_in_parts(x, B, dt_out, dA_cumsum, seq_idx, states, S, bi, h, g, pb, nb, nchunks, Q, SQ, BP, BN, MT,
                   HAS_SEQ):
    """fwd_pass_state's chunk loop over parts of SQ rows: the recurrence from part to part is the
    one from chunk to chunk (decay to the part's last row, then its own x^T.(w B)), and the state
    entering a chunk is stored when its first part begins. A pipeline stage then holds SQ rows
    of x and B, so a long chunk (128) keeps 3 stages at 3 blocks per SM where whole chunks keep
    2 at 2 (2.7B shape on the H200: 0.159 -> 0.155 ms)."""
    parts = Q // SQ
    for k in range(nchunks * parts):
        c = k // parts
        j = k % parts
        s = ct.reshape(ct.load(dA_cumsum, (bi, h, c, j), (1, 1, 1, SQ)), (SQ,))
        u = ct.reshape(ct.load(dt_out, (bi, h, c, j), (1, 1, 1, SQ)), (SQ,))
        s_end = ct.reshape(ct.load(dA_cumsum, (bi, h, c, j * SQ + SQ - 1), (1, 1, 1, 1)), ())
        # The cumulative decay where the part starts: the previous part's last, 0 for the first.
        s_start = ct.reshape(ct.load(dA_cumsum, (bi, h, c, (j * SQ + Q - 1) % Q), (1, 1, 1, 1)), ())
        s_start = ct.where(j > 0, s_start, 0.0)
        w = ct.exp(ct.minimum(s_end - s, 0.0)) * u
        goes_on = True
        if HAS_SEQ:
            # The chunk's sequences: its parts keep the positions of the one at its end, and
            # the first part the entering state only when that sequence goes on.
            seq_last, seq_before = chunk_sequences(seq_idx, bi, c, Q)
            seq = ct.reshape(ct.load(seq_idx, (bi, k), (1, SQ), padding_mode=ct.PaddingMode.ZERO), (SQ,))
            w = ct.where(seq == seq_last, w, 0.0)
            goes_on = (j > 0) | (seq_last == seq_before)
        xc = ct.reshape(ct.load(x, (bi, k, h, pb), (1, SQ, 1, BP), padding_mode=ct.PaddingMode.ZERO), (SQ, BP))
        bc = ct.reshape(ct.load(B, (bi, k, g, nb), (1, SQ, 1, BN), padding_mode=ct.PaddingMode.ZERO), (SQ, BN))
        wb = (bc.astype(ct.float32) * w[:, None]).astype(MT)
        S_next = ct.mma(ct.transpose(xc.astype(MT)), wb, entering(S, s_end - s_start, goes_on, HAS_SEQ))
        if j == 0:
            ct.store(states, (bi, c, h, pb, nb), ct.reshape(S, (1, 1, 1, BP, BN)).astype(states.dtype))
        S = S_next
    return S


@ct.autotune(configs=[dict(BQ=64, BN=32), dict(BQ=32, BN=32), dict(BQ=64, BN=64), dict(BQ=32, BN=64)],
             key=["dstate", "Q"])
@ct.kernel
def chunk_bmm(B, C, cb, ngroups: int,
              Q: ct.Constant[int], N: ct.Constant[int], BQ: ct.Constant[int], BN: ct.Constant[int],
              TF32: ct.Constant[bool] = False):
    """cb[b, c, g, i, j] = sum_n C[b, c*Q + i, g, n] * B[b, c*Q + j, g, n], in (BQ, BQ) blocks;
    blocks above the causal diagonal (j-block > i-block) are never read and not written."""
    ct.static_assert(Q % BQ == 0 and N % BN == 0, "BQ must divide Q and BN must divide N")
    MT = product_type(B.dtype, TF32)
    row_tiles = Q // BQ
    c = ct.bid(0) // row_tiles
    qb = ct.bid(0) % row_tiles
    kb = ct.bid(1)
    bi = ct.bid(2) // ngroups
    g = ct.bid(2) % ngroups
    if kb <= qb:
        acc = cb_block(B, C, bi, g, c * row_tiles + qb, c * row_tiles + kb, N, BQ, BN, MT)
        ct.store(cb, (bi, c, g, qb, kb), ct.reshape(acc, (1, 1, 1, BQ, BQ)))


@ct.function
def initial_state_remainder(C, initial_states, yacc, bi, h, g, row_block, pb, N, BQ, BP, MT):
    """yacc + C_rows . (S0 - MT(S0))^T for the caller's initial state S0 (float32): the states
    array holds the state entering chunk 0 as the products take it, rounded to MT (bf16 keeps 8
    significant bits); adding the remainder's product gives that state ~16 bits, as the caller
    passed it, at the cost of one more product in the blocks of the first chunk only. It runs
    over N in steps of (at most) 32 columns: few registers beside the head loop's (whole rows
    of N spilled 700 bytes per thread in the 128-row configurations)."""
    RN = N if N < 32 else 32
    for nb in range(N // RN):
        cr = ct.reshape(ct.load(C, (bi, row_block, g, nb), (1, BQ, 1, RN),
                                padding_mode=ct.PaddingMode.ZERO), (BQ, RN)).astype(MT)
        s0 = ct.reshape(ct.load(initial_states, (bi, h, pb, nb), (1, 1, BP, RN),
                                padding_mode=ct.PaddingMode.ZERO), (BP, RN)).astype(ct.float32)
        rest = (s0 - s0.astype(MT).astype(ct.float32)).astype(MT)
        yacc = ct.mma(cr, ct.transpose(rest), yacc)
    return yacc


# HB heads of one group share a block: C's rows (when BN = N) and C.B^T's diagonal block are
# loaded once for all of them, and the loop over the heads streams their states and x through
# the pipeline stages (the plan fits HB to a divisor of the heads per group). On the H200 (2.7B
# shape) 8 heads per block took 0.49 ms against 0.43 for one head at 4 blocks per SM (with 2
# and 4 heads: 0.61 and 0.58): the head loop holds 231 registers and 2 stages at 2 blocks per SM.
# With the masked product's A operand built in registers, 8 heads fit 3 blocks per SM at 32-wide
# P blocks (165 registers, no spills), but measured 17-20% slower than 64-wide ones at 2 per SM
# on every benchmark shape (2.7B: 0.283 against 0.242 ms), so that configuration is not listed.
# The last three take 128-row blocks over two warpgroups (256 threads, 1 block per SM): at chunk
# 128 a block covers the chunk with no block below its diagonal, and they run 0.19 ms on 2.7B
# where the 64-row ones take 0.38 or more (chunk 64 fits them to 64 rows).
@ct.autotune(configs=[dict(BQ=64, BP=64, BN=32), dict(BQ=32, BP=64, BN=32), dict(BQ=64, BP=32, BN=64),
                      dict(BQ=64, BP=64, BN=32, occupancy=4), dict(BQ=64, BP=64, BN=128),
                      dict(BQ=64, BP=64, BN=128, HB=8, occupancy=2), dict(BQ=64, BP=64, BN=128, occupancy=4),
                      dict(BQ=64, BP=64, BN=128, HB=16, occupancy=2), dict(BQ=64, BP=64, BN=128, HB=32, occupancy=2),
                      dict(BQ=64, BP=64, BN=128, HB=40, occupancy=2), dict(BQ=64, BP=64, BN=128, HB=16, occupancy=1),
                      dict(BQ=128, BP=64, BN=128, HB=20, occupancy=1, num_threads=256),
                      dict(BQ=128, BP=64, BN=128, HB=8, occupancy=1, num_threads=256),
                      dict(BQ=128, BP=64, BN=128, HB=40, occupancy=1, num_threads=256)],
             key=["headdim", "dstate", "Q", "nheads", "ngroups"])
@ct.kernel(occupancy=3)
def compute_out(x, B, C, cb, dt_out, dA_cumsum, states, initial_states, D, z, y, nheads: int, ngroups: int,
                seq_idx, Q: ct.Constant[int], N: ct.Constant[int], BQ: ct.Constant[int],
                BP: ct.Constant[int], BN: ct.Constant[int], HB: ct.Constant[int] = 1,
                HAS_D: ct.Constant[bool] = False, D_PER_CHANNEL: ct.Constant[bool] = False,
                HAS_Z: ct.Constant[bool] = False, HAS_INIT: ct.Constant[bool] = False,
                HAS_SEQ: ct.Constant[bool] = False, TF32: ct.Constant[bool] = False):
    ct.static_assert(Q % BQ == 0 and N % BN == 0, "BQ must divide Q and BN must divide N")
    MT = product_type(x.dtype, TF32)
    row_tiles = Q // BQ
    c = ct.bid(0) // row_tiles
    qb = ct.bid(0) % row_tiles
    pb = ct.bid(1)
    head_blocks = nheads // HB
    bi = ct.bid(2) // head_blocks
    h0 = (ct.bid(2) % head_blocks) * HB
    g = h0 // (nheads // ngroups)
    # What the heads share: C's rows when one block of N covers them, and the diagonal block
    # of C.B^T with the causal mask applied, computed here (its accumulator fragments are the A
    # fragments of the masked product with x: no round trip through memory) so that chunk_bmm
    # only serves the blocks below the diagonal, which exist when BQ < Q.
    if BN == N:
        c_rows = ct.reshape(ct.load(C, (bi, c * row_tiles + qb, g, 0), (1, BQ, 1, N),
                                    padding_mode=ct.PaddingMode.ZERO), (BQ, N)).astype(MT)
        b_rows = ct.reshape(ct.load(B, (bi, c * row_tiles + qb, g, 0), (1, BQ, 1, N),
                                    padding_mode=ct.PaddingMode.ZERO), (BQ, N)).astype(MT)
        cbd = ct.mma(c_rows, ct.transpose(b_rows), ct.zeros((BQ, BQ), dtype=ct.float32))
    else:
        cbd = cb_block(B, C, bi, g, c * row_tiles + qb, c * row_tiles + qb, N, BQ, BN, MT)
    causal = ct.arange(BQ)[None, :] <= ct.arange(BQ)[:, None]
    if HAS_SEQ:
        # Rows see the entering state and earlier columns of their own sequence only.
        seq_rows = ct.reshape(ct.load(seq_idx, (bi, c * row_tiles + qb), (1, BQ),
                                      padding_mode=ct.PaddingMode.ZERO), (BQ,))
        seq_last, seq_before = chunk_sequences(seq_idx, bi, c, Q)
        causal = causal & (seq_rows[:, None] == seq_rows[None, :])
    cbd = ct.where(causal, cbd, 0.0)
    for hh in range(HB):
        h = h0 + hh
        s_rows = ct.reshape(ct.load(dA_cumsum, (bi, h, c, qb), (1, 1, 1, BQ)), (BQ,))
        u_rows = ct.reshape(ct.load(dt_out, (bi, h, c, qb), (1, 1, 1, BQ)), (BQ,))
        xq = ct.reshape(ct.load(x, (bi, c * row_tiles + qb, h, pb), (1, BQ, 1, BP),
                                padding_mode=ct.PaddingMode.ZERO), (BQ, BP))

        # The state contribution C_rows . S_in^T, over N blocks, decayed to each row.
        yacc = ct.zeros((BQ, BP), dtype=ct.float32)
        if BN == N:
            sin = ct.reshape(ct.load(states, (bi, c, h, pb, 0), (1, 1, 1, BP, N),
                                     padding_mode=ct.PaddingMode.ZERO), (BP, N)).astype(MT)
            yacc = ct.mma(c_rows, ct.transpose(sin), yacc)
        else:
            for nb in range(N // BN):
                cr = ct.reshape(ct.load(C, (bi, c * row_tiles + qb, g, nb), (1, BQ, 1, BN),
                                        padding_mode=ct.PaddingMode.ZERO), (BQ, BN)).astype(MT)
                sin = ct.reshape(ct.load(states, (bi, c, h, pb, nb), (1, 1, 1, BP, BN),
                                         padding_mode=ct.PaddingMode.ZERO), (BP, BN)).astype(MT)
                yacc = ct.mma(cr, ct.transpose(sin), yacc)
        # The first chunk's state is the caller's initial state: the rest of its rounding.
        if HAS_INIT and MT != ct.float32:
            if c == 0:
                yacc = initial_state_remainder(C, initial_states, yacc, bi, h, g, c * row_tiles + qb, pb, N, BQ, BP, MT)
        # While the Tensor Cores run that product, the masked, decayed diagonal block of C.B^T
        # (the A operand of the product with the block's own x rows below) and the row decays.
        # The decays are powers of two of the cumulative decays scaled by log2(e) once per row,
        # flushed to zero below 2^-126 (a single MUFU.EX2 each: BQ*BQ of them per head).
        a_rows = s_rows * LOG2E
        decay = ct.exp2(ct.minimum(a_rows[:, None] - a_rows[None, :], 0.0), flush_to_zero=True)
        m_diag = (cbd * decay * u_rows[None, :]).astype(MT)
        row_decay = ct.exp2(a_rows, flush_to_zero=True)
        if HAS_SEQ:
            row_decay = ct.where(seq_rows == seq_before, row_decay, 0.0)
        yacc = yacc * row_decay[:, None]

        # C.B^T decayed and weighted by dt, times x, over the column blocks strictly below the
        # diagonal (kb < qb: every column precedes every row, no mask)...
        for kb in range(qb):
            s_cols = ct.reshape(ct.load(dA_cumsum, (bi, h, c, kb), (1, 1, 1, BQ)), (BQ,))
            u_cols = ct.reshape(ct.load(dt_out, (bi, h, c, kb), (1, 1, 1, BQ)), (BQ,))
            cbb = ct.reshape(ct.load(cb, (bi, c, g, qb, kb), (1, 1, 1, BQ, BQ)), (BQ, BQ)).astype(ct.float32)
            decay = ct.exp2(ct.minimum(a_rows[:, None] - s_cols[None, :] * LOG2E, 0.0), flush_to_zero=True)
            m = cbb * decay * u_cols[None, :]
            if HAS_SEQ:
                seq_cols = ct.reshape(ct.load(seq_idx, (bi, c * row_tiles + kb), (1, BQ),
                                              padding_mode=ct.PaddingMode.ZERO), (BQ,))
                m = ct.where(seq_rows[:, None] == seq_cols[None, :], m, 0.0)
            m = m.astype(MT)
            xc = ct.reshape(ct.load(x, (bi, c * row_tiles + kb, h, pb), (1, BQ, 1, BP),
                                    padding_mode=ct.PaddingMode.ZERO), (BQ, BP))
            yacc = ct.mma(m, xc.astype(MT), yacc)

        # ...and the diagonal block (masked above), whose x rows are the block's own: loaded
        # once for the product and the D term.
        yacc = ct.mma(m_diag, xq.astype(MT), yacc)

        xr = xq.astype(ct.float32)
        if HAS_D:
            if D_PER_CHANNEL:
                dv = ct.reshape(ct.load(D, (h, pb), (1, BP), padding_mode=ct.PaddingMode.ZERO), (BP,))
                yacc = yacc + dv.astype(ct.float32)[None, :] * xr
            else:
                dv = ct.load(D, (h,), (1,), padding_mode=ct.PaddingMode.ZERO)
                yacc = yacc + dv.astype(ct.float32)[None, :] * xr
        if HAS_Z:
            zr = ct.reshape(ct.load(z, (bi, c * row_tiles + qb, h, pb), (1, BQ, 1, BP),
                                    padding_mode=ct.PaddingMode.ZERO), (BQ, BP)).astype(ct.float32)
            yacc = yacc * zr * ct.sigmoid(zr)
        ct.store(y, (bi, c * row_tiles + qb, h, pb), ct.reshape(yacc, (1, BQ, 1, BP)).astype(y.dtype))


@ct.kernel
def varlen_states(x, B, dt_out, dA_cumsum, states, cu_seqlens, varlen, nheads: int, ngroups: int,
                  Q: ct.Constant[int], BP: ct.Constant[int], BN: ct.Constant[int], TF32: ct.Constant[bool] = False):
    """The state after the last position of each packed sequence of batch row 0 (sequence s
    holds positions cu_seqlens[s] .. cu_seqlens[s + 1] - 1), from the forward pass's chunk-entry
    states and intermediates (run with seq_idx): the state entering the chunk of the sequence's
    last position, when the sequence began before that chunk (or is the first one, whose is the
    initial state), decayed to that position, plus the chunk's positions of the sequence up to
    it. An empty sequence's state is zero. Grid (P blocks, N blocks, sequences * heads)."""
    MT = product_type(x.dtype, TF32)
    pb = ct.bid(0)
    nb = ct.bid(1)
    seq = ct.bid(2) // nheads
    h = ct.bid(2) % nheads
    g = h // (nheads // ngroups)
    start = ct.reshape(ct.load(cu_seqlens, (seq,), (1,)), ())
    end = ct.reshape(ct.load(cu_seqlens, (seq + 1,), (1,)), ())
    last = ct.maximum(end - 1, 0)
    c = last // Q
    # (Zero padding: with T = 0 there is no chunk, and every sequence is empty.)
    s = ct.reshape(ct.load(dA_cumsum, (0, h, c, 0), (1, 1, 1, Q), padding_mode=ct.PaddingMode.ZERO), (Q,))
    u = ct.reshape(ct.load(dt_out, (0, h, c, 0), (1, 1, 1, Q), padding_mode=ct.PaddingMode.ZERO), (Q,))
    s_last = ct.reshape(ct.load(dA_cumsum, (0, h, c, last % Q), (1, 1, 1, 1), padding_mode=ct.PaddingMode.ZERO),
                        ())
    t = c * Q + ct.arange(Q)
    w = ct.where((t >= start) & (t <= last), ct.exp(ct.minimum(s_last - s, 0.0)) * u, 0.0)
    xc = ct.reshape(ct.load(x, (0, c, h, pb), (1, Q, 1, BP), padding_mode=ct.PaddingMode.ZERO), (Q, BP))
    bc = ct.reshape(ct.load(B, (0, c, g, nb), (1, Q, 1, BN), padding_mode=ct.PaddingMode.ZERO), (Q, BN))
    S = ct.reshape(ct.load(states, (0, c, h, pb, nb), (1, 1, 1, BP, BN), padding_mode=ct.PaddingMode.ZERO),
                   (BP, BN)).astype(ct.float32)
    owns = (start < c * Q) | (start == 0)
    S = S * ct.where(owns, ct.exp(s_last), 0.0)
    wb = (bc.astype(ct.float32) * w[:, None]).astype(MT)
    S = ct.mma(ct.transpose(xc.astype(MT)), wb, S)
    S = ct.where(end > start, S, 0.0)
    ct.store(varlen, (seq, h, pb, nb), ct.reshape(S, (1, 1, BP, BN)))


# ---- The backward pass (SsdBackward.cpp) ------------------------------------------------------
# Gradients of loss(y, final_states) given dy and d final_states, from the forward's recomputed
# results: y before the gate (the forward run without z, float32), the chunk-entry states, dt_out
# and dA_cumsum. Per chunk c of a head (Q positions; s = dA_cumsum, u = dt_out, S_c the state
# entering the chunk, G the gradient of the state leaving it):
#   y = M x + diag(e) C S_c^T + D x,  M = (C B^T o E) diag(u),  E_ij = exp(s_i - s_j) [j <= i]
#   S_next = a S_c + x^T diag(w) B,   w = exp(s_last - s) o u,   a = exp(s_last), e = exp(s)
# (with packed sequences E, e, w and a are masked as in the forward). bwd_gate turns the output's
# gradient into y's, bwd_pass_state carries G backwards over the chunks, bwd_chunk computes each
# chunk's gradients (x, B, C, and those of s and u, folded into u's through s = cumsum(u A)),
# bwd_dt takes u's gradient through the clamp, softplus and bias to dt, and bwd_reduce sums the
# per-chunk parts of dA, dt_bias and D. Products are float32 (exact FMAs). The configurations are
# starting points, not yet measured: the tuner times them on the call's own arguments.


@ct.autotune(configs=[dict(BT=64, BP=64), dict(BT=128, BP=64), dict(BT=32, BP=64)], key=["headdim"])
@ct.kernel
def bwd_gate(y, z, dout, dy, dz, nheads: int, BT: ct.Constant[int], BP: ct.Constant[int]):
    """dy = dout z sigmoid(z), dz = dout y sigmoid(z) (1 + z (1 - sigmoid(z))), for y before the
    gate. Grid (T blocks, P blocks, batch * heads)."""
    tb = ct.bid(0)
    pb = ct.bid(1)
    bi = ct.bid(2) // nheads
    h = ct.bid(2) % nheads
    yv = ct.load(y, (bi, tb, h, pb), (1, BT, 1, BP), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    zv = ct.load(z, (bi, tb, h, pb), (1, BT, 1, BP), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    g = ct.load(dout, (bi, tb, h, pb), (1, BT, 1, BP), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    sz = ct.sigmoid(zv)
    ct.store(dz, (bi, tb, h, pb), (g * yv * sz * (1.0 + zv * (1.0 - sz))).astype(dz.dtype))
    ct.store(dy, (bi, tb, h, pb), (g * zv * sz).astype(dy.dtype))


@ct.autotune(configs=[dict(BP=64, BN=64), dict(BP=32, BN=64), dict(BP=64, BN=32), dict(BP=32, BN=32)],
             key=["headdim", "dstate", "Q"])
@ct.kernel
def bwd_pass_state(dy, C, dA_cumsum, dfinal, seq_idx, dstates, dinit, nheads: int, ngroups: int, nchunks: int,
                   Q: ct.Constant[int], BP: ct.Constant[int], BN: ct.Constant[int],
                   HAS_DFINAL: ct.Constant[bool] = False, HAS_SEQ: ct.Constant[bool] = False):
    """The gradient of the state leaving each chunk (dstates[:, c]) and of the initial state,
    from the last chunk back: G_c-1 = a_c G_c + (diag(e) dy)^T C over chunk c. Grid (P blocks,
    N blocks, batch * heads)."""
    pb = ct.bid(0)
    nb = ct.bid(1)
    bi = ct.bid(2) // nheads
    h = ct.bid(2) % nheads
    g = h // (nheads // ngroups)
    if HAS_DFINAL:
        G = ct.reshape(ct.load(dfinal, (bi, h, pb, nb), (1, 1, BP, BN), padding_mode=ct.PaddingMode.ZERO),
                       (BP, BN)).astype(ct.float32)
    else:
        G = ct.zeros((BP, BN), dtype=ct.float32)
    for k in range(nchunks):
        c = nchunks - 1 - k
        ct.store(dstates, (bi, c, h, pb, nb), ct.reshape(G, (1, 1, 1, BP, BN)))
        s = ct.reshape(ct.load(dA_cumsum, (bi, h, c, 0), (1, 1, 1, Q)), (Q,))
        s_last = ct.reshape(ct.load(dA_cumsum, (bi, h, c, Q - 1), (1, 1, 1, 1)), ())
        e = ct.exp(s)
        goes_on = True
        if HAS_SEQ:
            seq_last, seq_before = chunk_sequences(seq_idx, bi, c, Q)
            seq = ct.reshape(ct.load(seq_idx, (bi, c), (1, Q), padding_mode=ct.PaddingMode.ZERO), (Q,))
            e = ct.where(seq == seq_before, e, 0.0)
            goes_on = seq_last == seq_before
        dyc = ct.reshape(ct.load(dy, (bi, c, h, pb), (1, Q, 1, BP), padding_mode=ct.PaddingMode.ZERO),
                         (Q, BP)).astype(ct.float32)
        cc = ct.reshape(ct.load(C, (bi, c, g, nb), (1, Q, 1, BN), padding_mode=ct.PaddingMode.ZERO),
                        (Q, BN)).astype(ct.float32)
        G = ct.mma(ct.transpose(dyc * e[:, None]), cc, entering(G, s_last, goes_on, HAS_SEQ))
    ct.store(dinit, (bi, h, pb, nb), ct.reshape(G, (1, 1, BP, BN)))


@ct.autotune(configs=[dict(num_threads=256), dict(num_threads=512), dict(num_threads=128)],
             key=["headdim", "dstate", "Q", "nheads", "ngroups"])
@ct.kernel
def bwd_chunk(x, B, C, dy, dt_out, dA_cumsum, A, states, dstates, seq_idx, D, dx, dB, dC, du, dA_part, dD_part,
              nheads: int, ngroups: int, nchunks: int,
              Q: ct.Constant[int], PP: ct.Constant[int], N: ct.Constant[int],
              HAS_D: ct.Constant[bool] = False, D_PER_CHANNEL: ct.Constant[bool] = False,
              HAS_SEQ: ct.Constant[bool] = False):
    """One chunk of one group's heads: dx per head, dB and dC summed over the group's heads, u's
    gradient (b, H, nc, Q) and the chunk's parts of dA ((b * nc, H)) and D ((b * nc, H, PP)).
    PP is headdim rounded up to a power of two. Grid (chunks, groups, batch)."""
    c = ct.bid(0)
    g = ct.bid(1)
    bi = ct.bid(2)
    heads = nheads // ngroups
    bq = ct.reshape(ct.load(B, (bi, c, g, 0), (1, Q, 1, N), padding_mode=ct.PaddingMode.ZERO),
                    (Q, N)).astype(ct.float32)
    cq = ct.reshape(ct.load(C, (bi, c, g, 0), (1, Q, 1, N), padding_mode=ct.PaddingMode.ZERO),
                    (Q, N)).astype(ct.float32)
    cb = ct.mma(cq, ct.transpose(bq), ct.zeros((Q, Q), dtype=ct.float32))
    rows = ct.arange(Q)
    mask = rows[None, :] <= rows[:, None]
    keep_in = ct.full((Q,), True, dtype=ct.bool_)
    keep_state = ct.full((Q,), True, dtype=ct.bool_)
    goes_on = True
    if HAS_SEQ:
        seq_last, seq_before = chunk_sequences(seq_idx, bi, c, Q)
        seq = ct.reshape(ct.load(seq_idx, (bi, c), (1, Q), padding_mode=ct.PaddingMode.ZERO), (Q,))
        mask = mask & (seq[:, None] == seq[None, :])
        keep_in = seq == seq_before
        keep_state = seq == seq_last
        goes_on = seq_last == seq_before
    db_acc = ct.zeros((Q, N), dtype=ct.float32)
    dc_acc = ct.zeros((Q, N), dtype=ct.float32)
    for hh in range(heads):
        h = g * heads + hh
        s = ct.reshape(ct.load(dA_cumsum, (bi, h, c, 0), (1, 1, 1, Q)), (Q,))
        u = ct.reshape(ct.load(dt_out, (bi, h, c, 0), (1, 1, 1, Q)), (Q,))
        s_last = ct.reshape(ct.load(dA_cumsum, (bi, h, c, Q - 1), (1, 1, 1, 1)), ())
        a_h = ct.reshape(ct.load(A, (h,), (1,)), ()).astype(ct.float32)
        xq = ct.reshape(ct.load(x, (bi, c, h, 0), (1, Q, 1, PP), padding_mode=ct.PaddingMode.ZERO),
                        (Q, PP)).astype(ct.float32)
        dyq = ct.reshape(ct.load(dy, (bi, c, h, 0), (1, Q, 1, PP), padding_mode=ct.PaddingMode.ZERO),
                         (Q, PP)).astype(ct.float32)
        sc = ct.reshape(ct.load(states, (bi, c, h, 0, 0), (1, 1, 1, PP, N), padding_mode=ct.PaddingMode.ZERO),
                        (PP, N)).astype(ct.float32)
        G = ct.reshape(ct.load(dstates, (bi, c, h, 0, 0), (1, 1, 1, PP, N), padding_mode=ct.PaddingMode.ZERO),
                       (PP, N))
        E = ct.where(mask, ct.exp(ct.minimum(s[:, None] - s[None, :], 0.0)), 0.0)
        e = ct.where(keep_in, ct.exp(s), 0.0)
        decay = ct.where(keep_state, ct.exp(ct.minimum(s_last - s, 0.0)), 0.0)
        w = decay * u
        a_in = ct.exp(s_last)
        if HAS_SEQ:
            a_in = ct.where(goes_on, a_in, 0.0)
        cbe = cb * E
        m = cbe * u[None, :]
        # dM_ij = dy_i . x_j, masked as M.
        dm = ct.where(mask, ct.mma(dyq, ct.transpose(xq), ct.zeros((Q, Q), dtype=ct.float32)), 0.0)
        dcb = dm * E * u[None, :]
        bg = ct.mma(bq, ct.transpose(G), ct.zeros((Q, PP), dtype=ct.float32))  # B G^T
        xg = ct.mma(xq, G, ct.zeros((Q, N), dtype=ct.float32))  # x G
        dxh = ct.mma(ct.transpose(m), dyq, bg * w[:, None])
        if HAS_D:
            if D_PER_CHANNEL:
                dv = ct.reshape(ct.load(D, (h, 0), (1, PP), padding_mode=ct.PaddingMode.ZERO), (PP,))
                dxh = dxh + dv.astype(ct.float32)[None, :] * dyq
            else:
                dv = ct.load(D, (h,), (1,), padding_mode=ct.PaddingMode.ZERO)
                dxh = dxh + dv.astype(ct.float32)[None, :] * dyq
            ct.store(dD_part, (bi * nchunks + c, h, 0), ct.reshape(ct.sum(dyq * xq, axis=0), (1, 1, PP)))
        ct.store(dx, (bi, c, h, 0), ct.reshape(dxh, (1, Q, 1, PP)).astype(dx.dtype))
        sct = ct.mma(dyq, sc, ct.zeros((Q, N), dtype=ct.float32))  # dy S_c
        dc_acc = ct.mma(dcb, bq, dc_acc + sct * e[:, None])
        db_acc = ct.mma(ct.transpose(dcb), cq, db_acc + xg * w[:, None])
        # The gradient of s: through E (rows +, columns -), the entering state's term and w.
        t = dm * m
        dw = ct.sum(xg * bq, axis=1)
        ds = ct.sum(t, axis=1) - ct.sum(t, axis=0) + e * ct.sum(sct * cq, axis=1) - dw * w
        ds_last = ct.sum(dw * w) + a_in * ct.sum(G * sc)
        ds = ds + ct.where(rows == Q - 1, ds_last, 0.0)
        # s = cumsum(u A): u's gradient takes A times the reverse cumulative sum of ds.
        r = ct.sum(ds) - ct.cumsum(ds, axis=0) + ds
        dun = ct.sum(dm * cbe, axis=0) + dw * decay + a_h * r
        ct.store(du, (bi, h, c, 0), ct.reshape(dun, (1, 1, 1, Q)))
        ct.store(dA_part, (bi * nchunks + c, h), ct.reshape(ct.sum(u * r), (1, 1)))
    ct.store(dB, (bi, c, g, 0), ct.reshape(db_acc, (1, Q, 1, N)).astype(dB.dtype))
    ct.store(dC, (bi, c, g, 0), ct.reshape(dc_acc, (1, Q, 1, N)).astype(dC.dtype))


@ct.autotune(configs=[dict(BH=16), dict(BH=8), dict(BH=4)], key=["nheads", "Q"])
@ct.kernel
def bwd_dt(dt, dt_bias, du, ddt, dbias_part, seqlen: int, nchunks: int,
           Q: ct.Constant[int], BH: ct.Constant[int],
           HAS_BIAS: ct.Constant[bool] = False, SOFTPLUS: ct.Constant[bool] = False,
           DT_MIN: ct.Constant[float] = 0.0, DT_MAX: ct.Constant[float] = 3.0e38):
    """ddt = du * du/d(dt) through chunk_cumsum's bias, softplus and clamp (no gradient where the
    clamp holds u), and the chunk's part of dt_bias's gradient ((b * nc, H)). Grid as
    chunk_cumsum's (chunks, head blocks, batch)."""
    c = ct.bid(0)
    hb = ct.bid(1)
    bi = ct.bid(2)
    v = ct.transpose(ct.reshape(ct.load(dt, (bi, c, hb), (1, Q, BH), padding_mode=ct.PaddingMode.ZERO),
                                (Q, BH))).astype(ct.float32)
    if HAS_BIAS:
        v = v + ct.load(dt_bias, (hb,), (BH,), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)[:, None]
    slope = ct.full((BH, Q), 1.0, dtype=ct.float32)
    if SOFTPLUS:
        slope = ct.where(v > 20.0, 1.0, ct.sigmoid(v))
        v = ct.where(v > 20.0, v, ct.log(1.0 + ct.exp(v)))
    valid = (c * Q + ct.arange(Q)) < seqlen
    inside = (v > DT_MIN) & (v < DT_MAX) & valid[None, :]
    g = ct.reshape(ct.load(du, (bi, hb, c, 0), (1, BH, 1, Q), padding_mode=ct.PaddingMode.ZERO), (BH, Q))
    d = ct.where(inside, g * slope, 0.0)
    ct.store(ddt, (bi, c, hb), ct.reshape(ct.transpose(d), (1, Q, BH)).astype(ddt.dtype))
    ct.store(dbias_part, (bi * nchunks + c, hb), ct.reshape(ct.sum(d, axis=1), (1, BH)))


@ct.kernel
def bwd_reduce(dA_part, dbias_part, dD_part, dA, ddt_bias, dD, rows: int, PP: ct.Constant[int],
               HAS_BIAS: ct.Constant[bool] = False, HAS_D: ct.Constant[bool] = False,
               D_PER_CHANNEL: ct.Constant[bool] = False):
    """dA, dt_bias's and D's gradients of head h: the sums of their per-chunk parts. Grid (heads,)."""
    h = ct.bid(0)
    a = ct.zeros((1, 1), dtype=ct.float32)
    bias = ct.zeros((1, 1), dtype=ct.float32)
    dsum = ct.zeros((1, 1, PP), dtype=ct.float32)
    for r in range(rows):
        a = a + ct.load(dA_part, (r, h), (1, 1))
        if HAS_BIAS:
            bias = bias + ct.load(dbias_part, (r, h), (1, 1))
        if HAS_D:
            dsum = dsum + ct.load(dD_part, (r, h, 0), (1, 1, PP))
    ct.store(dA, (h,), ct.reshape(a, (1,)))
    if HAS_BIAS:
        ct.store(ddt_bias, (h,), ct.reshape(bias, (1,)))
    if HAS_D:
        if D_PER_CHANNEL:
            ct.store(dD, (h, 0), ct.reshape(dsum, (1, PP)))
        else:
            ct.store(dD, (h,), ct.reshape(ct.sum(dsum), (1,)))
