"""Writes a small tile-ssd input set (float32 .npy files) without NumPy.

    ssd_inputs.py DIR b,T,H,P,G,N [--nan] [--seq-starts S1,S2,...] [--gradients]
    ssd_inputs.py DIR b,H,P,G,N --decode [--nan]

x (b, T, H, P), dt (b, T, H), A (H,), B and C (b, T, G, N), seeded and deterministic. With
--nan, x[0, 0, 0, 0] is NaN (every later output of that head then is too). With --seq-starts,
seq_idx (b, T) int32 packing sequences that start at 0 and at each given position. With
--gradients, dy (b, T, H, P) and dfinal_states (b, H, P, N) for tile-ssd --backward. With --decode, the
decode step's inputs (tile-ssd --decode): state (b, H, P, N), x and z (b, H, P), dt (b, H), A,
dt_bias (H,), D (H, P), B and C (b, G, N).
"""
import os
import random
import struct
import sys


def write_npy(path, shape, values, descr="<f4"):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    # Magic, version 1.0, header padded with spaces to a multiple of 64 bytes, ending in \n.
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), descr[-2] if descr[-2] == "i" else "f"), *values))


def main():
    out, dims = sys.argv[1], [int(d) for d in sys.argv[2].split(",")]
    nan = "--nan" in sys.argv[3:]
    rng = random.Random(7)

    def uniform(n, lo, hi):
        return [rng.uniform(lo, hi) for _ in range(n)]

    os.makedirs(out, exist_ok=True)
    if "--decode" in sys.argv[3:]:
        b, H, P, G, N = dims
        for name, shape, lo, hi in [("state", (b, H, P, N), -1, 1), ("x", (b, H, P), -1, 1),
                                    ("dt", (b, H), -3, 0), ("A", (H,), -2, -0.5),
                                    ("B", (b, G, N), -1, 1), ("C", (b, G, N), -1, 1),
                                    ("D", (H, P), 0, 1), ("z", (b, H, P), -1, 1),
                                    ("dt_bias", (H,), -1, 1)]:
            count = 1
            for d in shape:
                count *= d
            values = uniform(count, lo, hi)
            if nan and name == "x":
                values[0] = float("nan")
            write_npy(os.path.join(out, name + ".npy"), shape, values)
        return
    b, T, H, P, G, N = dims
    x = uniform(b * T * H * P, -1, 1)
    if nan and x:
        x[0] = float("nan")
    write_npy(os.path.join(out, "x.npy"), (b, T, H, P), x)
    write_npy(os.path.join(out, "dt.npy"), (b, T, H), uniform(b * T * H, 0.01, 0.1))
    write_npy(os.path.join(out, "A.npy"), (H,), uniform(H, -2, -0.5))
    write_npy(os.path.join(out, "B.npy"), (b, T, G, N), uniform(b * T * G * N, -1, 1))
    write_npy(os.path.join(out, "C.npy"), (b, T, G, N), uniform(b * T * G * N, -1, 1))
    if "--gradients" in sys.argv:
        write_npy(os.path.join(out, "dy.npy"), (b, T, H, P), uniform(b * T * H * P, -1, 1))
        write_npy(os.path.join(out, "dfinal_states.npy"), (b, H, P, N), uniform(b * H * P * N, -1, 1))
    if "--seq-starts" in sys.argv:
        starts = [int(s) for s in sys.argv[sys.argv.index("--seq-starts") + 1].split(",")]
        seq = [sum(1 for s in starts if s <= t) for t in range(T)]
        write_npy(os.path.join(out, "seq_idx.npy"), (b, T), seq * b, "<i4")


main()
