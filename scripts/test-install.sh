#!/usr/bin/env bash
# Installs the build into a temporary prefix, then configures, builds and runs the two example
# applications against that prefix alone: examples/embed (TileCC::jit + TileCC::mamba2: compiles
# a kernel at run time, runs ssdForward; on the interpreter without a GPU) and examples/aot
# (TileCC::runtime + a launcher from tilecc_add_launcher; without a GPU it says so, exit 0).
# The examples' build folders must not mention the source tree's build folder or its include
# paths: everything comes from the package.
#   BUILD_DIR   the build to install (default: build; scripts/test.sh builds it)
#   KEEP=1      keep the temporary folder (its path is printed)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${BUILD_DIR:-$root/build}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tile-install.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "test-install: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi
prefix="$work/prefix"

echo "test-install: cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in bin/tile-cc include/tilecc/runtime/Runtime.h include/tilecc/tile/Version.h \
         lib/cmake/TileCC/TileCCConfig.cmake lib/cmake/TileCC/TileCCConfigVersion.cmake lib/libTileRuntime.a \
         lib/libtilecc.so include/tilecc/tile/c/tilecc.h lib/cmake/TileCC/TileCCSharedTargets.cmake; do
  [ -e "$prefix/$f" ] || { echo "test-install: $f was not installed" >&2; exit 1; }
done
# Internal headers stay out of the package.
for f in runtime/Driver.h runtime/Native.h runtime/CudaApi.h; do
  [ ! -e "$prefix/include/tilecc/$f" ] || { echo "test-install: internal header $f was installed" >&2; exit 1; }
done
"$prefix/bin/tile-cc" --version

# Without ptxas the launcher embeds PTX alone.
aot_args=()
if ! command -v ptxas >/dev/null && [ ! -x "${TILE_PTXAS:-/usr/local/cuda/bin/ptxas}" ]; then
  echo "test-install: no ptxas: the aot example embeds PTX only"
  aot_args+=(-DTILE_AOT_PTX_ONLY=ON)
fi

example() {  # example NAME CMAKE-ARGS...: configure and build examples/NAME against the prefix
  local name=$1; shift
  echo "test-install: building examples/$name against the prefix"
  cmake -S "$root/examples/$name" -B "$work/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$prefix" "$@" > "$work/$name.configure.log" ||
    { cat "$work/$name.configure.log"; exit 1; }
  ninja -C "$work/$name" > "$work/$name.build.log" || { cat "$work/$name.build.log"; exit 1; }
  # Nothing of the source tree's build, nor its include paths: only the prefix.
  if grep -F -e "$build" -e "-I$root" -e "-isystem $root" "$work/$name/build.ninja" >/dev/null; then
    echo "test-install: examples/$name was built with paths into the source tree:" >&2
    grep -F -e "$build" -e "-I$root" -e "-isystem $root" "$work/$name/build.ninja" | cut -c1-300 | head -5 >&2
    exit 1
  fi
}
example embed
example aot ${aot_args[@]+"${aot_args[@]}"}

echo "test-install: running tile-embed-example"
"$work/embed/tile-embed-example"
echo "test-install: running tile-embed-example with TILE_INTERPRET=1"
TILE_INTERPRET=1 "$work/embed/tile-embed-example"
echo "test-install: running tile-aot-example"
"$work/aot/tile-aot-example"
# The launcher-based application depends on the runtime alone: no MLIR/LLVM library.
if ldd "$work/aot/tile-aot-example" | grep -E "libMLIR|libLLVM"; then
  echo "test-install: tile-aot-example links MLIR/LLVM" >&2
  exit 1
fi
# The C API library from the prefix, as the Python package loads it: every function the header
# declares is exported.
# (The symbol table is read once: `nm | grep -q` fails under pipefail when grep exits first
# and nm dies of SIGPIPE.)
exported=$(nm -D --defined-only "$prefix/lib/libtilecc.so")
for f in $(grep -o '^[a-z_ *]*\btilecc_[a-z_]*(' "$root/include/tile/c/tilecc.h" |
  grep -o 'tilecc_[a-z_]*($' | tr -d '('); do
  grep -q " T $f\$" <<< "$exported" ||
    { echo "test-install: libtilecc.so does not export $f" >&2; exit 1; }
done
echo "test-install: the Python package on the installed libtilecc.so"
TILECC_LIBRARY="$prefix/lib/libtilecc.so" PYTHONPATH="$root/python" python3 -c \
  'import tilecc; print("tilecc", tilecc.version(), "from", tilecc._lib.lib()._name)'
echo "test-install: ok"
