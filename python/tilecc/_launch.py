"""Kernels and their launches: ``@kernel`` captures a kernel's source file, ``launch`` binds
arguments (DLPack tensors, numbers) and runs it on the GPU or the interpreter."""

import ctypes
import inspect
import json
import numbers
import os
import threading
import warnings

from . import _lib
from ._dltensor import torch_slot

_KDL_CPU = 1
_KDL_CUDA = 2
_KDL_CUDA_HOST = 3
_KDL_CUDA_MANAGED = 13

_PyCapsule_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
_PyCapsule_GetPointer.restype = ctypes.c_void_p
_PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class Kernel:
    """A kernel of the tile language: a function whose source tile-cc compiles. It is launched
    with :func:`launch`, never called from the host."""

    def __init__(self, function, options):
        self.function = function
        self.__name__ = function.__name__
        self.__doc__ = function.__doc__
        self.__wrapped__ = function
        self.options = options
        self._program = None
        self._declaration = None
        self._lock = threading.Lock()
        self.file, self.source = _source_of(function)

    @property
    def name(self):
        """The name the compiler knows the kernel by: ``scale``, or ``make_scale.scale`` for a
        kernel defined in a factory function (its __qualname__ without ``<locals>``)."""
        parts = self.function.__qualname__.split(".")
        if len(parts) == 3 and parts[1] == "<locals>":
            return parts[0] + "." + parts[2]
        return self.function.__name__

    def factory_constants(self):
        """For a kernel defined in a factory: the values of the factory's names it uses (its
        closure), which specialize it as ``ct.Constant`` parameters do, in the order of its
        declaration. Empty for a top-level kernel."""
        if not self.function.__closure__:
            return []
        closure = {}
        for name, cell in zip(self.function.__code__.co_freevars, self.function.__closure__):
            try:
                closure[name] = cell.cell_contents
            except ValueError:  # not yet assigned in the factory
                pass
        own = set(inspect.signature(self.function).parameters)
        values = []
        for param in self.declaration()["params"]:
            name = param["name"]
            if name in own:
                continue
            if name not in closure:
                raise TypeError(f"kernel '{self.name}' uses '{name}' of its factory, but its closure holds no "
                                "value for it")
            value = closure[name]
            kind = getattr(getattr(value, "dtype", None), "kind", None)  # NumPy scalars
            if isinstance(value, bool) or (kind == "b" and getattr(value, "ndim", None) == 0):
                values.append(bool(value))
                continue
            if isinstance(value, numbers.Integral):
                values.append(int(value))
                continue
            if isinstance(value, numbers.Real):
                values.append(float(value))
                continue
            raise TypeError(f"kernel '{self.name}': '{name}', a variable of its factory that it uses, is a "
                            f"{type(value).__name__}; a kernel's factory variables are compile-time constants: "
                            "give an int, float or bool")
        return values

    def __call__(self, *args, **kwargs):
        raise TypeError(f"kernel '{self.name}' runs on the GPU: launch it with "
                        f"tilecc.launch(stream, grid, {self.name}, args)")

    def __repr__(self):
        return f"<tilecc kernel {self.name} of {self.file}>"

    def replace_hints(self, **hints):
        """cuTile's: this kernel with other compiler hints (``num_ctas``, ``occupancy``). tile-cc
        reads kernel options from the decorator in the source, so they are not applied (a
        warning says so) and the same kernel is returned."""
        if hints:
            warnings.warn(f"tilecc: replace_hints({', '.join(sorted(hints))}) on '{self.name}' is not applied: "
                          "tile-cc takes kernel options from the kernel's decorator", stacklevel=2)
        return self

    def program(self):
        with self._lock:
            if self._program is None:
                handle = ctypes.c_void_p()
                _lib.check(_lib.lib().tilecc_program_create(self.source.encode("utf-8"),
                                                           self.file.encode("utf-8"), ctypes.byref(handle)))
                self._program = _Program(handle)
            return self._program

    def declaration(self):
        """The kernel's parameters and autotune configurations, as the compiler reads them:
        ``{"params": [{"name", "constant", "has_default"}], "autotune_configs": [...], ...}``."""
        with self._lock:
            cached = self._declaration
        if cached is None:
            text = ctypes.c_void_p()
            library = _lib.lib()
            _lib.check(library.tilecc_program_inspect(self.program().handle, self.name.encode("utf-8"),
                                                      ctypes.byref(text)))
            try:
                cached = json.loads(ctypes.string_at(text.value).decode("utf-8"))
            finally:
                library.tilecc_free(text)
            with self._lock:
                self._declaration = cached
        return cached


