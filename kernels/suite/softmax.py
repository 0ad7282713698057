# Softmax along the rows of a matrix: each block loads TM whole rows (N wide), subtracts the
# row maximum, exponentiates and divides by the row sum, in float32, storing the input's dtype.
import cuda.tile as ct


@ct.kernel
def softmax(x, y, N: ct.Constant[int], TM: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, (row, 0), (TM, N), padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, (row, 0), (e / ct.sum(e, axis=1, keepdims=True)).astype(y.dtype))
