# A kernel module imported by test/frontend/imports.py: helpers and constants of its own,
# and an import of a sibling module (consts.py) relative to this file.
import math

import cuda.tile as ct

from .consts import HALF

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@ct.function
def gelu_tanh(x):
    inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
    return HALF * x * (1.0 + ct.tanh(inner))


def host_only(n):
    raise ValueError(f"{n} is host code")
