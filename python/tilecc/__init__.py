"""tilecc: run kernels of the tile language (cuTile's Python spelling) from Python, compiled
by tile-cc, on PyTorch, CuPy, JAX or NumPy arrays.

    import tilecc as ct          # or: python -m tilecc program.py (its `import cuda.tile` is us)

    @ct.kernel
    def add(a, b, c, TILE: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(c, index=(i,), tile=ct.load(a, index=(i,), shape=(TILE,)) + ct.load(b, index=(i,), shape=(TILE,)))

    ct.launch(torch.cuda.current_stream(), (ct.cdiv(n, 1024),), add, (a, b, c, 1024))

Mamba-2's chunked scan with mamba_ssm's signature: ``tilecc.mamba2.mamba_chunk_scan_combined``.
CUDA arrays run on their GPU; host arrays (NumPy) and everything under TILE_INTERPRET=1 run on
tile-cc's interpreter. See docs/python.md.
"""

from ._lib import NoGpuError, TileArgumentError, TileError
from ._launch import Kernel, kernel, launch, synchronize
from ._names import (Array, ByTarget, Config, ConstBool, ConstFloat, ConstInt, Constant, DType, MemoryOrder, MemoryScope,
                     PaddingMode, RoundingMode, Scalar, Tile, autotune, cdiv, compiler_timeout, dtypes)
from . import _cuda_tile, _lib, _names, tune  # submodules first: __getattr__ below must not shadow them

globals().update(dtypes)
int_ = dtypes["int64"]
float_ = dtypes["float64"]
function = lambda f=None, **_: f if f is not None else (lambda g: g)  # @ct.function: a helper, inlined


def install_cuda_tile_alias():
    """Makes ``import cuda.tile as ct`` give this package in this process."""
    _cuda_tile.install()


def version():
    """The compiler's version (of the loaded libtilecc.so)."""
    return _lib.lib().tilecc_version().decode()


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if name == "mamba2":  # imported on first use: it registers a torch operator
        import importlib
        return importlib.import_module(".mamba2", __name__)
    return _names._KernelOnly(name)
