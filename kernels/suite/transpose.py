# y = x transposed, one TM x TN tile per block, stored as the TN x TM tile of y.
import cuda.tile as ct


@ct.kernel
def transpose(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (j, i), ct.transpose(t))
