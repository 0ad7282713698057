#!/usr/bin/env bash
# Compiles every kernel the lit tests compile (each `# RUN: tile-cc FILE --kernel ...` line
# under test/ that expects success) to a cubin for each given architecture, through ptxas.
# Usage: scripts/compile-kernels.sh TILE_CC ROOT ARCH... ; prints one line per compile.
set -uo pipefail
tilecc=$1 root=$2
shift 2
failures=0 count=0
while IFS= read -r file; do
  dir=$(dirname "$file")
  grep -E '^# RUN: tile-cc (%s|%S/[^ ]+) --kernel' "$file" | grep -v -e 'not tile-cc' -e 'test $?' -e '--emit=' -e '&&' | while IFS= read -r line; do
    args=${line#\# RUN: tile-cc }
    args=${args%%|*}
    args=${args//%s/$file}
    args=${args//%S/$dir}
    # The script sets the outputs itself (tile-cc refuses an option given twice).
    args=$(echo "$args" | sed -E 's/ -o [^ ]+//g')
    echo "$args"
  done
done < <(find "$root/test" -name '*.py' -not -path '*/errors/*' | sort) | sort -u > /tmp/tile-kernels.$$
while IFS= read -r args; do
  for arch in "$@"; do
    count=$((count + 1))
    # shellcheck disable=SC2086
    if out=$("$tilecc" $args --emit=cubin --arch "$arch" -o /dev/null --metadata /dev/null 2>&1); then
      echo "ok   $arch $args"
    else
      echo "FAIL $arch $args"
      echo "$out" | sed 's/^/     /'
      failures=$((failures + 1))
    fi
  done
done < /tmp/tile-kernels.$$
rm -f /tmp/tile-kernels.$$
echo "$count compiled, $failures failed"
[ "$failures" -eq 0 ]
