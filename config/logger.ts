/** Structured JSON logs, one object per line, with bound fields (request id) on every line. */
export type LogLevel = "debug" | "info" | "warn" | "error";
const RANK: Record<LogLevel | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Keys whose values are never written, whatever a caller passes. */
const SECRET_KEY = /api[_-]?key|token|password|authorization|secret/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_KEY.test(k) && v ? "[redacted]" : v;
  return out;
}

export function createLogger(
  level: LogLevel | "silent" = "info",
  bound: Record<string, unknown> = {},
  sink: (line: string) => void = (line) => process.stdout.write(line + "\n"),
): Logger {
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < RANK[level]) return;
    const err = fields?.err instanceof Error ? { err: { name: fields.err.name, message: fields.err.message } } : {};
    sink(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...redact({ ...bound, ...fields }), ...err }));
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLogger(level, { ...bound, ...fields }, sink),
  };
}
