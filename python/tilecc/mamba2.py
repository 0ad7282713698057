"""Mamba-2's chunked selective scan (SSD) on tile-cc's kernels: ``mamba_chunk_scan_combined``
with ``mamba_ssm``'s signature and semantics, differentiable under torch's autograd, and
``mamba_chunk_scan_combined_backward`` for the gradients on any arrays.

    from tilecc.mamba2 import mamba_chunk_scan_combined
    y = mamba_chunk_scan_combined(x, dt, A, B, C, 128, D=D, z=z, dt_bias=dt_bias, dt_softplus=True)

torch tensors go through the custom operator ``torch.ops.tilecc.mamba_chunk_scan_combined``
(``torch.compile`` traces through it, CUDA graphs capture it once a first call has compiled and
tuned its kernels); its outputs are allocated by torch on the inputs' device, and it runs on
torch's current stream; its backward (registered with torch.library) runs tile-cc's backward
kernels. NumPy arrays (and CPU tensors) run on tile-cc's interpreter.
"""

import ctypes
import json
import math
import sys
import threading
from typing import List, Optional, Tuple

from . import _lib
from ._dltensor import TORCH_DTYPES, TensorSlots, contiguous_strides
from ._launch import _KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _PyCapsule_GetPointer, context_for

_NAME = "tilecc.mamba2.mamba_chunk_scan_combined"
# The C API's order (include/tile/c/tilecc.h): inputs, then outputs.
_INPUTS = ("x", "dt", "A", "B", "C", "D", "z", "dt_bias", "initial_states", "seq_idx")
_REQUIRED = 5
_OUTPUTS = ("y", "final_states", "dt_out", "dA_cumsum", "states", "cb")


def _check_options(chunk_size, dt_softplus, dt_limit):
    """(chunk_size, dt_softplus, dt_min, dt_max), checked; raises naming the argument."""
    if chunk_size is None:
        chunk_size = 0
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int):
        raise TypeError(f"{_NAME}: chunk_size must be an int (or None), not {type(chunk_size).__name__}")
    if chunk_size and (chunk_size & (chunk_size - 1) or not 16 <= chunk_size <= 256):
        raise ValueError(f"{_NAME}: chunk_size {chunk_size} is not supported: give a power of two from 16 to "
                         "256, or None for tile-cc's choice (the result does not depend on it beyond rounding)")
    try:
        dt_min, dt_max = (float(v) for v in dt_limit)
    except (TypeError, ValueError):
        raise TypeError(f"{_NAME}: dt_limit must be a pair of numbers (min, max), not {dt_limit!r}") from None
    if math.isnan(dt_min) or math.isnan(dt_max) or dt_min > dt_max:
        raise ValueError(f"{_NAME}: dt_limit {dt_limit!r} is not an interval (min <= max)")
    return int(chunk_size), bool(dt_softplus), dt_min, dt_max


def _c_options(chunk_size, dt_softplus, dt_min, dt_max):
    options = _lib.SsdOptions()
    options.chunk_size = chunk_size
    options.dt_softplus = int(dt_softplus)
    options.dt_min = dt_min
    options.dt_max = dt_max
    return options


_Tensor = None  # torch.Tensor once the operator is registered
_to_dlpack = None  # torch.utils.dlpack.to_dlpack, likewise


def _is_torch(value):
    if _Tensor is not None:
        return isinstance(value, _Tensor)
    if type(value).__module__.startswith("torch"):
        _torch_op()
        return True
    return False


def _capsule(value):
    if _is_torch(value):
        # No stream handshake: the kernels run on torch's current stream, after its work.
        return _to_dlpack(value.detach() if value.requires_grad else value)
    return value.__dlpack__()


class _Tensors:
    """DLTensor pointers of arrays for one C call; holds their capsules until released."""

    def __init__(self, arrays):
        # The C API reads a fixed number of slots (TILECC_SSD_NUM_INPUTS or _OUTPUTS).
        assert len(arrays) in (len(_INPUTS), len(_OUTPUTS)), f"{len(arrays)} arrays"
        self.capsules = [None if a is None else _capsule(a) for a in arrays]
        pointers = [None if c is None else _PyCapsule_GetPointer(c, b"dltensor") for c in self.capsules]
        self.c_array = (ctypes.c_void_p * len(pointers))(*pointers)


