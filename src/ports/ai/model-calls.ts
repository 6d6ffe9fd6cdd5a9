import type { AiRunner } from "../../env";
import { SharedSemaphore } from "../../lib/shared-semaphore";
import {
  classifyModelError,
  errorText,
  TransientModelError,
  UnknownModelError,
} from "./classify-error";
import { type RateGroup, rateGroupOf } from "./rate-limits";

export {
  classifyModelError,
  errorText,
  type ModelErrorClass,
  type ModelErrorKind,
  TransientModelError,
  UnknownModelError,
} from "./classify-error";

/** Account-wide pacing of model calls: one slot per call, spaced by each group's rate. */
export interface ModelRateLimiter {
  /**
   * Reserves the next free slot of `group` no later than `maxWaitMs` from now and answers
   * how long to wait for it; null when none can be given now (nothing is reserved then).
   */
  reserve(group: RateGroup, tenant: string, maxWaitMs: number): Promise<number | null>;
}

/** How long one logical call may take, including its retries, and how retries back off. */
export interface CallPolicy {
  /** The whole call, waits and retries included, ends by then. */
  deadlineMs: number;
  /** One attempt is abandoned after this long (a timeout is transient). */
  attemptTimeoutMs: number;
  /** Backoff of the first retry; doubled per retry with full jitter, up to `maxBackoffMs`. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** How long to wait before asking the limiter again when it had no slot to give. */
  slotPollMs: number;
  /** Attempts an undocumented error gets before the call gives up on it (UnknownModelError). */
  unknownAttempts: number;
}

/**
 * A deadline of two minutes keeps one call well inside a step's budget. Three attempts for an
 * undocumented error: one that passes (a dropped connection, a restarted node) passes on the
 * next try a second later; one that fails three times over 3 s of backoff is not taken for
 * passing, since retrying the whole window or run for it would hold the work for hours and
 * then store nothing (docs/media-understanding.md, "Platform errors").
 */
export const DEFAULT_CALL_POLICY: CallPolicy = {
  deadlineMs: 120_000,
  attemptTimeoutMs: 90_000,
  baseBackoffMs: 1_000,
  maxBackoffMs: 20_000,
  slotPollMs: 1_000,
  unknownAttempts: 3,
};

/** What a call may depend on besides the binding; tests pass a fake clock. */
export interface CallEnvironment {
  /** Paces calls across the account; without one, calls are only retried (media calls). */
  limiter?: ModelRateLimiter;
  policy?: Partial<CallPolicy>;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Whose call this is, so the limiter can share the rate fairly between workspaces. */
  tenant?: string;
}

/**
 * Runs one model call at the account's pace: it takes a slot from the limiter, calls, and on a
 * transient failure backs off (honouring Retry-After) and tries again, until the deadline. A
 * permanent failure is thrown as it came; a transient one still failing at the deadline is
 * thrown as TransientModelError, so the caller retries the work, never stores the failure; an
 * undocumented one failing `unknownAttempts` times is thrown as UnknownModelError, to be stored.
 */
export async function callModel<T>(
  env: CallEnvironment,
  model: string,
  call: () => Promise<T>,
): Promise<T> {
  const policy = { ...DEFAULT_CALL_POLICY, ...env.policy };
  const now = env.now ?? Date.now;
  const sleep = env.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const random = env.random ?? Math.random;
  const group = rateGroupOf(model);
  const deadline = now() + policy.deadlineMs;
  let last: { reason: string; retryAfterMs: number | null } = {
    reason: "no slot",
    retryAfterMs: null,
  };
  const limiter = env.limiter;
  // The slot to call in: asked of the limiter until it gives one, or the deadline.
  const slot = async (): Promise<number> => {
    if (!limiter) return 0;
    for (;;) {
      const left = deadline - now();
      const wait = left <= 0 ? null : await limiter.reserve(group, env.tenant ?? "", left);
      if (wait !== null) return wait;
      // No slot for now (the account's rate is spoken for, or this tenant holds its share):
      // ask again shortly, until the deadline.
      if (now() + policy.slotPollMs >= deadline)
        throw new TransientModelError(model, last.reason, last.retryAfterMs);
      await sleep(policy.slotPollMs);
    }
  };
  let unknowns = 0;
  for (let attempt = 0; ; ) {
    const wait = await inTurn(`${group}\n${env.tenant ?? ""}`, slot);
    if (wait > 0) await sleep(wait);
    attempt++;
    try {
      return await withTimeout(call(), policy.attemptTimeoutMs, model);
    } catch (error) {
      const kind = classifyModelError(error);
      if (kind.kind === "permanent") throw error;
      // Nothing documents it, so nothing says it passes: a few tries, then it is the result.
      const unknown = kind.kind === "unknown";
      if (unknown && ++unknowns >= policy.unknownAttempts)
        throw new UnknownModelError(model, errorText(error), unknowns);
      last = kind;
      const backoff =
        Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** (attempt - 1)) * random();
      const pause = Math.max(backoff, kind.retryAfterMs ?? 0);
      if (now() + pause >= deadline)
        throw unknown
          ? new UnknownModelError(model, errorText(error), unknowns)
          : new TransientModelError(model, kind.reason, kind.retryAfterMs);
      await sleep(pause);
    }
  }
}

/** The callers of this isolate asking for slots, per rate group and tenant: one asks at a time. */
const turns = new Map<string, SharedSemaphore>();

/**
 * Runs `work` once every earlier caller with the same key has finished its own. Every limiter
 * request is a subrequest of the invocation, so callers of one isolate waiting for slots of
 * the same group and tenant ask one at a time: polls then grow with the time waited, not with
 * the calls waiting (twenty calls of a batch each polling once a second passed 1,000
 * subrequests in a batch that waited two minutes). Throughput holds: once a slot is given the
 * next caller asks at once, and a tenant may hold two polls' worth of slots ahead. The callers
 * are often of different invocations, so the turns are a SharedSemaphore, safe across them.
 */
async function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  let turn = turns.get(key);
  if (!turn) {
    turn = new SharedSemaphore({ capacity: 1 });
    turns.set(key, turn);
  }
  try {
    return await turn.use(1, work);
  } finally {
    if (turn.idle && turns.get(key) === turn) turns.delete(key);
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, model: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${model}: 3007 Request timeout`), { code: 3007 })),
      ms,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The AI binding with every call paced and retried: adapters take it in place of `env.AI`,
 * so one limiter keeps the whole account under each model's published rate.
 */
export function pacedAi(ai: AiRunner, env: CallEnvironment): AiRunner {
  return {
    run: (model, inputs, options) => callModel(env, model, () => ai.run(model, inputs, options)),
  };
}

export type { RateGroup };
