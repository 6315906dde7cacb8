import { z } from "zod";

/** Structural shape of `model_checkpoint_artifacts`; the legacy `{path, config}` is normalized at decode. */
export const CheckpointArtifactSchema = z.looseObject({
  checkpoint_path: z.string().min(1).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  path: z.string().min(1).nullish(),
  config: z.record(z.string(), z.unknown()).nullish(),
});
export type CheckpointArtifact = z.infer<typeof CheckpointArtifactSchema>;
