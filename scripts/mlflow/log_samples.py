"""Logs the sample requests as real MLflow runs, the way the tools they come from would have logged them.

Usage: python log_samples.py <tracking_uri> <samples_dir> <out_dir>

Each sample request becomes one run in the experiment "samples" (run name = sample file stem, tag
dataset_name = the request's dataset_name): metric histories through the tracking API, params as MLflow
strings, and files as artifacts (Lightning metrics.csv, trainer_state.json, Keras history rows, Deepchecks /
Evidently / Great Expectations JSON, the original Python client's YAML files, dataset statistics, a dataset
input, a safetensors checkpoint inside a logged model). Prints one JSON object: {sample: run_id, ...}. Files an
inline request needs to match a pulled one (the checkpoint) are written to <out_dir>.
"""

import json
import os
import struct
import sys
import tempfile
from decimal import Decimal

import mlflow
import yaml
from mlflow import MlflowClient
from mlflow.entities import Dataset, DatasetInput, InputTag, Metric

MLFLOW_3 = mlflow.__version__.startswith("3")


def js_number(v):
    """A number as JavaScript's String(n) writes it, so params compare equal with the inline request's."""
    if isinstance(v, int):
        return str(v)
    if v == int(v) and abs(v) < 1e21:
        return str(int(v))
    text = repr(v)
    if "e" not in text:
        return text
    mantissa, exp = text.split("e")
    exp = int(exp)
    if -7 < exp < 21:
        return format(Decimal(text), "f")
    return f"{mantissa}e{'+' if exp > 0 else '-'}{abs(exp)}"


def param_text(v):
    """The service's own stringification of params (Python spelling for booleans and None)."""
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "True" if v else "False"
    if v is None:
        return "None"
    if isinstance(v, (int, float)):
        return js_number(v)
    return json.dumps(v, separators=(",", ":"))


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


def safetensors_bytes(metadata):
    """A small valid safetensors file: two float32 tensors and a string metadata map."""
    header = {
        "__metadata__": metadata,
        "embed.weight": {"dtype": "F32", "shape": [4, 2], "data_offsets": [0, 32]},
        "head.bias": {"dtype": "F32", "shape": [2], "data_offsets": [32, 40]},
    }
    raw = json.dumps(header).encode()
    raw += b" " * ((8 - len(raw) % 8) % 8)
    data = struct.pack("<10f", 0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8, 0.01, -0.02)
    return struct.pack("<Q", len(raw)) + raw + data


def log_training(client, run_id, training, stage):
    metrics = training.get("metrics")
    if isinstance(metrics, dict) and metrics.get("format") in ("lightning_csv", "csv", "keras_csv"):
        name = {"lightning_csv": "lightning_logs/version_0/metrics.csv", "csv": "metrics.csv", "keras_csv": "training.log"}[metrics["format"]]
        write(os.path.join(stage, name), metrics["content"])
    elif isinstance(metrics, dict) and "log_history" in metrics:
        write(os.path.join(stage, "outputs/trainer_state.json"), json.dumps(metrics, indent=2, sort_keys=True))
    elif isinstance(metrics, dict):
        points = []
        for key, series in metrics.items():
            for i, p in enumerate(series):
                if isinstance(p, dict):
                    points.append(Metric(key, float(p["value"]), int(p.get("timestamp", 0)), int(p.get("step", i))))
                else:
                    points.append(Metric(key, float(p), 0, i))
        for i in range(0, len(points), 1000):
            client.log_batch(run_id, metrics=points[i : i + 1000])
    elif isinstance(metrics, list) and metrics and "key" in metrics[0]:
        points = [Metric(r["key"], float(r["value"]), int(r.get("timestamp", 0)), int(r.get("step", 0))) for r in metrics]
        for i in range(0, len(points), 1000):
            client.log_batch(run_id, metrics=points[i : i + 1000])
    elif isinstance(metrics, list):
        write(os.path.join(stage, "history.json"), json.dumps(metrics))
    params = training.get("params") or {}
    if params:
        client.log_batch(run_id, params=[mlflow.entities.Param(k, param_text(v)) for k, v in params.items()])
    if training.get("logs"):
        logs = training["logs"]
        write(os.path.join(stage, "logs/train.log"), logs if isinstance(logs, str) else "\n".join(logs) + "\n")
    if training.get("metadata"):
        write(os.path.join(stage, "training_artifacts.json"), json.dumps({"metadata": training["metadata"]}))


