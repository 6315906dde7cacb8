/** A check outcome normalized from any report tool. */
export interface CheckOutcome {
  name: string;
  status: "pass" | "warn" | "fail" | "error";
  tool: string;
  message: string;
}

export interface ChecksReport {
  outcomes: CheckOutcome[];
}

const STATUSES = new Set(["pass", "warn", "fail", "error"]);

/** Reads the generic check records `{name, status, message?}` of ARTIFACTS.md. */
export function parseChecksArtifact(payload: Record<string, unknown>): ChecksReport {
  const checks = Array.isArray(payload.checks) ? payload.checks : [];
  const outcomes: CheckOutcome[] = [];
  checks.forEach((c, i) => {
    const rec = c as Record<string, unknown>;
    const status = String(rec.status ?? "").toLowerCase();
    if (!STATUSES.has(status)) throw new Error(`checks[${i}].status: expected pass|warn|fail|error, got ${JSON.stringify(rec.status)}`);
    outcomes.push({ name: String(rec.name ?? `check ${i}`), status: status as CheckOutcome["status"], tool: "generic", message: String(rec.message ?? "") });
  });
  if (outcomes.length === 0) throw new Error("no check results found");
  return { outcomes };
}
