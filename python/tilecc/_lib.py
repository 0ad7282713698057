"""The C API of libtilecc.so (include/tile/c/tilecc.h), loaded with ctypes.

The library is looked for, in order: $TILECC_LIBRARY; next to this package (an installed
wheel or ``pip install`` copies it into ``tilecc/lib``); the build folder of the source tree
this package sits in (``build/lib``); the system's library path.
"""

import ctypes
import ctypes.util
import os
import threading

API_VERSION = 4

OK = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_NO_DRIVER = 2
ERROR_NO_DEVICE = 3

BACKEND_AUTO = 0
BACKEND_GPU = 1
BACKEND_INTERPRETER = 2

ARG_TENSOR = 0
ARG_INT = 1
ARG_FLOAT = 2
ARG_BOOL = 3
ARG_TENSOR_LIST = 4  # `tensor` points to int_value DLTensor pointers


class TileError(RuntimeError):
    """An error reported by tile-cc (the message says what and where)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class TileArgumentError(TileError, ValueError):
    """Arguments that do not fit the kernel, or a kernel that does not compile."""


class NoGpuError(TileError):
    """No CUDA driver or no such GPU."""


class Arg(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int),
        ("tensor", ctypes.c_void_p),
        ("dtype", ctypes.c_char_p),
        ("int_value", ctypes.c_int64),
        ("float_value", ctypes.c_double),
    ]


Grid = ctypes.c_uint32 * 3

SSD_NUM_INPUTS = 9
SSD_NUM_OUTPUTS = 6


class SsdOptions(ctypes.Structure):
    _fields_ = [
        ("chunk_size", ctypes.c_int32),
        ("dt_softplus", ctypes.c_int32),
        ("dt_min", ctypes.c_double),
        ("dt_max", ctypes.c_double),
        ("y_dtype", ctypes.c_char_p),
        ("precision", ctypes.c_char_p),
    ]

_lock = threading.Lock()
_lib = None


def _candidates():
    env = os.environ.get("TILECC_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "lib", "libtilecc.so")
    source_root = os.path.dirname(os.path.dirname(here))
    yield os.path.join(source_root, "build", "lib", "libtilecc.so")
    found = ctypes.util.find_library("tilecc")
    if found:
        yield found


def _declare(lib):
    c_int, c_char_p, c_void_p, c_size_t = ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t
    signatures = {
        "tilecc_api_version": (c_int, []),
        "tilecc_version": (c_char_p, []),
        "tilecc_last_error": (c_char_p, []),
        "tilecc_context_create": (c_int, [c_int, c_int, ctypes.POINTER(c_void_p)]),
        "tilecc_context_destroy": (None, [c_void_p]),
        "tilecc_context_is_gpu": (c_int, [c_void_p]),
        "tilecc_context_description": (c_char_p, [c_void_p]),
        "tilecc_context_synchronize": (c_int, [c_void_p]),
        "tilecc_program_create": (c_int, [c_char_p, c_char_p, ctypes.POINTER(c_void_p)]),
        "tilecc_program_destroy": (None, [c_void_p]),
        "tilecc_program_inspect": (c_int, [c_void_p, c_char_p, ctypes.POINTER(c_void_p)]),
        "tilecc_free": (None, [c_void_p]),
        "tilecc_launch": (c_int, [c_void_p, c_void_p, c_char_p, ctypes.POINTER(Grid), c_size_t,
                                  ctypes.POINTER(Arg), c_size_t, c_void_p]),
        "tilecc_ssd_plan": (c_int, [ctypes.POINTER(c_void_p), ctypes.POINTER(SsdOptions), ctypes.POINTER(c_void_p)]),
        "tilecc_ssd_forward": (c_int, [c_void_p, ctypes.POINTER(c_void_p), ctypes.POINTER(c_void_p),
                                       ctypes.POINTER(SsdOptions), c_void_p]),
        "tilecc_ssd_backward": (c_int, [c_void_p, ctypes.POINTER(c_void_p), c_void_p, c_void_p,
                                        ctypes.POINTER(c_void_p), ctypes.POINTER(SsdOptions), c_void_p]),
        "tilecc_ssd_varlen_states": (c_int, [c_void_p, ctypes.POINTER(c_void_p), ctypes.POINTER(c_void_p), c_void_p,
                                             c_void_p, ctypes.POINTER(SsdOptions), c_void_p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


def lib():
    """The loaded library (loaded on first use)."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append(f"{path} (missing)")
                continue
            try:
                loaded = ctypes.CDLL(path)
            except OSError as error:
                tried.append(f"{path} ({error})")
                continue
            loaded.tilecc_api_version.restype = ctypes.c_int
            version = loaded.tilecc_api_version()
            if version < API_VERSION:
                raise TileError(f"{path} has C API version {version}; this package needs {API_VERSION} "
                                "(rebuild tile-cc)")
            _declare(loaded)
            _lib = loaded
            return _lib
        raise TileError("libtilecc.so not found; build tile-cc (scripts/build.sh) or set TILECC_LIBRARY. Tried: "
                        + "; ".join(tried))


def check(status):
    """Raises the exception of a failed call."""
    if status == OK:
        return
    message = lib().tilecc_last_error().decode("utf-8", "replace")
    if status == ERROR_INVALID_ARGUMENT:
        raise TileArgumentError(message, status)
    if status in (ERROR_NO_DRIVER, ERROR_NO_DEVICE):
        raise NoGpuError(message, status)
    raise TileError(message, status)
