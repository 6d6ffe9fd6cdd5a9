/** What the client tells its caller before waiting out a 429. */
export interface RateLimitNotice {
  method: string;
  url: string;
  /** How long the client waits before sending the request again, from `Retry-After`. */
  waitMs: number;
  /** Which wait this is for the request (1 for the first). */
  attempt: number;
  /** The answer's `RateLimit` field (`"reads";r=0;t=41`), when it had one. */
  rateLimit: string | null;
}

/** How the API client treats a 429. */
export interface RateLimitOptions {
  /** 429 answers waited out before the request is sent again (default 3); then it is answered. */
  rateLimitRetries?: number;
  /** The longest `Retry-After` waited out (default 120 s); a longer one is answered at once. */
  maxRateLimitWaitMs?: number;
  /** Called before each wait, e.g. to say why the program pauses. */
  onRateLimited?: (notice: RateLimitNotice) => void;
}

/**
 * The wait a 429 asks for: `Retry-After` in seconds or as an HTTP date (RFC 9110), else one
 * second doubled for each wait before (an answer from something in between that gave none).
 */
export function retryAfterMs(header: string | null, now: number, attempt: number): number {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return 1000 * 2 ** attempt;
}
