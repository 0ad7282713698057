"""Writes a small tile-ssd input set (float32 .npy files) without NumPy.

    ssd_inputs.py DIR b,T,H,P,G,N [--nan]

x (b, T, H, P), dt (b, T, H), A (H,), B and C (b, T, G, N), seeded and deterministic. With
--nan, x[0, 0, 0, 0] is NaN (every later output of that head then is too).
"""
import os
import random
import struct
import sys


def write_npy(path, shape, values):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape_text
    # Magic, version 1.0, header padded with spaces to a multiple of 64 bytes, ending in \n.
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


def main():
    out, dims = sys.argv[1], [int(d) for d in sys.argv[2].split(",")]
    nan = "--nan" in sys.argv[3:]
    b, T, H, P, G, N = dims
    rng = random.Random(7)

    def uniform(n, lo, hi):
        return [rng.uniform(lo, hi) for _ in range(n)]

    os.makedirs(out, exist_ok=True)
    x = uniform(b * T * H * P, -1, 1)
    if nan and x:
        x[0] = float("nan")
    write_npy(os.path.join(out, "x.npy"), (b, T, H, P), x)
    write_npy(os.path.join(out, "dt.npy"), (b, T, H), uniform(b * T * H, 0.01, 0.1))
    write_npy(os.path.join(out, "A.npy"), (H,), uniform(H, -2, -0.5))
    write_npy(os.path.join(out, "B.npy"), (b, T, G, N), uniform(b * T * G * N, -1, 1))
    write_npy(os.path.join(out, "C.npy"), (b, T, G, N), uniform(b * T * G * N, -1, 1))


main()
