# The compiler fingerprint the JIT puts in its cache keys (cmake/CompilerFingerprint.cmake):
# 16 hex digits that change with any listed source's contents or name, do not depend on where
# the tree is checked out, come back when a change is undone, and leave the header untouched
# (its time stamp too) when nothing changed, so the build recompiles nothing then.
# RUN: rm -rf %t && python3 %s %tile_src/cmake/CompilerFingerprint.cmake %t
import os
import re
import shutil
import subprocess
import sys

script, work = sys.argv[1], sys.argv[2]


def tree(root, files):
    os.makedirs(os.path.join(root, "compiler"), exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
    # Listed unsorted, as a CMake list: the order must not matter.
    listed = [os.path.join(root, name) for name in sorted(files, reverse=True)]
    with open(os.path.join(root, "list.txt"), "w") as f:
        f.write(";".join(listed))


def fingerprint(root):
    out = os.path.join(root, "out", "CompilerFingerprint.h")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run(["cmake", f"-DLIST={root}/list.txt", f"-DROOT={root}", f"-DOUT={out}", "-P", script], check=True)
    text = open(out).read()
    match = re.search(r'#define TILE_COMPILER_FINGERPRINT "([0-9a-f]{16})"', text)
    assert match, text
    return match.group(1), out


files = {"compiler/a.cpp": "int a() { return 1; }\n", "compiler/b.h": "#pragma once\n"}
first = os.path.join(work, "first")
tree(first, files)
original, header = fingerprint(first)

# Nothing changed: the header keeps its contents and its time stamp.
os.utime(header, (1000, 1000))
assert fingerprint(first)[0] == original
assert os.stat(header).st_mtime == 1000, "the header was rewritten although nothing changed"

# Another checkout of the same sources: the same fingerprint.
second = os.path.join(work, "second")
tree(second, files)
assert fingerprint(second)[0] == original

# A change of contents changes it, and undoing the change brings it back.
tree(first, {**files, "compiler/a.cpp": "int a() { return 2; }\n"})
changed = fingerprint(first)[0]
assert changed != original
assert os.stat(header).st_mtime != 1000, "the header was not rewritten for a new fingerprint"
tree(first, files)
assert fingerprint(first)[0] == original

# So does a renamed file with the same contents.
shutil.rmtree(first)
tree(first, {"compiler/a2.cpp": files["compiler/a.cpp"], "compiler/b.h": files["compiler/b.h"]})
assert fingerprint(first)[0] != original
print("fingerprint ok")
