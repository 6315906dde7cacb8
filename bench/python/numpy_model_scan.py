"""Baseline of model_file_scan: the per-tensor statistics of numpy_scan.py (the same function) over the tensors of a
generated ONNX (external data), GGUF or HDF5 file, each read through a memory map of the file that holds it. HDF5
datasets are located with h5py (`dataset.id.get_offset()`, contiguous layout), then read as the others. Prints one
JSON object in numpy_scan.py's shape.

usage: numpy_model_scan.py <layout.json> | numpy_model_scan.py --hdf5 <file.h5>
"""

import json
import os
import resource
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from numpy_scan import tensor_stats  # noqa: E402


def hdf5_layout(path: str) -> list:
    import h5py

    out = []
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                out.append({"file": path, "offset": int(obj.id.get_offset()), "dtype": "F32", "shape": list(obj.shape)})
        f.visititems(visit)
    return out


def main(argv: list) -> None:
    started = time.perf_counter()
    tensors = hdf5_layout(argv[1]) if argv[0] == "--hdf5" else json.load(open(argv[0]))
    maps = {}
    stats = []
    for t in tensors:
        data = maps.setdefault(t["file"], np.memmap(t["file"], dtype=np.uint8, mode="r"))
        size = int(np.prod(t["shape"])) * (4 if t["dtype"] == "F32" else 2)
        stats.append(tensor_stats(data, {"dtype": t["dtype"], "shape": t["shape"], "data_offsets": [t["offset"], t["offset"] + size]}))
    seconds = time.perf_counter() - started
    print(json.dumps({
        "seconds": seconds,
        "bytes": sum(s["count"] * (4 if t["dtype"] == "F32" else 2) for s, t in zip(stats, tensors)),
        "tensors": len(stats),
        "nan": sum(s["nan"] for s in stats),
        "zeros": sum(s["zeros"] for s in stats),
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "numpy": np.__version__,
    }))


if __name__ == "__main__":
    main(sys.argv[1:])
