#!/usr/bin/env bash
# Installs every Debian 12 package tile-cc needs. Idempotent; run as root (or with sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache git xz-utils python3 python3-numpy python3-pytest
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libfmt-dev catch2 libdlpack-dev nlohmann-json3-dev zlib1g-dev libzstd-dev
  clang-14 libclang-rt-14-dev clang-format-14
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi

if [ ! -x /usr/local/cuda/bin/ptxas ]; then
  echo "install-deps: note: CUDA toolkit not found at /usr/local/cuda;" \
       "tile-cc will emit PTX but cannot assemble cubins (set TILE_PTXAS to a ptxas binary)."
fi
