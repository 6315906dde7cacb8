export const WATCH_HELP = `ml-diagnose watch: follow a run folder while it trains and report findings as they appear.

Usage: ml-diagnose watch [flags] <run folder>

Follows the first metrics log that appears: a Lightning or Keras CSV log, TensorBoard event files (Lightning,
Keras, the Trainer's runs/), an MLflow file-store run, or the newest trainer_state.json; only what was appended
is read. The run is sent as still going (metadata.status "running"): only what is already certain is reported
(NaN, divergence, exploding gradients, unrecovered spikes…), judgements of a finished run wait for its end.
Each new or more severe finding is printed once, with the time and the step it became conclusive.
The watch ends when the run writes its end marker (MLflow run status, the Trainer's train_results.json) or its
files stop growing for --idle, after a last analysis of the finished run.

Flags:
  --server <url>           the service (default ML_DIAGNOSE_SERVER or http://127.0.0.1:8844)
  --interval <s>           at most one analysis per interval while points arrive (default 30)
  --idle <s>               no growth for this long ends the watch (default 600)
  --stop-on <severity>     exit 1 at the first finding this severe (critical, high, medium, low, info)
  --signal-pid <pid>       with --stop-on: send SIGINT to the training first (Lightning and the Trainer stop
                           gracefully and save); SIGTERM if it still runs after --signal-grace, or at once
                           if it ignores SIGINT (a background job of a non-interactive shell)
  --signal-grace <s>       time the training has to stop after each signal (default 30)
  --on-finding <command>   run through sh for each new or escalated finding, with
                           {"run", "at", "escalated", "finding"} as JSON on stdin (a chat notification)
  --dataset-name <name>    name the run in the request
  --retries <n>, --max-wait <s>, --timeout <s>   as for analyse
  -q, --quiet              only the findings (no progress notes on stderr)
  --no-color               no colours
  -h, --help               this help

Exit codes: 0 the run ended, 1 --stop-on reached, 2 usage error or no metrics appeared within --idle,
3 service unreachable after retries, 4 service error, 5 internal error. Docs: docs/client.md
`;
