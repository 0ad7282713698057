# Kernels the Python tests launch. They are compiled by tile-cc from this file's source; Python
# never runs their bodies.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def add(a, b, c, TILE: ConstInt):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(i,), tile=x + y)


@ct.kernel
def axpy(x, y, out, alpha, TILE: ConstInt):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    u = ct.load(y, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i,), tile=(t * alpha + u).astype(out.dtype))


@ct.kernel
def scale_rows(x, s, out, TM: ConstInt, TN: ConstInt = 16):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    k = ct.load(s, index=(i,), shape=(TM,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i, j), tile=(t * k[:, None]).astype(out.dtype))


@ct.kernel
def row_sum(x, out, TN: ConstInt):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i,), tile=ct.sum(t, axis=1))


@ct.autotune(configs=[dict(TILE=32), dict(TILE=64)], key=["n"])
@ct.kernel
def tuned_copy(x, out, n, TILE: ConstInt):
    i = ct.bid(0)
    ct.store(out, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO))
