# A GEMM with int8 weights, y = x @ (w * s) with x bf16 (M x K), w int8 stored K x N and s a
# float32 scale per output column, written the plain way: the weight tile is dequantized in
# registers (converted, scaled, rounded to bf16) and multiplied on the Tensor Cores, through a
# shared buffer (register fragments are not read from int8 stages); ragged edges are
# zero-padded.
import cuda.tile as ct


@ct.kernel
def int8_gemm(x, w, s, y, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    scale = ct.load(s, (j,), (TN,), padding_mode=ct.PaddingMode.ZERO)
    for k in range(ct.num_tiles(x, 1, (TM, TK))):
        a = ct.load(x, (i, k), (TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(w, (k, j), (TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, (b.astype(ct.float32) * scale[None, :]).astype(ct.bfloat16), acc)
    ct.store(y, (i, j), acc.astype(y.dtype))
