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
for name in ${BUNDLE_BINARIES:-tile-unittests tile-ssd tile-bench}; do
  exe="$root/build-static/bin/$name"
  [ -x "$exe" ] || { echo "bundle-gpu: missing $exe" >&2; exit 1; }
  strip -o "$stage/bin/$name" "$exe"
done
# Shared libraries (BUNDLE_LIBRARIES="libtilecc.so": the C API the Python package loads, for
# scripts/gpu-python.sh), into lib/.
for name in ${BUNDLE_LIBRARIES-}; do
  lib="$root/build-static/lib/$name"
  [ -e "$lib" ] || { echo "bundle-gpu: missing $lib" >&2; exit 1; }
  mkdir -p "$stage/lib"
  strip --strip-unneeded -o "$stage/lib/$name" "$(readlink -f "$lib")"
done
# The example applications (docs/embedding.md), built against the installed static package the
# way an application outside the tree is: BUNDLE_EXAMPLES names them (default "aot": the
# launcher on TileCC::runtime, static libstdc++, 0.4 MB compressed; "embed" is TileCC::jit +
# ::mamba2, 17 MB like every binary carrying the JIT, so it needs a shorter BUNDLE_BINARIES:
# BUNDLE_BINARIES=tile-unittests BUNDLE_EXAMPLES="aot embed"). "" builds none.
examples=${BUNDLE_EXAMPLES-aot}
if [ -n "$examples" ]; then
  cmake --install "$root/build-static" --prefix "$stage/sdk" > /dev/null
  for name in $examples; do
    [ -d "$root/examples/$name" ] || { echo "bundle-gpu: no examples/$name" >&2; exit 1; }
    cmake -S "$root/examples/$name" -B "$stage/example-$name" -G Ninja -DCMAKE_BUILD_TYPE=Release \
          -DCMAKE_PREFIX_PATH="$stage/sdk" -DCMAKE_EXE_LINKER_FLAGS="-static-libstdc++ -static-libgcc" > /dev/null
    ninja -C "$stage/example-$name" > /dev/null
    strip -o "$stage/bin/tile-$name-example" "$stage/example-$name/tile-$name-example"
  done
  rm -rf "$stage/sdk" "$stage"/example-*
fi
mkdir -p "$root/bundle"
# Written beside and renamed into place: a device call carrying bundle/ meanwhile sees the
# old bundle or the new one, never half of one.
tar -C "$stage" -cf - bin $([ -d "$stage/lib" ] && echo lib) | xz -T2 --lzma2=preset=6,dict=256MiB > "$root/bundle/tools.tar.xz.tmp"
mv "$root/bundle/tools.tar.xz.tmp" "$root/bundle/tools.tar.xz"
if [ "$(stat -c %s "$root/bundle/tools.tar.xz")" -gt $((64 * 1024 * 1024 - 2 * 1024 * 1024)) ]; then
  echo "bundle-gpu: warning: bundle/tools.tar.xz is $(($(stat -c %s "$root/bundle/tools.tar.xz") / 1048576)) MiB;" \
       "a device call carries at most 64 MiB: name fewer BUNDLE_BINARIES or BUNDLE_EXAMPLES" >&2
fi
# Another implementation's timings for `tile-bench ssd --peer` (the format is in
# docs/mamba2.md): PEER_JSON=FILE copies FILE into the bundle as bundle/peer.json.
if [ -n "${PEER_JSON:-}" ]; then
  cp "$PEER_JSON" "$root/bundle/peer.json"
fi
# Cubins for the SASS checks of gpu-run.sh (HGMMA, no spills), compiled here by this tile-cc
# (ptxas is on the build machine; cuobjdump is on the GPU machine): they cost kilobytes where
# tile-cc itself would take 16 MB of the 64 MiB a call carries.
rm -rf "$root/bundle/cubins"
mkdir -p "$root/bundle/cubins"
ssd="$root/kernels/mamba2/ssd.py"
cubin() {  # cubin NAME TILE-CC-ARGS...
  local name=$1; shift
  "$root/build-static/bin/tile-cc" "$@" --emit=cubin -o "$root/bundle/cubins/$name.cubin" \
    --metadata "$root/bundle/cubins/$name.json" --resource-usage 2> "$root/bundle/cubins/$name.ptxas.txt"
}
# Arrays as the JIT passes them (aligned: TMA copies where the loads allow).
cubin matmul "$root/kernels/examples/matmul.py" --kernel matmul --const BM=128 --const BN=128 --const BK=64 \
  --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned
# Hopper's 8-bit wgmma (HGMMA ... E4M3): the fp8 GEMM of the kernel suite.
cubin fp8_gemm "$root/kernels/suite/fp8_gemm.py" --kernel fp8_gemm --const TM=128 --const TN=256 --const TK=128 \
  --arg x=f8e4m3:2:aligned --arg w=f8e4m3:2:aligned --arg y=bf16:2:aligned --arg sx=f32:0 --arg sw=f32:0
cubin chunk_bmm "$ssd" --kernel chunk_bmm --arg B=bf16:4:aligned --arg C=bf16:4:aligned --arg cb=f32:5:aligned --arg ngroups=i64:0 \
  --const Q=64 --const N=128 --const BQ=64 --const BN=32
cubin compute_out "$ssd" --kernel compute_out --arg x=bf16:4:aligned --arg B=bf16:4:aligned --arg C=bf16:4:aligned --arg cb=f32:5:aligned --arg dt_out=f32:4:aligned \
  --arg dA_cumsum=f32:4:aligned --arg states=bf16:5:aligned --arg initial_states=f32:4:aligned --arg D=f32:1:aligned --arg z=bf16:4:aligned --arg y=bf16:4:aligned --arg nheads=i64:0 \
  --arg ngroups=i64:0 --arg seq_idx=f32:1 --const Q=64 --const N=128 --const BQ=64 --const BP=64 --const BN=32 --const HAS_D=True
cubin fwd_pass_state "$ssd" --kernel fwd_pass_state --arg x=bf16:4:aligned --arg B=bf16:4:aligned --arg dt_out=f32:4:aligned \
  --arg dA_cumsum=f32:4:aligned --arg initial_states=f32:4:aligned --arg states=bf16:5:aligned --arg final_states=f32:4:aligned --arg states_t=bf16:5 --arg final_states_t=f32:4 --arg nheads=i64:0 \
  --arg ngroups=i64:0 --arg nchunks=i64:0 --arg seq_idx=f32:1 --const Q=64 --config 9
rm -rf "$stage"
ls -l "$root/bundle/tools.tar.xz" "$root/bundle/cubins"
