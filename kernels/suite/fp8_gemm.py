# An fp8 GEMM as inference runs it, y = (x @ w^T) * sx * sw with x (M x K) and w (N x K, the
# nn.Linear layout) in float8_e4m3fn (or e5m2), scaled per tensor, y in bf16: both operands are
# K-major, which is how Hopper's 8-bit wgmma reads them (k32, twice bf16's rate); ragged edges
# are zero-padded.
import cuda.tile as ct


@ct.kernel
def fp8_gemm(x, w, y, sx: float, sw: float, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(x, 1, (TM, TK))):
        a = ct.load(x, (i, k), (TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(w, (j, k), (TN, TK), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, ct.transpose(b), acc)
    ct.store(y, (i, j), (acc * (sx * sw)).astype(y.dtype))
