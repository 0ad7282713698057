# LayerNorm and RMSNorm over the rows of a matrix, written the plain way: each block loads TM
# whole rows (N wide, a power of two), reduces them in float32 and stores the normalized rows
# in the input's dtype. The weights (and LayerNorm's bias) are float32 vectors of N.
import cuda.tile as ct

EPS = 1e-5


@ct.kernel
def layer_norm(x, w, b, y, N: ct.Constant[int], TM: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, (row, 0), (TM, N), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    mean = ct.sum(t, axis=1, keepdims=True) / N
    d = t - mean
    var = ct.sum(d * d, axis=1, keepdims=True) / N
    out = d * ct.rsqrt(var + EPS) * ct.load(w, (0,), (N,)) + ct.load(b, (0,), (N,))
    ct.store(y, (row, 0), out.astype(y.dtype))


@ct.kernel
def rms_norm(x, w, y, N: ct.Constant[int], TM: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, (row, 0), (TM, N), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ms = ct.sum(t * t, axis=1, keepdims=True) / N
    out = t * ct.rsqrt(ms + EPS) * ct.load(w, (0,), (N,))
    ct.store(y, (row, 0), out.astype(y.dtype))
