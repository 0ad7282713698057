# A fused transformer-style block, about 100 lines: RMS normalisation, a projection on
# Tensor Cores, a numerically safe softmax over the sequence, a gated output, and a few
# statistics kept with atomics. It exercises most of the language in one kernel and is the
# compile-time benchmark (`tile-cc --emit=cubin --timing`).
import cuda.tile as ct

LOG2E = 1.4426950408889634
EPS = 1e-6


@ct.function
def rms_norm(t, weight):
    """Normalises each row of t (rows x cols) and scales by weight (cols)."""
    sq = ct.sum(t * t, axis=1, keepdims=True)
    inv = ct.rsqrt(sq / t.shape[1] + EPS)
    return t * inv * weight[None, :]


@ct.function
def softmax_rows(scores):
    """Row-wise softmax with exp2 and the maximum subtracted first."""
    m = ct.max(scores, axis=1, keepdims=True)
    p = ct.exp2((scores - m) * LOG2E)
    return p / ct.sum(p, axis=1, keepdims=True)


@ct.function
def silu(x):
    return x * ct.sigmoid(x)


@ct.autotune(configs=[dict(BM=32, BK=32), dict(BM=64, BK=32, occupancy=2)], key=["n"])
@ct.kernel
def fused_block(x, w_norm, w_proj, gate, out, stats, n: int,
                BM: ct.Constant[int], BK: ct.Constant[int],
                D: ct.Constant[int] = 64, CAUSAL: ct.Constant[bool] = True):
    row_block = ct.bid(0)
    ct.static_assert(D % BK == 0, "D must be a multiple of BK")

    # Load a block of rows and normalise them.
    t = ct.load(x, (row_block, 0), (BM, D), padding_mode=ct.PaddingMode.ZERO)
    weight = ct.load(w_norm, (0,), (D,))
    h = rms_norm(t.astype(ct.float32), weight.astype(ct.float32))

    # Project the normalised rows on Tensor Cores: acc = h @ w_proj in f32.
    w = ct.load(w_proj, (0, 0), (D, D), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.mma(h.astype(ct.bfloat16), w, ct.zeros((BM, D), dtype=ct.float32))
    # A residual projection of the raw rows, accumulated over K blocks.
    for kb in range(D // BK):
        a = ct.load(x, (row_block, kb), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(w_proj, (kb, 0), (BK, D), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)

    # Attention-like scores among the rows of this block, causally masked.
    scores = ct.matmul(acc.astype(ct.bfloat16), ct.transpose(acc.astype(ct.bfloat16)))
    scores = scores * (1.0 / (D ** 0.5))
    if CAUSAL:
        rows = ct.arange(BM)[:, None]
        cols = ct.arange(BM)[None, :]
        scores = ct.where(cols <= rows, scores, -1e30)
    probs = softmax_rows(scores)
    mixed = ct.matmul(probs.astype(ct.bfloat16), acc.astype(ct.bfloat16))

    # Gate and write back in the output dtype; rows past n are skipped by the store.
    g = ct.load(gate, (row_block, 0), (BM, D), padding_mode=ct.PaddingMode.ZERO)
    y = mixed * silu(g.astype(ct.float32)) + t.astype(ct.float32)
    ct.store(out, (row_block, 0), y.astype(out.dtype))

    # Running statistics: the block's sum and max, added atomically.
    total = ct.sum(y)
    peak = ct.max(ct.abs(y))
    idx = ct.arange(2)
    vals = ct.where(idx == 0, total, peak)
    ct.atomic_add(stats, idx, vals, mask=idx < 2)

    # A cumulative profile along the rows, for the first block only.
    if row_block == 0:
        prof = ct.cumsum(ct.sum(ct.abs(y), axis=1), axis=0)
        last = ct.extract(prof, (BM // 2 - 1,), (2,))
        ct.atomic_add(stats, ct.arange(2) + 2, last)
    else:
        pass

    # Sanity checks that cost nothing at run time unless they fail.
    assert n > 0, "n must be positive"
    ct.static_assert(BM >= 32 and BK >= 16)
