import { z } from "zod";

/** Structural shape of `checks_artifacts`: current (`reports`, `checks`) or the legacy Deepchecks suite map. */
export const ChecksArtifactSchema = z.looseObject({
  reports: z.array(z.record(z.string(), z.unknown())).nullish(),
  checks: z.array(z.record(z.string(), z.unknown())).nullish(),
  results: z.record(z.string(), z.unknown()).nullish(),
});
export type ChecksArtifact = z.infer<typeof ChecksArtifactSchema>;
