import type { CallEnvironment, ModelRateLimiter } from "../../src/ports/ai/model-calls";

/** A limiter that gives every call its slot at once. */
export const NO_WAIT: ModelRateLimiter = { reserve: async () => 0 };

/** Model calls that never wait: slots at once and backoff that sleeps no time; `extra` adds. */
export function instantCalls(extra: CallEnvironment = {}): CallEnvironment {
  return { limiter: NO_WAIT, sleep: async () => undefined, ...extra };
}

/**
 * Instant calls on a clock that never moves and backoff without jitter, so only `deadlineMs`
 * (against the backoff the policy adds up) decides how many attempts a failing call gets.
 */
export function attemptsWithin(deadlineMs: number): CallEnvironment {
  return instantCalls({ now: () => 0, random: () => 1, policy: { deadlineMs } });
}
