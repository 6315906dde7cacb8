import { RecommendationCategorySchema, type RecommendationCategory } from "../../domain/result.js";
import type { PlannedRecommendation } from "./plan.js";

/** The plan seen by area of work (additional_outputs.recommendation_groups). */
export interface RecommendationGroup {
  category: RecommendationCategory;
  /** Priorities of its recommendations, in plan order. */
  priorities: number[];
  /** Σ impact of its recommendations. */
  impact: number;
}

/** Groups the plan by category (data, training, model, infrastructure); groups ordered by their first priority. */
export function groupRecommendations(plan: readonly PlannedRecommendation[]): RecommendationGroup[] {
  return RecommendationCategorySchema.options
    .map((category) => {
      const members = plan.filter((r) => r.category === category);
      return {
        category,
        priorities: members.map((r) => r.priority),
        impact: Math.round(members.reduce((s, r) => s + r.impact, 0) * 1000) / 1000,
      };
    })
    .filter((g) => g.priorities.length > 0)
    .sort((a, b) => a.priorities[0]! - b.priorities[0]!);
}
