"""Logs a sweep the experiment tests generated, value for value, into one MLflow experiment.

Usage: python log_sweep.py <tracking_uri> <sweep.json> <experiment>

sweep.json: [{"name": ..., "params": {...}, "metrics": {"val_loss": [v0, v1, ...], ...}}]; a value "NaN" is
logged as a NaN. Step i of each list is logged at step i. Every run ends FINISHED, created in list order.
Prints one JSON object {run name: run_id}.
"""

import json
import sys

from mlflow import MlflowClient
from mlflow.entities import Metric, Param

BATCH = 1000


def main():
    tracking_uri, sweep_path, experiment = sys.argv[1:4]
    client = MlflowClient(tracking_uri)
    exp = client.create_experiment(experiment)
    runs = {}
    with open(sweep_path) as f:
        sweep = json.load(f)
    for i, spec in enumerate(sweep):
        run = client.create_run(exp, run_name=spec["name"], start_time=1_700_000_000_000 + 1000 * i)
        metrics = [
            Metric(key, float(value), 1_700_000_000_000 + step, step)
            for key, values in spec["metrics"].items()
            for step, value in enumerate(values)
        ]
        params = [Param(k, str(v)) for k, v in spec["params"].items()]
        client.log_batch(run.info.run_id, params=params)
        for start in range(0, len(metrics), BATCH):
            client.log_batch(run.info.run_id, metrics=metrics[start:start + BATCH])
        client.set_terminated(run.info.run_id, "FINISHED")
        runs[spec["name"]] = run.info.run_id
    print(json.dumps(runs))


if __name__ == "__main__":
    main()