_plans = {}
_plans_lock = threading.Lock()


def _plan(inputs, options_key):
    """The outputs' (dtype name, shape) for these inputs, from the library (cached by the
    inputs' dtypes and shapes and the options)."""
    key = (tuple(None if a is None else (str(a.dtype), tuple(a.shape)) for a in inputs), options_key)
    with _plans_lock:
        plan = _plans.get(key)
    if plan is not None:
        return plan
    tensors = _Tensors(inputs)
    text = ctypes.c_void_p()
    library = _lib.lib()
    _lib.check(library.tilecc_ssd_plan(tensors.c_array, ctypes.byref(_c_options(*options_key)), ctypes.byref(text)))
    try:
        doc = json.loads(ctypes.string_at(text.value).decode("utf-8"))
    finally:
        library.tilecc_free(text)
    plan = [(o["dtype"], tuple(o["shape"])) for o in doc["outputs"]]
    with _plans_lock:
        _plans[key] = plan
    return plan


def _forward(inputs, outputs, options_key, device, stream):
    """Runs the pass on `device` ((DLPack device type, id)) into `outputs`."""
    context = context_for(*device)
    ins, outs = _Tensors(inputs), _Tensors(outputs)
    _lib.check(_lib.lib().tilecc_ssd_forward(context, ins.c_array, outs.c_array,
                                             ctypes.byref(_c_options(*options_key)), ctypes.c_void_p(stream)))
    del ins, outs


def _varlen_states(context, input_array, output_array, cu_seqlens, varlen, options, stream):
    """Each packed sequence's final state into `varlen`, from a pass's inputs and outputs (C
    arrays of DLTensor pointers)."""
    capsules = [_capsule(cu_seqlens), _capsule(varlen)]
    cu, out = (_PyCapsule_GetPointer(c, b"dltensor") for c in capsules)
    _lib.check(_lib.lib().tilecc_ssd_varlen_states(context, input_array, output_array, cu, out, ctypes.byref(options),
                                                   ctypes.c_void_p(stream)))
    del capsules


def _backward(inputs, dy, dfinal, options_key, device, stream, empty):
    """The gradients of every input given (None for the others), float32 arrays from
    `empty(shape)`, by the library's backward pass on `device`."""
    grads = [None if a is None or name == "seq_idx" else empty(tuple(a.shape))
             for name, a in zip(_INPUTS, inputs)]
    ins, outs = _Tensors(inputs), _Tensors(grads)
    capsules = [_capsule(dy)] + ([] if dfinal is None else [_capsule(dfinal)])
    pointers = [_PyCapsule_GetPointer(c, b"dltensor") for c in capsules] + [None]
    _lib.check(_lib.lib().tilecc_ssd_backward(context_for(*device), ins.c_array, pointers[0], pointers[1],
                                              outs.c_array, ctypes.byref(_c_options(*options_key)),
                                              ctypes.c_void_p(stream)))
    del ins, outs, capsules
    return grads


def mamba_chunk_scan_combined_backward(dy, x, dt, A, B, C, chunk_size, D=None, z=None, dt_bias=None,
                                       initial_states=None, seq_idx=None, dfinal_states=None, dt_softplus=False,
                                       dt_limit=(0.0, float("inf"))):
    """The gradients of sum(dy * y) + sum(dfinal_states * final_states) for
    ``mamba_chunk_scan_combined`` with these arguments: a tuple (dx, ddt, dA, dB, dC, dD, dz,
    ddt_bias, dinitial_states), float32 arrays of the library the inputs come from, None for an
    input not given. torch tensors need not use this: their gradients flow through autograd."""
    inputs = [x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx]
    for name, value in zip(_INPUTS[:_REQUIRED], inputs):
        if value is None:
            raise TypeError(f"{_NAME}: {name} is required")
    options = _check_options(chunk_size, dt_softplus, dt_limit)
    if _is_torch(x):
        import torch
        device = x.device
        empty = lambda shape: torch.empty(shape, dtype=torch.float32, device=device)  # noqa: E731
        stream = _stream_getter(torch, device)() if device.type == "cuda" else 0
        dl = (_KDL_CUDA, device.index or 0) if device.type == "cuda" else (_KDL_CPU, 0)
    else:
        import numpy as np
        empty = lambda shape: np.empty(shape, dtype=np.float32)  # noqa: E731
        stream, dl = 0, _check_inputs(inputs)
    grads = _backward(inputs, dy, dfinal_states, options, dl, stream, empty)
    return tuple(grads[:len(_INPUTS) - 1])


