#!/usr/bin/env bash
# Every binary starts on this machine, GPU or not: the [gpu] tests report SKIPPED with the
# reason, and the GPU tools say there is no GPU (exit 77) or run on the interpreter instead.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BUILD_DIR:-$root/build}/bin
failures=0
check() {  # check NAME EXPECTED-EXIT-CODES... -- COMMAND...
  local name=$1; shift
  local ok=()
  while [ "$1" != "--" ]; do ok+=("$1"); shift; done
  shift
  "$@" >/tmp/smoke.$$ 2>&1
  local rc=$?
  if [[ " ${ok[*]} " == *" $rc "* ]]; then
    echo "smoke: $name: exit $rc: $(grep -m1 '^SKIPPED' /tmp/smoke.$$ || grep -m1 -E 'GPU|interpreter|tile-cc|OVERVIEW' /tmp/smoke.$$ || head -n1 /tmp/smoke.$$)"
  else
    echo "smoke: $name: unexpected exit $rc"; cat /tmp/smoke.$$; failures=$((failures + 1))
  fi
  rm -f /tmp/smoke.$$
}
check "tile-unittests [gpu]" 0 -- "$bin/tile-unittests" "[gpu]"
check "tile-cc --version" 0 -- "$bin/tile-cc" --version
check "tile-opt --help" 0 -- "$bin/tile-opt" --help
check "tile-run --help" 0 -- "$bin/tile-run" --help
check "tile-jit-example (GPU, or the interpreter without one)" 0 -- "$bin/tile-jit-example"
check "tile-jit-example with TILE_INTERPRET=1" 0 -- env TILE_INTERPRET=1 "$bin/tile-jit-example"
check "tile-bench ssd" 0 77 -- "$bin/tile-bench" ssd --iters 1 --warmup 0 --shape small_b8_L2048
check "tile-ssd (GPU, or the interpreter without one)" 0 -- "$bin/tile-ssd"
echo "smoke: $failures failed"
[ "$failures" -eq 0 ]
