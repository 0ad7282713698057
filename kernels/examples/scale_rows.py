import cuda.tile as ct


@ct.kernel
def scale_rows(x, s, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    k = ct.load(s, index=(i,), shape=(TM,))
    ct.store(out, index=(i, j), tile=(t * k[:, None]).astype(out.dtype))
