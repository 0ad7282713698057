# Writes a tile-tune-table/1 table (the autotuner's export format) for the kernel `k` of the
# source file argv[1], to stdout: decisions that fit tile-cc-launcher-tuning.py's launcher and
# decisions that do not (another source, another label, another constant, a repeat).
import hashlib
import json
import sys

source = open(sys.argv[1], "rb").read()
digest = hashlib.sha256(source).hexdigest()[:32]


def record(kernel, n, blocks, config, label, device="NVIDIA H200", source_digest=digest, driver="13000",
           const="0:4"):
    key = "\n".join([f"kernel={kernel}", "compiler=tile-cc 0.1.0", f"source={source_digest}",
                     f"const.SCALE={const}", "arg.out=float32:1", "arg.x=float32:1", f"key.n={n}",
                     f"blocks={blocks}", "candidates=0:BS=64|1:BS=128|", f"device={device}",
                     f"driver={driver}", "target=sm_90a"]) + "\n"
    return {"kernel": kernel, "summary": f"{kernel} n={n} blocks~{blocks}", "key": key, "winner": config,
            "config": config, "label": label,
            "rows": [{"config": config, "label": label, "status": "timed", "ms": 1.0, "launches": 5,
                      "reason": ""}]}


entries = [
    record("k", 1024, 8, 1, "BS=128"),
    record("k", 65536, 512, 0, "BS=64"),
    record("k", 65536, 512, 0, "BS=64", device="NVIDIA A100-SXM4-80GB"),
    # Tuned again under another driver: the first decision is kept.
    record("k", 1024, 8, 0, "BS=64", driver="12080"),
    record("k", 2048, 16, 1, "BS=128", source_digest="0" * 32),
    record("k", 4096, 32, 1, "BS=256"),
    record("k", 8192, 64, 0, "BS=64", const="0:5"),
    record("other", 1024, 8, 0, "config 0"),
    # Past int64: refused, not wrapped to a negative value compiled in.
    record("k", 9999999999999999999, 8, 0, "BS=64"),
    record("k", 1024, 99999999999999999999, 0, "BS=64"),
]
print(json.dumps({"format": "tile-tune-table/1", "entries": entries}, indent=1))
