"""The Python side of run_stores (W&B): reads a run's .wandb transaction log with the wandb package itself.

wandb 0.31 no longer ships a Python reader of the log (wandb.sdk.internal.datastore was removed when the SDK moved
to wandb-core), so this walks the LevelDB framing in Python (32 KiB blocks, 7-byte headers, FULL/FIRST/MIDDLE/LAST,
CRC-32 checked with zlib as the old DataStore did) and parses each record with the package's own protobuf class,
wandb.proto.wandb_internal_pb2.Record, and its history items' value_json with json.loads: what the removed DataStore
plus the old sync code did. Keeps per key a count, a sum and the last value, as the client's wandb-scan does.
Prints one JSON line: seconds, peak RSS, rows, points, sum.
"""

import json
import math
import resource
import sys
import time
import zlib

from wandb.proto import wandb_internal_pb2

BLOCK = 32768
HEADER = 7


def records(path):
    with open(path, "rb") as f:
        data = f.read(7)
        assert data[:4] == b":W&B", "not a W&B log"
        offset = 7
        pending = []
        while True:
            space = BLOCK - offset % BLOCK
            if space < HEADER:
                f.read(space)
                offset += space
                continue
            header = f.read(HEADER)
            if len(header) < HEADER:
                return
            checksum = int.from_bytes(header[0:4], "little")
            length = int.from_bytes(header[4:6], "little")
            kind = header[6]
            if kind == 0 and length == 0:
                f.read(space - HEADER)
                offset += space
                continue
            body = f.read(length)
            offset += HEADER + length
            if zlib.crc32(body, zlib.crc32(bytes([kind]))) & 0xFFFFFFFF != checksum:
                raise ValueError(f"checksum mismatch at {offset}")
            if kind == 1:
                yield body
            elif kind == 2:
                pending = [body]
            elif kind == 3:
                pending.append(body)
            elif kind == 4:
                pending.append(body)
                yield b"".join(pending)


def main(path):
    started = time.perf_counter()
    keys = {}
    rows = points = 0
    total = 0.0
    record = wandb_internal_pb2.Record()
    for raw in records(path):
        record.ParseFromString(raw)
        if record.WhichOneof("record_type") != "history":
            continue
        rows += 1
        for item in record.history.item:
            key = ".".join(item.nested_key) if item.nested_key else item.key
            if key in ("_step", "_timestamp", "_runtime"):
                continue
            value = json.loads(item.value_json)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            k = keys.setdefault(key, [0, 0.0, 0.0])
            k[0] += 1
            k[1] += value if math.isfinite(value) else 0.0
            k[2] = value
            points += 1
            total += value if math.isfinite(value) else 0.0
    seconds = time.perf_counter() - started
    import wandb

    print(json.dumps({"seconds": seconds, "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "rows": rows, "points": points, "sum": total, "wandb": wandb.__version__}))


if __name__ == "__main__":
    main(sys.argv[1])
