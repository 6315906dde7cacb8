// The checkpoint part of the real-output corpus (test/fixtures/real/checkpoints/<item>/, written by
// scripts/fixtures/real/checkpoint_corpus.py): each item's checkpoint file or folder as the tool wrote it, and
// expected.json, the findings written down before the detectors were changed. Items are analyzed the way the service
// does it: checkpoint_path under SERVICE_ARTIFACT_ROOTS (the corpus folder), resolved, scanned, detected.
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ENGLISH } from "../../artifacts/language.js";
import { loadServiceSettings } from "../../config/env.js";
import { type AgentResult, type Finding, SeveritySchema } from "../../domain/result.js";
import { detectCheckpointFindings } from "../../nodes/checkpoint/detect.js";
import { analyzeCheckpoint, checkpointAnalyzer } from "../../nodes/checkpoint/node.js";
import { prioritizeFindings } from "../../nodes/findings.js";
import { testDeps } from "./analysis-deps.js";
import { type CorpusFigures, countItem, emptyFigures } from "./real-corpus.js";

/** The corpus folder, which the analysis is given as its only artifact root. */
export const CHECKPOINT_CORPUS = realpathSync(fileURLToPath(new URL("../fixtures/real/checkpoints/", import.meta.url)));

/** expected.json, as checkpoint_corpus.py write_expected() writes it (the check-report items' shape). */
export const CheckpointExpectationSchema = z.object({
  description: z.string(),
  tool: z.string(),
  /** A healthy checkpoint: nothing may reach high. */
  healthy: z.boolean(),
  /** The checkpoint sent as model_checkpoint_artifacts.checkpoint_path: a file or a folder, relative to the item. */
  artifacts: z.array(z.object({ kind: z.literal("checkpoint"), path: z.string(), metadata: z.record(z.string(), z.unknown()).optional() })).length(1),
  /** Findings that must be there, at this severity or worse. */
  expected: z.array(z.object({ id: z.string(), min_severity: SeveritySchema })),
  /** Findings that must not be there at all. */
  absent: z.array(z.string()),
  known_gap: z.string().nullable(),
});
export type CheckpointExpectation = z.infer<typeof CheckpointExpectationSchema>;

export interface CheckpointItem {
  name: string;
  expectation: CheckpointExpectation;
  /** The model_checkpoint_artifacts payload the item stands for (an absolute path under the corpus root). */
  payload: Record<string, unknown>;
}

/** Every checkpoint item of the corpus, in name order. */
export function checkpointItems(): CheckpointItem[] {
  return readdirSync(CHECKPOINT_CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const expectation = CheckpointExpectationSchema.parse(JSON.parse(readFileSync(join(CHECKPOINT_CORPUS, d.name, "expected.json"), "utf8")));
      const [artifact] = expectation.artifacts;
      return { name: d.name, expectation, payload: { checkpoint_path: join(CHECKPOINT_CORPUS, d.name, artifact!.path), ...(artifact!.metadata ? { metadata: artifact!.metadata } : {}) } };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface CheckpointAnalysis {
  /** The agent result the checkpoint analyzer node returns (deterministic mode). */
  result: AgentResult;
  /** Its findings, as the response lists them. */
  findings: Finding[];
  /** What the detectors said before findings sharing a root cause were grouped. */
  ungrouped: Finding[];
}

/** Runs the checkpoint analyzer node on the item in deterministic mode, the corpus being the artifact root. */
export async function analyzeCheckpointItem(item: CheckpointItem): Promise<CheckpointAnalysis> {
  const settings = loadServiceSettings({ SERVICE_ARTIFACT_ROOTS: CHECKPOINT_CORPUS });
  const input = { artifact: { kind: "checkpoint" as const, field: "model_checkpoint_artifacts", payload: item.payload, origin: "inline" as const }, language: ENGLISH, datasetName: null, modelName: null };
  const deps = testDeps({ settings });
  const update = await analyzeCheckpoint(input, { context: deps });
  const result = (update.agentResults as Record<string, AgentResult>).ModelCheckpointArtifactsAnalyzer!;
  const info = await checkpointAnalyzer.parse(item.payload, { input, deps, signal: new AbortController().signal, progress: () => {} });
  return { result, findings: result.findings, ungrouped: prioritizeFindings(detectCheckpointFindings(info)) };
}

/** The checkpoint corpus' figures in the shape of the check-report groups' (one row), for docs/detectors.md. */
export async function measureCheckpointCorpus(): Promise<CorpusFigures> {
  const row = emptyFigures("checkpoints");
  for (const item of checkpointItems()) {
    const { findings, ungrouped } = await analyzeCheckpointItem(item);
    countItem(row, item, findings, ungrouped);
  }
  return row;
}
