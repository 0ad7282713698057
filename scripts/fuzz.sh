#!/usr/bin/env bash
# Builds the front-end fuzzer with clang (build-fuzz/) and runs it for a bounded time, seeded
# with every kernel source in the tests and kernels/. Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build="$root/build-fuzz"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DTILE_ENABLE_FUZZER=ON >/dev/null
fi
ninja -C "$build" -j "${JOBS:-$(nproc)}" tile-frontend-fuzzer
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
find "$root/test" "$root/kernels" -name '*.py' -exec cp {} "$corpus/" \;
echo "fuzz: running tile-frontend-fuzzer for ${seconds}s on $(ls "$corpus" | wc -l) seed files"
# -rss_limit_mb keeps a runaway input from eating the machine; -timeout catches hangs.
"$build/bin/tile-frontend-fuzzer" "$corpus" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 2>&1 | tail -n 25
echo "fuzz: no crash in ${seconds}s"
