#!/usr/bin/env bash
# The main job: compile the docs/language.md example with tile-cc and print its tile IR, then run the
# Mamba-2 SSD demo (tile-ssd), checked against the float64 reference — on the GPU when there is
# one, else through the interpreter.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
src="$root/kernels/examples/scale_rows.py"
echo "== tile-cc $src --kernel scale_rows --const TM=64 --const TN=32 --arg x=f32:2 --arg s=f32:1 --arg out=bf16:2"
"$build/bin/tile-cc" "$src" --kernel scale_rows --const TM=64 --const TN=32 \
  --arg x=f32:2 --arg s=f32:1 --arg out=bf16:2
echo "== tile-ssd (Mamba-2 SSD forward, demo shape, --check)"
"$build/bin/tile-ssd"
