import { z } from "zod";
import { classifyGlobal } from "./file/pickle-policy.js";
import type { PickleReport } from "./file/pickle-scan.js";
import type { IntegrityIssue, LoadCode, TrainingState, UnverifiedContent } from "./file/scan-types.js";

/**
 * `metadata.scan`: what a client's own scan of the checkpoint (the same scanner, `ml-diagnose`) found that tensor
 * statistics cannot say: each pickle's imports, parts it could not open, structural faults, and the training state
 * a file holds instead of weights. Verdicts on imports are not taken from the client: every import is classified
 * here, by this service's policy. A malformed entry is dropped, never fatal.
 */
const ImportSchema = z.object({
  module: z.string(),
  name: z.string(),
  opcode: z.enum(["GLOBAL", "INST", "STACK_GLOBAL"]).catch("GLOBAL"),
  count: z.number().int().min(1).catch(1),
});
const PickleSchema = z.object({
  entry: z.string(),
  protocol: z.number().int().catch(-1),
  bytes: z.number().int().min(0).catch(0),
  imports: z.array(z.unknown()).catch([]),
  ext_codes: z.array(z.number().int()).catch([]),
  versions: z.array(z.object({ library: z.string().max(64), version: z.string().max(64) })).max(50).catch([]),
  error: z.string().nullable().catch(null),
  partial: z.boolean().catch(false),
});
const UnverifiedSchema = z.object({ entry: z.string(), reason: z.string() });
const IssueSchema = z.object({
  kind: z.enum(["truncated", "hole", "overlap", "trailing", "size_mismatch", "bad_header", "missing_storage", "unreadable"]),
  detail: z.string(),
  expected_bytes: z.number().optional(),
  actual_bytes: z.number().optional(),
});
const LoadCodeSchema = z.object({
  kind: z.enum(["keras_lambda", "keras_custom_object", "tf_op", "onnx_custom_domain"]),
  where: z.string(),
  name: z.string(),
  detail: z.string(),
});
const ScanFactsSchema = z.looseObject({
  pickles: z.array(z.unknown()).catch([]),
  unverified: z.array(z.unknown()).catch([]),
  issues: z.array(z.unknown()).catch([]),
  training_state: z.enum(["optimizer", "scheduler", "rng_state", "training_args"]).nullable().catch(null),
  load_code: z.array(z.unknown()).catch([]),
  file_facts: z.record(z.string(), z.string()).catch({}),
});

/** What a client's scan found, in the shapes the detectors read from a file scanned here. */
export interface ClientScanFacts {
  pickles: PickleReport[];
  unverified: UnverifiedContent[];
  issues: IntegrityIssue[];
  trainingState: TrainingState | null;
  /** Load-time code the client's scan found; graded here by the load-code policy, as imports are. */
  loadCode: LoadCode[];
  fileFacts: Record<string, string>;
}

const each = <T>(schema: z.ZodType<T>, items: readonly unknown[]): T[] =>
  items.flatMap((x) => {
    const p = schema.safeParse(x);
    return p.success ? [p.data] : [];
  });

function pickleReport(p: z.infer<typeof PickleSchema>): PickleReport {
  const globals = each(ImportSchema, p.imports).map((g) => ({ ...classifyGlobal(g.module, g.name), module: g.module, name: g.name, opcode: g.opcode, count: g.count }));
  return { entry: p.entry, bytes: p.bytes, pickles: 1, protocol: p.protocol, globals, extCodes: p.ext_codes, versions: p.versions, error: p.error, partial: p.partial };
}

/** `metadata.scan` as detector input, or null when the metadata has none. */
export function clientScanFacts(metadata: Record<string, unknown>): ClientScanFacts | null {
  const parsed = ScanFactsSchema.safeParse(metadata.scan);
  if (!parsed.success) return null;
  const s = parsed.data;
  return {
    pickles: each(PickleSchema, s.pickles).map(pickleReport),
    unverified: each(UnverifiedSchema, s.unverified),
    issues: each(IssueSchema, s.issues).map((i) => ({ kind: i.kind, detail: i.detail, expectedBytes: i.expected_bytes, actualBytes: i.actual_bytes })),
    trainingState: s.training_state,
    loadCode: each(LoadCodeSchema, s.load_code),
    fileFacts: s.file_facts,
  };
}
