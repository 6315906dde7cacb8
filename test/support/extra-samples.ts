/**
 * Writes the extra sample requests of docs/samples.md into test/fixtures/samples/, byte for byte the same on every
 * run (each sample has its own seeded PRNG). Run: `npx tsx test/support/extra-samples.ts`; the diagnosis test
 * checks that the committed files equal what this builds.
 *
 * The artifacts are written the way the tools write them: a Keras `history.history` dict, a Lightning CSVLogger
 * `metrics.csv` with `nan`, pandas `describe()` through Python's json.dumps (bare Infinity/NaN), Hugging Face
 * `trainer_state.json`, Lightning metrics rows, client-computed `tensor_stats`. Float32 values keep their float32
 * digits (0.9430000185966492), as Python prints them after `.item()`.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Prng } from "./prng.js";

const f32 = (x: number) => Math.fround(x);
const round = (x: number, d: number) => Number(x.toFixed(d));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** JSON as Python's json.dumps(indent=2) writes it, bare NaN/Infinity included. Short arrays of numbers stay on one line. */

/** One column of pandas `describe()` output, keyed as pandas writes it. */
const describeRow = (count: number, mean: number, std: number, min: number, q1: number, q2: number, q3: number, max: number) => ({
  count, mean, std, min, "25%": q1, "50%": q2, "75%": q3, max,
});

export function pythonJson(value: unknown): string {
  const NAN = "\u0000NaN";
  const INF = "\u0000Inf";
  const NINF = "\u0000-Inf";
  const text = JSON.stringify(
    value,
    (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? (Number.isNaN(v) ? NAN : v > 0 ? INF : NINF) : v),
    2,
  );
  return (
    text
      .replaceAll(JSON.stringify(NAN), "NaN")
      .replaceAll(JSON.stringify(INF), "Infinity")
      .replaceAll(JSON.stringify(NINF), "-Infinity")
      // [\n  1,\n  2\n] → [1, 2] for arrays of scalars (shape lists, short series), as the fixtures README samples read.
      .replace(/\[\n\s*((?:-?[\d.e+-]+|NaN|-?Infinity|"[^"\n]*"|null)(?:,\n\s*(?:-?[\d.e+-]+|NaN|-?Infinity|"[^"\n]*"|null))*)\n\s*\]/g, (_m, body: string) => `[${body.split(/,\n\s*/).join(", ")}]`) + "\n"
  );
}

