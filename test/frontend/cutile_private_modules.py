# Names imported from cuTile's private modules, as TileGym imports them (`from
# cuda.tile._datatype import float8_e4m3fn`, `from cuda.tile._stub import ...`), resolve as
# `ct.<name>` does; cuTile's block-scaled formats (fp4, e8m0) and mma_scaled are an error where
# a kernel uses them (the file's other kernels compile); pack_to_bytes, imported the same way,
# resolves (test/interpreter/bytes.py runs it).
# RUN: tile-cc %s --kernel roundtrip --arg x=f32:1 --emit=tile -o - | FileCheck %s
# RUN: tile-run %s --kernel roundtrip --grid 1 --array x=f32:8:iota --print x | FileCheck %s --check-prefix=OUT
# RUN: not tile-cc %S/Inputs/blackwell_formats.py --kernel quantize --arg x=f32:1 --arg y=u8:1 2>&1 | FileCheck %s --check-prefix=FP4 -DFILE=%S/Inputs/blackwell_formats.py
# CHECK: tile.kernel @roundtrip
# CHECK: f8E4M3FN
# OUT-LABEL: x: float32 (8,)
# OUT: [0, 1, 2, 3, 4, 5, 6, 7]
# RUN: tile-cc %S/Inputs/blackwell_formats.py --kernel scale --arg x=f32:1 --emit=tile -o - | FileCheck %s --check-prefix=OTHER
# FP4: [[FILE]]:9:52: error: 'ct.float4_e2m1fn' is not supported by tile-cc yet: it belongs to cuTile's block-scaled (fp4 and e8m0) formats
# FP4-NOT: pack_to_bytes
# OTHER: tile.kernel @scale
import cuda.tile as ct
from cuda.tile._datatype import float8_e4m3fn
from cuda.tile._stub import load


@ct.kernel
def roundtrip(x):
    t = load(x, index=(0,), shape=(8,))
    ct.store(x, index=(0,), tile=t.astype(float8_e4m3fn).astype(ct.float32))