def _where(device):
    kind, index = device
    return "host memory" if kind in (_KDL_CPU, _KDL_CUDA_HOST) else f"cuda:{index}"


def _check_inputs(inputs):
    """The common (DLPack device type, id) of the inputs; raises naming an argument that is not
    an array or lives elsewhere."""
    device = None
    for name, value in zip(_INPUTS, inputs):
        if value is None:
            continue
        if not hasattr(value, "__dlpack__"):
            raise TypeError(f"{_NAME}: {name} must be an array (torch, NumPy, CuPy), not {type(value).__name__}")
        if _is_torch(value) != _is_torch(inputs[0]):
            raise TypeError(f"{_NAME}: {name} is a {type(value).__name__} but x is a {type(inputs[0]).__name__}; "
                            "give arrays of one library")
        here = tuple(int(v) for v in value.__dlpack_device__())
        if device is None:
            device = here
        elif _where(here) != _where(device):
            raise ValueError(f"{_NAME}: {name} is in {_where(here)} but x is in {_where(device)}; every array must be "
                             "on one device")
    return device


def mamba_chunk_scan_combined(x, dt, A, B, C, chunk_size, D=None, z=None, dt_bias=None, initial_states=None,
                              seq_idx=None, cu_seqlens=None, dt_softplus=False, dt_limit=(0.0, float("inf")),
                              return_final_states=False, return_varlen_states=False):
    """y = SSD(x, dt, A, B, C) as ``mamba_ssm.ops.triton.ssd_combined.mamba_chunk_scan_combined``
    computes it: x (b, T, H, P), dt (b, T, H), A (H), B and C (b, T, G, N); D (H) or (H, P),
    z (b, T, H, P) gates y by silu(z), dt_bias (H); dt = softplus(dt + dt_bias) when dt_softplus,
    clamped to dt_limit; initial_states (b, H, P, N); seq_idx (b, T) int32 packs sequences into
    one row: the state starts from zero where it changes (initial_states are sequence 0's).
    With return_varlen_states, cu_seqlens ((nseq + 1,) int32, from 0 to T, the same boundaries;
    batch 1) gives each sequence's final state, (nseq, H, P, N) float32.

    Returns y (b, T, H, P) in x's dtype, and with return_final_states also the final states
    (b, H, P, N) in float32, then with return_varlen_states the sequences' final states (as
    mamba_ssm: y, [final_states,] [varlen_states]). `chunk_size` is a power of two from 16 to 256, or None for
    tile-cc's choice (the fastest it knows for the shape). On torch tensors that require
    gradients, autograd runs tile-cc's backward kernels.
    """
    inputs = [x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx]
    if return_varlen_states and cu_seqlens is None:
        raise ValueError(f"{_NAME}: return_varlen_states needs cu_seqlens (where each packed sequence starts)")
    if not return_varlen_states:
        cu_seqlens = None  # nothing reads it (as in mamba_ssm)
    for name, value in zip(_INPUTS[:_REQUIRED], inputs):
        if value is None:
            raise TypeError(f"{_NAME}: {name} is required")
    options = _check_options(chunk_size, dt_softplus, dt_limit)
    if _is_torch(x):
        # The operator (torch.compile traces this function: no DLPack here); called eagerly
        # without autograd, its body runs directly: the dispatcher's round trip through Python
        # costs more host time than the GPU spends on a small problem.
        if _through_dispatcher(inputs):
            y, final_states, varlen_states = _op(x, dt, A, B, C, options[0], D, z, dt_bias, initial_states, seq_idx,
                                                 cu_seqlens, *options[1:])
        else:
            y, final_states, varlen_states = _torch_forward(inputs, options, cu_seqlens)
    else:
        y, final_states, varlen_states = _numpy_forward(inputs, options, _check_inputs(inputs), cu_seqlens)
    results = (y,) + ((final_states,) if return_final_states else ()) + ((varlen_states,) if return_varlen_states
                                                                            else ())
    return results if len(results) > 1 else y


