"""DLPack's DLTensor built in place, for calls that repeat on arrays of one signature.

A DLPack export (``tensor.__dlpack__()``) allocates a capsule and a managed tensor per array
and call; an operator that passes sixteen arrays per call spends more host time on that than
the GPU spends on a small problem. :class:`TensorSlots` holds DLTensor structs whose device,
dtype, shape and strides are set once for a signature; a call only writes the data pointers.
"""

import ctypes

# DLDataTypeCode (dlpack.h; the 8-bit floats since DLPack 1.1)
_INT, _UINT, _FLOAT, _BFLOAT, _BOOL, _FLOAT8_E4M3FN, _FLOAT8_E5M2 = 0, 1, 2, 4, 6, 10, 12

# torch's dtype names -> (code, bits); a dtype not here takes the DLPack export instead.
TORCH_DTYPES = {
    "torch.float16": (_FLOAT, 16), "torch.bfloat16": (_BFLOAT, 16), "torch.float32": (_FLOAT, 32),
    "torch.float64": (_FLOAT, 64), "torch.int8": (_INT, 8), "torch.int16": (_INT, 16), "torch.int32": (_INT, 32),
    "torch.int64": (_INT, 64), "torch.uint8": (_UINT, 8), "torch.bool": (_BOOL, 8),
    "torch.float8_e4m3fn": (_FLOAT8_E4M3FN, 8), "torch.float8_e5m2": (_FLOAT8_E5M2, 8),
}


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class TensorSlots:
    """DLTensors for a fixed list of (device, (code, bits), shape, strides in elements) entries,
    None for an absent array. ``pointers`` is the `DLTensor *` array a C call takes (null for
    absent entries); :meth:`set_data` fills the data pointers before each call. Not shared
    between threads while a call is being filled."""

    def __init__(self, entries):
        self._keep = []
        self.tensors = []
        self.pointers = (ctypes.c_void_p * len(entries))()
        for i, entry in enumerate(entries):
            if entry is None:
                self.tensors.append(None)
                continue
            (device_type, device_id), (code, bits), shape, strides = entry
            shape_array = (ctypes.c_int64 * len(shape))(*shape)
            strides_array = (ctypes.c_int64 * len(strides))(*strides)
            t = DLTensor(None, DLDevice(device_type, device_id), len(shape), DLDataType(code, bits, 1),
                         ctypes.cast(shape_array, ctypes.POINTER(ctypes.c_int64)),
                         ctypes.cast(strides_array, ctypes.POINTER(ctypes.c_int64)), 0)
            self._keep += [shape_array, strides_array]
            self.tensors.append(t)
            self.pointers[i] = ctypes.addressof(t)

    def set_data(self, addresses):
        """Sets the data pointers: one address per entry (those of absent entries are ignored)."""
        for t, address in zip(self.tensors, addresses):
            if t is not None:
                t.data = address


def contiguous_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(int(extent), 1)
    return tuple(reversed(strides))


def torch_slot(tensor):
    """A one-entry TensorSlots describing torch `tensor` in place (its data pointer set), for
    dtypes torch's own DLPack export refuses (the 8-bit floats, in torch releases before DLPack
    1.1); None when `tensor` is not a torch tensor of a dtype in TORCH_DTYPES."""
    dtype = TORCH_DTYPES.get(str(getattr(tensor, "dtype", "")))
    if dtype is None or not hasattr(tensor, "data_ptr") or not hasattr(tensor, "stride"):
        return None
    device = tensor.device
    where = (2, device.index or 0) if device.type == "cuda" else (1, 0)  # kDLCUDA, kDLCPU
    slots = TensorSlots([(where, dtype, tuple(tensor.shape), tuple(tensor.stride()))])
    slots.set_data([tensor.data_ptr()])
    return slots
