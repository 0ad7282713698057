"""The names cuTile programs use outside kernel bodies (annotations, decorators, dtypes, host
arithmetic), and stand-ins for the ones that only mean something inside a kernel.

Kernel bodies are never run by Python: tile-cc compiles their source. But a program evaluates
``ct.Constant[int]`` in its signatures, ``ct.ByTarget(...)`` in its decorators and may refer to
``ct.float16`` at module level, so those exist here as plain objects.
"""


class DType:
    """A cuTile dtype (``tilecc.bfloat16``, ...)."""

    def __init__(self, name, bits):
        self.name = name
        self.bits = bits

    def __repr__(self):
        return f"tilecc.{self.name}"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.name}(...) converts values inside a kernel only")


_DTYPES = [("bool_", 8), ("int8", 8), ("int16", 16), ("int32", 32), ("int64", 64), ("uint8", 8), ("uint16", 16),
           ("uint32", 32), ("uint64", 64), ("float16", 16), ("bfloat16", 16), ("float32", 32), ("float64", 64),
           ("tfloat32", 32), ("float8_e4m3fn", 8), ("float8_e5m2", 8)]
dtypes = {name: DType(name, bits) for name, bits in _DTYPES}


class _Annotation:
    def __init__(self, name, of=None):
        self.name = name
        self.of = of

    def __getitem__(self, of):
        return _Annotation(self.name, of)

    def __repr__(self):
        return f"{self.name}[{getattr(self.of, '__name__', self.of)}]" if self.of is not None else self.name


Constant = _Annotation("Constant")
ConstInt = Constant[int]
ConstBool = Constant[bool]
ConstFloat = Constant[float]
Array = _Annotation("Array")
Tile = _Annotation("Tile")
Scalar = _Annotation("Scalar")


class ByTarget:
    """``ct.ByTarget(sm_90=..., default=...)``: a value per target, read by the compiler."""

    def __init__(self, *args, **values):
        self.args = args
        self.values = values

    def __repr__(self):
        return f"ByTarget({self.values})"


class _Enum:
    def __init__(self, name):
        self._name = name

    def __getattr__(self, member):
        if member.startswith("__"):
            raise AttributeError(member)
        return f"{self._name}.{member}"


PaddingMode = _Enum("PaddingMode")
MemoryOrder = _Enum("MemoryOrder")
MemoryScope = _Enum("MemoryScope")
RoundingMode = _Enum("RoundingMode")


def cdiv(a, b):
    """Ceiling division (also usable on the host, for grids)."""
    return -(-a // b)


class _KernelOnly:
    """A name that means something inside a kernel only (``ct.load``, ``ct.mma``, ...)."""

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        raise TypeError(f"ct.{self._name} is a tile operation: it runs inside a kernel, which tile-cc compiles; "
                        "it cannot be called from the host")

    def __getattr__(self, member):
        if member.startswith("__"):
            raise AttributeError(member)
        return _KernelOnly(f"{self._name}.{member}")

    def __getitem__(self, item):
        return self

    def __repr__(self):
        return f"<tile operation ct.{self._name}>"


class compiler_timeout:
    """``with ct.compiler_timeout(seconds):`` is accepted; tile-cc's compiles are not bounded."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def autotune(configs=(), key=(), **options):
    """``@ct.autotune(configs=[...], key=[...])``: the compiler reads the configurations from the
    source; launches tune them (docs/python.md#autotuning)."""
    return lambda kernel: kernel


def Config(**values):
    """``ct.Config(TILE=64, num_threads=256)``: one autotune configuration (like ``dict(...)``)."""
    return dict(values)
