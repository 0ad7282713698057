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
# Another implementation's timings for `tile-bench ssd --peer` (the format is in
# docs/mamba2.md): PEER_JSON=FILE copies FILE into the bundle as bundle/peer.json.
if [ -n "${PEER_JSON:-}" ]; then
  cp "$PEER_JSON" "$root/bundle/peer.json"
fi
rm -rf "$stage"
ls -l "$root/bundle/tools.tar.xz"
