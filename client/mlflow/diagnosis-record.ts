import { type AnalysisResponseBody, AnalysisResponseSchema, SEVERITIES, severityRank } from "../../domain/result.js";
import { renderReportPage } from "../../report/render.js";
import { ClientError } from "../errors.js";
import { DIAGNOSIS_FOLDER, type RecordedFile, recordToMlflow, type TrackingServer } from "./record.js";

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * What a diagnosis leaves in the run: the request sent (and the dataset statistics computed here on their own,
 * when there are any), the response as the service sent it, and the HTML report rendered from that same
 * response; tags with the worst severity and the number of findings, for filtering runs in the MLflow UI.
 * `response` is the answer as received (validated, not stripped of keys the schema does not name).
 */
export function diagnosisRecord(request: Record<string, unknown>, response: AnalysisResponseBody): { files: RecordedFile[]; tags: Record<string, string> } {
  const findings = Object.values(response.agent_results).flatMap((r) => r.findings);
  const worst = findings.reduce<(typeof SEVERITIES)[number] | null>((w, f) => (w === null || severityRank(f.severity) < severityRank(w) ? f.severity : w), null);
  const files: RecordedFile[] = [
    { name: "request.json", content: json(request), contentType: "application/json" },
    ...(request.dataset_artifacts ? [{ name: "dataset_statistics.json", content: json(request.dataset_artifacts), contentType: "application/json" }] : []),
    { name: "diagnosis.json", content: json(response), contentType: "application/json" },
    { name: "report.html", content: renderReportPage(response), contentType: "text/html; charset=utf-8" },
  ];
  return { files, tags: { "diagnosis.max_severity": worst ?? "none", "diagnosis.findings": String(findings.length) } };
}

/** `--record-to-mlflow <run id>`: logs the diagnosis into the run and says what it did, in one line. */
export async function recordDiagnosis(server: TrackingServer, runId: string, request: Record<string, unknown>, answer: string): Promise<string> {
  const response: unknown = JSON.parse(answer);
  if (!AnalysisResponseSchema.safeParse(response).success) {
    throw new ClientError("SERVICE_ERROR", `the service's answer is not an analysis response, so nothing was recorded in MLflow run ${runId}`);
  }
  const { files, tags } = diagnosisRecord(request, response as AnalysisResponseBody);
  await recordToMlflow(server, runId, files, tags);
  return `recorded ${files.map((f) => `${DIAGNOSIS_FOLDER}/${f.name}`).join(", ")} and tags ${Object.entries(tags).map(([k, v]) => `${k}=${v}`).join(", ")} in MLflow run ${runId}`;
}
