#!/usr/bin/env bash
# Builds what changed and runs every test suite (lit, unit, python) through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure
