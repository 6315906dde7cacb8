import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { main } from "../../client/main.js";
import { allFindings, SEVERITY_ORDER, type Sev } from "./diagnosis.js";

/**
 * The run corpus of issue 35 (test/fixtures/runcorpus/<split>/, written by scripts/fixtures/runcorpus/ with the
 * real libraries): each folder sent through the real client path (`ml-diagnose analyse <folder> --format json`,
 * in-process, against a running service) and scored against the split's labels.json, committed before any detector
 * was changed. Shared by scripts/measure-run-corpus.ts and test/client/run-corpus.test.ts.
 */

export const CORPUS_DIR = new URL("../fixtures/runcorpus/", import.meta.url).pathname;
export const SPLITS = ["tuning", "holdout", "holdout2", "holdout3"] as const;
export type Split = (typeof SPLITS)[number];

const SeveritySchema = z.enum(SEVERITY_ORDER);
const LabelSchema = z.object({
  family: z.string(),
  description: z.string(),
  healthy: z.boolean(),
  /** Each fault is found when any of its ids reaches its severity. */
  faults: z.array(z.object({ ids: z.array(z.string()).min(1), severity: SeveritySchema })),
  /** Findings that must not lead the diagnosis (e.g. a plateau in a run at chance level). */
  not_first: z.array(z.string()),
});
export type RunLabel = z.infer<typeof LabelSchema>;

export interface CorpusItem {
  split: Split;
  name: string;
  dir: string;
  label: RunLabel;
}

export function loadCorpus(split: Split): CorpusItem[] {
  const labels = z.record(z.string(), LabelSchema).parse(JSON.parse(readFileSync(join(CORPUS_DIR, split, "labels.json"), "utf8")));
  const folders = readdirSync(join(CORPUS_DIR, split)).filter((n) => statSync(join(CORPUS_DIR, split, n)).isDirectory());
  const unlabelled = folders.filter((n) => !(n in labels));
  if (unlabelled.length > 0) throw new Error(`${split}: folders without a label: ${unlabelled.join(", ")}`);
  return Object.entries(labels).map(([name, label]) => ({ split, name, dir: join(CORPUS_DIR, split, name), label }));
}

export interface Analysed {
  code: number;
  stdout: string;
  stderr: string;
  body: any;
}

/** `ml-diagnose analyse <dir> --format json` in this process, against the service at `server`. */
export async function analyseFolder(dir: string, server: string): Promise<Analysed> {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { ML_DIAGNOSE_SERVER: server, HOME: process.env.HOME, PATH: process.env.PATH },
  };
  const code = await main(["analyse", dir, "--format", "json"], io);
  let body: any = null;
  try {
    body = JSON.parse(stdout);
  } catch {
    body = null;
  }
  return { code, stdout, stderr, body };
}

const rank = (s: string) => SEVERITY_ORDER.indexOf(s as Sev);

/** The most severe severity any of `ids` reached (a part of a merged finding answers for its id), or null. */
function worstOf(body: any, ids: string[]): Sev | null {
  let worst: Sev | null = null;
  for (const f of allFindings(body)) {
    const hits = [f.id, ...f.evidence.map((e) => e.values?.finding_id)].some((id) => typeof id === "string" && ids.includes(id));
    if (hits && (worst === null || rank(f.severity) > rank(worst))) worst = f.severity;
  }
  return worst;
}

export interface ItemScore {
  item: CorpusItem;
  served: boolean;
  /** Per fault: found at (or above) its severity. */
  faults: { ids: string[]; severity: Sev; found: Sev | null; ok: boolean }[];
  /** Findings at high or critical on a healthy run. */
  falseAlarms: string[];
  /** A finding of `not_first` leads the diagnosis. */
  wrongLead: string | null;
  findings: string;
}

export function scoreItem(item: CorpusItem, run: Analysed): ItemScore {
  const served = run.code <= 1 && run.body !== null && !/nothing to analyse/.test(run.stderr);
  const body = run.body ?? {};
  const all = served ? allFindings(body) : [];
  const faults = item.label.faults.map((f) => {
    const found = served ? worstOf(body, f.ids) : null;
    return { ...f, found, ok: found !== null && rank(found) >= rank(f.severity) };
  });
  const falseAlarms = item.label.healthy ? all.filter((f) => rank(f.severity) >= rank("high")).map((f) => `${f.severity} ${f.id}`) : [];
  const lead = all.reduce<(typeof all)[number] | null>((a, f) => (a === null || rank(f.severity) > rank(a.severity) || (f.severity === a.severity && f.confidence > a.confidence) ? f : a), null);
  const wrongLead = lead && item.label.not_first.includes(lead.id) ? lead.id : null;
  return { item, served, faults, falseAlarms, wrongLead, findings: all.map((f) => `${f.severity} ${f.id}`).join(", ") };
}

export interface SplitFigures {
  folders: number;
  served: number;
  faults: number;
  found: number;
  healthy: number;
  healthyWithHigh: number;
  wrongLeads: number;
}

export function splitFigures(scores: ItemScore[]): SplitFigures {
  return {
    folders: scores.length,
    served: scores.filter((s) => s.served).length,
    faults: scores.reduce((n, s) => n + s.faults.length, 0),
    found: scores.reduce((n, s) => n + s.faults.filter((f) => f.ok).length, 0),
    healthy: scores.filter((s) => s.item.label.healthy).length,
    healthyWithHigh: scores.filter((s) => s.falseAlarms.length > 0).length,
    wrongLeads: scores.filter((s) => s.wrongLead !== null).length,
  };
}
