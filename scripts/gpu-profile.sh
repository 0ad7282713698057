#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carry ["bundle"]): profiles the SSD kernels with Nsight
# Compute on one shape (default the 2.7B one, chunk 64, configuration 0; TILE_AUTOTUNE=1 profiles
# the tuner's picks: the first, unprofiled call tunes and caches them) and writes to $OUT, per
# kernel: the summary (speed of light, occupancy, warp states) and the per-SASS-instruction
# source page (executed instructions and stall samples) as CSV, for reading on the build machine.
#   PROFILE_SHAPE=mamba2-2.7b_b4_L4096 PROFILE_CHUNK=128 PROFILE_KERNELS="fwd_pass_state compute_out" \
#     bash scripts/gpu-profile.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
work=$(mktemp -d)
tar -C "$work" -xJf "$root/bundle/tools.tar.xz" || { echo "gpu-profile: no bundle; run scripts/bundle-gpu.sh"; exit 2; }
export PATH="$work/bin:$PATH"
command -v ncu >/dev/null || { echo "gpu-profile: no ncu on this machine"; exit 2; }
shape=${PROFILE_SHAPE:-mamba2-2.7b_b4_L4096}
chunk=${PROFILE_CHUNK:-64}
export TILE_CACHE_DIR="$work/cache" TILE_AUTOTUNE=${TILE_AUTOTUNE:-0}
# Compile once outside the profiler, so ncu only sees the timed launches.
tile-bench ssd --shape "$shape" --chunk-size "$chunk" --iters 1 --warmup 0 > /dev/null 2>&1
for k in ${PROFILE_KERNELS:-fwd_pass_state compute_out}; do
  # --launch-skip 1: the warm-up call's launch is skipped, the timed one profiled.
  ncu --clock-control none --set full --import-source no --kernel-name "regex:^${k}_" --launch-skip 1 \
      --launch-count 1 -f -o "$work/$k" tile-bench ssd --shape "$shape" --chunk-size "$chunk" --iters 1 --warmup 1 \
      > "$out/$k.ncu.log" 2>&1 || { echo "gpu-profile: ncu failed on $k"; tail -5 "$out/$k.ncu.log"; continue; }
  ncu --import "$work/$k.ncu-rep" --page details > "$out/$k.details.txt" 2>&1
  ncu --import "$work/$k.ncu-rep" --page source --csv --print-source sass > "$work/$k.sass.csv" 2>&1
  xz -T2 -6 -c "$work/$k.sass.csv" > "$out/$k.sass.csv.xz"
  grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|DRAM Throughput|Compute \(SM\)|Issue Slots Busy|Executed Ipc A|Block Limit|Dynamic Shared" \
    "$out/$k.details.txt" | sed "s/^/$k: /"
done
