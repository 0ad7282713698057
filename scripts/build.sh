#!/usr/bin/env bash
# Configures (once) and builds tile-cc with Ninja (and ccache when present).
#   BUILD_DIR          build folder (default: build)
#   CMAKE_BUILD_TYPE   Release (default) or Debug
#   extra arguments are passed to cmake, e.g. -DTILE_STATIC_TOOLS=ON
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ] || [ $# -gt 0 ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" "$@"
fi
# Two cores and MLIR-heavy translation units: more jobs only thrash memory.
ninja -C "$build" -j "${JOBS:-$(nproc)}"
