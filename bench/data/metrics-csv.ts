import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { trainingHistory } from "./training-history.js";

/** Validation every this many steps, as a Lightning run with val_check_interval logs it (sparse rows). */
const VAL_EVERY = 100;
const STEPS_PER_EPOCH = 1000;

/**
 * A Lightning CSVLogger `metrics.csv` of `rows` training steps (epoch, step, train_loss, lr-Adam, grad_norm, and
 * val_loss/val_acc every 100 steps, empty elsewhere), from the seeded benchmark history. Returns its size.
 */
export async function writeLightningMetricsCsv(path: string, rows: number): Promise<number> {
  const h = trainingHistory(rows);
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (line: string) => {
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, "drain");
  };
  await write("epoch,step,train_loss,lr-Adam,grad_norm,val_loss,val_acc\n");
  for (let i = 0; i < rows; i++) {
    const val = i % VAL_EVERY === VAL_EVERY - 1 ? `${h.val_loss[i]},${h.val_accuracy[i]}` : ",";
    await write(`${Math.floor(i / STEPS_PER_EPOCH)},${i},${h.train_loss[i]},${h.learning_rate[i]},${h.grad_norm[i]},${val}\n`);
  }
  out.end();
  await once(out, "finish");
  return bytes;
}
