/**
 * The standard remedies the advisor recognizes, so that two agents wording the same advice differently
 * ("enable early stopping" / "keep the best checkpoint") become one recommendation. Order matters only for
 * documentation; a recommendation's theme is the one whose pattern matches earliest in its action.
 */
const THEMES: ReadonlyArray<readonly [theme: string, pattern: RegExp]> = [
  ["early_stopping", /early[ -]?stop|restore (the )?best|(keep|save|ship|use) (the )?best (checkpoint|epoch|model)|best checkpoint|save_top_k/],
  ["fix_leakage", /de-?duplicat|remove (the )?(overlap|rows shared|shared rows)|overlapping rows|leakage-free|drop (the )?(post-outcome|leaking)|split by (customer|group|order|entity|time)|group(ed)?[- ]split/],
  ["precision", /bf16|bfloat16|loss scal|mixed precision|fp16|half precision/],
  ["warmup", /warm[- ]?up/],
  ["lower_learning_rate", /(lower|reduce|decrease) (the )?(peak )?(learning rate|lr)|learning[- ]rate range test|lr range test/],
  ["gradient_clipping", /clip/],
  ["rebalance_classes", /class weight|re-?sampl|oversampl|undersampl|downsampl|upweight|smote/],
  ["imbalance_metrics", /pr-?auc|macro[- ]f1|balanced accuracy|per-class (recall|metric)|precision-recall/],
  ["normalize_inputs", /(normali[sz]e|standardi[sz]e) (the )?([a-z]+ )?(inputs|features|pixels|channels)/],
  ["clean_labels", /relabel|label (errors|noise)|confident learning|clean (the )?labels|adjudicate/],
  ["match_distribution", /(build|draw|make|take) (the )?validation|validation (and test )?(set |split |data )?from|time-based (validation|split|folds?)|rolling (time-based )?(validation|folds?)|target distribution|distribution the model will serve|matching (training )?data|recent (data|months)/],
  ["regularize", /\bregulari[sz]e\b|(add|increase|use|stronger|more) [a-z ,]{0,24}(weight decay|dropout|augmentation|label smoothing)/],
  ["impute_missing", /imput|missing(ness)?[- ]indicator/],
  ["safe_loading", /weights_only|safetensors|pickle/],
  ["record_metadata", /metadata|model card|config\.json|hyper_?parameters/],
];

/** The remedy an action text names first, or null when it names none of the standard ones. */
export function themeOf(action: string): string | null {
  const text = action.toLowerCase();
  let best: { theme: string; at: number } | null = null;
  for (const [theme, pattern] of THEMES) {
    const at = text.search(pattern);
    if (at >= 0 && (!best || at < best.at)) best = { theme, at };
  }
  return best?.theme ?? null;
}

const STOP = new Set("a an and the to of for in on or with by from at as is be it its this that then than".split(" "));

/** Content words of an action, for comparing wordings that share no standard theme. */
export function actionWords(action: string): Set<string> {
  return new Set(
    action
      .toLowerCase()
      .replace(/[^a-z0-9 ]+/g, " ")
      .split(" ")
      .filter((w) => w.length > 2 && !STOP.has(w)),
  );
}

/** Jaccard overlap of two word sets. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}
