import { type Clock, realClock, throwIfAborted } from "./clock.js";
import { VasError } from "./errors.js";

export interface WaitOptions<T> {
  /** Give up after this long (default 10 minutes): a VasError of kind `timeout`. */
  timeoutMs?: number;
  /** First pause between polls (default 500 ms); each next one is 1.5 times longer... */
  intervalMs?: number;
  /** ...up to this (default 10 s). */
  maxIntervalMs?: number;
  signal?: AbortSignal;
  /** Called with every state read, the last one included. */
  onUpdate?: (resource: T) => void;
  clock?: Clock;
}

export type Outcome = "pending" | "done" | { failed: VasError };

/**
 * Polls `load` with exponential backoff until `judge` says done (returns the resource) or
 * failed (throws its error); a timeout throws kind `timeout`, an abort the signal's reason.
 */
export async function pollUntil<T>(
  what: string,
  load: (signal: AbortSignal | undefined) => Promise<T>,
  judge: (resource: T) => Outcome,
  options: WaitOptions<T> = {},
): Promise<T> {
  const clock = options.clock ?? realClock;
  const timeoutMs = options.timeoutMs ?? 600_000;
  const maxIntervalMs = options.maxIntervalMs ?? 10_000;
  const deadline = clock.now() + timeoutMs;
  let interval = options.intervalMs ?? 500;
  for (;;) {
    throwIfAborted(options.signal);
    const resource = await load(options.signal);
    options.onUpdate?.(resource);
    const outcome = judge(resource);
    if (outcome === "done") return resource;
    if (outcome !== "pending") throw outcome.failed;
    const left = deadline - clock.now();
    if (left <= 0) {
      throw new VasError(
        "timeout",
        {
          type: "about:blank",
          title: "Timed out",
          status: 0,
          detail: `${what} did not finish within ${timeoutMs} ms.`,
          code: "timeout",
        },
        resource,
      );
    }
    await clock.sleep(Math.min(interval, left), options.signal);
    interval = Math.min(maxIntervalMs, interval * 1.5);
  }
}