_NUMPY_DTYPES = {"float16": "float16", "float32": "float32", "float64": "float64"}


def _numpy_forward(inputs, options, device, cu_seqlens=None):
    import numpy as np
    outputs = []
    for name, (dtype, shape) in zip(_OUTPUTS, _plan(inputs, options)):
        if dtype not in _NUMPY_DTYPES:
            raise TypeError(f"{_NAME}: output {name} would be {dtype}, which NumPy has no dtype for")
        outputs.append(np.empty(shape, dtype=_NUMPY_DTYPES[dtype]))
    _forward(inputs, outputs, options, device, 0)
    varlen = None
    if cu_seqlens is not None:
        cu_seqlens = np.asarray(cu_seqlens)
        # Host memory: the boundaries can be checked here (on a GPU they are the caller's promise).
        length = inputs[0].shape[1]
        if cu_seqlens.ndim == 1 and len(cu_seqlens) and (cu_seqlens[0] != 0 or cu_seqlens[-1] != length or
                                                         np.any(np.diff(cu_seqlens) < 0)):
            raise ValueError(f"{_NAME}: cu_seqlens must rise from 0 to T = {length}; got {cu_seqlens.tolist()}")
        heads, headdim, dstate = inputs[0].shape[2], inputs[0].shape[3], inputs[3].shape[3]
        varlen = np.empty((max(len(cu_seqlens) - 1, 0) if cu_seqlens.ndim == 1 else 0, heads, headdim, dstate),
                          np.float32)
        ins, outs = _Tensors(inputs), _Tensors(outputs)
        _varlen_states(context_for(*device), ins.c_array, outs.c_array, cu_seqlens, varlen, _c_options(*options), 0)
        del ins, outs
    return outputs[0], outputs[1], varlen


def _through_dispatcher(inputs):
    """Whether a call on torch tensors goes through the registered operator: while torch.compile
    traces, and where autograd would record it."""
    import torch
    if torch.compiler.is_compiling():
        return True
    return torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in inputs)


