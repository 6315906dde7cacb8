import type { Finding, FindingRecommendation, Severity } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import type { LogEventKind, TrainingRun } from "../model.js";
import { LOGS_ARTIFACT, type TrainingDetector } from "./detector.js";

interface LogRule {
  id: string;
  kind: LogEventKind;
  title: string;
  severity: Severity;
  /** What the lines mean, for a person. */
  meaning: string;
  recommendation: FindingRecommendation;
  threshold: string;
  basis: string;
}

/** A detector that reports one kind of log event, quoting the first lines. */
function logDetector(rule: LogRule): TrainingDetector {
  return {
    info: { id: rule.id, rule: "LOG", title: rule.title, threshold: rule.threshold, severities: [rule.severity], basis: rule.basis },
    detect(run: TrainingRun): Finding[] {
      const count = run.logs.counts[rule.kind] ?? 0;
      if (count === 0) return [];
      const lines = run.logs.events.filter((e) => e.kind === rule.kind);
      return [
        detectorFinding({
          id: rule.id,
          title: rule.title,
          description: `The training logs contain ${count} such line(s): ${rule.meaning}`,
          evidence: lines.slice(0, 3).map((e) => ({ rule_id: "LOG", artifact: LOGS_ARTIFACT, text: `Line ${e.line + 1}: "${e.text}"`, observed: count, threshold: 0, values: { line: e.line + 1 } })),
          severity: rule.severity,
          confidence: count > 1 ? 0.9 : 0.8,
          recommendation: rule.recommendation,
        }),
      ];
    },
  };
}

export const cudaOom = logDetector({
  id: "training.cuda_oom",
  kind: "cuda_oom",
  title: "GPU out of memory",
  severity: "high",
  meaning: "the GPU ran out of memory, so the run crashed or had to retry with other settings.",
  threshold: "any 'CUDA out of memory' / OutOfMemoryError / RESOURCE_EXHAUSTED line",
  basis: "PyTorch and TensorFlow OOM messages",
  recommendation: {
    action: "Reduce the per-device batch size (keep the effective batch with gradient accumulation), enable mixed precision (bf16) and gradient checkpointing, or shorten sequences.",
    rationale: "Activation memory grows with batch size and sequence length; accumulation, lower precision and recomputation trade compute for memory without changing the optimization.",
    category: "infrastructure",
    effort: "low",
  },
});

export const dataloaderErrors = logDetector({
  id: "training.dataloader_errors",
  kind: "dataloader_error",
  title: "Data-loader workers failed",
  severity: "high",
  meaning: "data-loader workers were killed or failed (often out of host or shared memory), so the run crashed or silently lost batches.",
  threshold: "any 'DataLoader worker … killed / exited unexpectedly', shared-memory or 'Too many open files' line",
  basis: "PyTorch DataLoader error messages",
  recommendation: {
    action: "Lower num_workers or prefetch_factor, enlarge shared memory (e.g. docker --shm-size), raise the open-file limit, and check the dataset code for crashes on particular samples.",
    rationale: "Workers die from host-memory or shared-memory exhaustion and from exceptions in the loading code; fewer workers or more memory stops the crashes.",
    category: "infrastructure",
    effort: "low",
  },
});

export const dataloaderBottleneck = logDetector({
  id: "training.dataloader_bottleneck",
  kind: "dataloader_bottleneck",
  title: "Data loading may bottleneck training",
  severity: "low",
  meaning: "the framework warns that the data loader has too few workers, so the GPU likely waits for data.",
  threshold: "Lightning's 'does not have many workers which may be a bottleneck' warning",
  basis: "PyTorch Lightning data-connector warning",
  recommendation: {
    action: "Raise num_workers towards the number of CPU cores (Lightning suggests a value), enable pin_memory and persistent_workers.",
    rationale: "Idle accelerator time waiting for batches is pure waste; parallel loading removes it.",
    category: "infrastructure",
    effort: "low",
  },
});

export const nonfiniteWarnings = logDetector({
  id: "training.nonfinite_warnings",
  kind: "nonfinite_warning",
  title: "NaN/Inf warnings in the logs",
  severity: "medium",
  meaning: "NaN or Inf values were detected in inputs, outputs or gradients, which precedes numerical divergence.",
  threshold: "lines reporting NaN/Inf detected or found in tensors, gradients, outputs or metrics other than a loss (lines naming a loss, e.g. loss, val_loss, train/loss, are training.nonfinite_loss's)",
  basis: "PyTorch anomaly detection and framework NaN guards [K30]",
  recommendation: {
    action: "Find where the first NaN appears (torch.autograd.detect_anomaly on a failing batch), check inputs for NaN, guard log/division in custom code, and lower the learning rate.",
    rationale: "NaNs spread through every later computation; catching the first one points at the cause.",
    category: "training",
    effort: "medium",
  },
});
