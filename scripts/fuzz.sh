#!/usr/bin/env bash
# Builds every libFuzzer target with clang (build-fuzz/, ASan + UBSan) and runs each for a
# bounded time on a seed corpus from the repository. Usage: scripts/fuzz.sh [SECONDS]
# The front end gets SECONDS, every other target SECONDS/3 (at least 10 s); a crash, leak,
# sanitizer report or uncaught exception fails the script and leaves the input in
# build-fuzz/findings/. FUZZERS="npy metadata" runs only those.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
other=$(( seconds / 3 > 10 ? seconds / 3 : 10 ))
build="$root/build-fuzz"
all="frontend mlir npy metadata cache spec tuning launcher"
fuzzers=${FUZZERS:-$all}
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DTILE_ENABLE_FUZZER=ON >/dev/null
fi
targets=""
for f in $fuzzers; do targets="$targets tile-$f-fuzzer"; done
ninja -C "$build" -j "${JOBS:-$(nproc)}" $targets

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
findings="$build/findings"
mkdir -p "$findings"
corpus="$root/test/fuzz/corpus"

# Seeds: every kernel source and .mlir test in the repository, plus the committed corpus.
seed() {
  local dir="$work/$1"
  mkdir -p "$dir"
  case $1 in
    frontend) find "$root/test" "$root/kernels" -name '*.py' -exec cp {} "$dir/" \; ;;
    mlir) find "$root/test" -name '*.mlir' -exec cp {} "$dir/" \; ;;
  esac
  [ -d "$corpus/$1" ] && cp "$corpus/$1"/* "$dir/" 2>/dev/null || true
  echo "$dir"
}

for f in $fuzzers; do
  t=$other max_len=4096
  case $f in
    frontend) t=$seconds ;;
    mlir) max_len=16384 ;;
  esac
  dir=$(seed "$f")
  echo "fuzz: tile-$f-fuzzer for ${t}s on $(ls "$dir" | wc -l) seed files (-max_len=$max_len)"
  # -rss_limit_mb keeps a runaway input from eating the machine; -timeout catches hangs.
  if ! "$build/bin/tile-$f-fuzzer" "$dir" -max_total_time="$t" -timeout=10 -rss_limit_mb=4096 \
      -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$findings/$f-" \
      >"$work/$f.log" 2>&1; then
    tail -n 60 "$work/$f.log"
    echo "fuzz: tile-$f-fuzzer FAILED; the input is in $findings/"
    exit 1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|^Done" "$work/$f.log" | sed "s/^/  /" || true
done
echo "fuzz: no crash ($fuzzers)"
