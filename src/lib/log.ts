/** The fields of one structured log line. */
export type LogFields = Record<string, unknown>;

/**
 * Writes JSON log lines (one object per line, which Workers Logs indexes field by field), each
 * carrying the fields of the work it belongs to: above all `request_id`, the request that
 * caused it, so one id finds every line of a request and of the work it started.
 */
export interface Logger {
  info(fields: LogFields): void;
  /** Expected trouble the service handles (a documented refusal): worth seeing, not paging. */
  warn(fields: LogFields): void;
  error(fields: LogFields): void;
  /** A logger whose lines also carry `fields` (null and undefined values are left out). */
  with(fields: LogFields): Logger;
}

function defined(fields: LogFields): LogFields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value != null));
}

/** A logger whose every line starts with `context`. */
export function createLogger(context: LogFields = {}): Logger {
  const base = defined(context);
  return {
    info: (fields) => console.log(JSON.stringify({ ...base, ...fields })),
    warn: (fields) => console.warn(JSON.stringify({ ...base, ...fields })),
    error: (fields) => console.error(JSON.stringify({ ...base, ...fields })),
    with: (fields) => createLogger({ ...base, ...defined(fields) }),
  };
}
