"""Baseline of checkpoint_scan: the per-tensor statistics of a safetensors file computed by numpy over a memory map.

Per tensor, as the service's scanner computes them: NaN / +Inf / -Inf counts, zero count, and over the finite
values min, max, mean, std, L2 norm, max |x|, and the L2 norm of each output unit (first dimension). Work goes
in chunks of whole rows so memory stays bounded, with float64 accumulation. Prints one JSON object.

usage: numpy_scan.py <file.safetensors>
"""

import json
import resource
import struct
import sys
import time

import numpy as np

CHUNK_ELEMENTS = 1 << 22
NUMPY_DTYPES = {
    "F64": np.float64, "F32": np.float32, "F16": np.float16,
    "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8,
    "U64": np.uint64, "U32": np.uint32, "U16": np.uint16, "U8": np.uint8, "BOOL": np.uint8,
}


def as_float64(raw: np.ndarray, dtype: str) -> np.ndarray:
    if dtype == "BF16":
        # bfloat16 is the upper half of a float32.
        return (raw.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return raw.astype(np.float64)


def tensor_stats(data: np.memmap, info: dict) -> dict:
    dtype = info["dtype"]
    begin, end = info["data_offsets"]
    shape = info["shape"] or [1]
    rows = shape[0]
    width = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    raw = data[begin:end].view(np.uint16 if dtype == "BF16" else NUMPY_DTYPES[dtype])
    nan = pinf = ninf = zeros = finite_n = 0
    total = squares = 0.0
    lo, hi = np.inf, -np.inf
    unit_norms = np.zeros(rows, dtype=np.float64)
    rows_per_chunk = max(1, CHUNK_ELEMENTS // max(1, width))
    for r0 in range(0, rows, rows_per_chunk):
        r1 = min(rows, r0 + rows_per_chunk)
        x = as_float64(raw[r0 * width : r1 * width], dtype)
        finite = np.isfinite(x)
        all_finite = bool(finite.all())
        if not all_finite:
            nan += int(np.isnan(x).sum())
            pinf += int(np.isposinf(x).sum())
            ninf += int(np.isneginf(x).sum())
            x = np.where(finite, x, 0.0)
        n_finite = x.size if all_finite else int(finite.sum())
        finite_n += n_finite
        # Non-finite values were set to zero above: they are not zeros.
        zeros += int(np.count_nonzero(x == 0)) - (x.size - n_finite)
        if n_finite:
            values = x if all_finite else x[finite]
            lo = min(lo, float(values.min()))
            hi = max(hi, float(values.max()))
        sq = x * x
        total += float(x.sum())
        squares += float(sq.sum())
        unit_norms[r0:r1] = np.sqrt(sq.reshape(r1 - r0, width).sum(axis=1))
    mean = total / finite_n if finite_n else None
    return {
        "count": int(raw.size),
        "nan": nan, "pos_inf": pinf, "neg_inf": ninf, "zeros": zeros,
        "min": lo if finite_n else None, "max": hi if finite_n else None,
        "mean": mean,
        "std": float(np.sqrt(max(0.0, squares / finite_n - mean * mean))) if finite_n else None,
        "l2": float(np.sqrt(squares)),
        "max_abs": max(abs(lo), abs(hi)) if finite_n else None,
        "dead_units": int((unit_norms < 1e-6 * unit_norms.max()).sum()) if rows > 1 and unit_norms.max() > 0 else 0,
    }


def main(path: str) -> None:
    started = time.perf_counter()
    with open(path, "rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_len))
    header.pop("__metadata__", None)
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + header_len)
    stats = {name: tensor_stats(data, info) for name, info in header.items()}
    seconds = time.perf_counter() - started
    print(json.dumps({
        "seconds": seconds,
        "bytes": 8 + header_len + int(data.size),
        "tensors": len(stats),
        "nan": sum(s["nan"] for s in stats.values()),
        "zeros": sum(s["zeros"] for s in stats.values()),
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "numpy": np.__version__,
    }))


if __name__ == "__main__":
    main(sys.argv[1])
