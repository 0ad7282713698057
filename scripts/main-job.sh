#!/usr/bin/env bash
# The main job: compile the sample kernel and print its tile IR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
echo "== tile IR of kernels/examples/scale_rows.mlir (parsed, verified, canonicalized)"
"$build/bin/tile-opt" -canonicalize "$root/kernels/examples/scale_rows.mlir"
