import { z } from "zod";

/** A metric value as tools write it: a number, null, or MLflow's "NaN"/"Infinity" strings. */
export const MetricValueSchema = z.union([z.number(), z.null(), z.enum(["NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"])]);

/** Structural shape of `training_artifacts` (ARTIFACTS.md); the metrics' many forms are told apart by the parser. */
export const TrainingArtifactSchema = z.looseObject({
  metrics: z
    .union([
      z.record(z.string(), z.unknown()),
      z.array(z.record(z.string(), z.unknown())),
    ])
    .nullish(),
  metrics_values: z.record(z.string(), z.array(z.unknown())).nullish(),
  params: z.record(z.string(), z.unknown()).nullish(),
  logs: z.union([z.array(z.string()), z.string()]).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type TrainingArtifact = z.infer<typeof TrainingArtifactSchema>;
