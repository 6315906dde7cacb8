import { z } from "zod";

/** Which way the objective is better. */
export const DirectionSchema = z.enum(["minimize", "maximize"]);
export type Direction = z.infer<typeof DirectionSchema>;

const LOWER_IS_BETTER = /(?:^|[_/ -])(?:loss|perplexity|ppl|error|err|mae|mse|rmse|mape|wer|cer|nll|bpd|brier|ece|fid)(?:$|[_/ -])/;
const HIGHER_IS_BETTER = /(?:^|[_/ -])(?:accuracy|acc|f1|auc|auroc|precision|recall|map|bleu|rouge\w*|r2|iou|miou|dice|ndcg|mrr|top\d+|score|reward|return)(?:$|[_/ -])/;

/** Which way a metric is better, from its name; null when the name does not say. */
export function directionOf(metric: string): Direction | null {
  const name = metric.toLowerCase();
  if (LOWER_IS_BETTER.test(name)) return "minimize";
  if (HIGHER_IS_BETTER.test(name)) return "maximize";
  return null;
}
