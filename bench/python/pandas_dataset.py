"""Baseline of dataset_stats: what people run today to get the same dataset statistics with pandas.

The one-liner `pd.read_csv(f).describe()` (here `describe(include="all")`, so text columns get unique/top/freq
as the client gives them) plus what pandas needs for the rest of the client's output: exact duplicate rows
(`duplicated().sum()`) and the test rows also in train (`merge` with the de-duplicated train). Drift is not
computed (pandas has no one-liner for it), so the baseline does less work than the client. Prints one JSON
object with the wall time of each step and the peak RSS.

usage: pandas_dataset.py <train> <test> <csv|parquet>
"""

import json
import resource
import sys
import time

import pandas as pd

train_path, test_path, fmt = sys.argv[1:4]
read = pd.read_csv if fmt == "csv" else pd.read_parquet
steps = {}
t0 = last = time.perf_counter()


def step(name):
    global last
    now = time.perf_counter()
    steps[name] = (now - last) * 1000
    last = now


train = read(train_path)
test = read(test_path)
step("read")
described = train.describe(include="all")
step("describe")
duplicates = int(train.duplicated().sum())
step("duplicated")
overlap = len(test.merge(train.drop_duplicates(), how="inner", on=list(train.columns)))
step("overlap")
print(json.dumps({
    "seconds": time.perf_counter() - t0,
    "steps_ms": steps,
    "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    "rows": len(train) + len(test),
    "duplicates": duplicates,
    "overlap": overlap,
    "pandas": pd.__version__,
}))
