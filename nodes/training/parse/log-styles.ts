import { parseTolerantJson } from "../../../artifacts/tolerant-json.js";
import { isRecord } from "../../../artifacts/json-values.js";
import { evalSetNames } from "./boosting.js";
import { metricColumnNames } from "./csv-layouts.js";
import { TRAINER_BOOKKEEPING } from "./hf-trainer-state.js";
import { readMetricValue } from "./number.js";

/**
 * The line styles of printed training logs (`python train.py > train.log`), each a small recognizer. A recognizer
 * reads one screen line (ANSI colours gone, the last redraw after a carriage return) and the state earlier lines
 * left (Keras' `Epoch 3/60` header, Ultralytics' column headers), and returns what the line says: metric
 * values, the epoch and step it names, and for progress bars the bar it redraws. The first style that knows a
 * line reads it; log-series.ts keeps the metric names worth a series.
 */

/** What one line said. */
export interface LineRecord {
  style: string;
  /** Metric values under the names printed, and the name to read one as when the line's context says more. */
  pairs: Array<[name: string, value: number, readAs?: string]>;
  epoch?: number;
  step?: number;
  /** A progress bar redrawn in place: of consecutive redraws of one bar in one epoch, only the last is kept. */
  bar?: string;
}

/** What earlier lines said that later ones rely on. */
export interface StyleState {
  epoch?: number;
  /** Ultralytics' train table columns (`Epoch GPU_mem box_loss cls_loss …`) and whether its val header came. */
  ultralyticsColumns?: string[];
  ultralyticsVal?: boolean;
  /** A console table's column names (fastai's `epoch train_loss valid_loss accuracy time`). */
  tableColumns?: string[];
}

interface Style {
  name: string;
  /** A record, "state" when the line only set state, or null when the style does not know the line. */
  read(line: string, state: StyleState): LineRecord | "state" | null;
}

