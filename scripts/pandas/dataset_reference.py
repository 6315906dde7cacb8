"""What pandas (and scipy, for the KS statistic) compute as the client's dataset statistics (client/dataset).

The reference the client is checked against, by the committed fixture (scripts/fixtures/client_dataset.py) and by
the integration tier (test/int/pandas, through dataset_check.py): counts, missing, nunique, mean, std (ddof 1),
min, max, quartiles (linear interpolation, pandas' default), top value by count (ties to the smallest), class
counts, duplicated().sum(), the merge-based train/test overlap on the shared columns, and the drift definitions of
docs/client-dataset.md (PSI over train deciles, scipy's ks_2samp statistic, PSI and total variation over
categories).
"""
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

PSI_FLOOR = 1e-4
DECILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
QUARTILES = [0.25, 0.5, 0.75]
# Text columns with more categories get no drift (client/dataset/drift.ts).
CATEGORICAL_DRIFT_MAX_CATEGORIES = 1000


def read(path):
    """A data file as pandas reads it, the format taken from its name as the client takes it."""
    name = str(path).lower().removesuffix(".gz")
    if name.endswith(".csv"):
        return pd.read_csv(path)
    if name.endswith((".tsv", ".tab")):
        return pd.read_csv(path, sep="\t")
    if name.endswith((".parquet", ".pq")):
        return pd.read_parquet(path)
    if name.endswith((".jsonl", ".ndjson")):
        # pandas' own JSON parser turns a boolean column with nulls into 0.0/1.0 floats; pyarrow's keeps booleans.
        return pd.read_json(path, lines=True, engine="pyarrow")
    raise ValueError(f"{path}: unknown format")


def plain(v):
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return float(v)
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    return v


def is_number(s):
    return pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s)


def column_stats(s, rank_error=0.0):
    """describe()'s numbers of one column; with rank_error, also the quartiles at q ± rank_error (an estimate's bound)."""
    values = s.dropna()
    counts = values.value_counts()
    best = counts.max() if len(counts) else None
    top = min(v for v, c in counts.items() if c == best) if len(counts) else None
    out = {"count": int(s.count()), "missing": int(s.isna().sum()), "unique": int(s.nunique()),
           "top": plain(top), "top_frequency": int(best) if best is not None else None}
    if is_number(s) and len(values):
        q = values.quantile(QUARTILES)
        out.update(mean=float(values.mean()), std=float(values.std()), min=float(values.min()), max=float(values.max()),
                   p25=float(q[0.25]), p50=float(q[0.5]), p75=float(q[0.75]))
        if rank_error:
            out["quartile_bounds"] = [[float(values.quantile(max(p - rank_error, 0))), float(values.quantile(min(p + rank_error, 1)))] for p in QUARTILES]
    return out


def shares(counts):
    total = sum(counts)
    return [c / total for c in counts]


def psi(p, q):
    return float(sum((max(b, PSI_FLOOR) - max(a, PSI_FLOOR)) * np.log(max(b, PSI_FLOOR) / max(a, PSI_FLOOR)) for a, b in zip(p, q)))


def drift(train, test):
    """Per column both files have in the same family (numbers, or text and booleans), missing values left out."""
    out = {}
    for col in train.columns:
        if col not in test.columns or is_number(train[col]) != is_number(test[col]):
            continue
        a, b = train[col].dropna(), test[col].dropna()
        if len(a) == 0 or len(b) == 0:
            continue
        if is_number(train[col]):
            a, b = a.astype(float).to_numpy(), b.astype(float).to_numpy()
            edges = np.unique(np.quantile(a, DECILES))
            bins = lambda x: np.bincount(np.searchsorted(edges, x, side="left"), minlength=len(edges) + 1)
            out[col] = {"kind": "numeric", "psi": psi(shares(bins(a)), shares(bins(b))),
                        "ks": float(stats.ks_2samp(a, b).statistic)}
        else:
            cats = sorted(set(a.astype(str)) | set(b.astype(str)))
            if a.nunique() > CATEGORICAL_DRIFT_MAX_CATEGORIES or b.nunique() > CATEGORICAL_DRIFT_MAX_CATEGORIES:
                continue
            ca, cb = a.astype(str).value_counts(), b.astype(str).value_counts()
            p, q = shares([int(ca.get(c, 0)) for c in cats]), shares([int(cb.get(c, 0)) for c in cats])
            out[col] = {"kind": "categorical", "psi": psi(p, q),
                        "total_variation": float(sum(abs(x - y) for x, y in zip(p, q)) / 2)}
    return out


def reference(train, test, target=None, rank_error=0.0):
    """Everything the client computes from a train frame and an optional test frame, as plain JSON values."""
    out = {
        "pandas": pd.__version__,
        "splits": {"train": len(train), **({"test": len(test)} if test is not None else {})},
        "columns": {c: column_stats(train[c], rank_error) for c in train.columns},
    }
    if target is not None:
        counts = lambda df: {str(plain(k)): int(v) for k, v in df[target].value_counts().items()}
        out["class_distribution"] = {"train": counts(train), "test": counts(test)} if test is not None else counts(train)
    out["duplicates"] = {"count": int(train.duplicated().sum()), "fraction": float(train.duplicated().mean()) if len(train) else 0.0}
    if test is not None:
        shared = [c for c in train.columns if c in test.columns]
        overlap = len(test[shared].merge(train[shared].drop_duplicates(), how="inner", on=shared))
        out["train_test_overlap"] = {"count": overlap, "fraction": overlap / len(test)}
        out["drift"] = drift(train, test)
    return out


def read_pair(train, test):
    return read(Path(train)), (read(Path(test)) if test else None)
