import cuda.tile as ct

from .broken import bad


@ct.kernel
def k(x):
    ct.store(x, index=(0,), tile=bad(ct.load(x, index=(0,), shape=(16,))))
