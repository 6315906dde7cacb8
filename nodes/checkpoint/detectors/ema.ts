import type { CheckpointInfo, TensorRecord } from "../table.js";

/** Names under which trainers keep an exponential moving average of the model (timm, Lightning, custom loops). */
const EMA_NAME = /(^|[._])(ema|model_ema|state_dict_ema|ema_state_dict|ema_model|module_ema|averaged_model|average_model|swa_model)([._]|$)/i;

/** Ultralytics saves its ModelEMA copy as the checkpoint's model (last.pt and best.pt alike). */
const savedByUltralytics = (info: CheckpointInfo) => info.pickles.some((p) => p.globals.some((g) => g.module.startsWith("ultralytics.")));

/**
 * The tensor belongs to an EMA copy of the model, whose BatchNorm counters are not kept by design: Ultralytics'
 * ModelEMA averages floating-point state only, timm's ModelEmaV2 averages the integer counter and truncates it
 * back, so `num_batches_tracked` stays 0 though the running statistics are averaged like the weights.
 */
export function inEmaCopy(info: CheckpointInfo, t: TensorRecord): boolean {
  return EMA_NAME.test(t.name) || savedByUltralytics(info);
}
