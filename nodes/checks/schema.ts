import { z } from "zod";

/**
 * Structural shape of `checks_artifacts`: current (`reports`, `checks`) or the legacy Deepchecks suite map. A report
 * may be the JSON text a tool returned (Deepchecks `to_json()` gives a string), decoded when read.
 */
export const ChecksArtifactSchema = z.looseObject({
  reports: z.array(z.union([z.record(z.string(), z.unknown()), z.string()])).nullish(),
  checks: z.array(z.record(z.string(), z.unknown())).nullish(),
  results: z.record(z.string(), z.unknown()).nullish(),
});
export type ChecksArtifact = z.infer<typeof ChecksArtifactSchema>;
