"""``python -m tilecc PROGRAM.py [ARGS...]``: runs a cuTile program unchanged, its
``import cuda.tile as ct`` resolved to tilecc."""

import os
import runpy
import sys

from . import _cuda_tile


def main(argv):
    if len(argv) < 1 or argv[0] in ("-h", "--help"):
        print("usage: python -m tilecc PROGRAM.py [ARGS...]\n\n"
              "Runs a cuTile program with tile-cc: its `import cuda.tile` is tilecc. CUDA arrays run on the GPU;\n"
              "host arrays, and everything under TILE_INTERPRET=1, on tile-cc's interpreter.",
              file=sys.stderr if not argv else sys.stdout)
        return 0 if argv else 2
    program = argv[0]
    if not os.path.isfile(program):
        print(f"python -m tilecc: {program}: no such file", file=sys.stderr)
        return 2
    _cuda_tile.install()
    sys.argv = list(argv)
    # The program's folder comes first on the path, as `python PROGRAM.py` puts it.
    sys.path.insert(0, os.path.dirname(os.path.abspath(program)))
    runpy.run_path(program, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
