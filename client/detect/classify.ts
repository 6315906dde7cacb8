import { open, readFile } from "node:fs/promises";
import { basename } from "node:path";
import { roleOf } from "../../artifacts/mlflow/discover.js";
import { parseStructured, type PulledDocument } from "../../artifacts/mlflow/documents.js";
import { type Sniffed, sniffDocument } from "../../artifacts/mlflow/sniff.js";
import { readBytes } from "../../nodes/checkpoint/file/range-reader.js";
import type { CheckpointFormat } from "../../nodes/checkpoint/file/scan-types.js";
import { SNIFF_BYTES, sniffFormat } from "../../nodes/checkpoint/file/sniff.js";
import { isTfdvAnomalies } from "../../nodes/checks/parse/tfdv.js";
import { maskedCrc32c } from "../../nodes/training/parse/crc32c.js";
import { isWandbLog } from "../../nodes/training/parse/leveldb-log.js";
import { isSqliteHeader } from "./mlflow-sqlite.js";
import { classifyMetricsText, classifyPrintedLog } from "./text-metrics.js";
import type { FoundFile } from "./walk.js";

/** What one file turned out to be, judged by its content first and its name only to break ties. */
export type Classified =
  | { as: "checkpoint"; format: CheckpointFormat }
  | { as: "tfevents" }
  | { as: "metrics_csv"; text: string }
  | { as: "document"; doc: PulledDocument; sniffed: Sniffed }
  /** A JSON/YAML the service has no use for on its own (config.json, tokenizer files, hparams.yaml's cousins). */
  | { as: "plain_document"; doc: PulledDocument }
  | { as: "log"; text: string }
  /** JSON lines (log.jsonl, metrics.jsonl) and CatBoost's catboost_info/*_error.tsv: client/detect/text-metrics.ts. */
  | { as: "metrics_jsonl"; text: string }
  | { as: "catboost_tsv"; text: string }
  | { as: "unrecognized"; reason: string };

/** JSON, YAML, CSV and log files larger than this are not read (the service's body limit is 64 MiB by default). */
const MAX_TEXT_BYTES = 256 << 20;
/**
 * Extensions a weights file may carry, also compressed as joblib.dump(compress=…) names them (`.joblib.xz`,
 * `.pkl.gz`) and timm's `.pth.tar`; other zip and compressed files are archives, not checkpoints (a Keras `.keras`
 * file is a zip: its config.json, read by the scan, tells it from other archives).
 */
const WEIGHTS_NAME = /\.(safetensors|pt|pth|ckpt|bin|pkl|pickle|joblib|npz|npy|gguf|keras)(\.(gz|z|bz2|xz|lzma|lz4|tar))?$/i;
/** A metric column: what a metrics log has and a data table rarely does. */
const METRIC_COLUMN = /loss|acc|auc|f1|precision|recall|error|lr|learning_rate|perplexity|mse|mae/i;
const AXIS_COLUMN = /^(epoch|step|global_step|iteration|iter)$/i;

async function head(path: string, size: number): Promise<Uint8Array> {
  const fh = await open(path, "r");
  try {
    return await readBytes(fh, 0, Math.min(size, Math.max(SNIFF_BYTES, 12)));
  } finally {
    await fh.close();
  }
}

/** A TFRecord stream: u64 length, then the masked CRC-32C of those 8 bytes (what every event file starts with). */
function isTfRecord(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(8, true) === maskedCrc32c(bytes.subarray(0, 8));
}

/** The header of a CSV that logs metrics per epoch or step (Lightning, Keras CSVLogger, pandas history). */
function isMetricsCsvHeader(firstLine: string): boolean {
  const columns = firstLine.split(/[,;\t]/).map((c) => c.trim().replace(/^"|"$/g, ""));
  const long = columns.includes("key") && columns.includes("value");
  return long || (columns.some((c) => AXIS_COLUMN.test(c)) && columns.some((c) => METRIC_COLUMN.test(c)));
}

/** Classifies one file; throws only when it cannot be read at all (the caller names it with the reason). */
export async function classifyFile(file: FoundFile): Promise<Classified> {
  const name = basename(file.path);
  if (file.size === 0) return { as: "unrecognized", reason: "the file is empty" };
  const bytes = await head(file.path, file.size);
  const format = sniffFormat(bytes.subarray(0, SNIFF_BYTES), file.size, name);
  const weightsLike = format !== "unknown" && format !== "archive" && format !== "zip";
  if (weightsLike || ((format === "zip" || format === "archive") && WEIGHTS_NAME.test(name))) return { as: "checkpoint", format };
  if (isTfRecord(bytes)) return { as: "tfevents" };
  // Run stores are read before classification (tracker-stores.ts): one reaching here is not a store the client reads.
  if (isSqliteHeader(bytes)) return { as: "unrecognized", reason: "a SQLite database without MLflow's tracking tables" };
  if (isWandbLog(bytes)) return { as: "unrecognized", reason: "a W&B transaction log of a run not analysed" };
  if (format !== "unknown") return { as: "unrecognized", reason: `a ${format} file that is not named like a checkpoint` };
  if (file.size > MAX_TEXT_BYTES) return { as: "unrecognized", reason: `${file.size} bytes is too large for a text artifact` };

  const role = roleOf(file.relative.replaceAll("\\", "/"));
  const text = await readFile(file.path, "utf8");
  const metricsText = classifyMetricsText(file.relative, text);
  if (metricsText) return metricsText;
  const namedJson = /\.json$/i.test(name);
  // JSON by its name, or by its first character whatever the name (a report saved as .txt, a history as .out).
  const asJson = namedJson || (!/\.ya?ml$/i.test(name) && /^\s*[[{]/.test(text));
  const value = asJson || /\.ya?ml$/i.test(name) || role === "hparams" ? parseStructured(asJson ? "content.json" : name, text) : undefined;
  // A file named .json/.yaml must parse; one that only starts like JSON may be a log ("[12:00] epoch 1…").
  if (value === undefined && (namedJson || /\.ya?ml$/i.test(name))) throw new Error(`not valid ${namedJson ? "JSON" : "YAML"}`);
  if (value !== undefined) {
    // A Deepchecks `to_json()` string saved with json.dump is the report, JSON-encoded once more.
    const inner = typeof value === "string" ? parseStructured("content.json", value) ?? value : value;
    const doc: PulledDocument = { path: file.relative, role: role ?? "document", size: file.size, text, bytes: new Uint8Array(), value: inner };
    // TFDV anomalies are a report the service reads that the MLflow pull's sniffer does not look for.
    const sniffed = sniffDocument(name, inner) ?? (isTfdvAnomalies(inner) ? ({ kind: "checks", as: "report" } as const) : null);
    return sniffed ? { as: "document", doc, sniffed } : { as: "plain_document", doc };
  }
  const firstLine = text.split("\n", 1)[0] ?? "";
  if (isMetricsCsvHeader(firstLine) && (/\.(csv|log|txt)$/i.test(name) || role === "metrics_csv")) return { as: "metrics_csv", text };
  if (role === "log") return { as: "log", text };
  // Output saved under any name (train.out, nohup.out, stdout.txt) is a log when it prints metrics in a known style.
  return classifyPrintedLog(text) ?? { as: "unrecognized", reason: "not a format ml-diagnose reads (metrics log, report, checkpoint, event file)" };
}