def log_dataset(client, run_id, dataset, stage):
    stats = dataset.get("statistics") or {}
    if "dataset_name" in dataset and "metadata" not in dataset:
        # The original Python client: dataset/dataset.yaml with {dataset_name, statistics}.
        write(os.path.join(stage, "dataset/dataset.yaml"), yaml.safe_dump(dataset, sort_keys=False))
    elif "digest" in stats:
        metadata = dataset.get("metadata") or {}
        ds = Dataset(
            name=stats["name"], digest=stats["digest"], source_type=stats["source_type"], source=stats["source"],
            schema=stats.get("schema"), profile=stats.get("profile"),
        )
        tags = [InputTag("mlflow.data.context", metadata["mlflow.data.context"])] if "mlflow.data.context" in metadata else []
        client.log_inputs(run_id, [DatasetInput(dataset=ds, tags=tags)])
        if metadata:
            write(os.path.join(stage, "dataset_artifacts.json"), json.dumps({"metadata": metadata}))
    else:
        write(os.path.join(stage, "dataset/statistics.json"), json.dumps(dataset))


def report_path(report, i):
    if report.get("type") in ("SuiteResult", "CheckResult", "CheckFailure"):
        return f"deepchecks/report_{i}.json"
    if "metrics" in report:
        return f"evidently/report_{i}.json"
    return f"great_expectations/validation_{i}.json"


def log_checks(checks, stage):
    if "results" in checks and "reports" not in checks:
        # The original Python client: deepchecks/deepchecks.yaml with {dataset_name, results, config}.
        write(os.path.join(stage, "deepchecks/deepchecks.yaml"), yaml.safe_dump(checks, sort_keys=False))
        return
    for i, report in enumerate(checks.get("reports") or []):
        write(os.path.join(stage, report_path(report, i)), json.dumps(report))
    if checks.get("checks"):
        write(os.path.join(stage, "checks/checks.json"), json.dumps(checks["checks"]))


class WeightsModel(mlflow.pyfunc.PythonModel):
    def predict(self, context, model_input):
        return model_input


def log_checkpoint(client, run_id, checkpoint, stage, out_dir, sample):
    metadata = checkpoint.get("metadata") or {}
    if sample != "llm-finetune-hf":
        write(os.path.join(stage, "model_checkpoint_artifacts.json"), json.dumps({"metadata": metadata}))
        return
    # A real file, inside a logged model (MLflow 3: under models/<id>; 2.x: under the run's model/).
    weights = os.path.join(out_dir, sample, "model.safetensors")
    write(weights, safetensors_bytes({"format": "pt"}), "wb")
    sidecar = weights + ".json"
    write(sidecar, json.dumps(metadata))
    name = {"name": "model"} if MLFLOW_3 else {"artifact_path": "model"}
    with mlflow.start_run(run_id=run_id):
        mlflow.pyfunc.log_model(python_model=WeightsModel(), artifacts={"weights": weights, "weights_meta": sidecar}, pip_requirements=[], **name)


def log_sample(client, experiment_id, path, out_dir):
    sample = os.path.splitext(os.path.basename(path))[0]
    with open(path) as f:
        body = json.load(f)
    run = client.create_run(experiment_id, run_name=sample, tags={"dataset_name": body.get("dataset_name") or sample})
    run_id = run.info.run_id
    with tempfile.TemporaryDirectory() as stage:
        if body.get("training_artifacts"):
            log_training(client, run_id, body["training_artifacts"], stage)
        if body.get("dataset_artifacts"):
            log_dataset(client, run_id, body["dataset_artifacts"], stage)
        checks = body.get("checks_artifacts") or body.get("deepchecks_artifacts")
        if checks:
            log_checks(checks, stage)
        if body.get("model_checkpoint_artifacts"):
            log_checkpoint(client, run_id, body["model_checkpoint_artifacts"], stage, out_dir, sample)
        if os.listdir(stage):
            client.log_artifacts(run_id, stage)
    client.set_terminated(run_id, "FINISHED")
    return sample, run_id


def main():
    tracking_uri, samples_dir, out_dir = sys.argv[1:4]
    mlflow.set_tracking_uri(tracking_uri)
    client = MlflowClient(tracking_uri)
    experiment_id = client.create_experiment("samples")
    runs = {}
    for name in sorted(os.listdir(samples_dir)):
        if name.endswith(".json") and name != "bad-request.json":
            sample, run_id = log_sample(client, experiment_id, os.path.join(samples_dir, name), out_dir)
            runs[sample] = run_id
    print(json.dumps(runs))


if __name__ == "__main__":
    main()
