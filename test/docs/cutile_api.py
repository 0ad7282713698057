# Keeps docs/cutile-api.md true: each row's probe is compiled inside a small kernel; supported
# and partial rows must compile, missing rows must fail with an error naming the feature. It
# also checks the counts the page states.
# RUN: python3 %s %tile_src/docs/cutile-api.md tile-cc %t
import os
import re
import subprocess
import sys

KERNEL = """import cuda.tile as ct


@ct.kernel
def probe(x, y, a, n: int, out):
    t = ct.load(x, (0,), (16,))
    k = ct.load(y, (0,), (16,))
    m = ct.load(a, (0, 0), (16, 16))
    {probe}
"""
ARGS = ["--arg", "x=f32:1", "--arg", "y=i32:1", "--arg", "a=f32:2", "--arg", "n=i32:0", "--arg", "out=f32:1"]


def main(doc, tilecc, workdir, mode=""):
    os.makedirs(workdir, exist_ok=True)
    rows = []
    for line in open(doc, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1] in ("supported", "partial", "missing"):
            rows.append((cells[0].strip("`"), cells[1], cells[2].strip("`")))
    failures = []
    compiled = {"supported": 0, "partial": 0, "missing": 0}
    for name, status, probe in rows:
        path = os.path.join(workdir, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(KERNEL.format(probe=probe))
        run = subprocess.run([tilecc, path, "--kernel", "probe"] + ARGS, capture_output=True, text=True)
        compiled[status] += run.returncode == 0
        if status == "missing":
            if run.returncode == 0:
                failures.append(f"{name}: marked missing but its probe compiles")
            elif name not in run.stderr:
                failures.append(f"{name}: missing, but the error does not name it:\n{run.stderr}")
        elif run.returncode != 0:
            failures.append(f"{name}: marked {status} but its probe fails:\n{run.stderr}")
    counts = {s: sum(1 for r in rows if r[1] == s) for s in ("supported", "partial", "missing")}
    text = open(doc, encoding="utf-8").read()
    stated = re.search(r"now\s+\*\*(\d+)\*\*:\s+(\d+)\s+supported,\s+(\d+)\s+partial,\s+(\d+)\s+missing", text)
    total = re.search(r"Counts \((\d+) rows\)", text)
    if not stated or not total:
        failures.append("the page does not state its counts")
    else:
        want = (counts["supported"] + counts["partial"], counts["supported"], counts["partial"], counts["missing"])
        if tuple(int(g) for g in stated.groups()) != want or int(total.group(1)) != len(rows):
            failures.append(f"the page states {stated.groups()} of {total.group(1)}; the table has {want} of {len(rows)}")
    if mode == "--count":  # how many probes another tile-cc compiles, by today's status
        print(f"{sum(compiled.values())} of {len(rows)} probes compile: {compiled}")
        return 0
    for f in failures:
        print("FAIL", f)
    print(f"{len(rows)} rows: {counts}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
