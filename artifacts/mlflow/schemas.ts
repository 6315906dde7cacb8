import { z } from "zod";

/** A protobuf double: a number, or "NaN"/"Infinity"/"-Infinity" for non-finite values. */
export const MlflowDoubleSchema = z.union([z.number(), z.enum(["NaN", "Infinity", "-Infinity"])]).transform((v) => {
  if (typeof v === "number") return v;
  return v === "NaN" ? Number.NaN : v === "Infinity" ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
});

/** An int64: MLflow sends numbers, protobuf JSON allows decimal strings. */
const Int64Schema = z.union([z.number(), z.string().regex(/^-?\d+$/)]).transform(Number);

const KeyValueSchema = z.looseObject({ key: z.string(), value: z.string().default("") });

/** One metric value (runs/get holds only the latest per key; get-history the series). */
export const MetricSchema = z.looseObject({
  key: z.string(),
  value: MlflowDoubleSchema,
  timestamp: Int64Schema.optional(),
  step: Int64Schema.default(0),
  dataset_name: z.string().optional(),
  dataset_digest: z.string().optional(),
  model_id: z.string().optional(),
});
export type Metric = z.infer<typeof MetricSchema>;

/** `Dataset` of a run input: every field is a string; source, schema and profile hold JSON documents. */
export const DatasetSchema = z.looseObject({
  name: z.string(),
  digest: z.string().default(""),
  source_type: z.string().default(""),
  source: z.string().default(""),
  schema: z.string().optional(),
  profile: z.string().optional(),
});
export type Dataset = z.infer<typeof DatasetSchema>;

export const DatasetInputSchema = z.looseObject({
  tags: z.array(KeyValueSchema).default([]),
  dataset: DatasetSchema,
});
export type DatasetInput = z.infer<typeof DatasetInputSchema>;

export const RunInfoSchema = z.looseObject({
  run_id: z.string().optional(),
  run_uuid: z.string().optional(),
  run_name: z.string().optional(),
  experiment_id: z.string(),
  status: z.string().optional(),
  start_time: Int64Schema.optional(),
  end_time: Int64Schema.optional(),
  artifact_uri: z.string().default(""),
  lifecycle_stage: z.string().optional(),
});

export const RunSchema = z
  .looseObject({
    info: RunInfoSchema,
    data: z
      .looseObject({
        metrics: z.array(MetricSchema).default([]),
        params: z.array(KeyValueSchema).default([]),
        tags: z.array(KeyValueSchema).default([]),
      })
      .default({ metrics: [], params: [], tags: [] }),
    inputs: z
      .looseObject({
        dataset_inputs: z.array(DatasetInputSchema).default([]),
        model_inputs: z.array(z.looseObject({ model_id: z.string() })).default([]),
      })
      .default({ dataset_inputs: [], model_inputs: [] }),
    /** MLflow 3: the logged models this run produced. */
    outputs: z
      .looseObject({ model_outputs: z.array(z.looseObject({ model_id: z.string(), step: Int64Schema.optional() })).default([]) })
      .default({ model_outputs: [] }),
  })
  .transform((run) => ({ ...run, info: { ...run.info, run_id: run.info.run_id ?? run.info.run_uuid ?? "" } }));
export type Run = z.infer<typeof RunSchema>;

export const ExperimentSchema = z.looseObject({
  experiment_id: z.string(),
  name: z.string(),
  artifact_location: z.string().optional(),
  lifecycle_stage: z.string().optional(),
});
export type Experiment = z.infer<typeof ExperimentSchema>;

/** A listing entry; `path` is relative to the listed root and includes the requested prefix. */
export const FileInfoSchema = z.looseObject({
  path: z.string(),
  is_dir: z.boolean().default(false),
  file_size: Int64Schema.optional(),
});
export type FileInfo = z.infer<typeof FileInfoSchema>;

export const LoggedModelSchema = z.looseObject({
  info: z.looseObject({
    model_id: z.string(),
    experiment_id: z.string().optional(),
    name: z.string().optional(),
    artifact_uri: z.string().optional(),
    status: z.string().optional(),
    model_type: z.string().optional(),
    source_run_id: z.string().optional(),
    tags: z.array(KeyValueSchema).default([]),
  }),
  data: z
    .looseObject({ params: z.array(KeyValueSchema).default([]), metrics: z.array(MetricSchema).default([]) })
    .default({ params: [], metrics: [] }),
});
export type LoggedModel = z.infer<typeof LoggedModelSchema>;

const token = z.string().optional();
export const GetRunResponse = z.looseObject({ run: RunSchema });
export const SearchRunsResponse = z.looseObject({ runs: z.array(RunSchema).default([]), next_page_token: token });
export const GetExperimentResponse = z.looseObject({ experiment: ExperimentSchema });
export const SearchExperimentsResponse = z.looseObject({ experiments: z.array(ExperimentSchema).default([]), next_page_token: token });
export const MetricHistoryResponse = z.looseObject({ metrics: z.array(MetricSchema).default([]), next_page_token: token });
export const ListArtifactsResponse = z.looseObject({ root_uri: z.string().optional(), files: z.array(FileInfoSchema).default([]), next_page_token: token });
export const GetLoggedModelResponse = z.looseObject({ model: LoggedModelSchema });
export const DownloadUriResponse = z.looseObject({ artifact_uri: z.string() });
export const AliasResponse = z.looseObject({ model_version: z.looseObject({ version: z.union([z.string(), z.number()]).transform(String) }) });

/** Tags as a record (the last value wins for a repeated key). */
export function keyValues(list: readonly { key: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(list.map((t) => [t.key, t.value]));
}