const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+|nan|NaN|inf|-?Infinity)`;
/** `name: value` or `name=value` (Keras, Lightning bars, mmcv, custom prints). */
const PAIR = new RegExp(String.raw`(?<![\w/.()-])([A-Za-z_][\w./-]*(?:\([A-Z]\))?)\s*[:=]\s*(${NUMBER})(?![\w.])`, "g");
/** `epoch 3`, `Epoch 3/60`, `epoch: 3`, `Epoch [3/10]`, `step 120`, `iter=40`, `global_step: 7`. */
const AXIS = /\b(epoch|global_step|step|iteration|iter)\b\s*[:=]?\s*\[?\s*(\d+(?:\.\d+)?)(?:\s*\/\s*\d+)?\]?/gi;

function pairsOf(text: string): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const m of text.matchAll(PAIR)) {
    const v = readMetricValue(m[2]);
    if (typeof v === "number") out.push([m[1]!, v]);
  }
  return out;
}

function axesOf(text: string): { epoch?: number; step?: number } {
  const out: { epoch?: number; step?: number } = {};
  for (const m of text.matchAll(AXIS)) {
    const which = m[1]!.toLowerCase() === "epoch" ? "epoch" : "step";
    out[which] ??= Number(m[2]);
  }
  return out;
}

/** `Epoch 3/60` alone on its line: Keras' fit() header, whose metrics come on the next line. */
const kerasEpochHeader: Style = {
  name: "keras",
  read(line, state) {
    const m = /^\s*Epoch (\d+)\/\d+\s*$/.exec(line);
    if (!m) return null;
    state.epoch = Number(m[1]);
    return "state";
  },
};

/** Keras' metrics line: `50/50 - 1s - 12ms/step - accuracy: 0.8 - loss: 0.4 - val_loss: 0.5` (also its progress bar). */
const kerasMetrics: Style = {
  name: "keras",
  read(line, state) {
    if (!/^\s*\d+\/\d+\s/.test(line) || !/ - \w+: /.test(line)) return null;
    return { style: "keras", pairs: pairsOf(line), epoch: state.epoch, bar: "keras" };
  },
};

/** Hugging Face Trainer's printed log dicts: `{'loss': 0.52, 'grad_norm': 1.3, 'learning_rate': 4e-05, 'epoch': 0.5}`. */
const trainerDict: Style = {
  name: "hf_trainer",
  read(line) {
    const m = /^\s*(\{'.*\})\s*$/.exec(line);
    if (!m) return null;
    const json = m[1]!.replace(/'/g, '"').replace(/\bnan\b/g, "NaN").replace(/(-?)\binf\b/g, "$1Infinity");
    let value: unknown;
    try {
      value = parseTolerantJson(json);
    } catch {
      return null;
    }
    // The closing summary ({'train_runtime': …, 'train_loss': mean}) is no point of the curve.
    if (!isRecord(value) || "train_runtime" in value) return null;
    const pairs = Object.entries(value).flatMap(([k, v]): Array<[string, number]> => {
      const n = readMetricValue(v);
      return TRAINER_BOOKKEEPING.test(k) || typeof n !== "number" ? [] : [[k, n]];
    });
    const epoch = readMetricValue(value.epoch);
    return { style: "hf_trainer", pairs, epoch: typeof epoch === "number" ? epoch : undefined };
  },
};

/** tqdm and Lightning bars: `Epoch 3: 100%|██| 50/50 [00:01<00:00, 30.1it/s, loss=0.3, v_num=0, val_loss=0.4]`. */
const progressBar: Style = {
  name: "progress_bar",
  read(line) {
    if (!line.includes("%|")) return null;
    const m = /^(.*?):?\s*\d+%\|[^|]*\|\s*\d+\/\d+\s*\[([^\]]*)\]/.exec(line);
    if (!m) return null;
    const label = m[1]!.trim();
    const epoch = /\bEpoch (\d+)\b/i.exec(label);
    return { style: "progress_bar", pairs: pairsOf(m[2]!), epoch: epoch ? Number(epoch[1]) : undefined, bar: label.replace(/\d+/g, "#") };
  },
};

/** What mmcv/mmengine print beside the metrics: timings and memory, not measures of the model. */
const MMCV_BOOKKEEPING = /^(?:eta|time|data_time|memory)$/;

/** mmcv `Epoch [3][50/200]  lr: 1.0e-02, … loss: 0.8`; mmengine `Epoch(train) [3][50/200]  lr: … loss: …`, `Epoch(val) [3][5/5] …`. */
const mmcv: Style = {
  name: "mmcv",
  read(line) {
    if (!line.includes("][") && !/(?:Epoch|Iter)(?:\(\w+\))?\s*\[\d+\]/.test(line)) return null;
    const m = /\b(?:Epoch|Iter)(?:\((train|val|test)\))?\s*\[(\d+)\](?:\s*\[\s*(\d+)\/(\d+)\])?/.exec(line);
    if (!m) return null;
    const mode = m[1] ?? "train";
    const epoch = Number(m[2]);
    const iter = m[3] === undefined ? undefined : Number(m[3]);
    const rest = line.slice(m.index + m[0].length);
    // mmengine's val lines name the val metric without the split (accuracy/top1): the line's mode says it.
    const pairs = pairsOf(rest)
      .filter(([k]) => !MMCV_BOOKKEEPING.test(k))
      .map(([k, v]): [string, number] => [mode === "train" || /^(val|test)[_/]/.test(k) ? k : `${mode}_${k}`, v]);
    const step = mode === "train" && iter !== undefined ? (epoch - 1) * Number(m[4]) + iter : undefined;
    return { style: "mmcv", pairs, epoch, step };
  },
};

/** Ultralytics' console table: a header `Epoch GPU_mem box_loss cls_loss dfl_loss Instances Size`, rows `3/10 0G 1.2 …`. */
const ultralytics: Style = {
  name: "ultralytics",
  read(line, state) {
    const header = /^\s*Epoch\s+GPU_mem\s+(.*\S)\s*$/.exec(line);
    if (header) {
      state.ultralyticsColumns = header[1]!.split(/\s+/);
      return "state";
    }
    if (/^\s*Class\s+Images\s+Instances\s+Box\(P\s+R\s+mAP50\s+mAP50-95\)/.test(line)) {
      state.ultralyticsVal = true;
      return "state";
    }
    const row = /^\s*(\d+)\/\d+\s+\S+G\s+(.*)$/.exec(line);
    if (row && state.ultralyticsColumns) {
      const cells = row[2]!.split(/\s+/);
      const pairs = state.ultralyticsColumns.flatMap((c, j): Array<[string, number]> => {
        const v = readMetricValue(cells[j]?.replace(/:$/, ""));
        return /_loss$/.test(c) && typeof v === "number" ? [[`train/${c}`, v]] : [];
      });
      state.epoch = Number(row[1]);
      return { style: "ultralytics", pairs, epoch: state.epoch, bar: "ultralytics-train" };
    }
    const all = /^\s*all\s+\d+\s+\d+\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$/.exec(line);
    if (all && state.ultralyticsVal) {
      const names = ["metrics/precision(B)", "metrics/recall(B)", "metrics/mAP50(B)", "metrics/mAP50-95(B)"];
      const pairs = names.flatMap((n, j): Array<[string, number]> => {
        const v = readMetricValue(all[j + 1]);
        return typeof v === "number" ? [[n, v]] : [];
      });
      return { style: "ultralytics", pairs, epoch: state.epoch };
    }
    return null;
  },
};

/**
 * Boosting rounds: XGBoost `[10]\tvalidation_0-logloss:0.36\tvalidation_1-logloss:0.43`, LightGBM
 * `[10]\tvalid_0's binary_logloss: 0.50`, CatBoost `10:\tlearn: 0.44\ttest: 0.45\tbest: 0.45 (10)\ttotal: 256ms`.
 * CatBoost's line does not name its metric: it is the eval_metric, the loss function unless set otherwise.
 */