class _TorchPass:
    """The pass on torch tensors of one signature (dtypes, shapes, strides, device) and options:
    checked and planned once; a call allocates y, the final states and one workspace for the
    intermediates, writes sixteen data pointers and calls the library."""

    _ALIGN = 256  # bytes between the intermediates in the workspace (TMA wants 16, L2 lines 128)

    def __init__(self, inputs, options):
        import torch
        x = inputs[0]
        for name, value in zip(_INPUTS, inputs):
            if value is not None and value.device != x.device:
                raise ValueError(f"{_NAME}: {name} is on {value.device} but x is on {x.device}; every tensor must be "
                                 "on one device")
        self.options = _c_options(*options)
        self.device = x.device
        on_gpu = x.device.type == "cuda"
        dl_device = (_KDL_CUDA, x.device.index or 0) if on_gpu else (_KDL_CPU, 0)
        self.context = context_for(*dl_device)
        self.stream = _stream_getter(torch, x.device) if on_gpu else (lambda: 0)
        plan = _plan(inputs, options)
        self.y, self.final_states = ((shape, getattr(torch, dtype)) for dtype, shape in plan[:2])
        self.offsets, self.workspace = [], 0
        for dtype, shape in plan[2:]:
            self.offsets.append(self.workspace)
            nbytes = math.prod(shape) * torch.empty((), dtype=getattr(torch, dtype)).element_size()
            self.workspace += -(-nbytes // self._ALIGN) * self._ALIGN
        codes = [None if t is None else TORCH_DTYPES.get(str(t.dtype)) for t in inputs]
        # A dtype DLPack knows but the table does not goes through the export each call (the
        # library then names it in its error).
        self.exported = any(t is not None and c is None for t, c in zip(inputs, codes))
        entries = [None if t is None else (dl_device, code, tuple(t.shape), tuple(t.stride()))
                   for t, code in zip(inputs, codes)]
        self.inputs = None if self.exported else TensorSlots(entries)
        self.outputs = TensorSlots([(dl_device, TORCH_DTYPES[f"torch.{dtype}"], shape, contiguous_strides(shape))
                                    for dtype, shape in plan])

    def __call__(self, inputs, cu_seqlens=None):
        import torch
        y = torch.empty(self.y[0], dtype=self.y[1], device=self.device)
        final_states = torch.empty(self.final_states[0], dtype=self.final_states[1], device=self.device)
        workspace = torch.empty(self.workspace, dtype=torch.uint8, device=self.device)
        base = workspace.data_ptr()
        self.outputs.set_data([y.data_ptr(), final_states.data_ptr()] + [base + o for o in self.offsets])
        if self.exported:
            ins = _Tensors(inputs)
            input_array = ins.c_array
        else:
            self.inputs.set_data([None if t is None else t.data_ptr() for t in inputs])
            input_array = self.inputs.pointers
        stream = self.stream()
        _lib.check(_lib.lib().tilecc_ssd_forward(self.context, input_array, self.outputs.pointers,
                                                 ctypes.byref(self.options), ctypes.c_void_p(stream)))
        if cu_seqlens is None:
            return y, final_states, y.new_empty((0,) + self.final_states[0][1:], dtype=torch.float32)
        # The workspace's intermediates are read before torch reuses its memory: the launch is
        # queued on the same stream.
        varlen = torch.empty((max(cu_seqlens.shape[0] - 1, 0),) + self.final_states[0][1:], dtype=torch.float32,
                             device=self.device)
        _varlen_states(self.context, input_array, self.outputs.pointers, cu_seqlens, varlen, self.options, stream)
        return y, final_states, varlen


def _stream_getter(torch, device):
    """The current stream's handle on `device`, the cheapest way this torch has."""
    index = device.index if device.index is not None else torch.cuda.current_device()
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return lambda: raw(index)
    return lambda: torch.cuda.current_stream(device).cuda_stream


_passes = threading.local()  # per thread: a pass fills its DLTensors before each call
_MAX_PASSES = 64


def _torch_forward(inputs, options, cu_seqlens=None):
    key = (tuple(None if t is None else (t.dtype, t.shape, t.stride(), t.device) for t in inputs), options)
    passes = getattr(_passes, "by_key", None)
    if passes is None:
        passes = _passes.by_key = {}
    run = passes.get(key)
    if run is None:
        run = _TorchPass(inputs, options)
        if len(passes) >= _MAX_PASSES:
            passes.clear()
        passes[key] = run
    return run(inputs, cu_seqlens)


_op = None
_op_lock = threading.Lock()


def _torch_op():
    """torch.ops.tilecc.mamba_chunk_scan_combined, registered on first use."""
    global _op, _Tensor, _to_dlpack
    with _op_lock:
        if _op is None:
            import torch
            import torch.utils.dlpack
            _to_dlpack = torch.utils.dlpack.to_dlpack
            _op = _register_torch_op()
            _Tensor = torch.Tensor
        return _op


def _register_torch_op():
    import torch

    @torch.library.custom_op("tilecc::mamba_chunk_scan_combined", mutates_args=())
    def op(x: torch.Tensor, dt: torch.Tensor, A: torch.Tensor, B: torch.Tensor, C: torch.Tensor, chunk_size: int,
           D: Optional[torch.Tensor], z: Optional[torch.Tensor], dt_bias: Optional[torch.Tensor],
           initial_states: Optional[torch.Tensor], seq_idx: Optional[torch.Tensor],
           cu_seqlens: Optional[torch.Tensor], dt_softplus: bool, dt_min: float,
           dt_max: float) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return _torch_forward([x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx],
                              (chunk_size, dt_softplus, dt_min, dt_max), cu_seqlens)

    @op.register_fake
    def _(x, dt, A, B, C, chunk_size, D, z, dt_bias, initial_states, seq_idx, cu_seqlens, dt_softplus, dt_min, dt_max):
        b, _, heads, headdim = x.shape
        nseq = 0 if cu_seqlens is None else max(cu_seqlens.shape[0] - 1, 0)
        return (x.new_empty(x.shape), x.new_empty((b, heads, headdim, B.shape[-1]), dtype=torch.float32),
                x.new_empty((nseq, heads, headdim, B.shape[-1]), dtype=torch.float32))

    @torch.library.custom_op("tilecc::mamba_chunk_scan_combined_backward", mutates_args=())
    def backward_op(dy: torch.Tensor, dfinal: torch.Tensor, x: torch.Tensor, dt: torch.Tensor, A: torch.Tensor,
                    B: torch.Tensor, C: torch.Tensor, chunk_size: int, D: Optional[torch.Tensor],
                    z: Optional[torch.Tensor], dt_bias: Optional[torch.Tensor], initial_states: Optional[torch.Tensor],
                    seq_idx: Optional[torch.Tensor], dt_softplus: bool, dt_min: float,
                    dt_max: float) -> List[torch.Tensor]:
        inputs = [x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx]
        device = x.device
        stream = _stream_getter(torch, device)() if device.type == "cuda" else 0
        dl = (_KDL_CUDA, device.index or 0) if device.type == "cuda" else (_KDL_CPU, 0)
        grads = _backward(inputs, dy, dfinal, (chunk_size, dt_softplus, dt_min, dt_max), dl, stream,
                          lambda shape: torch.empty(shape, dtype=torch.float32, device=device))
        # Absent inputs' gradients as empty tensors (a custom op returns tensors only).
        return [g if g is not None else x.new_empty((0,), dtype=torch.float32) for g in grads[:len(_INPUTS) - 1]]

    @backward_op.register_fake
    def _(dy, dfinal, x, dt, A, B, C, chunk_size, D, z, dt_bias, initial_states, seq_idx, dt_softplus, dt_min, dt_max):
        inputs = [x, dt, A, B, C, D, z, dt_bias, initial_states]
        return [x.new_empty(t.shape if t is not None else (0,), dtype=torch.float32) for t in inputs]

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*[t for t in inputs if isinstance(t, torch.Tensor)])
        ctx.arguments = inputs

    def backward(ctx, dy, dfinal, dvarlen):
        (x, dt, A, B, C, chunk_size, D, z, dt_bias, initial_states, seq_idx, cu_seqlens, dt_softplus, dt_min,
         dt_max) = ctx.arguments
        if dvarlen is not None and dvarlen.numel() and bool((dvarlen != 0).any()):
            raise NotImplementedError(f"{_NAME}: gradients through varlen_states are not supported yet")
        if dy is None:
            dy = torch.zeros_like(x)
        if dfinal is None:
            dfinal = x.new_zeros((x.shape[0], x.shape[2], x.shape[3], B.shape[-1]), dtype=torch.float32)
        grads = backward_op(dy, dfinal, x, dt, A, B, C, chunk_size, D, z, dt_bias, initial_states, seq_idx,
                            dt_softplus, dt_min, dt_max)
        # In each input's dtype, for the inputs that take gradients (the op's arguments 0-4, 6-9).
        positions = (0, 1, 2, 3, 4, 6, 7, 8, 9)
        result = [None] * len(ctx.needs_input_grad)
        for g, i in zip(grads, positions):
            if ctx.needs_input_grad[i]:
                result[i] = g.to(ctx.arguments[i].dtype)
        return tuple(result)

    op.register_autograd(backward, setup_context=setup_context)
    return op


# A program that already uses torch gets the operator now, before torch.compile traces a call.
if "torch" in sys.modules:
    _torch_op()
