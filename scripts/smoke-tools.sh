#!/usr/bin/env bash
# Every binary starts on this machine, GPU or not: the [gpu] tests report how many skipped and
# why (never "passed" for a skipped one), and the GPU tools say there is no GPU (exit 77) or run
# on the interpreter instead.
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
# The [gpu] tests: Catch2 counts a skipped test as passed, so the count comes from the
# SKIPPED line of GpuTest.cpp's listener, and a skip is reported as a skip, never as a pass.
gpu_tests() {
  "$bin/tile-unittests" "[gpu]" >/tmp/smoke.$$ 2>&1
  local rc=$?
  local total skipped
  total=$(sed -n 's/^test cases: *\([0-9]*\).*/\1/p' /tmp/smoke.$$ | tail -n1)
  skipped=$(sed -n 's/^SKIPPED: \([0-9]*\) \[gpu\].*/\1/p' /tmp/smoke.$$ | tail -n1)
  if [ "$rc" -ne 0 ] || [ -z "$total" ]; then
    echo "smoke: tile-unittests [gpu]: unexpected exit $rc"; cat /tmp/smoke.$$; failures=$((failures + 1))
  elif [ -n "$skipped" ]; then
    echo "smoke: tile-unittests [gpu]: skipped $skipped of $total [gpu] test cases" \
      "$(sed -n 's/^SKIPPED: [0-9]* \[gpu\] test case(s) *//p' /tmp/smoke.$$ | tail -n1)"
  else
    echo "smoke: tile-unittests [gpu]: ran $total [gpu] test cases on the GPU: all passed"
  fi
  rm -f /tmp/smoke.$$
}
gpu_tests
check "tile-cc --version" 0 -- "$bin/tile-cc" --version
check "tile-opt --help" 0 -- "$bin/tile-opt" --help
check "tile-run --help" 0 -- "$bin/tile-run" --help
check "tile-jit-example (GPU, or the interpreter without one)" 0 -- "$bin/tile-jit-example"
check "tile-jit-example with TILE_INTERPRET=1" 0 -- env TILE_INTERPRET=1 "$bin/tile-jit-example"
check "tile-bench ssd" 0 77 -- "$bin/tile-bench" ssd --iters 1 --warmup 0 --shape small_b8_L2048
check "tile-ssd (GPU, or the interpreter without one)" 0 -- "$bin/tile-ssd"
echo "smoke: $failures failed"
[ "$failures" -eq 0 ]
