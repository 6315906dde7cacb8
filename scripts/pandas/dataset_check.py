"""The pandas side of the integration tier test/int/pandas: writes data files with the edge cases of the client's
dataset statistics, and computes with pandas what the client should say about them (dataset_reference.py).

usage:
  dataset_check.py write <dir>
      edge.{csv,tsv,parquet,jsonl}(.gz) train/test pairs (missing values of every type, a column of ints and
      floats mixed, ties, categories with ties for the top, text with commas, quotes and non-ASCII, a constant
      column, an all-missing column, duplicate rows with missing values, test rows copied from train, a column
      only test has), and large.parquet, a file above the client's exact bounds. Prints {"files": [...]}.
  dataset_check.py stats <train> [<test>] [--target COL] [--rank-error E]
      the reference statistics as JSON; with --rank-error, each numeric column's quartiles at q ± E too.
"""
import argparse
import gzip
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
from dataset_reference import read_pair, reference  # noqa: E402

# Large enough that the client estimates: more distinct values than its exact bound (client/dataset/distinct.ts)
# and more values than its exact-quantile bound (client/dataset/numeric.ts).
LARGE_ROWS = 1_200_000


def edge_frame(rng, n, shift, test):
    age = pd.array(rng.integers(18, 91, n), dtype="Int64")
    age[rng.choice(n, n // 30, replace=False)] = pd.NA
    # Whole numbers and fractions in one column: "3" and "2.5" in the text formats, read as floats.
    mixed = np.where(rng.random(n) < 0.5, rng.integers(-5, 6, n).astype(float), np.round(rng.normal(shift, 3, n), 3))
    mixed = pd.Series([int(x) if float(x).is_integer() else float(x) for x in mixed], dtype=object)
    mixed[rng.choice(n, n // 50, replace=False)] = None
    # Heavy ties (one decimal) and near-unique values with missing ones and negatives.
    score = np.round(rng.normal(shift, 1, n), 1)
    score[rng.choice(n, n // 20, replace=False)] = np.nan
    amount = np.round(rng.standard_t(3, n) * 1000 + shift * 200, 6)
    amount[rng.choice(n, n // 25, replace=False)] = np.nan
    cities = ["Berlin", "Paris", "Rome", "Oslo", "Lisbon", "Zürich", "東京"] + (["Madrid"] if test else [])
    weights = np.ones(len(cities)) / len(cities)
    # Berlin and Paris tie for the top in train: the smallest wins.
    city = np.array(cities, dtype=object)[np.arange(n) % len(cities)] if not test else rng.choice(cities, n, p=weights).astype(object)
    city[rng.choice(n, n // 25, replace=False)] = None
    note = np.where(rng.random(n) < 0.1, 'said "hi", then left', np.where(rng.random(n) < 0.5, "ok", "café, ça va")).astype(object)
    flag = pd.Series(rng.random(n) < 0.3 + shift / 3, dtype=object)
    flag[rng.choice(n, n // 40, replace=False)] = None
    frame = pd.DataFrame({
        "id": np.arange(n) + (1_000_000 if test else 0),
        "age": age,
        "mixed": mixed,
        "score": score,
        "amount": amount,
        "city": city,
        "note": note,
        "flag": flag,
        "constant": np.full(n, 7),
        "empty": np.full(n, np.nan),
        "label": rng.choice([0, 1, 2], n, p=[0.5, 0.3, 0.2] if not test else [0.4, 0.3, 0.3]),
    })
    if test:
        frame["extra"] = rng.integers(0, 3, n)
    return frame


def edge_tables(rng):
    train = edge_frame(rng, 4000, 0.0, False)
    test = edge_frame(rng, 1200, 0.4, True)
    # Extra copies in train, rows with missing values among them; train rows in test (on the shared columns).
    copies = rng.choice(4000, 60, replace=False)
    train = pd.concat([train, train.iloc[copies], train.iloc[copies[:10]]], ignore_index=True)
    leaked = train.iloc[rng.choice(4000, 40, replace=False)].assign(extra=1)
    test = pd.concat([test, leaked, leaked.iloc[:5]], ignore_index=True)
    return train, test


def large_table(rng):
    n = LARGE_ROWS
    frame = pd.DataFrame({
        "key": [f"k{i}" for i in range(n)],
        "x": rng.normal(0, 1, n),
        "level": rng.integers(0, 50, n),
        "group": rng.choice(["a", "b", "c"], n),
    })
    return pd.concat([frame, frame.iloc[:500]], ignore_index=True)


def write(dir_):
    rng = np.random.default_rng(2014)
    out = Path(dir_)
    out.mkdir(parents=True, exist_ok=True)
    files = []
    train, test = edge_tables(rng)
    for split, df in (("train", train), ("test", test)):
        df.to_csv(out / f"edge-{split}.csv", index=False)
        df.to_csv(out / f"edge-{split}.tsv", index=False, sep="\t")
        df.to_parquet(out / f"edge-{split}.parquet", index=False)
        df.to_json(out / f"edge-{split}.jsonl", orient="records", lines=True, force_ascii=False)
        for ext in ("csv", "tsv", "jsonl"):
            with open(out / f"edge-{split}.{ext}", "rb") as src, gzip.GzipFile(out / f"edge-{split}.{ext}.gz", "wb", mtime=0) as dst:
                shutil.copyfileobj(src, dst)
    files += [f"edge-%s.{fmt}" for fmt in ("csv", "tsv", "parquet", "jsonl", "csv.gz", "tsv.gz", "jsonl.gz")]
    large_table(rng).to_parquet(out / "large.parquet", index=False)
    files.append("large.parquet")
    print(json.dumps({"files": files}))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("dir")
    s = sub.add_parser("stats")
    s.add_argument("train")
    s.add_argument("test", nargs="?")
    s.add_argument("--target")
    s.add_argument("--rank-error", type=float, default=0.0)
    args = parser.parse_args()
    if args.command == "write":
        write(args.dir)
    else:
        train, test = read_pair(args.train, args.test)
        print(json.dumps(reference(train, test, args.target, args.rank_error)))


if __name__ == "__main__":
    main()
