import { DEFAULT_SERVER } from "./options.js";

export const MAIN_HELP = `ml-diagnose: diagnose a training run from the files it wrote, with the ML diagnosis service.

Usage: ml-diagnose <command> [flags]

Commands:
  analyse <path…>   send a run folder's metrics, reports and checkpoint; print the diagnosis
  compare <run…>    judge several runs against each other (seed noise, sweep edges, a baseline)
  watch <folder>    follow a run while it trains; report findings as they appear, stop it on one

Examples:
  ml-diagnose analyse lightning_logs/version_0
  ml-diagnose analyse out/ --format markdown --fail-on high >> "$GITHUB_STEP_SUMMARY"

Flags:
  -h, --help        this help (\`ml-diagnose analyse --help\` for the command's flags)
  --version         the client's version

Exit codes: 0 clean, 1 --fail-on gate failed, 2 usage or input error, 3 service unreachable after retries,
4 service error. Docs: docs/client.md
`;

export const ANALYSE_HELP = `ml-diagnose analyse: send a run's artifacts to the service and print its diagnosis.

Usage: ml-diagnose analyse [flags] <path…>

Each path is a run folder or a file, recognized by content: Lightning (metrics.csv, hparams.yaml,
checkpoints/), a Hugging Face Trainer output folder (trainer_state.json, the newest checkpoint-N/,
config.json, model.safetensors), Keras CSVLogger and History JSON, TensorBoard event files, an MLflow
file-store run (mlruns/<experiment>/<run>), Deepchecks / Evidently / Great Expectations report JSON, and
checkpoints (safetensors, .pt .pth .ckpt .bin). Checkpoints are scanned here, never unpickled, and sent as
statistics. Which file went into which artifact is printed on stderr.

Examples:
  ml-diagnose analyse lightning_logs/version_0
  ml-diagnose analyse hf-output/ reports/drift.json --format markdown --output diagnosis.md
  ml-diagnose analyse run/ --fail-on high --format markdown >> "$GITHUB_STEP_SUMMARY"
  ml-diagnose analyse --mlflow-run 3f2a9c81d4e54b7f
  ml-diagnose analyse run/ --data train.parquet --test test.csv.gz --target label

Service:
  --server <url>          the service (default ${DEFAULT_SERVER}, or ML_DIAGNOSE_SERVER)
  --retries <n>           retries on connection errors, 429/503 and 504/time-outs (default 4)
  --max-wait <seconds>    most time spent waiting between attempts in all (default 120)
  --timeout <seconds>     time-out of one attempt, doubled after a time-out (default 330)
  --mlflow-run <id|uri>   have the service pull a run from its tracking server (run id or runs:/<id>/<path>)
  --server-paths          send the checkpoint's path instead of its statistics (the service reads the file:
                          it must run on this machine with the folder under SERVICE_ARTIFACT_ROOTS)

Dataset (statistics computed here, docs/client-dataset.md):
  --data <file>           training data: CSV, TSV, Parquet or JSON Lines (.gz for the text formats)
  --test <file>           held-out data: adds train/test overlap and per-column drift
  --target <column>       label column: class distribution per split

Run stores:
  --run <id|name>         the run to send from a local store holding several: an MLflow SQLite store's run id or
                          name, a W&B run id (default: the newest ended MLflow run, the newest W&B run folder)

MLflow:
  --record-to-mlflow <id> log the request, dataset statistics, diagnosis JSON and HTML report under diagnosis/
                          in that run and tag it diagnosis.max_severity and diagnosis.findings (server from
                          MLFLOW_TRACKING_URI, with MLFLOW_TRACKING_TOKEN or _USERNAME/_PASSWORD)

Request:
  --dataset-name <name>   name the dataset in the report
  --model-name <name>     name the model
  --language <lang>       language of the explanations (english, fr, pt-BR…)
  --strict                an unreadable or unrecognized file named on the command line stops the run
                          (exit 2), and any failed agent makes the analysis fail (exit 4)
  --dry-run               print the request JSON on stdout and exit 0 without sending it

Output:
  -f, --format <fmt>      text (default), json (the response as it came), markdown (CI job summary),
                          html (the service's report page)
  -o, --output <file>     write the report there instead of stdout
  --fail-on <severity>    exit 1 when a finding is at least this severe: critical, high, medium, low, info
  --progress              show the agents' progress on stderr even when it is not a terminal
  -q, --quiet             print nothing on stderr but errors and warnings
  --no-color              no colour (also NO_COLOR=1); colour is only ever used on a terminal
  -h, --help              this help

Exit codes: 0 clean, 1 gate failed, 2 usage or input error, 3 unreachable after retries, 4 service error.
`;
