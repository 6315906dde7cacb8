import { type LogEvent, type LogEventKind, type LogSummary, LOG_EVENT_KINDS } from "../model.js";

/**
 * A loss as logs name it: "loss", "Loss", or a logged loss metric such as "val_loss", "train/loss", "eval_loss" or
 * "train_loss_epoch"; not "loss_scale", "lossy" or "myloss".
 */
const LOSS = String.raw`(?<![a-z0-9])(?:[a-z]+[_/.])?loss(?:[_/.](?:step|epoch))?(?![a-z0-9_])`;
const NONFINITE = String.raw`(?:nan|-?inf(?:inity)?)`;

/** Patterns of the messages PyTorch, Lightning, Keras, Hugging Face, apex and DeepSpeed print. */
const PATTERNS: Record<LogEventKind, RegExp> = {
  cuda_oom: /CUDA out of memory|OutOfMemoryError|CUBLAS_STATUS_ALLOC_FAILED|RESOURCE_EXHAUSTED|\bOOM when allocating|out of memory/i,
  // Lightning's EarlyStopping(check_finite) says "Monitored metric val_loss = nan is not finite": a loss line too.
  nonfinite_loss: new RegExp(
    String.raw`${LOSS}\W{0,4}(?:is|=|:|became|was)?\W{0,4}${NONFINITE}\b|\b${NONFINITE}\s+(?:in\s+(?:the\s+)?)?${LOSS}|non-?finite ${LOSS}|${LOSS} (?:is|became|was) (?:non-?|not )finite`,
    "i",
  ),
  nonfinite_warning: /\b(?:nan|inf)s?\b.{0,40}\b(?:detected|found|encountered|values?|in (?:input|gradient|grad|tensor|output|weights?))|\b(?:detected|found|encountered|returned|produced)\b.{0,40}\b(?:nan|inf)s?\b|non-?finite/i,
  gradient_overflow: /gradient overflow|overflow!?.{0,60}skipping step|skipping step.{0,80}loss scale|reducing loss scale/i,
  dataloader_error: /DataLoader worker \(pid[^)]*\) (?:is killed|exited unexpectedly)|worker.{0,40}killed by signal|DataLoader timed out|Too many open files|insufficient shared memory|Caught \w+ in DataLoader worker|DataLoader worker.{0,40}(?:error|failed)/i,
  dataloader_bottleneck: /does not have many workers|num_workers.{0,60}bottleneck|data ?loader.{0,40}bottleneck/i,
  early_stopping: /\bearly stopping\b(?!\s*[=:]\s*(?:false|0|none|off))|Monitored metric .{1,60} did not improve|EarlyStopping.{0,30}(?:trigger|stopp)/i,
  restored_best: /restoring model weights|restor(?:e|ed|ing) (?:the )?best|load(?:ing)? (?:the )?best model|best model .{0,40}loaded/i,
  lr_reduced: /reducing learning rate|ReduceLROnPlateau reducing/i,
};

/** Lines longer than this are cut before matching (a pasted tensor should not cost seconds). */
const MAX_LINE = 2000;
/** Lines read at most; later ones are counted but not matched. */
const MAX_LINES = 200_000;
/** Example lines kept per kind. */
const KEEP_PER_KIND = 5;

/** Splits logs (a text or a list of lines, each possibly multi-line) into lines. */
export function logLines(logs: unknown): string[] {
  if (typeof logs === "string") return logs.split(/\r?\n/);
  if (Array.isArray(logs)) return logs.flatMap((l) => (typeof l === "string" ? l.split(/\r?\n/) : []));
  return [];
}

/** Recognizes events in free-text training logs: OOM, NaN/Inf, overflow, data-loader trouble, early stopping. */
export function summarizeLogs(lines: readonly string[]): LogSummary {
  const counts: Partial<Record<LogEventKind, number>> = {};
  const events: LogEvent[] = [];
  const n = Math.min(lines.length, MAX_LINES);
  for (let i = 0; i < n; i++) {
    const text = lines[i]!.slice(0, MAX_LINE);
    if (text.trim() === "") continue;
    for (const kind of LOG_EVENT_KINDS) {
      if (!PATTERNS[kind].test(text)) continue;
      // Lines about the loss are the loss's own event (TH-01), not a NaN warning about tensors.
      if (kind === "nonfinite_warning" && PATTERNS.nonfinite_loss.test(text)) continue;
      const seen = (counts[kind] = (counts[kind] ?? 0) + 1);
      if (seen <= KEEP_PER_KIND) events.push({ kind, line: i, text: text.trim().slice(0, 300) });
    }
  }
  return { lines: lines.length, counts, events };
}
