/** What one counted request learns: whether it may run, what is left and when that resets. */
export interface WindowDecision {
  allowed: boolean;
  /** Requests still allowed in the current window, this one counted. */
  remaining: number;
  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Fixed windows, one per name, each starting at the first request after the previous one
 * ended. Fixed rather than sliding so that the RateLimit field is exact: "r requests within
 * t seconds" holds until the window ends (docs/decisions/rate-limits.md). A refused
 * request is not counted: it did no work, and the window ends when it ends either way.
 */
export class FixedWindows {
  private readonly windows = new Map<string, Window>();

  /** Counts one request under `name` against `limit` per `windowMs`, at `now` (epoch ms). */
  take(name: string, limit: number, windowMs: number, now: number): WindowDecision {
    let window = this.windows.get(name);
    // A clock that stepped back (another machine's, a test's) starts a fresh window too.
    if (!window || now >= window.start + windowMs || now < window.start) {
      window = { start: now, count: 0 };
      this.windows.set(name, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    if (window.count >= limit) return { allowed: false, remaining: 0, resetSeconds };
    window.count += 1;
    return { allowed: true, remaining: limit - window.count, resetSeconds };
  }
}
