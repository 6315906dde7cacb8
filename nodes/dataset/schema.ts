import { z } from "zod";

/** Structural shape of `dataset_artifacts` (ARTIFACTS.md); content problems are analyzer errors, not 400s. */
export const DatasetArtifactSchema = z.looseObject({
  metadata: z.record(z.string(), z.unknown()).nullish(),
  statistics: z.record(z.string(), z.unknown()).nullish(),
});
export type DatasetArtifact = z.infer<typeof DatasetArtifactSchema>;
