# An import cycle: cycle_a.py imports cycle_b.py imports cycle_a.py.
import cuda.tile as ct

from .cycle_b import g


@ct.kernel
def k(x):
    ct.store(x, index=(0,), tile=g(ct.load(x, index=(0,), shape=(16,))))
