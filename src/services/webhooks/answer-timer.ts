import { TransportError } from "./transport";

/** The timer looks at the clock this often while it waits for an answer. */
export const ANSWER_TICK_MS = 100;
/**
 * A look that comes later than this after the one before means the service itself was busy
 * (its event loop blocked): only this much of the gap is counted, the rest was not the
 * receiver's doing.
 */
export const MAX_COUNTED_GAP_MS = 2 * ANSWER_TICK_MS;

/** How a request under the timer ended, and how long the receiver took as the service saw it. */
export interface Timed<T> {
  /** Rejected with `TransportError("timeout")` when cut off, else as the request settled. */
  outcome: PromiseSettledResult<T>;
  /** From the call that sends the request until it settled, less the service's own stalls. */
  ms: number;
}

/**
 * Runs `work` (a request given the signal that aborts it) until it settles or the receiver
 * has had `limitMs` to answer, when it is aborted and ends as `TransportError("timeout")`.
 *
 * The time counted is the receiver's, not the service's: a single timer set for `limitMs`
 * fires as soon as the service wakes from a stall that outlasted it, often before the
 * answer that came in meanwhile has been read, so a receiver that answered in 5 ms was cut
 * off. Here the clock is looked at every ANSWER_TICK_MS and a gap longer than
 * MAX_COUNTED_GAP_MS counts as MAX_COUNTED_GAP_MS; the look that finds such a gap never
 * cuts off, so an answer that arrived during the stall is read first. Deployed, Workers
 * advance the clock only between events, which is all the timer needs.
 */
export async function withinAnswerTime<T>(
  work: (signal: AbortSignal) => Promise<T>,
  limitMs: number,
): Promise<Timed<T>> {
  const controller = new AbortController();
  let counted = 0;
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const elapsed = () => counted + Math.min(Date.now() - last, MAX_COUNTED_GAP_MS);
  const cutOff = new Promise<never>((_, reject) => {
    const look = () => {
      const at = Date.now();
      const stalled = at - last > MAX_COUNTED_GAP_MS;
      counted += Math.min(at - last, MAX_COUNTED_GAP_MS);
      last = at;
      if (counted >= limitMs && !stalled) {
        controller.abort();
        reject(new TransportError("timeout"));
        return;
      }
      const left = limitMs - counted;
      timer = setTimeout(
        look,
        stalled || left <= 0 ? ANSWER_TICK_MS : Math.min(ANSWER_TICK_MS, left),
      );
    };
    timer = setTimeout(look, Math.min(ANSWER_TICK_MS, limitMs));
  });
  try {
    const value = await Promise.race([work(controller.signal), cutOff]);
    return { outcome: { status: "fulfilled", value }, ms: elapsed() };
  } catch (reason) {
    return { outcome: { status: "rejected", reason }, ms: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}
