# ct.pack_to_bytes and ct.unpack_from_bytes: a tile's bytes, little-endian, as a 1-D uint8 tile
# and back, for 8-, 16-, 32- and 64-bit integers and floats and a 2-D tile; run by the
# interpreter and, on sm_90a and sm_80, compiled (the same ops as any element-wise kernel).
# RUN: tile-run %s --kernel words --array out=u8:8 --array back=i32:2 --print out --print back | FileCheck %s --check-prefix=WORDS
# RUN: tile-run %s --kernel floats --array x=f32:2x2:iota --array out=u8:16 --array back=f32:2x2 --print out --print back | FileCheck %s --check-prefix=FLOATS
# RUN: tile-run %s --kernel halves --array x=bf16:4:iota --array wide=i64:1 --array back=bf16:4 --print wide --print back | FileCheck %s --check-prefix=HALVES
# RUN: tile-run %s --kernel narrow --array x=i8:4:iota --array out=u8:4 --array back=i8:4 --print out --print back | FileCheck %s --check-prefix=NARROW
# RUN: tile-cc %s --kernel floats --arg x=f32:2 --arg out=u8:1 --arg back=f32:2 --emit=ptx --arch sm_90a -o /dev/null
# RUN: tile-cc %s --kernel halves --arg x=bf16:1 --arg wide=i64:1 --arg back=bf16:1 --emit=ptx --arch sm_80 -o /dev/null
import cuda.tile as ct


# 0x04030201 and -2 (0xfffffffe): bytes low first, as cuTile's documentation shows them.
# WORDS: out: uint8 (8,)
# WORDS-NEXT: [1, 2, 3, 4, 254, 255, 255, 255]
# WORDS: back: int32 (2,)
# WORDS-NEXT: [67305985, -2]
@ct.kernel
def words(out, back):
    t = ct.full((2,), 0x04030201, dtype=ct.int32)
    t = ct.where(ct.arange(2, dtype=ct.int32) == 1, -2, t)
    b = ct.pack_to_bytes(t)
    ct.store(out, index=(0,), tile=b)
    ct.store(back, index=(0,), tile=ct.unpack_from_bytes(b, ct.int32))


# 0.0, 1.0, 2.0, 3.0 in row-major order: 1.0 is 0x3f800000, 2.0 0x40000000, 3.0 0x40400000.
# FLOATS: out: uint8 (16,)
# FLOATS-NEXT: [0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64]
# FLOATS: back: float32 (2, 2)
# FLOATS-NEXT: {{\[\[}}0, 1],
# FLOATS-NEXT: [2, 3]]
@ct.kernel
def floats(x, out, back):
    t = ct.load(x, index=(0, 0), shape=(2, 2))
    b = ct.pack_to_bytes(t)
    ct.store(out, index=(0,), tile=b)
    ct.store(back, index=(0, 0), tile=ct.reshape(ct.unpack_from_bytes(b, ct.float32), (2, 2)))


# bf16 0, 1, 2, 3 (0x0000, 0x3f80, 0x4000, 0x4040) read as one int64: 0x404040003f800000.
# HALVES: wide: int64 (1,)
# HALVES-NEXT: [4629770786746400768]
# HALVES: back: bfloat16 (4,)
# HALVES-NEXT: [0, 1, 2, 3]
@ct.kernel
def halves(x, wide, back):
    b = ct.pack_to_bytes(ct.load(x, index=(0,), shape=(4,)))
    ct.store(wide, index=(0,), tile=ct.unpack_from_bytes(b, ct.int64))
    ct.store(back, index=(0,), tile=ct.unpack_from_bytes(b, ct.bfloat16))


# One byte each: the same bits, as uint8 and back.
# NARROW: out: uint8 (4,)
# NARROW-NEXT: [0, 1, 2, 3]
# NARROW: back: int8 (4,)
# NARROW-NEXT: [0, 1, 2, 3]
@ct.kernel
def narrow(x, out, back):
    b = ct.pack_to_bytes(ct.load(x, index=(0,), shape=(4,)) - 1 + 1)
    ct.store(out, index=(0,), tile=b)
    ct.store(back, index=(0,), tile=ct.unpack_from_bytes(b, ct.int8))
