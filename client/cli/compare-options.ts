import type { ParseArgsConfig } from "node:util";
import { ClientError } from "../errors.js";
import { checkServer, CONNECTION_OPTIONS, type ConnectionOptions, DEFAULT_SERVER, oneOf, parseCommandArgs, readConnection, seconds } from "./options.js";

export const COMPARE_FORMATS = ["text", "json", "markdown"] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

/** Flags of `ml-diagnose compare`; every one has a long form and a line in its help. */
export const COMPARE_OPTIONS = {
  ...CONNECTION_OPTIONS,
  baseline: { type: "string" },
  "mlflow-experiment": { type: "string" },
  filter: { type: "string" },
  "max-runs": { type: "string" },
  objective: { type: "string" },
  direction: { type: "string" },
  "fail-on-regression": { type: "boolean" },
  format: { type: "string", short: "f" },
  output: { type: "string", short: "o" },
  "dataset-name": { type: "string" },
  "dry-run": { type: "boolean" },
} as const satisfies ParseArgsConfig["options"];

/** `ml-diagnose compare` as the flags ask for it, checked. */
export interface CompareOptions extends ConnectionOptions {
  /** Run folders (or files), one run each. */
  paths: string[];
  /** A run folder (added to the runs if not among them), or the name or MLflow id of a run. */
  baseline: string | null;
  mlflowExperiment: string | null;
  filter: string | null;
  maxRuns: number | null;
  objective: string | null;
  direction: "minimize" | "maximize" | null;
  failOnRegression: boolean;
  format: CompareFormat;
  output: string | null;
  datasetName: string | null;
  dryRun: boolean;
}

export const COMPARE_HELP = `ml-diagnose compare: judge several runs of one experiment against each other with the service.

Usage: ml-diagnose compare [flags] <run folder…>

Each folder is one run, read as \`ml-diagnose analyse\` reads it (checkpoints are not sent). The service says
whether the best configuration is better beyond seed noise, whether a swept parameter's best value is on the
edge of its range, which parameters matter, which runs failed and what they share, whether a change regressed
against the baseline, and which run to pick.

Examples:
  ml-diagnose compare sweeps/lr-*/
  ml-diagnose compare runs/pr-s1 runs/pr-s2 runs/pr-s3 --baseline runs/main-s1 --fail-on-regression
  ml-diagnose compare --mlflow-experiment lr-sweep --filter "params.optimizer = 'adam'" --max-runs 50

Runs:
  --baseline <folder|name|id>    the run the others are judged against (its seed replicates join it)
  --mlflow-experiment <name>     add the experiment's runs on the service's tracking server
  --filter <expr>                MLflow search filter for those runs (conditions joined with and)
  --max-runs <n>                 the latest n of them
  --objective <metric>           e.g. val_loss (default: inferred from the validation metrics)
  --direction <minimize|maximize>  when the metric's name does not say

Output:
  -f, --format <text|json|markdown>  text (default), the service's JSON, or Markdown for a CI summary
  -o, --output <file>            write there instead of stdout
  --fail-on-regression           exit 1 when a run regresses against the baseline beyond noise
  --dry-run                      print the request instead of sending it
  --dataset-name <name>          name the dataset in the report

Service:
  --server <url>                 default $ML_DIAGNOSE_SERVER or ${DEFAULT_SERVER}
  --retries <n>, --max-wait <s>, --timeout <s>   as for analyse
  -q, --quiet, --no-color, -h, --help

Exit codes: 0 no regression (or no gate), 1 regression with --fail-on-regression, 2 usage or input error,
3 service unreachable after retries, 4 service error, 5 internal error.
`;

/** Reads and checks the flags of `compare`; `env` supplies ML_DIAGNOSE_SERVER. */
export function readCompareOptions(args: string[], env: Record<string, string | undefined>): CompareOptions {
  const { values: v, positionals } = parseCommandArgs(args, COMPARE_OPTIONS, "compare");
  const maxRuns = v["max-runs"] === undefined ? null : Math.floor(seconds("max-runs", v["max-runs"], 0, 1));
  const options: CompareOptions = {
    ...readConnection(v, env),
    paths: positionals,
    baseline: v.baseline ?? null,
    mlflowExperiment: v["mlflow-experiment"] ?? null,
    filter: v.filter ?? null,
    maxRuns,
    objective: v.objective ?? null,
    direction: oneOf("direction", v.direction, ["minimize", "maximize"] as const),
    failOnRegression: v["fail-on-regression"] ?? false,
    format: oneOf("format", v.format, COMPARE_FORMATS) ?? "text",
    output: v.output ?? null,
    datasetName: v["dataset-name"] ?? null,
    dryRun: v["dry-run"] ?? false,
  };
  if (options.help) return options;
  checkServer(options.server);
  if (options.paths.length === 0 && !options.mlflowExperiment && !options.baseline) {
    throw new ClientError("USAGE", "give run folders, --baseline <folder> or --mlflow-experiment <name> (see `ml-diagnose compare --help`)");
  }
  if (!options.mlflowExperiment && (options.filter || options.maxRuns !== null)) {
    throw new ClientError("USAGE", `--${options.filter ? "filter" : "max-runs"} goes with --mlflow-experiment <name>`);
  }
  if (options.direction && !options.objective) throw new ClientError("USAGE", "--direction goes with --objective <metric>");
  if (options.failOnRegression && !options.baseline) throw new ClientError("USAGE", "--fail-on-regression needs --baseline: a regression is judged against it");
  return options;
}