const boostingRound: Style = {
  name: "boosting",
  read(line) {
    const catboost = /^(\d+):\s+learn: (\S+)(?:\s+test: (\S+))?\s+best: .*total: /.exec(line);
    if (catboost) {
      const pairs: Array<[string, number]> = [];
      for (const [set, cell] of [["learn", catboost[2]], ["validation", catboost[3]]] as const) {
        const v = readMetricValue(cell);
        if (typeof v === "number") pairs.push([`${set}-loss`, v]);
      }
      return { style: "boosting", pairs, step: Number(catboost[1]) };
    }
    const m = /^\[(\d+)\]\s+(.*)$/.exec(line);
    if (!m) return null;
    const pairs = pairsOf(m[2]!.replace(/(\S+)'s (\S+):/g, "$1-$2:"));
    if (pairs.length === 0) return null;
    const setOf = (k: string) => k.slice(0, Math.max(0, k.indexOf("-")));
    const names = evalSetNames([...new Set(pairs.map(([k]) => setOf(k)))]);
    const renamed = pairs.map(([k, v]): [string, number, string] => [k, v, setOf(k) ? `${names.get(setOf(k))}${k.slice(k.indexOf("-"))}` : k]);
    return { style: "boosting", pairs: renamed, step: Number(m[1]) };
  },
};

/**
 * A console table of one row per epoch under a header of names, as fastai's progress callback prints it
 * (`epoch     train_loss  valid_loss  accuracy  error_rate  time`, then `0  0.960486  0.818602  0.726562 …`):
 * read as its CSVLogger file would be (csv-layouts.ts).
 */
const columnTable: Style = {
  name: "table",
  read(line, state) {
    if (/^\s*epoch(?:\s+[A-Za-z_][\w/.()-]*){2,}\s*$/.test(line)) {
      state.tableColumns = metricColumnNames(line.trim().split(/\s+/));
      return "state";
    }
    const columns = state.tableColumns;
    if (!columns) return null;
    const cells = line.trim().split(/\s+/);
    if (cells.length !== columns.length || !/^\d+$/.test(cells[0]!)) return null;
    const pairs = columns.flatMap((c, j): Array<[string, number]> => {
      const v = j === 0 ? undefined : readMetricValue(cells[j]);
      return typeof v === "number" ? [[c, v]] : [];
    });
    return pairs.length > 0 ? { style: "table", pairs, epoch: Number(cells[0]) } : null;
  },
};

/** Custom prints: `epoch 3 step 120 loss=0.41 acc=0.83`, `Epoch [3/10] | train_loss: 0.41 | val_loss: 0.5`. */
const keyValue: Style = {
  name: "key_value",
  read(line, state) {
    const pairs = pairsOf(line);
    if (pairs.length === 0) return null;
    const axes = axesOf(line);
    return { style: "key_value", pairs, epoch: axes.epoch ?? state.epoch, step: axes.step };
  },
};

/** In order: the first style that knows a line reads it. */
export const LINE_STYLES: readonly Style[] = [kerasEpochHeader, kerasMetrics, trainerDict, boostingRound, ultralytics, columnTable, progressBar, mmcv, keyValue];

/** Lines that are never metrics, whatever numbers they hold: warnings, tracebacks, errors. */
export const NOISE = /^\s*(?:Traceback \(most recent call last\)|File "|During handling of|\S*(?:Warning|Error|Exception)\b:?|warnings\.warn|\^+\s*$)|\b\w*Warning: /;
