#!/usr/bin/env bash
# Checks that the C/C++ code changed since BASE is formatted as .clang-format says, and fails
# listing the files clang-format would change (fix one with `clang-format -i FILE`, or the
# changed lines only with `git clang-format BASE`).
#
#   scripts/check-format.sh [--whole-files] [BASE]
#
# By default only the changed lines are checked (git clang-format); --whole-files checks every
# changed file entirely (what CI runs: the whole tree is formatted). BASE defaults to the merge-base with main when HEAD has commits of its
# own, else HEAD~1; without either (a shallow clone of one commit) there is nothing to compare
# and the check passes. Uncommitted changes are included.
set -euo pipefail
cd "$(dirname "$0")/.."

whole=0
if [ "${1:-}" = "--whole-files" ]; then
  whole=1
  shift
fi
base=${1:-}

clang_format=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$clang_format" ]; then
  echo "check-format: clang-format not found (install clang-format-14: scripts/install-deps.sh)" >&2
  exit 2
fi

if [ -z "$base" ]; then
  head=$(git rev-parse HEAD)
  for main in main origin/main; do
    if git rev-parse -q --verify "$main^{commit}" >/dev/null; then
      mb=$(git merge-base HEAD "$main" 2>/dev/null || true)
      if [ -n "$mb" ] && [ "$mb" != "$head" ]; then
        base=$mb
      fi
      break
    fi
  done
  if [ -z "$base" ]; then
    if git rev-parse -q --verify "HEAD~1^{commit}" >/dev/null; then
      base=HEAD~1
    else
      echo "check-format: no commit to compare with (single-commit clone); nothing to check"
      exit 0
    fi
  fi
fi
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "check-format: unknown base '$base'" >&2
  exit 2
fi

extensions=c,cc,cpp,cxx,h,hh,hpp
files=()
while IFS= read -r f; do
  [ -f "$f" ] && files+=("$f")
done < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.c' '*.cc' '*.cpp' '*.cxx' '*.h' '*.hh' '*.hpp')
if [ ${#files[@]} -eq 0 ]; then
  echo "check-format: no C/C++ files changed since $(git rev-parse --short "$base")"
  exit 0
fi

bad=()
if [ "$whole" = 1 ]; then
  for f in "${files[@]}"; do
    "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
else
  git_clang_format=$(command -v git-clang-format-14 || command -v git-clang-format || true)
  if [ -z "$git_clang_format" ]; then
    echo "check-format: git-clang-format not found (it comes with clang-format-14)" >&2
    exit 2
  fi
  diff=$("$git_clang_format" --binary "$clang_format" --extensions "$extensions" --diff "$base" -- "${files[@]}" || true)
  while IFS= read -r line; do
    case $line in
      "diff --git a/"*) f=${line#diff --git a/}; bad+=("${f%% b/*}") ;;
    esac
  done <<<"$diff"
fi

if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: clang-format would change these files (changed since $(git rev-parse --short "$base")):"
  printf '  %s\n' "${bad[@]}"
  if [ "$whole" = 0 ]; then
    echo "see the changes with: git clang-format --diff $base; apply them with: git clang-format $base"
  fi
  exit 1
fi
echo "check-format: ${#files[@]} changed C/C++ file(s) formatted (since $(git rev-parse --short "$base"))"