class _Program:
    def __init__(self, handle):
        self.handle = handle

    def __del__(self):
        if _lib._lib is not None and self.handle:
            _lib._lib.tilecc_program_destroy(self.handle)


def _source_of(function):
    """The whole source file of `function` (the compiler reads its helpers and module
    constants too), or the function's own source when it has no file."""
    try:
        path = inspect.getsourcefile(function)
    except TypeError:
        path = None
    if path and os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            return path, f.read()
    try:
        return "<" + function.__name__ + ">", inspect.getsource(function)
    except (OSError, TypeError) as error:
        raise TypeError(f"kernel '{function.__name__}': its source is not available ({error}); "
                        "define kernels in a file") from None


def kernel(function=None, **options):
    """``@kernel`` or ``@kernel(occupancy=2, ...)``: marks a kernel. The options are read by the
    compiler from the decorator in the source, as cuTile's are."""
    if function is None:
        return lambda f: Kernel(f, options)
    return Kernel(function, options)


class _Contexts:
    def __init__(self):
        self._lock = threading.Lock()
        self._contexts = {}

    def get(self, backend, device):
        key = (backend, device)
        with self._lock:
            context = self._contexts.get(key)
            if context is None:
                handle = ctypes.c_void_p()
                _lib.check(_lib.lib().tilecc_context_create(backend, device, ctypes.byref(handle)))
                context = self._contexts[key] = handle
            return context


_contexts = _Contexts()


def _interpret_requested():
    value = os.environ.get("TILE_INTERPRET", "")
    return value != "" and value.lower() not in ("0", "false", "no", "off")


def context_for(device_type, device_id):
    """The context for tensors on (device_type, device_id): the interpreter for host memory (and
    under TILE_INTERPRET=1), else that GPU."""
    if device_type in (_KDL_CPU, _KDL_CUDA_HOST) or _interpret_requested():
        return _contexts.get(_lib.BACKEND_INTERPRETER, 0)
    return _contexts.get(_lib.BACKEND_GPU, device_id)


def _stream_handle(stream):
    """A CUstream from what cuTile programs pass: torch/CuPy streams, an int, or None."""
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    for attribute in ("cuda_stream", "ptr", "handle"):
        value = getattr(stream, attribute, None)
        if isinstance(value, int):
            return value
    if hasattr(stream, "__cuda_stream__"):
        return stream.__cuda_stream__()[1]
    raise TypeError(f"launch: the stream must be a torch or CuPy stream, a CUstream handle (int) or None, "
                    f"not {type(stream).__name__}")


def _grid_of(grid, what="grid"):
    if isinstance(grid, int):
        grid = (grid,)
    try:
        dims = tuple(grid)
    except TypeError:
        raise TypeError(f"launch: {what} must be an int or a tuple of 1 to 3 ints, "
                        f"not {type(grid).__name__}") from None
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"launch: {what} has {len(dims)} dimensions; give 1 to 3")
    out = []
    for axis, d in enumerate(dims):
        if isinstance(d, bool) or not isinstance(d, int) and not hasattr(d, "__index__"):
            raise TypeError(f"launch: {what}[{axis}] must be an int, not {type(d).__name__}")
        d = int(d.__index__())
        if d < 1 or d >= 2 ** 32:
            raise ValueError(f"launch: {what}[{axis}] = {d}; blocks along an axis must be at least 1 "
                             "(and below 2^32)")
        out.append(d)
    return tuple(out) + (1,) * (3 - len(out))


