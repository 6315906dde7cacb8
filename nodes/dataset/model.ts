/** The internal model every dataset-statistics shape of ARTIFACTS.md is normalized into. */

/** What kind of values a column holds, from its dtype or, failing that, from its statistics. */
export type ColumnKind = "numeric" | "categorical" | "boolean" | "datetime" | "unknown";

/** Statistics of one column (feature or target); null where the artifact did not say. */
export interface ColumnStats {
  name: string;
  dtype: string | null;
  kind: ColumnKind;
  /** Non-missing values. */
  count: number | null;
  missing: number | null;
  /** Missing share of all rows (0–1). */
  missingFraction: number | null;
  unique: number | null;
  mean: number | null;
  std: number | null;
  min: number | null;
  max: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  top: string | null;
  topFrequency: number | null;
  /** Counts of NaN / ±Infinity values, when the client computed them. */
  nanCount: number | null;
  infCount: number | null;
  /** Predictive power (PPS, mutual information or |correlation|) with the label, when given. */
  labelPredictiveness: number | null;
  /** MLflow ColSpec `required`: false means nullable. */
  required: boolean | null;
  /** Where the column came from, for evidence paths. */
  path: string;
}

/** A count with its share, either of which may be unknown. */
export interface CountShare {
  count: number | null;
  fraction: number | null;
  path: string;
}

/** One feature's drift from train to the evaluation split, as the client computed it (`statistics.drift`). */
export interface FeatureDrift {
  column: string;
  kind: "numeric" | "categorical" | null;
  /** Population stability index. */
  psi: number;
  /** Two-sample Kolmogorov–Smirnov statistic (numbers). */
  ks: number | null;
  /** Total variation distance (categories). */
  totalVariation: number | null;
  path: string;
}

/** How well one feature alone predicts the label, per split, as the client computed it (`statistics.label_signal`). */
export interface LabelSignalFact {
  column: string;
  /** "auc" (|2·AUC − 1|, numeric feature, binary label) or "purity" (value groups above the majority label). */
  method: string;
  /** Score in train, 0–1 above the majority-label baseline. */
  train: number;
  /** Score in test with train's mapping; null without a test split. */
  test: number | null;
  /** Standard deviation of the train (test) score when the feature says nothing. */
  nullSd: number | null;
  testNullSd: number | null;
  /** Values rise or fall all along the rows (an id or timestamp assigned in sequence). */
  monotonic: boolean | null;
  path: string;
}

/** Test rows dated before the latest train row (`statistics.time_split`). */
export interface TimeSplitFact {
  column: string;
  /** The user named the column as the split's time (--time-column). */
  stated: boolean;
  trainMax: string | null;
  testMin: string | null;
  count: number | null;
  fraction: number;
  path: string;
}

/** Per-channel pixel statistics of one split (image datasets). */
export interface ChannelStats {
  mean: number[];
  std: number[];
  path: string;
}

/** A correlation between two features, with where it was stated. */
export interface FeaturePair {
  a: string;
  b: string;
  r: number;
  path: string;
}

/** An MLflow logged dataset (`mlflow.data` Dataset entity), with its JSON strings decoded. */
export interface MlflowDatasetInfo {
  name: string | null;
  digest: string | null;
  sourceType: string | null;
  source: string | null;
  numRows: number | null;
  /** "training", "validation", … from the mlflow.data.context tag or metadata. */
  context: string | null;
}

/** Dataset statistics normalized from any of the shapes of ARTIFACTS.md. */
export interface DatasetStats {
  /** Request field the artifact came from, for evidence paths. */
  field: string;
  /** Which shapes were read, e.g. ["columns", "class_distribution"]; feeds describe(). */
  shapes: string[];
  datasetName: string | null;
  task: string | null;
  modality: string | null;
  target: string | null;
  /** metadata.split_strategy as given. */
  splitStrategy: string | null;
  /** Free metadata keys, kept for the language model. */
  metadata: Record<string, unknown>;
  /** Total rows when stated. */
  numRows: number | null;
  /** Canonical split name → rows. */
  splitRows: Record<string, number>;
  /** Canonical split name → label → count. */
  classCounts: Record<string, Record<string, number>>;
  /** Path of the class counts, for evidence: the class distribution, or the target column they were derived from. */
  classPath: string;
  columns: ColumnStats[];
  duplicates: CountShare | null;
  trainTestOverlap: CountShare | null;
  conflictingLabels: CountShare | null;
  labelIssues: CountShare | null;
  /** Canonical split name → channel statistics. */
  channels: Record<string, ChannelStats>;
  /** Per-feature drift train → evaluation given by the client; absent where no source states it. */
  drift?: FeatureDrift[];
  /** Feature–feature correlations given by the client (each pair once). */
  correlations: FeaturePair[];
  /** Per-feature label signal given by the client, train and test. */
  labelSignals: LabelSignalFact[];
  timeSplit: TimeSplitFact | null;
  mlflow: MlflowDatasetInfo | null;
  /** Hints set by the client, e.g. metadata.batch_size or cv_folds. */
  batchSize: number | null;
  cvFolds: number | null;
}
