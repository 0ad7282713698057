import cuda.tile as ct
import numpy as np
from cuda.tile._datatype import float4_e2m1fn
from cuda.tile._stub import pack_to_bytes


@ct.kernel
def quantize(x, y):
    t = ct.load(x, index=(0,), shape=(16,)).astype(float4_e2m1fn)
    ct.store(y, index=(0,), tile=pack_to_bytes(t))


@ct.kernel
def scale(x):
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)) * 2)