class _Namespace(dict):
    """An autotune configuration, readable as cfg.TILE or cfg["TILE"]."""

    __getattr__ = dict.__getitem__


def _grids(grid, kernel):
    configs = kernel.declaration()["autotune_configs"] if callable(grid) else []
    if callable(grid):
        if not configs:
            raise TypeError(f"launch: the grid of '{kernel.name}' is a function, but the kernel has no "
                            "@ct.autotune configurations; give a tuple")
        return [_grid_of(grid(_Namespace(c)), f"grid(config {i})") for i, c in enumerate(configs)]
    return [_grid_of(grid)]


def _scalar_arg(value, index, kernel):
    """The C argument of a number, or None when `value` is not one. NumPy scalars (np.float64 is
    also a Python float) keep their dtype; Python numbers take the C API's defaults."""
    arg = _lib.Arg()
    dtype = getattr(value, "dtype", None)
    kind = getattr(dtype, "kind", None)
    if kind is not None and getattr(value, "ndim", None) == 0:
        if kind == "b":
            arg.kind, arg.int_value = _lib.ARG_BOOL, int(bool(value))
        elif kind in ("i", "u"):
            arg.kind, arg.int_value = _lib.ARG_INT, int(value)
        elif kind == "f":
            arg.kind, arg.float_value = _lib.ARG_FLOAT, float(value)
        else:
            raise TypeError(f"launch of '{kernel.name}': argument {index + 1} is a {dtype} scalar; "
                            "give a bool, integer or floating-point number")
        arg.dtype = b"bool_" if kind == "b" else str(dtype).encode()
        return arg
    if isinstance(value, bool):
        arg.kind, arg.int_value = _lib.ARG_BOOL, int(value)
    elif isinstance(value, int):
        if not -2 ** 63 <= value < 2 ** 63:
            raise ValueError(f"launch of '{kernel.name}': argument {index + 1} = {value} does not fit int64")
        arg.kind, arg.int_value = _lib.ARG_INT, value
    elif isinstance(value, float):
        arg.kind, arg.float_value = _lib.ARG_FLOAT, value
    else:
        return None
    return arg


def _tensor_pointer(value, what, kernel, stream_handle, device, keep):
    """The DLTensor pointer of array `value` (kept alive through `keep`); `device` holds the
    (host memory?, GPU) of the call's first array, which every other must share."""
    if not hasattr(value, "__dlpack__"):
        raise TypeError(f"launch of '{kernel.name}': {what} is a {type(value).__name__}; "
                        "give an array with __dlpack__ (torch, CuPy, NumPy) or a number")
    device_type, device_id = value.__dlpack_device__()
    if device_type not in (_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED):
        raise ValueError(f"launch of '{kernel.name}': {what} lives on DLPack device type "
                         f"{int(device_type)}; give CUDA or host memory")
    here = (int(device_type) in (_KDL_CPU, _KDL_CUDA_HOST), int(device_id))
    if device[0] is None:
        device[0] = here
    elif here[0] != device[0][0] or (not here[0] and here[1] != device[0][1]):
        where = lambda d: "host memory" if d[0] else f"GPU {d[1]}"
        raise ValueError(f"launch of '{kernel.name}': {what} is in {where(here)} but an earlier "
                         f"array is in {where(device[0])}; every array must be on one device")
    if getattr(value, "requires_grad", False):
        value = value.detach()  # the kernel reads and writes the storage; autograd is the caller's
    try:
        if here[0]:
            capsule = value.__dlpack__()
        else:
            # The consumer's stream: the producer orders its pending work before it (DLPack
            # spells the legacy default stream 1).
            capsule = value.__dlpack__(stream=stream_handle or 1)
        pointer = _PyCapsule_GetPointer(capsule, b"dltensor")
    except (BufferError, RuntimeError, TypeError):
        # torch without DLPack 1.1 refuses its 8-bit floats: described in place (the caller's
        # stream orders the tensor's producer, as torch's launches do).
        capsule = torch_slot(value)
        if capsule is None:
            raise
        pointer = capsule.pointers[0]
    keep.append(capsule)
    return pointer


