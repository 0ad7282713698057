# A kernel file as cuTile users write it: host code (imports, argparse, a class, functions
# that raise, comprehensions, f-strings, a __main__ block) shares the file with the kernels.
# Only what a kernel reaches is compiled; the rest is set aside without errors.
# RUN: tile-cc %s --kernel scaled --const TILE=16 --arg x=f32:1 --arg out=f32:1 --arg n=i32:0 | FileCheck %s
# RUN: tile-cc %s --list-kernels | FileCheck %s --check-prefix=LIST
# RUN: not tile-cc %s --kernel uses_host --arg x=f32:1 2>&1 | FileCheck %s --check-prefix=HOST
# RUN: tile-cc %s --kernel registered --arg x=f32:1 --emit=tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=DECORATED
# RUN: tile-cc %s --kernel library_decorated --arg x=f32:1 --emit=tile -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIBRARY
import argparse
import math

import cuda.tile as ct
import numpy as np
import pytest
import torch

ConstInt = ct.Constant[int]
LOG2E = math.log2(math.e)
NEG_INF = -math.inf
BIG = float("inf")
HALF = np.float32
SCALE = math.sqrt(16.0) * np.pi


class Runner:
    def __init__(self, n):
        self.sizes = [i * 2 for i in range(n)]

    def label(self):
        return f"runner of {len(self.sizes)}"


def check(x):
    if x.ndim != 1:
        raise ValueError("1-D only")


# Plain Python helpers called from a kernel are inlined like @ct.function ones.
def shifted(t, by):
    return t - by


# LIST: scaled: TILE(const) x out n
# CHECK-LABEL: tile.kernel @scaled
# CHECK-SAME: TILE = 16
# CHECK: arith.constant dense<1.44269502> : tensor<16xf32>
# CHECK: arith.constant dense<12.56637{{[0-9]*}}> : tensor<16xf32>
# CHECK: arith.constant dense<0xFF800000> : tensor<16xf32>
# CHECK: arith.maximumf
# CHECK: tile.store
@ct.kernel
def scaled(x: torch.Tensor, out: torch.Tensor, n: int, TILE: ConstInt):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    t = shifted(t * LOG2E, SCALE)
    t = ct.maximum(t, ct.full((TILE,), NEG_INF, dtype=ct.float32))
    ct.static_assert(BIG > 1e308 and HALF == ct.float32)
    ct.store(out, index=(ct.bid(0),), tile=t)


# HOST: host_code.py:[[@LINE+4]]:5: error: 'check' is defined by host code that tile-cc cannot compile
# HOST: host_code.py:[[@LINE-26]]:9: note: `raise` statements are not supported
@ct.kernel
def uses_host(x):
    check(x)


def experimental(fn):
    return fn


# A decorator of the host program (TileGym's @experimental_kernel) acts on the Python
# function, not on the kernel: a warning, and the kernel compiles as written.
# DECORATED: host_code.py:[[@LINE+2]]:2: warning: a decorator that is not cuTile's on kernel 'registered': ignored (the kernel compiles as written)
# DECORATED: 1 warning generated.
@experimental
@ct.kernel
def registered(x):
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)) * 2.0)


def launch(x: torch.Tensor):
    out = torch.empty_like(x)
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(x.shape[0], 16),), scaled, (x, out, x.shape[0], 16))
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1024)
    args = parser.parse_args()
    print(f"{launch(torch.ones(args.n, device='cuda'))[:4]}")


# Host libraries' decorators written as attributes (pytest's fixtures, torch's) are named, not
# evaluated: on a host function they are nothing, on a kernel a warning.
@pytest.fixture(scope="session", autouse=True)
def needs_gpu():
    if not torch.cuda.is_available():
        pytest.skip("no GPU")


# LIST: library_decorated: x
# LIBRARY: host_code.py:[[@LINE+2]]:2: warning: a decorator that is not cuTile's on kernel 'library_decorated': ignored (the kernel compiles as written)
# LIBRARY: 1 warning generated.
@torch.compiler.disable
@ct.kernel
def library_decorated(x):
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)) + 1.0)
