#!/usr/bin/env bash
# Mutation testing: applies each test/mutations/NN-name.patch in turn (a plausible one-line
# bug), rebuilds incrementally, runs the CPU suite (lit, then tile-unittests "~[gpu]", each
# stopping at its first failure, under a timeout), reverts the patch and reports whether the
# tests noticed. A SURVIVED line is a bug the CPU tests would let through.
#   scripts/mutation-test.sh [BUILD_DIR] [NAME...]   NAME: a substring of the patch file names
#   TIMEOUT  seconds per suite (default 600); JOBS  ninja jobs for the rebuilds (default ninja's)
# The patch is reverted on every exit (Ctrl-C included) and the build is brought back to
# the unmutated sources at the end. Exits 1 when a mutation survived or failed to build.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
build=$(cd "$build" && pwd) || { echo "no build folder $build (run scripts/build.sh first)" >&2; exit 2; }
timeout=${TIMEOUT:-600}
lit=$(sed -n 's/^TILE_LIT:[A-Z]*=//p' "$build/CMakeCache.txt")
lit=${lit:-lit}
cd "$root"

patches=()
for p in test/mutations/*.patch; do
  if [ $# -eq 0 ]; then patches+=("$p"); continue; fi
  for want in "$@"; do
    case "$(basename "$p")" in *"$want"*) patches+=("$p"); break ;; esac
  done
done
[ ${#patches[@]} -gt 0 ] || { echo "no mutation matches $*" >&2; exit 2; }

applied=""
revert() {
  if [ -n "$applied" ]; then
    git apply -R "$applied" || echo "error: could not revert $applied; run git apply -R $applied" >&2
    applied=""
  fi
}
trap 'revert' EXIT
trap 'revert; exit 130' INT TERM

log=$build/mutation-logs
mkdir -p "$log"
killed=0 total=0 bad=0
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  desc=$(sed -n '1s/^Mutation: //p' "$p")
  total=$((total + 1))
  if ! git apply --check "$p" 2>"$log/$name.log"; then
    printf '%-34s does-not-apply  %s\n' "$name" "$desc"
    bad=$((bad + 1))
    continue
  fi
  git apply "$p" && applied=$p
  start=$SECONDS
  if ! ninja -C "$build" ${JOBS:+-j "$JOBS"} >>"$log/$name.log" 2>&1; then
    result=build-failed
    bad=$((bad + 1))
  elif ! timeout "$timeout" "$lit" -q --max-failures=1 "$build/test" >>"$log/$name.log" 2>&1 ||
    ! timeout "$timeout" "$build/bin/tile-unittests" -a "~[gpu]" >>"$log/$name.log" 2>&1; then
    result=killed
    killed=$((killed + 1))
  else
    result=SURVIVED
    bad=$((bad + 1))
  fi
  revert
  printf '%-34s %-12s %4ds  %s\n' "$name" "$result" $((SECONDS - start)) "$desc"
done
echo "score: $killed/$total killed (logs in $log)"
echo "rebuilding the unmutated sources..."
ninja -C "$build" ${JOBS:+-j "$JOBS"} >"$log/restore.log" 2>&1 || echo "error: the rebuild failed, see $log/restore.log" >&2
[ "$bad" -eq 0 ]
