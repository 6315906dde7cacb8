/** Reading hyperparameters the run logged (strings, as MLflow stores them). */

/** The first of several param names that holds a finite number. */
export function paramNumber(params: Record<string, string>, ...names: string[]): number | null {
  for (const name of names) {
    const v = findParam(params, name);
    if (v === undefined) continue;
    const n = Number(v.trim());
    if (v.trim() !== "" && Number.isFinite(n)) return n;
  }
  return null;
}

/** The first of several param names that holds a boolean (True/False, true/1/0, yes/no). */
export function paramFlag(params: Record<string, string>, ...names: string[]): boolean | null {
  for (const name of names) {
    const v = findParam(params, name)?.trim().toLowerCase();
    if (v === undefined) continue;
    if (["true", "1", "yes", "on"].includes(v)) return true;
    if (["false", "0", "no", "off", "none", ""].includes(v)) return false;
  }
  return null;
}

/** The first of several param names that is set, as text. */
export function paramText(params: Record<string, string>, ...names: string[]): string | null {
  for (const name of names) {
    const v = findParam(params, name);
    if (v !== undefined && v.trim() !== "" && v !== "None") return v;
  }
  return null;
}

/** Case-insensitive lookup that also matches nested names such as "trainer.max_steps" or "optimizer/lr". */
function findParam(params: Record<string, string>, name: string): string | undefined {
  if (name in params) return params[name];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(params)) {
    const key = k.toLowerCase();
    if (key === lower || key.endsWith(`.${lower}`) || key.endsWith(`/${lower}`)) return v;
  }
  return undefined;
}
