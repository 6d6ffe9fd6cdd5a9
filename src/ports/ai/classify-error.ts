import { documentedError, JSON_MODE_FAILURE, TEMPORARY_STATUSES } from "./error-table";

/**
 * `transient`: documented as passing (retry until the call's deadline, then the work later);
 * `permanent`: documented as failing for good (a limitation at once); `unknown`: nothing
 * documented names it (retried a bounded number of times, then a limitation with its text).
 */
export type ModelErrorKind = "transient" | "permanent" | "unknown";

/** How a failed call is classified, and when it may be tried again. */
export interface ModelErrorClass {
  kind: ModelErrorKind;
  /** The documented name, else the code or status, else the sanitised text. */
  reason: string;
  retryAfterMs: number | null;
}

/**
 * A model call failed in a way that can pass (rate limit, capacity, timeout, a temporary HTTP
 * status) and kept failing until the call's deadline. The work must be retried later as a
 * whole; it must never be stored as a result (a limitation, an `uncertain` answer).
 */
export class TransientModelError extends Error {
  constructor(
    readonly model: string,
    readonly reason: string,
    readonly retryAfterMs: number | null,
  ) {
    super(`${model} is unavailable for now (${reason})`);
    this.name = "TransientModelError";
  }
}

/**
 * A model call failed with an error no page documents, and kept failing over its bounded
 * attempts. It is stored as a limitation carrying its text, never retried as a whole.
 */
export class UnknownModelError extends Error {
  constructor(
    readonly model: string,
    readonly text: string,
    readonly attempts: number,
  ) {
    super(`${model} failed ${attempts} times with an undocumented error: ${text}`);
    this.name = "UnknownModelError";
  }
}

/** Shape of the errors the classifier reads: the binding's `code`, an HTTP `status`. */
interface ErrorFields {
  code?: unknown;
  status?: unknown;
  retryAfter?: unknown;
}

/** Whether a failed call may pass if tried again, from the documented tables (error-table.ts). */
export function classifyModelError(error: unknown): ModelErrorClass {
  const message = error instanceof Error ? error.message : String(error);
  const fields: ErrorFields = typeof error === "object" && error !== null ? error : {};
  if (error instanceof TransientModelError)
    return { kind: "transient", reason: error.reason, retryAfterMs: error.retryAfterMs };
  if (error instanceof UnknownModelError)
    return { kind: "unknown", reason: error.text, retryAfterMs: null };
  const retryAfterMs = retryAfterOf(fields, message);
  const code = typeof fields.code === "number" ? fields.code : codeIn(message);
  const documented = code === null ? undefined : documentedError(code);
  if (documented)
    return { kind: documented.kind, reason: `${code} ${documented.name}`, retryAfterMs };
  if (JSON_MODE_FAILURE.pattern.test(message))
    return { kind: JSON_MODE_FAILURE.kind, reason: JSON_MODE_FAILURE.name, retryAfterMs };
  // A Media error's code is HTTP-like; a REST or gateway error carries its status.
  const httpCode = code !== null && code >= 400 && code < 600 ? code : null;
  const status =
    typeof fields.status === "number" ? fields.status : (httpCode ?? statusIn(message));
  if (status !== null && (code === null || code === status)) {
    if (TEMPORARY_STATUSES.has(status))
      return { kind: "transient", reason: `status ${status}`, retryAfterMs };
    if (status >= 400 && status < 500)
      return { kind: "permanent", reason: `status ${status}`, retryAfterMs };
  }
  return { kind: "unknown", reason: errorText(error), retryAfterMs };
}

/**
 * An error's text fit to store and show: URLs, data URIs, credentials and long opaque tokens
 * replaced, control characters and runs of spaces collapsed, at most `max` characters.
 */
export function errorText(error: unknown, max = 120): string {
  const message = error instanceof Error ? error.message : String(error);
  const clean = message
    .replace(/\bdata:[^\s,]*,\S*/gi, "[data]")
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, "[url]")
    .replace(/\bbearer\s+\S+/gi, "[credential]")
    .replace(
      /\b(?:api[-_ ]?key|token|secret|password|authorization)\b\s*[:=]\s*\S+/gi,
      "[credential]",
    )
    .replace(/[A-Za-z0-9+/_=-]{24,}/g, "[redacted]")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (clean === "") return "no message";
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

function codeIn(message: string): number | null {
  const match = /\b([35]0\d\d|9\d\d\d)\b/.exec(message);
  return match ? Number(match[1]) : null;
}

function statusIn(message: string): number | null {
  const match =
    /\b(?:status|HTTP)\s*:?\s*([1-5]\d\d)\b/i.exec(message) ?? /^([45]\d\d)\b/.exec(message);
  return match ? Number(match[1]) : /too many requests|rate.?limit/i.test(message) ? 429 : null;
}

function retryAfterOf(fields: ErrorFields, message: string): number | null {
  const field = fields.retryAfter;
  if (typeof field === "number" && Number.isFinite(field) && field >= 0) return field * 1000;
  const match = /retry.?after\D{0,3}(\d+(?:\.\d+)?)\s*s/i.exec(message);
  return match ? Number(match[1]) * 1000 : null;
}
