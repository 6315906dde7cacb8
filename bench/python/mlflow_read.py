"""The Python side of run_stores (MLflow): reads a SQLite tracking store with mlflow's own client.

  all   every run of the store's experiments (search_runs) and the full history of each of its metrics
        (get_metric_history per run and key): what the client's mlflow-all reads
  run   what analyse reads: the newest finished run (search_runs ordered by start time, one result) and its
        metrics' histories

Prints one JSON line: seconds, peak RSS, runs, points, sum.
"""

import json
import math
import resource
import sys
import time

from mlflow.tracking import MlflowClient


def main(mode, db):
    started = time.perf_counter()
    client = MlflowClient(tracking_uri=f"sqlite:///{db}")
    experiments = [e.experiment_id for e in client.search_experiments()]
    if mode == "all":
        runs = []
        token = None
        while True:
            page = client.search_runs(experiments, max_results=1000, page_token=token)
            runs += list(page)
            token = page.token
            if not token:
                break
    else:
        runs = list(client.search_runs(experiments, filter_string="attributes.status = 'FINISHED'", order_by=["attributes.start_time DESC"], max_results=1))
    points = 0
    total = 0.0
    for run in runs:
        for key in run.data.metrics:
            for m in client.get_metric_history(run.info.run_id, key):
                points += 1
                total += m.value if math.isfinite(m.value) else 0.0
    seconds = time.perf_counter() - started
    import mlflow

    print(json.dumps({"seconds": seconds, "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "runs": len(runs), "points": points, "sum": total, "mlflow": mlflow.__version__}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
