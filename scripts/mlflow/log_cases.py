"""Logs the runs the MLflow integration tests use besides the samples: one per discovery rule.

Usage: python log_cases.py <tracking_uri> <fixtures_dir>

Prints one JSON object {case: run_id}. Cases (experiment "cases"):
- lightning-checkpoints: Lightning CSVLogger metrics + hparams.yaml (with a Python tag), and MLFlowLogger's
  checkpoint layout (model/checkpoints/<stem>/<file>.ckpt + metadata.yaml + aliases.txt), "best" on epoch=3.
- tfevents-only: a TensorBoard event file and nothing else.
- keras-csvlogger: Keras CSVLogger's training.log.
- big-checkpoint: a 64 KiB safetensors file (for the per-file download cap).
- dataset-old / dataset-new (FINISHED) and dataset-running (RUNNING, newest), all tagged dataset_name=churn-weekly.
- dataset-input-only: no tag, a dataset input named orders-daily.
"""

import json
import os
import shutil
import struct
import sys
import tempfile
import time

import mlflow
from mlflow import MlflowClient
from mlflow.entities import Dataset, DatasetInput, InputTag, Metric

LIGHTNING_CSV = """epoch,step,train_loss_epoch,train_loss_step,val_acc,val_loss
0,49,,0.912,,
0,99,,0.701,,
0,99,,,0.71,0.655
0,99,0.80,,,
1,149,,0.612,,
1,199,,0.588,,
1,199,,,0.74,0.602
1,199,0.60,,,
2,249,,0.51,,
2,299,,0.47,,
2,299,,,0.76,0.571
2,299,0.49,,,
"""

HPARAMS = """lr: 0.001
optimizer: AdamW
weight_decay: 0.0
model: !!python/object:argparse.Namespace
  depth: 18
"""


def safetensors(n_floats):
    header = json.dumps({"w": {"dtype": "F32", "shape": [n_floats], "data_offsets": [0, 4 * n_floats]}}).encode()
    header += b" " * ((8 - len(header) % 8) % 8)
    return struct.pack("<Q", len(header)) + header + struct.pack(f"<{n_floats}f", *([0.5] * n_floats))


def put(stage, rel, data):
    path = os.path.join(stage, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def run_with(client, experiment_id, name, files, tags=None, status="FINISHED", metrics=None):
    run = client.create_run(experiment_id, run_name=name, tags=tags or {})
    if metrics:
        client.log_batch(run.info.run_id, metrics=metrics)
    if files:
        with tempfile.TemporaryDirectory() as stage:
            for rel, data in files.items():
                put(stage, rel, data)
            client.log_artifacts(run.info.run_id, stage)
    if status != "RUNNING":
        client.set_terminated(run.info.run_id, status)
    return run.info.run_id


def main():
    tracking_uri, fixtures = sys.argv[1:3]
    # 2.x resolves mlflow-artifacts: URIs against the global tracking URI, not the client's.
    mlflow.set_tracking_uri(tracking_uri)
    client = MlflowClient(tracking_uri)
    exp = client.create_experiment("cases")
    read = lambda rel: open(os.path.join(fixtures, rel), "rb").read()
    losses = lambda base: [Metric("val_loss", base - 0.01 * i, 1_700_000_000_000 + i, i) for i in range(10)]
    runs = {}
    runs["lightning-checkpoints"] = run_with(client, exp, "lightning-checkpoints", {
        "lightning_logs/version_1/metrics.csv": LIGHTNING_CSV,
        "lightning_logs/version_1/hparams.yaml": HPARAMS,
        "model/checkpoints/epoch=3-step=400/epoch=3-step=400.ckpt": safetensors(16),
        "model/checkpoints/epoch=3-step=400/metadata.yaml": "score: 0.571\noriginal_filename: epoch=3-step=400.ckpt\nCheckpoint:\n  monitor: val_loss\n  mode: min\n",
        "model/checkpoints/epoch=3-step=400/aliases.txt": "['latest', 'best']",
        "model/checkpoints/last/last.ckpt": safetensors(16),
        "model/checkpoints/last/aliases.txt": "['latest']",
    })
    runs["tfevents-only"] = run_with(client, exp, "tfevents-only", {"tb/events.out.tfevents.1700000000.host": read("training/tensorboardx-simple-value.tfevents")})
    runs["keras-csvlogger"] = run_with(client, exp, "keras-csvlogger", {"training.log": read("training/keras-csvlogger.csv")})
    runs["big-checkpoint"] = run_with(client, exp, "big-checkpoint", {"weights/model.safetensors": safetensors(16384)})
    tag = {"dataset_name": "churn-weekly"}
    runs["dataset-old"] = run_with(client, exp, "dataset-old", {}, tag, metrics=losses(0.9))
    time.sleep(0.05)
    runs["dataset-new"] = run_with(client, exp, "dataset-new", {}, tag, metrics=losses(0.5))
    time.sleep(0.05)
    runs["dataset-running"] = run_with(client, exp, "dataset-running", {}, tag, status="RUNNING", metrics=losses(0.3))
    only_input = run_with(client, exp, "dataset-input-only", {}, metrics=losses(0.7))
    ds = Dataset(name="orders-daily", digest="0a1b2c3d", source_type="local", source=json.dumps({"uri": "/data/orders.parquet"}),
                 schema=json.dumps({"mlflow_colspec": [{"type": "long", "name": "order_id", "required": True}]}), profile=json.dumps({"num_rows": 1200, "num_elements": 1200}))
    client.log_inputs(only_input, [DatasetInput(dataset=ds, tags=[InputTag("mlflow.data.context", "training")])])
    runs["dataset-input-only"] = only_input
    print(json.dumps(runs))


if __name__ == "__main__":
    main()
