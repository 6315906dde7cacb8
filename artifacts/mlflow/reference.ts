import { z } from "zod";
import { nameField } from "../request-limits.js";
import { mlflowUriProblem } from "./uri-rules.js";

const RUNS_URI = /^runs:\/[A-Za-z0-9_-]+(\/.*)?$/s;

/** Longest `run_uri` (run id plus an artifact path). */
const MAX_URI_LENGTH = 4096;

/** A reference to a run on the configured tracking server (never a host). */
export const MlflowReferenceSchema = z.union([
  z.strictObject({ run_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "run_id must be an MLflow run id") }),
  z.strictObject({
    run_uri: z
      .string()
      .max(MAX_URI_LENGTH)
      .regex(RUNS_URI, "run_uri must look like runs:/<run_id>[/path]")
      .superRefine((uri, ctx) => {
        // Refused here, while decoding, so a traversal form never reaches the tracking server.
        const problem = RUNS_URI.test(uri) ? mlflowUriProblem(uri, ["runs"]) : null;
        if (problem) ctx.addIssue({ code: "custom", message: `refused (${problem.rule}): ${problem.detail}` });
      }),
  }),
  z.strictObject({ experiment: nameField().min(1), run_name: nameField().min(1) }),
]);
export type MlflowReference = z.infer<typeof MlflowReferenceSchema>;