// ---------------------------------------------------------------------------------------------------------------
// 1. keras-majority-collapse: an MLP on a 5.7 %-positive fraud table learns the base rate and predicts "legit".
// ---------------------------------------------------------------------------------------------------------------
function kerasMajorityCollapse(): unknown {
  const rng = new Prng(0x4b455241);
  const epochs = 30;
  const trainNeg = 113_160, trainPos = 6_840, valNeg = 14_145, valPos = 855;
  const prior = trainPos / (trainNeg + trainPos);
  const entropy = -(prior * Math.log(prior) + (1 - prior) * Math.log(1 - prior)); // 0.2180: what a constant predictor scores
  const majority = trainNeg / (trainNeg + trainPos);
  const accuracy: number[] = [], loss: number[] = [], valAccuracy: number[] = [], valLoss: number[] = [];
  for (let e = 0; e < epochs; e++) {
    const early = [0.3314, 0.2207, 0.2189][e];
    loss.push(f32(early ?? entropy + 0.00035 * Math.exp(-e / 6) + 0.00012 * rng.normal()));
    accuracy.push(f32(e === 0 ? 0.93181 : e === 1 ? 0.94297 : majority));
    valLoss.push(f32((e === 0 ? 0.2195 : entropy + 0.0004 + 0.00015 * Math.exp(-e / 8)) + 0.00018 * rng.normal()));
    valAccuracy.push(f32(valNeg / (valNeg + valPos)));
  }
  const progress = (e: number) =>
    `235/235 ━━━━━━━━━━━━━━━━━━━━ ${e === 0 ? 4 : 2}s ${e === 0 ? 12 : 8}ms/step - accuracy: ${accuracy[e]!.toFixed(4)} - loss: ${loss[e]!.toFixed(4)} - val_accuracy: ${valAccuracy[e]!.toFixed(4)} - val_loss: ${valLoss[e]!.toFixed(4)}`;
  return {
    dataset_name: "card-transactions-2024q3",
    language: "en",
    model_name: "keras-mlp-fraud",
    dataset_artifacts: {
      metadata: {
        task: "classification",
        modality: "tabular",
        target: "is_fraud",
        source: "card authorizations Jul-Sep 2024, one row per authorization, chargeback-confirmed labels",
        split_strategy: "random stratified 80/10/10 (sklearn train_test_split, stratify=is_fraud)",
        class_names: ["legit", "fraud"],
      },
      statistics: {
        num_rows: 150_000,
        splits: { train: { num_rows: 120_000 }, val: { num_rows: 15_000 }, test: { num_rows: 15_000 } },
        class_distribution: {
          train: { legit: trainNeg, fraud: trainPos },
          val: { legit: valNeg, fraud: valPos },
          test: { legit: 14_139, fraud: 861 },
        },
        describe: {
          amount: describeRow(120000.0, 88.41735, 212.6694, 0.5, 12.9, 34.75, 89.99, 19850.0),
          hour_of_day: describeRow(120000.0, 13.20841, 5.51276, 0.0, 9.0, 14.0, 18.0, 23.0),
          account_age_days: describeRow(120000.0, 1460.3352, 1049.8817, 0.0, 512.0, 1288.0, 2210.0, 6903.0),
          txn_count_24h: describeRow(120000.0, 3.11902, 2.84411, 1.0, 1.0, 2.0, 4.0, 61.0),
          distance_from_home_km: describeRow(120000.0, 31.07648, 140.29905, 0.0, 2.1, 7.8, 21.4, 8912.6),
          merchant_risk_score: describeRow(120000.0, 0.21437, 0.13862, 0.0, 0.11, 0.19, 0.29, 0.98),
          is_foreign: describeRow(120000.0, 0.05712, 0.23207, 0.0, 0.0, 0.0, 0.0, 1.0),
          card_present: describeRow(120000.0, 0.61893, 0.48566, 0.0, 0.0, 1.0, 1.0, 1.0),
        },
        duplicates: { count: 0, fraction: 0.0 },
      },
    },
    training_artifacts: {
      // json.dump(history.history, f): Keras 3 keys in alphabetical order, float32 values.
      metrics: { accuracy, loss, val_accuracy: valAccuracy, val_loss: valLoss },
      params: {
        framework: "keras",
        keras_version: "3.6.0",
        backend: "tensorflow",
        architecture: "Dense(256, relu) - Dropout(0.2) - Dense(128, relu) - Dense(64, relu) - Dense(1, sigmoid)",
        optimizer: "adam",
        learning_rate: 0.01,
        loss: "binary_crossentropy",
        metrics: ["accuracy"],
        batch_size: 512,
        epochs,
        class_weight: null,
        input_scaling: "none",
        callbacks: [],
      },
      metadata: { history_params: { verbose: "auto", epochs, steps: 235 } },
      logs: [
        ...Array.from({ length: epochs }, (_, e) => [`Epoch ${e + 1}/${epochs}`, progress(e)]).flat(),
        "469/469 ━━━━━━━━━━━━━━━━━━━━ 1s 2ms/step",
        "/usr/local/lib/python3.11/site-packages/sklearn/metrics/_classification.py:1531: UndefinedMetricWarning: Precision is ill-defined and being set to 0.0 in labels with no predicted samples. Use `zero_division` parameter to control this behavior.",
      ],
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. tabular-nan-features: debt_to_revenue = debt / annual_revenue is +inf for businesses with no revenue yet;
//    the first batch that holds such a row turns the loss into NaN and Lightning's EarlyStopping stops the run.
// ---------------------------------------------------------------------------------------------------------------
function tabularNanFeatures(): unknown {
  const rng = new Prng(0x4e414e46);
  const stepsPerEpoch = 711; // 182,000 rows / batch 256
  const firstNan = 418; // the batch index holding the first +inf row
  const rows: string[] = ["epoch,step,train_loss_epoch,train_loss_step,val_auroc,val_loss"];
  for (let step = 9; step < stepsPerEpoch; step += 10) {
    let value: string;
    if (step >= firstNan) value = "nan";
    else {
      const level = 0.305 + 0.39 * Math.exp(-step / 38) + 0.035 * Math.exp(-step / 260);
      value = String(f32(level * Math.exp(0.055 * rng.normal())));
    }
    rows.push(`0,${step},,${value},,`);
  }
  // End of epoch 0: validation on NaN weights gives NaN loss; torchmetrics' AUROC of all-NaN scores reports 0.5.
  rows.push(`0,710,,,${f32(0.5)},nan`);
  rows.push(`0,710,nan,,,`);
  const csv = rows.join("\n") + "\n";
  return {
    dataset_name: "sme-loan-default",
    language: "en",
    model_name: "tabular-mlp-default",
    dataset_artifacts: {
      metadata: {
        task: "classification",
        modality: "tabular",
        target: "default_12m",
        source: "SME loan book 2019-2023, one row per approved application; engineered ratios computed in features.py",
        split_strategy: "random 80/10/10 by application id",
      },
      statistics: {
        num_rows: 227_500,
        splits: { train: { num_rows: 182_000 }, val: { num_rows: 22_750 }, test: { num_rows: 22_750 } },
        class_distribution: {
          train: { "0": 160_524, "1": 21_476 },
          val: { "0": 20_061, "1": 2_689 },
          test: { "0": 20_077, "1": 2_673 },
        },
        // json.dumps(train_df.describe().to_dict()): pandas' mean/max of a column holding +inf are inf, its std NaN.
        describe: {
          loan_amount: describeRow(182000.0, 148212.66, 121877.31, 5000.0, 60000.0, 115000.0, 200000.0, 2500000.0),
          annual_revenue: describeRow(182000.0, 1384420.9, 2911034.7, 0.0, 240000.0, 610000.0, 1450000.0, 98000000.0),
          total_debt: describeRow(182000.0, 402981.44, 771204.18, 0.0, 35000.0, 160000.0, 450000.0, 31000000.0),
          debt_to_revenue: describeRow(182000.0, Number.POSITIVE_INFINITY, Number.NaN, 0.0, 0.071, 0.262, 0.617, Number.POSITIVE_INFINITY),
          years_in_business: describeRow(182000.0, 7.9121, 6.4405, 0.0, 3.0, 6.0, 11.0, 62.0),
          num_employees: describeRow(182000.0, 21.683, 48.112, 1.0, 4.0, 9.0, 21.0, 2400.0),
          interest_rate: describeRow(182000.0, 0.08713, 0.02519, 0.029, 0.069, 0.085, 0.103, 0.189),
          term_months: describeRow(182000.0, 46.118, 16.903, 12.0, 36.0, 48.0, 60.0, 120.0),
        },
        duplicates: { count: 0, fraction: 0.0 },
      },
    },
    training_artifacts: {
      metrics: { format: "lightning_csv", content: csv },
      params: {
        model: "MLP(8 -> 128 -> 64 -> 1), ReLU, BatchNorm1d",
        optimizer: "Adam",
        lr: 0.001,
        batch_size: 256,
        max_epochs: 30,
        precision: "32-true",
        gradient_clip_val: null,
        feature_scaling: "log1p on monetary columns; ratios and counts passed as is",
        early_stopping: "EarlyStopping(monitor='val_loss', patience=5, check_finite=True)",
        log_every_n_steps: 10,
      },
      logs: [
        "2025-03-11 09:14:02,118 INFO Seed set to 7",
        "2025-03-11 09:14:02,341 INFO GPU available: True (cuda), used: True",
        "2025-03-11 09:14:02,355 INFO   | Name  | Type       | Params | Mode ",
        "2025-03-11 09:14:02,355 INFO 0 | net   | Sequential | 9.9 K  | train",
        "2025-03-11 09:14:02,356 INFO 9.9 K     Trainable params | 0         Non-trainable params | 9.9 K     Total params",
        "2025-03-11 09:15:47,902 INFO Monitored metric val_loss = nan is not finite. Previous best value was inf. Signaling Trainer to stop.",
        "2025-03-11 09:15:47,911 INFO `Trainer.fit` stopped: EarlyStopping.",
      ],
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. llm-finetune-bf16-healthy: Llama-3.2-1B full SFT in bf16, 3 % warm-up, cosine decay, best model loaded at end.
// ---------------------------------------------------------------------------------------------------------------
function llmFinetuneBf16Healthy(): unknown {
  const rng = new Prng(0x62663136);
  const total = 1875, warmup = 57, peak = 2e-5, evalEvery = 250;
  const lrAt = (s: number) => (s < warmup ? (peak * s) / warmup : peak * 0.5 * (1 + Math.cos((Math.PI * (s - warmup)) / (total - warmup))));
  const logHistory: Record<string, number>[] = [];
  const epochAt = (s: number) => s / total;
  const evalLoss = (s: number) => 1.232 + 0.215 * Math.exp(-s / 330) + 0.004 * rng.normal();
  let best = { step: 0, loss: Infinity };
  for (let s = 10; s <= total; s += 10) {
    const level = 1.165 + 0.3 * Math.exp(-s / 380) + 0.62 * Math.exp(-s / 28);
    const loss = round(level * Math.exp(0.028 * rng.normal()), 4);
    const gn = f32((s < warmup ? 2.4 * Math.exp(-s / 40) + 0.6 : 0.46 - 0.1 * (s / total)) * Math.exp(0.18 * rng.normal()));
    logHistory.push({ epoch: epochAt(s), grad_norm: gn, learning_rate: lrAt(s), loss, step: s });
    if (s % evalEvery === 0) {
      const el = evalLoss(s);
      if (el < best.loss) best = { step: s, loss: el };
      logHistory.push({
        epoch: epochAt(s),
        eval_loss: el,
        eval_runtime: round(38.2 + rng.uniform(-0.8, 0.8), 4),
        eval_samples_per_second: round(1200 / (38.2 + rng.uniform(-0.8, 0.8)), 3),
        eval_steps_per_second: round(150 / (38.2 + rng.uniform(-0.8, 0.8)), 3),
        step: s,
      });
    }
  }
  const trainLosses = logHistory.filter((e) => e.loss !== undefined).map((e) => e.loss!);
  logHistory.push({
    epoch: 1.0,
    step: total,
    total_flos: 3.5218837152051405e17,
    train_loss: round(sum(trainLosses) / trainLosses.length, 16),
    train_runtime: 14233.5161,
    train_samples_per_second: 4.215,
    train_steps_per_second: 0.132,
  });
  const out = "outputs/llama32-1b-support-sft";
  const state = {
    best_global_step: best.step,
    best_metric: best.loss,
    best_model_checkpoint: `${out}/checkpoint-${best.step}`,
    epoch: 1.0,
    eval_steps: evalEvery,
    global_step: total,
    is_hyper_param_search: false,
    is_local_process_zero: true,
    is_world_process_zero: true,
    log_history: logHistory,
    logging_steps: 10,
    max_steps: total,
    num_input_tokens_seen: 0,
    num_train_epochs: 1,
    save_steps: evalEvery,
    stateful_callbacks: {
      TrainerControl: {
        args: { should_epoch_stop: false, should_evaluate: false, should_log: false, should_save: true, should_training_stop: true },
        attributes: {},
      },
    },
    total_flos: 3.5218837152051405e17,
    train_batch_size: 8,
    trial_name: null,
    trial_params: null,
  };
  const t = "2025-07-14 10:02:11,532";
  return {
    dataset_name: "support-conversations-sft",
    language: "English",
    model_name: "meta-llama/Llama-3.2-1B",
    dataset_artifacts: {
      metadata: { task: "causal-lm-sft", modality: "text", source: "support conversations 2023-2024, PII scrubbed, Llama 3 chat template applied" },
      statistics: {
        num_rows: 61_200,
        splits: { train: { num_rows: 60_000 }, validation: { num_rows: 1_200 } },
        columns: {
          num_tokens: { dtype: "int64", count: 60000, missing: 0, mean: 712.4, std: 401.9, min: 41, p25: 398, p50: 633, p75: 951, max: 2048 },
        },
        duplicates: { count: 96, fraction: 0.0016 },
      },
    },
    training_artifacts: {
      metrics: state,
      params: {
        model_name_or_path: "meta-llama/Llama-3.2-1B",
        learning_rate: peak,
        lr_scheduler_type: "cosine",
        warmup_ratio: 0.03,
        per_device_train_batch_size: 8,
        gradient_accumulation_steps: 4,
        num_train_epochs: 1,
        max_steps: -1,
        max_grad_norm: 1.0,
        weight_decay: 0.01,
        optim: "adamw_torch_fused",
        bf16: true,
        fp16: false,
        tf32: true,
        gradient_checkpointing: true,
        max_seq_length: 2048,
        logging_steps: 10,
        eval_strategy: "steps",
        eval_steps: evalEvery,
        save_steps: evalEvery,
        save_total_limit: 2,
        load_best_model_at_end: true,
        metric_for_best_model: "eval_loss",
        seed: 42,
      },
      logs: [
        `[INFO|trainer.py:2414] ${t} >> ***** Running training *****`,
        `[INFO|trainer.py:2415] ${t} >>   Num examples = 60,000`,
        `[INFO|trainer.py:2416] ${t} >>   Num Epochs = 1`,
        `[INFO|trainer.py:2417] ${t} >>   Instantaneous batch size per device = 8`,
        `[INFO|trainer.py:2420] ${t} >>   Total train batch size (w. parallel, distributed & accumulation) = 32`,
        `[INFO|trainer.py:2421] ${t} >>   Gradient Accumulation steps = 4`,
        `[INFO|trainer.py:2422] ${t} >>   Total optimization steps = 1,875`,
        `[INFO|trainer.py:2423] ${t} >>   Number of trainable parameters = 1,235,814,400`,
        `[INFO|trainer.py:3984] 2025-07-14 13:48:40,118 >> Saving model checkpoint to ${out}/checkpoint-1750`,
        `[INFO|trainer.py:2681] 2025-07-14 13:59:25,048 >> \n\nTraining completed. Do not forget to share your model on huggingface.co/models =)\n\n`,
        `[INFO|trainer.py:2919] 2025-07-14 13:59:25,049 >> Loading best model from ${out}/checkpoint-${best.step} (score: ${best.loss}).`,
        `[INFO|trainer.py:3984] 2025-07-14 13:59:31,770 >> Saving model checkpoint to ${out}`,
      ],
    },
    model_checkpoint_artifacts: {
      metadata: {
        framework: "pytorch",
        format: "safetensors",
        architecture: "LlamaForCausalLM",
        num_parameters: 1_235_814_400,
        dtype: "bfloat16",
        size_bytes: 2_471_645_608,
        checkpoint_name: out,
        config: {
          model_type: "llama",
          hidden_size: 2048,
          intermediate_size: 8192,
          num_hidden_layers: 16,
          num_attention_heads: 32,
          num_key_value_heads: 8,
          vocab_size: 128256,
          max_position_embeddings: 131072,
          rope_theta: 500000.0,
          tie_word_embeddings: true,
          torch_dtype: "bfloat16",
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 4. checkpoint-nan-weights: a ResNet-18 defect classifier trained with finite losses; the registry copy of its best
//    checkpoint holds one 8 KiB block of NaN (2,048 float32) in layer3.1.conv2.weight, and its sha256 differs.
// ---------------------------------------------------------------------------------------------------------------
interface TensorStat {
  name: string;
  dtype: string;
  shape: number[];
  mean: number;
  std: number;
  min: number;
  max: number;
  max_abs: number;
  nan_count: number;
  inf_count: number;
  zero_fraction: number;
}

/** Plausible statistics of a trained tensor of the given kind (float32 digits, as a client's `.item()` prints them). */
function tensorStat(rng: Prng, name: string, shape: number[], kind: "weight" | "bias" | "norm_weight" | "norm_bias" | "running_mean" | "running_var" | "counter" | "embedding", counter = 0): TensorStat {
  const dtype = "float32";
  const numel = shape.reduce((a, b) => a * b, 1);
  let mean = 0, std = 0;
  if (kind === "weight") {
    const fanIn = numel / shape[0]!;
    std = Math.sqrt(2 / fanIn) * rng.uniform(0.35, 0.9);
    mean = std * rng.uniform(-0.05, 0.05);
  } else if (kind === "embedding") {
    std = rng.uniform(0.03, 0.12);
    mean = std * rng.uniform(-0.05, 0.05);
  } else if (kind === "bias") {
    std = rng.uniform(0.005, 0.05);
    mean = rng.uniform(-0.02, 0.02);
  } else if (kind === "norm_weight") {
    mean = rng.uniform(0.55, 1.1);
    std = mean * rng.uniform(0.1, 0.35);
  } else if (kind === "norm_bias") {
    mean = rng.uniform(-0.12, 0.05);
    std = rng.uniform(0.03, 0.2);
  } else if (kind === "running_mean") {
    mean = rng.uniform(-0.3, 0.3);
    std = rng.uniform(0.1, 0.8);
  } else if (kind === "running_var") {
    mean = rng.uniform(0.2, 2.5);
    std = mean * rng.uniform(0.3, 0.8);
  }
  if (kind === "counter") {
    // num_batches_tracked: the batches BatchNorm has seen, an int64 scalar.
    return { name, dtype: "int64", shape, mean: counter, std: 0, min: counter, max: counter, max_abs: counter, nan_count: 0, inf_count: 0, zero_fraction: 0 };
  }
  const spread = numel > 1 ? Math.min(4.2, 1.5 + Math.log10(numel) * 0.55) : 0;
  let min = mean - spread * std, max = mean + spread * std;
  if (kind === "running_var") min = Math.max(mean * 0.05, min);
  if (kind === "norm_weight") min = Math.max(0.02, min);
  if (numel === 1) min = max = mean;
  const s: TensorStat = {
    name, dtype, shape,
    mean: f32(mean), std: f32(numel > 1 ? std : 0), min: f32(min), max: f32(max), max_abs: f32(Math.max(Math.abs(min), Math.abs(max))),
    nan_count: 0, inf_count: 0, zero_fraction: 0,
  };
  return s;
}

function resnet18Tensors(rng: Prng, classes: number, batchesTracked: number): TensorStat[] {
  const out: TensorStat[] = [];
  const bn = (p: string, c: number) => {
    out.push(tensorStat(rng, `${p}.weight`, [c], "norm_weight"), tensorStat(rng, `${p}.bias`, [c], "norm_bias"));
    out.push(tensorStat(rng, `${p}.running_mean`, [c], "running_mean"), tensorStat(rng, `${p}.running_var`, [c], "running_var"));
    out.push(tensorStat(rng, `${p}.num_batches_tracked`, [], "counter", batchesTracked));
  };
  out.push(tensorStat(rng, "conv1.weight", [64, 3, 7, 7], "weight"));
  bn("bn1", 64);
  const stages: [number, number][] = [[64, 64], [64, 128], [128, 256], [256, 512]];
  stages.forEach(([cin, cout], i) => {
    for (let b = 0; b < 2; b++) {
      const p = `layer${i + 1}.${b}`;
      const inC = b === 0 ? cin : cout;
      out.push(tensorStat(rng, `${p}.conv1.weight`, [cout, inC, 3, 3], "weight"));
      bn(`${p}.bn1`, cout);
      out.push(tensorStat(rng, `${p}.conv2.weight`, [cout, cout, 3, 3], "weight"));
      bn(`${p}.bn2`, cout);
      if (b === 0 && i > 0) {
        out.push(tensorStat(rng, `${p}.downsample.0.weight`, [cout, cin, 1, 1], "weight"));
        bn(`${p}.downsample.1`, cout);
      }
    }
  });
  out.push(tensorStat(rng, "fc.weight", [classes, 512], "weight"), tensorStat(rng, "fc.bias", [classes], "bias"));
  return out;
}

const hex = (rng: Prng, n: number) => Array.from({ length: n }, () => "0123456789abcdef"[rng.int(0, 15)]).join("");

function checkpointNanWeights(): unknown {
  const rng = new Prng(0x4e414e57);
  const classes = ["crazing", "inclusion", "patches", "pitted_surface", "rolled-in_scale", "scratches"];
  // Lightning metrics.csv read back as sparse rows (NaN cells dropped): 40 epochs × 40 steps, a row every 10 steps.
  const rows: Record<string, number>[] = [];
  const stepsPerEpoch = 40, epochs = 40;
  const lr0 = 1e-3;
  for (let e = 0; e < epochs; e++) {
    const lr = lr0 * 0.5 * (1 + Math.cos((Math.PI * e) / epochs));
    rows.push({ "lr-AdamW": lr, step: e * stepsPerEpoch });
    const trainLevel = 0.035 + 1.25 * Math.exp(-e / 2.2) + 0.08 * Math.exp(-e / 12);
    const stepLosses: number[] = [];
    for (let s = 9; s < stepsPerEpoch; s += 10) {
      const l = f32(trainLevel * Math.exp(0.18 * rng.normal()));
      stepLosses.push(l);
      rows.push({ epoch: e, step: e * stepsPerEpoch + s, train_acc_step: f32(Math.min(1, 1 - trainLevel * 0.42 + 0.03 * rng.normal())), train_loss_step: l });
    }
    const valLevel = 0.043 + 0.58 * Math.exp(-e / 2.6) + 0.05 * Math.exp(-e / 15);
    rows.push({ epoch: e, step: (e + 1) * stepsPerEpoch - 1, val_acc: f32(Math.min(0.9963, 0.99 - 0.2 * Math.exp(-e / 2.4) + 0.003 * rng.normal())), val_loss: f32(valLevel + 0.0012 * rng.normal()) });
    rows.push({ epoch: e, step: (e + 1) * stepsPerEpoch - 1, train_acc_epoch: f32(Math.min(1, 1 - trainLevel * 0.4)), train_loss_epoch: f32(sum(stepLosses) / stepLosses.length) });
  }
  // The checkpoint kept by ModelCheckpoint(monitor="val_loss") is the epoch with the lowest logged val_loss.
  const vals = rows.filter((r) => r.val_loss !== undefined);
  const bestRow = vals.reduce((a, r) => (r.val_loss! < a.val_loss! ? r : a));
  const keptEpoch = bestRow.epoch!;
  const keptStep = (keptEpoch + 1) * stepsPerEpoch;
  const tensors = resnet18Tensors(rng, classes.length, keptStep);
  const damaged = tensors.find((t) => t.name === "layer3.1.conv2.weight")!;
  // torch semantics: a tensor holding NaN has NaN mean, std, min and max.
  Object.assign(damaged, { mean: Number.NaN, std: Number.NaN, min: Number.NaN, max: Number.NaN, max_abs: Number.NaN, nan_count: 2048 });
  const params = tensors.filter((t) => !/running_|num_batches/.test(t.name)).reduce((a, t) => a + t.shape.reduce((x, y) => x * y, 1), 0);
  const stateNumel = tensors.reduce((a, t) => a + t.shape.reduce((x, y) => x * y, 1), 0);
  const savedSha = hex(rng, 64);
  const registrySha = hex(rng, 64);
  return {
    dataset_name: "neu-surface-defects",
    language: "en",
    model_name: "resnet18-neu-det",
    dataset_artifacts: {
      metadata: { task: "classification", modality: "image", target: "defect_class", class_names: classes, source: "NEU surface defect database, 200x200 grayscale hot-rolled steel strips", split_strategy: "stratified 70/15/15" },
      statistics: {
        num_rows: 1800,
        splits: { train: { num_rows: 1260 }, val: { num_rows: 270 }, test: { num_rows: 270 } },
        class_distribution: Object.fromEntries(
          (["train", "val", "test"] as const).map((split) => [split, Object.fromEntries(classes.map((c) => [c, split === "train" ? 210 : 45]))]),
        ),
        channel_stats: {
          train: { mean: [0.4874, 0.4874, 0.4874], std: [0.1761, 0.1761, 0.1761] },
          val: { mean: [0.4869, 0.4869, 0.4869], std: [0.1772, 0.1772, 0.1772] },
          test: { mean: [0.4881, 0.4881, 0.4881], std: [0.1755, 0.1755, 0.1755] },
        },
      },
    },
    training_artifacts: {
      metrics: rows,
      params: {
        model: "resnet18",
        pretrained: "IMAGENET1K_V1",
        num_classes: classes.length,
        optimizer: "AdamW",
        lr: lr0,
        weight_decay: 0.05,
        scheduler: "CosineAnnealingLR",
        batch_size: 32,
        max_epochs: epochs,
        precision: "16-mixed",
        augmentation: "random_resized_crop+hflip+vflip",
        checkpoint: "ModelCheckpoint(monitor='val_loss', mode='min', save_top_k=1)",
      },
      logs: [
        "2025-04-02 16:20:11,208 INFO Using 16bit Automatic Mixed Precision (AMP)",
        `2025-04-02 16:51:40,977 INFO Epoch ${keptEpoch}, global step ${keptStep}: 'val_loss' reached ${bestRow.val_loss!.toFixed(5)} (best ${bestRow.val_loss!.toFixed(5)}), saving model to 'checkpoints/epoch=${keptEpoch}-step=${keptStep}.ckpt' as top 1`,
        "2025-04-02 16:55:02,114 INFO `Trainer.fit` stopped: `max_epochs=40` reached.",
        `2025-04-02 16:55:09,630 INFO export: wrote model.safetensors sha256=${savedSha}`,
      ],
    },
    model_checkpoint_artifacts: {
      metadata: {
        framework: "pytorch",
        format: "safetensors",
        architecture: "resnet18",
        checkpoint_name: `epoch=${keptEpoch}-step=${keptStep}.safetensors`,
        source: "model registry: defects/resnet18-neu-det version 7 (downloaded for pre-deployment validation)",
        epoch: keptEpoch,
        global_step: keptStep,
        num_parameters: params,
        dtype: "float32",
        size_bytes: stateNumel * 4 + 7_824,
        sha256: registrySha,
        config: { num_classes: classes.length, in_channels: 3, input_size: [3, 224, 224], class_names: classes },
        tensor_stats: {
          num_tensors: tensors.length,
          nan_count: 2048,
          inf_count: 0,
          tensors_with_nonfinite: 1,
          per_tensor: tensors,
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 5. vit-head-mismatch: google/vit-base-patch16-224 fine-tuned on the 12 Plant Seedlings species without
//    num_labels, so the 1000-way ImageNet head was kept; training "works" on labels 0..11.
// ---------------------------------------------------------------------------------------------------------------
function vitTensors(rng: Prng, headOutputs: number): TensorStat[] {
  const out: TensorStat[] = [];
  out.push(tensorStat(rng, "vit.embeddings.cls_token", [1, 1, 768], "embedding"));
  out.push(tensorStat(rng, "vit.embeddings.position_embeddings", [1, 197, 768], "embedding"));
  out.push(tensorStat(rng, "vit.embeddings.patch_embeddings.projection.weight", [768, 3, 16, 16], "weight"));
  out.push(tensorStat(rng, "vit.embeddings.patch_embeddings.projection.bias", [768], "bias"));
  for (let i = 0; i < 12; i++) {
    const p = `vit.encoder.layer.${i}`;
    for (const m of ["query", "key", "value"]) {
      out.push(tensorStat(rng, `${p}.attention.attention.${m}.weight`, [768, 768], "weight"), tensorStat(rng, `${p}.attention.attention.${m}.bias`, [768], "bias"));
    }
    out.push(tensorStat(rng, `${p}.attention.output.dense.weight`, [768, 768], "weight"), tensorStat(rng, `${p}.attention.output.dense.bias`, [768], "bias"));
    out.push(tensorStat(rng, `${p}.intermediate.dense.weight`, [3072, 768], "weight"), tensorStat(rng, `${p}.intermediate.dense.bias`, [3072], "bias"));
    out.push(tensorStat(rng, `${p}.output.dense.weight`, [768, 3072], "weight"), tensorStat(rng, `${p}.output.dense.bias`, [768], "bias"));
    out.push(tensorStat(rng, `${p}.layernorm_before.weight`, [768], "norm_weight"), tensorStat(rng, `${p}.layernorm_before.bias`, [768], "norm_bias"));
    out.push(tensorStat(rng, `${p}.layernorm_after.weight`, [768], "norm_weight"), tensorStat(rng, `${p}.layernorm_after.bias`, [768], "norm_bias"));
  }
  out.push(tensorStat(rng, "vit.layernorm.weight", [768], "norm_weight"), tensorStat(rng, "vit.layernorm.bias", [768], "norm_bias"));
  out.push(tensorStat(rng, "classifier.weight", [headOutputs, 768], "weight"), tensorStat(rng, "classifier.bias", [headOutputs], "bias"));
  return out;
}

function vitHeadMismatch(): unknown {
  const rng = new Prng(0x56495448);
  const species: [string, number][] = [
    ["Black-grass", 263], ["Charlock", 390], ["Cleavers", 287], ["Common Chickweed", 611], ["Common wheat", 221], ["Fat Hen", 475],
    ["Loose Silky-bent", 654], ["Maize", 221], ["Scentless Mayweed", 516], ["Shepherds Purse", 231], ["Small-flowered Cranesbill", 496], ["Sugar beet", 385],
  ];
  const split = (share: number) => Object.fromEntries(species.map(([n, c]) => [n, Math.round(c * share)]));
  const train = split(0.8), val = split(0.1), test = split(0.1);
  const nTrain = sum(Object.values(train)), nVal = sum(Object.values(val));
  const batch = 32, epochs = 10;
  const stepsPerEpoch = Math.ceil(nTrain / batch);
  const total = stepsPerEpoch * epochs;
  const lr = 5e-5;
  const logHistory: Record<string, number>[] = [];
  let best = { step: 0, acc: -1 };
  for (let s = 10; s <= total; s += 10) {
    // The labels 0..11 start on ImageNet's tench, goldfish, sharks, …: the first logged loss is far above ln 12.
    const level = 0.045 + 0.5 * Math.exp(-s / 160) + 6.0 * Math.exp(-(s - 10) / 13);
    logHistory.push({ epoch: round(s / stepsPerEpoch, 4), grad_norm: f32((1.8 * Math.exp(-s / 300) + 0.9) * Math.exp(0.35 * rng.normal())), learning_rate: lr * (1 - s / total), loss: round(level * Math.exp(0.12 * rng.normal()), 4), step: s });
  }
  // Evaluation at the end of each epoch (eval_strategy="epoch"), inserted after the last log entry of that epoch.
  for (let e = 1; e <= epochs; e++) {
    const step = e * stepsPerEpoch;
    const acc = Math.min(0.975, 0.962 - 0.15 * Math.exp(-(e - 1) / 1.4) + 0.004 * rng.normal());
    const correct = Math.round(acc * nVal);
    const entry = {
      epoch: e,
      eval_accuracy: correct / nVal,
      eval_loss: 0.118 + 0.42 * Math.exp(-(e - 1) / 1.5) + 0.006 * rng.normal(),
      eval_runtime: round(6.1 + rng.uniform(-0.3, 0.3), 4),
      eval_samples_per_second: round(nVal / 6.1, 3),
      eval_steps_per_second: round(nVal / 6.1 / 8, 3),
      step,
    };
    if (entry.eval_accuracy > best.acc) best = { step, acc: entry.eval_accuracy };
    const at = logHistory.findIndex((x) => (x.step ?? 0) > step);
    logHistory.splice(at === -1 ? logHistory.length : at, 0, entry);
  }
  const trainLosses = logHistory.filter((e) => e.loss !== undefined).map((e) => e.loss!);
  logHistory.push({ epoch: epochs, step: total, total_flos: 2.9443211478921216e18, train_loss: sum(trainLosses) / trainLosses.length, train_runtime: 1207.8841, train_samples_per_second: 31.46, train_steps_per_second: 0.985 });
  const out = "outputs/vit-plant-seedlings";
  const tensors = vitTensors(rng, 1000);
  const params = tensors.reduce((a, t) => a + t.shape.reduce((x, y) => x * y, 1), 0);
  return {
    dataset_name: "plant-seedlings-12",
    language: "en",
    model_name: "google/vit-base-patch16-224",
    dataset_artifacts: {
      metadata: {
        task: "classification",
        modality: "image",
        target: "species",
        num_classes: species.length,
        class_names: species.map(([n]) => n),
        source: "Aarhus University plant seedlings (V2 segmented), RGB, variable size resized to 224x224",
        split_strategy: "stratified 80/10/10",
      },
      statistics: {
        num_rows: nTrain + nVal + sum(Object.values(test)),
        splits: { train: { num_rows: nTrain }, val: { num_rows: nVal }, test: { num_rows: sum(Object.values(test)) } },
        class_distribution: { train, val, test },
      },
    },
    training_artifacts: {
      metrics: {
        best_global_step: best.step,
        best_metric: best.acc,
        best_model_checkpoint: `${out}/checkpoint-${best.step}`,
        epoch: epochs,
        eval_steps: 500,
        global_step: total,
        is_hyper_param_search: false,
        is_local_process_zero: true,
        is_world_process_zero: true,
        log_history: logHistory,
        logging_steps: 10,
        max_steps: total,
        num_input_tokens_seen: 0,
        num_train_epochs: epochs,
        save_steps: 500,
        stateful_callbacks: { TrainerControl: { args: { should_epoch_stop: false, should_evaluate: false, should_log: false, should_save: true, should_training_stop: true }, attributes: {} } },
        total_flos: 2.9443211478921216e18,
        train_batch_size: batch,
        trial_name: null,
        trial_params: null,
      },
      params: {
        model_name_or_path: "google/vit-base-patch16-224",
        learning_rate: lr,
        lr_scheduler_type: "linear",
        warmup_steps: 0,
        per_device_train_batch_size: batch,
        num_train_epochs: epochs,
        weight_decay: 0.0,
        eval_strategy: "epoch",
        save_strategy: "epoch",
        load_best_model_at_end: true,
        metric_for_best_model: "accuracy",
        remove_unused_columns: false,
        fp16: false,
        seed: 42,
      },
      logs: [
        "[INFO|trainer.py:2414] 2025-08-21 08:30:02,101 >> ***** Running training *****",
        `[INFO|trainer.py:2415] 2025-08-21 08:30:02,101 >>   Num examples = ${nTrain.toLocaleString("en")}`,
        `[INFO|trainer.py:2416] 2025-08-21 08:30:02,101 >>   Num Epochs = ${epochs}`,
        `[INFO|trainer.py:2422] 2025-08-21 08:30:02,101 >>   Total optimization steps = ${total.toLocaleString("en")}`,
        `[INFO|trainer.py:2423] 2025-08-21 08:30:02,104 >>   Number of trainable parameters = ${params.toLocaleString("en")}`,
        `[INFO|trainer.py:2919] 2025-08-21 08:50:09,985 >> Loading best model from ${out}/checkpoint-${best.step} (score: ${best.acc}).`,
      ],
    },
    model_checkpoint_artifacts: {
      metadata: {
        framework: "pytorch",
        format: "safetensors",
        architecture: "ViTForImageClassification",
        checkpoint_name: out,
        num_parameters: params,
        dtype: "float32",
        size_bytes: params * 4 + 19_016,
        // config.json as saved, without its 1000-entry id2label/label2id maps (the client trims them).
        config: {
          architectures: ["ViTForImageClassification"],
          model_type: "vit",
          hidden_size: 768,
          num_hidden_layers: 12,
          num_attention_heads: 12,
          intermediate_size: 3072,
          image_size: 224,
          patch_size: 16,
          num_channels: 3,
          qkv_bias: true,
          hidden_act: "gelu",
          torch_dtype: "float32",
          problem_type: "single_label_classification",
        },
        tensor_stats: { num_tensors: tensors.length, nan_count: 0, inf_count: 0, tensors_with_nonfinite: 0, per_tensor: tensors },
      },
    },
  };
}

/** File name → exact file text of each extra sample. */
export function buildExtraSamples(): Record<string, string> {
  return {
    "keras-majority-collapse.json": pythonJson(kerasMajorityCollapse()),
    "tabular-nan-features.json": pythonJson(tabularNanFeatures()),
    "llm-finetune-bf16-healthy.json": pythonJson(llmFinetuneBf16Healthy()),
    "checkpoint-nan-weights.json": pythonJson(checkpointNanWeights()),
    "vit-head-mismatch.json": pythonJson(vitHeadMismatch()),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [name, text] of Object.entries(buildExtraSamples())) {
    const kb = Buffer.byteLength(text) / 1024;
    if (kb >= 400) throw new Error(`${name} is ${kb.toFixed(0)} KB, over the 400 KB budget`);
    if (/\/(home|Users|work)\//.test(text)) throw new Error(`${name} holds a local absolute path`);
    writeFileSync(new URL(`../fixtures/samples/${name}`, import.meta.url), text);
    console.log(`${name}: ${kb.toFixed(1)} KB`);
  }
}
