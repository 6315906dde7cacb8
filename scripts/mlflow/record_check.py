"""Creates a run for the client's --record-to-mlflow test and reads back what was recorded, with MLflow's own
Python client (so the check does not trust our REST calls).

Usage: python record_check.py <tracking_uri> create
       python record_check.py <tracking_uri> read <run_id>

create prints {"run_id": …}; read prints {"artifacts": [paths under diagnosis/], "tags": {diagnosis.*},
"diagnosis": the downloaded diagnosis.json, "dataset": the downloaded dataset_statistics.json or null,
"report_head": the first 200 characters of report.html}.
"""

import json
import os
import sys
import tempfile

import mlflow
from mlflow import MlflowClient

uri, command = sys.argv[1], sys.argv[2]
mlflow.set_tracking_uri(uri)
client = MlflowClient(tracking_uri=uri)

if command == "create":
    experiment = client.get_experiment_by_name("client-record") or client.get_experiment(client.create_experiment("client-record"))
    run = client.create_run(experiment.experiment_id, run_name="tabular-train")
    client.log_param(run.info.run_id, "model", "gbm")
    print(json.dumps({"run_id": run.info.run_id}))
elif command == "read":
    run_id = sys.argv[3]
    tags = {k: v for k, v in client.get_run(run_id).data.tags.items() if k.startswith("diagnosis.")}
    paths = sorted(f.path for f in client.list_artifacts(run_id, "diagnosis"))
    with tempfile.TemporaryDirectory() as tmp:
        local = client.download_artifacts(run_id, "diagnosis", tmp)
        read = lambda name: open(os.path.join(local, name), encoding="utf-8").read() if os.path.exists(os.path.join(local, name)) else None
        dataset = read("dataset_statistics.json")
        print(json.dumps({
            "artifacts": paths,
            "tags": tags,
            "diagnosis": json.loads(read("diagnosis.json")),
            "dataset": json.loads(dataset) if dataset else None,
            "report_head": (read("report.html") or "")[:200],
        }))
