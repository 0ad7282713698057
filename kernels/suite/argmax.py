# The index of each row's largest element over a vocabulary of any width V (32000 for the
# suite): blocks of TV columns, padded with -inf past the row's end, the running maximum and its
# index carried across them (the first index among equal maxima, as torch.argmax).
import cuda.tile as ct


@ct.kernel
def row_argmax(x, out, V: int, TM: ct.Constant[int], TV: ct.Constant[int]):
    row = ct.bid(0)
    best = ct.full((TM,), float("-inf"), dtype=ct.float32)
    index = ct.zeros((TM,), dtype=ct.int64)
    for j in range(ct.cdiv(V, TV)):
        t = ct.load(x, (row, j), (TM, TV), padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
        m = ct.max(t, axis=1)
        better = m > best
        index = ct.where(better, ct.argmax(t, axis=1).astype(ct.int64) + j * TV, index)
        best = ct.where(better, m, best)
    ct.store(out, (row,), index)
