import type { z } from "zod";
import type { CausedByRequest } from "../lib/queue-messages";
import { type Deps, withRequest } from "../services/deps";

/** Backoff for a retried message: 5 s, 10 s, 20 s, ... at most 5 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(300, 5 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Runs every message of a batch through `work`, one at a time, with `deps` logging under the
 * request the message names: malformed messages are logged and acknowledged (retrying cannot
 * fix them), a success is acknowledged, a failure is retried with backoff. Delivery is at
 * least once, so `work` must be idempotent.
 */
export async function consumeEach<T extends CausedByRequest>(
  batch: MessageBatch,
  schema: z.ZodType<T>,
  deps: Deps,
  work: (deps: Deps, body: T) => Promise<void>,
): Promise<void> {
  await consumeSideBySide(batch, schema, deps, work, 1);
}

/** Seconds before a failed message is delivered again, from its error and attempts so far. */
export type RetryDelay = (error: unknown, attempts: number) => number;

const BACKOFF: RetryDelay = (_error, attempts) => retryDelaySeconds(attempts);

/**
 * Like `consumeEach`, with up to `limit` messages worked on at once: for messages that spend
 * their time waiting on models, not on this invocation's CPU.
 */
export async function consumeSideBySide<T extends CausedByRequest>(
  batch: MessageBatch,
  schema: z.ZodType<T>,
  deps: Deps,
  work: (deps: Deps, body: T) => Promise<void>,
  limit: number,
  retryDelay: RetryDelay = BACKOFF,
): Promise<void> {
  const pending = [...batch.messages];
  const worker = async () => {
    for (let message = pending.shift(); message; message = pending.shift()) {
      await consumeOne(batch.queue, message, schema, deps, work, retryDelay);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}

async function consumeOne<T extends CausedByRequest>(
  queue: string,
  message: Message,
  schema: z.ZodType<T>,
  deps: Deps,
  work: (deps: Deps, body: T) => Promise<void>,
  retryDelay: RetryDelay,
): Promise<void> {
  const parsed = schema.safeParse(message.body);
  if (!parsed.success) {
    deps.log.error({ queue, dropped: message.id, reason: "malformed message" });
    message.ack();
    return;
  }
  const scoped = withRequest(deps, parsed.data.request_id);
  try {
    await work(scoped, parsed.data);
    message.ack();
  } catch (error) {
    scoped.log.error({
      queue_message: message.id,
      attempts: message.attempts,
      error: String(error),
    });
    message.retry({ delaySeconds: retryDelay(error, message.attempts) });
  }
}

/** The distinct request ids a batch's messages name, for lines about the whole batch. */
export function batchRequestIds(batch: MessageBatch): string[] {
  const ids = new Set<string>();
  for (const message of batch.messages) {
    const body: unknown = message.body;
    if (typeof body === "object" && body !== null && "request_id" in body) {
      if (typeof body.request_id === "string") ids.add(body.request_id);
    }
  }
  return [...ids];
}
