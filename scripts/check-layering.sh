#!/usr/bin/env bash
# The include rules of the source tree (run by ctest as `layering`): each line of RULES names a
# folder and a pattern its files must not include, with the reason. A file breaking a rule is
# listed with the include, and the script fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
status=0
check() { # folder, extended regex of forbidden includes, why
  local folder=$1 forbidden=$2 why=$3 hits
  hits=$(grep -rnE "^#include [\"<]($forbidden)" "$folder" --include='*.h' --include='*.cpp' || true)
  if [ -n "$hits" ]; then
    echo "$folder must not include $forbidden: $why"
    echo "$hits" | sed 's/^/  /'
    status=1
  fi
}
# The dialects stand below everything of the compiler; the front end below code generation.
check dialect 'compiler/' 'the dialects are the vocabulary every layer shares'
check compiler/frontend 'compiler/codegen/' 'the front end makes tile IR, code generation takes it from there'
# Code generation runs analysis -> transforms -> lowering: analyses answer queries for passes
# and the lowering, passes plan before the lowering carries out their decisions.
check compiler/codegen/analysis 'compiler/codegen/(transforms|lowering)/|compiler/codegen/Passes\.h' \
  'analyses are queries below every pass and the lowering'
check compiler/codegen/transforms 'compiler/codegen/lowering/' \
  'passes record decisions in the IR; the lowering reads them, never the other way round'
# The runtime core is embedded in applications without the compiler.
for file in runtime/*.h runtime/*.cpp runtime/npy; do
  check "$file" 'mlir/|llvm/|compiler/' 'the runtime core builds without MLIR, LLVM and the compiler'
done
# The compiler makes code; only the runtime talks to the driver.
check compiler 'cuda\.h|runtime/(CudaApi|Driver|Device|Stream|Module|Launch)\.h' \
  'the compiler never touches the CUDA driver'
[ $status -eq 0 ] && echo "layering: every rule holds"
exit $status
