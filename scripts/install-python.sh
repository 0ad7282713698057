#!/usr/bin/env bash
# Makes the tilecc Python package (python/) importable by ${PYTHON:-python3}, the way an editable
# install does: a tilecc.pth in its site-packages naming python/. The package loads this
# tree's build/lib/libtilecc.so. (Debian's Python refuses `pip install` outside a virtual
# environment; in one, `pip install ./python` copies the package and the library instead.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
purelib=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
mkdir -p "$purelib"
echo "$root/python" > "$purelib/tilecc.pth"
echo "install-python: $purelib/tilecc.pth -> $root/python"
"$python" -c 'import tilecc; print("install-python: import tilecc: ok, tile-cc", tilecc.version())'
