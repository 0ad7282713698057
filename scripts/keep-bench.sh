#!/usr/bin/env bash
# Saves the tile-bench of the current GPU bundle (bundle/tools.tar.xz) as
# bundle/before-bench.tar.xz (17 MB), so that after the tree changes and scripts/bundle-gpu.sh
# rebuilds the bundle, scripts/gpu-ab.sh times the old and the new build in one device call
# (same machine, minutes apart). Remove bundle/before-bench.tar.xz to go back to comparing an
# option of one build. The two must fit the 64 MiB a call carries: BUNDLE_BINARIES="tile-unittests
# tile-bench" keeps the new bundle at about 36 MB.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$root/bundle/tools.tar.xz" ] || { echo "keep-bench: no bundle/tools.tar.xz (run scripts/bundle-gpu.sh first)" >&2; exit 2; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
tar -C "$stage" -xJf "$root/bundle/tools.tar.xz" bin/tile-bench \
  || { echo "keep-bench: the bundle has no tile-bench" >&2; exit 2; }
tar -C "$stage" -cf - bin | xz -T2 -6 > "$root/bundle/before-bench.tar.xz"
ls -l "$root/bundle/before-bench.tar.xz"
