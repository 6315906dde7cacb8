/** Formats a zod issue path as `a.b[2].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(body)";
}
