"""tilecc._dltensor: DLTensors built in place (the Mamba-2 operator's fast path on torch) read
the same as a DLPack export of the array, and the library computes the same from them."""

import ctypes

import numpy as np

from tilecc import _lib
from tilecc._dltensor import DLTensor, TensorSlots, contiguous_strides
from tilecc._launch import _KDL_CPU, _PyCapsule_GetPointer, context_for
from tilecc import mamba2

_NUMPY_CODES = {np.dtype(np.float16): (2, 16), np.dtype(np.float32): (2, 32), np.dtype(np.float64): (2, 64)}


def entry(array):
    strides = tuple(s // array.itemsize for s in array.strides)
    return (_KDL_CPU, 0), _NUMPY_CODES[array.dtype], array.shape, strides


def fields(t):
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else contiguous_strides(shape)
    return (t.data, t.device.device_type, t.device.device_id, t.ndim, t.dtype.code, t.dtype.bits, t.dtype.lanes,
            shape, strides, t.byte_offset)


def test_slots_read_as_a_dlpack_export():
    base = np.arange(2 * 3 * 8, dtype=np.float32).reshape(2, 3, 8)
    for array in (base, base[:, ::2, 1:7:2], np.ones((5, 4), np.float16).T):
        capsule = array.__dlpack__()
        exported = DLTensor.from_address(_PyCapsule_GetPointer(capsule, b"dltensor"))
        slots = TensorSlots([None, entry(array)])
        slots.set_data([None, array.ctypes.data])
        assert slots.pointers[0] is None and slots.tensors[0] is None
        built = DLTensor.from_address(slots.pointers[1])
        assert fields(built) == fields(exported)


def test_the_ssd_pass_reads_slots_as_it_reads_exports():
    rng = np.random.default_rng(0)
    b, T, H, P, G, N = 1, 40, 4, 16, 2, 16
    wide = rng.standard_normal((b, T, H, 2 * P)).astype(np.float32)
    inputs = [wide[..., ::2], rng.uniform(-4, -1.5, (b, T, H)).astype(np.float32),
              -np.exp(rng.uniform(-1, 1, H)).astype(np.float32),
              rng.standard_normal((b, T, G, N)).astype(np.float32), rng.standard_normal((b, T, G, N)).astype(np.float32),
              rng.standard_normal(H).astype(np.float32), None, rng.uniform(-0.5, 0.5, H).astype(np.float32), None, None]
    options = (16, True, 0.0, float("inf"))
    want_y, want_final, _ = mamba2._numpy_forward(inputs, options, (_KDL_CPU, 0))

    plan = mamba2._plan(inputs, options)
    outputs = [np.full(shape, np.nan, dtype=dtype) for dtype, shape in plan]
    ins = TensorSlots([None if a is None else entry(a) for a in inputs])
    ins.set_data([None if a is None else a.ctypes.data for a in inputs])
    outs = TensorSlots([entry(o) for o in outputs])
    outs.set_data([o.ctypes.data for o in outputs])
    _lib.check(_lib.lib().tilecc_ssd_forward(context_for(_KDL_CPU, 0), ins.pointers, outs.pointers,
                                             ctypes.byref(mamba2._c_options(*options)), ctypes.c_void_p(0)))
    np.testing.assert_array_equal(outputs[0], want_y)
    np.testing.assert_array_equal(outputs[1], want_final)
