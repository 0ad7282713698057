#!/usr/bin/env bash
# Builds statically linked tools and test binaries (build-static/) and packs them, stripped and
# xz-compressed, into bundle/ (git-ignored) for the device tool's `carry`:
#   run(command="bash scripts/gpu-run.sh", carry=["bundle"])
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR="$root/build-static" "$root/scripts/build.sh" -DTILE_STATIC_TOOLS=ON
stage=$(mktemp -d)
mkdir -p "$stage/bin"
# Each binary carrying the JIT is ~16 MB compressed and a device call carries at most 64 MiB,
# so only these travel (override with BUNDLE_BINARIES="a b c").
for name in ${BUNDLE_BINARIES:-tile-unittests tile-ssd tile-bench tile-opt}; do
  exe="$root/build-static/bin/$name"
  [ -x "$exe" ] || { echo "bundle-gpu: missing $exe" >&2; exit 1; }
  strip -o "$stage/bin/$name" "$exe"
done
mkdir -p "$root/bundle"
tar -C "$stage" -cf - bin | xz -T2 -6 > "$root/bundle/tools.tar.xz"
# The peer's figures (../shared does not travel to the GPU machine) for tile-bench.
cp "$root/../shared/anchors/"*.json "$root/bundle/" 2>/dev/null || true
rm -rf "$stage"
ls -l "$root/bundle/tools.tar.xz"
