# What every scripts/gpu-*.sh does first (sourced, with LOG_NAME set): the repository root, the
# output folder ($OUT on the device machine), the log, the bundle unpacked into $work (its bin/,
# lib/libtilecc.so, cubins), the JIT's caches there, `step CMD...` (the command and its exit
# code into the log; a failure sets status=1) and the GPU's name in the log.
root=$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
log="$out/$LOG_NAME"
work=$(mktemp -d)
tar -C "$work" -xJf "$root/bundle/tools.tar.xz" || { echo "no bundle" | tee "$log"; exit 2; }
export TILECC_LIBRARY="$work/lib/libtilecc.so" PYTHONPATH="$root/python" TILE_CACHE_DIR="$work/cache"
status=0
step() { echo "== $*" >> "$log"; "$@" >> "$log" 2>&1; local rc=$?; echo "rc=$rc" >> "$log"; [ $rc -eq 0 ] || status=1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$log"
