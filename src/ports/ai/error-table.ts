/**
 * The errors Cloudflare documents for the platform calls this service makes, each classified
 * from what its page says. Read 2026-11-28 (`ERROR_TABLE_READ`):
 * - Workers AI: developers.cloudflare.com/workers-ai/platform/errors/ (the whole table);
 * - JSON mode: developers.cloudflare.com/workers-ai/features/json-mode/ ("JSON Mode couldn't be
 *   met", a message with no code);
 * - Images: developers.cloudflare.com/images/reference/troubleshooting/ (9422, the usage limit
 *   Media Transformations shares; the Media binding documents no codes of its own,
 *   developers.cloudflare.com/stream/transform-videos/bindings/, "Error handling").
 * An error none of these names is unknown: callModel retries it a bounded number of times.
 */

/** Whether retrying can pass: `transient` within minutes, `permanent` never for this input. */
export type ErrorClass = "transient" | "permanent";

/** One documented error: its code, name and HTTP status as the page gives them, and its class. */
export interface DocumentedError {
  code: number;
  name: string;
  httpStatus: number | null;
  kind: ErrorClass;
  why: string;
  source: string;
}

/** The day the pages below were read. */
export const ERROR_TABLE_READ = "2026-11-28";

/** Workers AI's error table. */
export const WORKERS_AI_ERRORS_URL =
  "https://developers.cloudflare.com/workers-ai/platform/errors/";
/** JSON mode's page, which documents its one failure by message. */
export const JSON_MODE_URL = "https://developers.cloudflare.com/workers-ai/features/json-mode/";
/** Images' troubleshooting page (error codes of transformations). */
export const IMAGES_ERRORS_URL =
  "https://developers.cloudflare.com/images/reference/troubleshooting/";

const ai = (
  code: number,
  name: string,
  httpStatus: number,
  kind: ErrorClass,
  why: string,
): DocumentedError => ({ code, name, httpStatus, kind, why, source: WORKERS_AI_ERRORS_URL });

/** Every row of Workers AI's table, in the page's order. */
export const WORKERS_AI_ERRORS: readonly DocumentedError[] = [
  ai(5007, "No such model", 400, "permanent", "the model or task named does not exist"),
  ai(5004, "Invalid data", 400, "permanent", "the input itself is refused"),
  ai(3039, "Finetune missing required files", 400, "permanent", "the finetune lacks files"),
  ai(3003, "Incomplete request", 400, "permanent", "the request lacks headers or body"),
  ai(5018, "Account not allowed for private model", 403, "permanent", "access is not granted"),
  ai(5016, "Model agreement", 403, "permanent", "the model's terms are not agreed to"),
  ai(3023, "Account blocked", 403, "permanent", "the service is unavailable to the account"),
  ai(3041, "Account not allowed for private model", 403, "permanent", "access is not granted"),
  ai(5019, "Deprecated SDK version", 405, "permanent", "the caller must be upgraded"),
  ai(5005, "LoRa unsupported", 405, "permanent", "the model takes no LoRA"),
  ai(3042, "Invalid model ID", 404, "permanent", "the model name is invalid"),
  ai(3006, "Request too large", 413, "permanent", "the same input is as large next time"),
  ai(3007, "Timeout", 408, "transient", "a timeout of one request; the next may finish"),
  ai(3008, "Aborted", 408, "transient", "the request was aborted, not refused"),
  ai(
    3036,
    "Account limited",
    429,
    "permanent",
    "the daily free allocation is used up: no retry within a window's retries passes, a paid plan does",
  ),
  ai(3040, "Out of capacity", 429, "transient", "no data center had capacity; it frees up"),
];

/** Images' usage-limit refusal, the one transformation code that applies to the Media binding. */
export const MEDIA_ERRORS: readonly DocumentedError[] = [
  {
    code: 9422,
    name: "Usage limit reached",
    httpStatus: null,
    kind: "permanent",
    why: "the account's transformations allowance is used up until the plan changes",
    source: IMAGES_ERRORS_URL,
  },
];

/**
 * JSON mode's documented failure: the model could not satisfy the schema. It names no code, so
 * it is matched by its words. Permanent: the same prompt at temperature 0 meets the same schema.
 */
export const JSON_MODE_FAILURE = {
  pattern: /JSON Mode couldn'?t be met/i,
  name: "JSON Mode couldn't be met",
  kind: "permanent" as ErrorClass,
  why: "the model cannot satisfy the requested schema for this input",
  source: JSON_MODE_URL,
};

const BY_CODE = new Map([...WORKERS_AI_ERRORS, ...MEDIA_ERRORS].map((e) => [e.code, e]));

/** The documented error with this code, if any. */
export function documentedError(code: number): DocumentedError | undefined {
  return BY_CODE.get(code);
}

/**
 * HTTP statuses that RFC 9110 and RFC 6585 call temporary (408 Request Timeout, 429 Too Many
 * Requests, 503 Service Unavailable, 504 Gateway Timeout), for an error that carries a status
 * and no documented code (the REST API, AI Gateway, an HTTP-like Media code).
 */
export const TEMPORARY_STATUSES: ReadonlySet<number> = new Set([408, 429, 503, 504]);