def launch(stream, grid, kernel, args):
    """Launches `kernel` on `grid` blocks with `args` in its parameter order, on `stream`.

    Arrays are any objects with ``__dlpack__`` (torch, CuPy, JAX, NumPy): CUDA memory runs on
    that GPU, host memory (NumPy) on the interpreter, as does everything under TILE_INTERPRET=1.
    Numbers given for ``ct.Constant`` parameters specialize the kernel; other numbers are
    scalars (int: int32, or int64 when needed; float: float32; NumPy scalars keep their dtype).
    A list (or tuple) of arrays of one dtype and rank is a list argument: in the kernel a tuple
    of arrays (``len(As)``, ``As[g]``; ``for g in range(len(As))`` is unrolled).
    For a kernel with ``@ct.autotune`` configurations `grid` may be a function of the
    configuration (``lambda cfg: (ct.cdiv(n, cfg.TILE),)``); the configurations are timed on the
    first launch of each key and the fastest is kept. On the GPU the launch is asynchronous.
    """
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch: the kernel must be a function decorated with @ct.kernel, "
                        f"not {type(kernel).__name__}")
    if not isinstance(args, (tuple, list)):
        raise TypeError(f"launch of '{kernel.name}': args must be a tuple or list, not {type(args).__name__}")
    # A kernel defined in a factory: its closure's values come first, as constants.
    factory = kernel.factory_constants()
    grids = _grids(grid, kernel)
    stream_handle = _stream_handle(stream)
    c_args = (_lib.Arg * max(1, len(factory) + len(args)))()
    for i, value in enumerate(factory):
        c_args[i] = _scalar_arg(value, i, kernel)
    capsules = []
    device = [None]  # (host memory?, GPU) of the first array
    for i, value in enumerate(args):
        if isinstance(value, (list, tuple)):
            # A list of arrays: the kernel's NAME[0] ... NAME[n-1] (one dtype and rank).
            pointers = (ctypes.c_void_p * max(1, len(value)))()
            for e, element in enumerate(value):
                pointers[e] = _tensor_pointer(element, f"argument {i + 1}, element {e}", kernel, stream_handle,
                                              device, capsules)
            capsules.append(pointers)
            arg = _lib.Arg()
            arg.kind, arg.int_value = _lib.ARG_TENSOR_LIST, len(value)
            arg.tensor = ctypes.addressof(pointers)
            c_args[len(factory) + i] = arg
            continue
        scalar = None if hasattr(value, "__dlpack__") else _scalar_arg(value, i, kernel)
        if scalar is not None:
            c_args[len(factory) + i] = scalar
            continue
        arg = _lib.Arg()
        arg.kind = _lib.ARG_TENSOR
        arg.tensor = _tensor_pointer(value, f"argument {i + 1}", kernel, stream_handle, device, capsules)
        c_args[len(factory) + i] = arg
    device = device[0]
    if device is None:  # numbers only: the GPU when there is one
        context = _contexts.get(_lib.BACKEND_AUTO, 0)
    else:
        context = context_for(_KDL_CPU if device[0] else _KDL_CUDA, device[1])
    c_grids = (_lib.Grid * len(grids))(*[_lib.Grid(*g) for g in grids])
    library = _lib.lib()
    status = library.tilecc_launch(context, kernel.program().handle, kernel.name.encode("utf-8"), c_grids,
                                   len(grids), c_args, len(factory) + len(args), ctypes.c_void_p(stream_handle))
    del capsules
    _lib.check(status)


def synchronize(device=0):
    """Waits for every launch on GPU `device` (the interpreter's launches are done when
    launch returns)."""
    _lib.check(_lib.lib().tilecc_context_synchronize(_contexts.get(_lib.BACKEND_GPU, device)))
