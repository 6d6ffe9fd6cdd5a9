import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { consumeAnalysis, consumeAnalysisDeadLetters } from "../../../src/queues/analysis";
import {
  consumeIndexing,
  consumeProcessing,
  consumeVideoDeadLetters,
  consumeWindowDeadLetters,
  consumeWindows,
} from "../../../src/queues/processing";
import type { Deps } from "../../../src/services/deps";

const EMPTY: QueueSendResponse = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };

/** A message waiting for delivery, with the deliveries it had. */
export interface Pending {
  body: unknown;
  attempts: number;
}

/** A queue that holds what is sent to it until the test delivers it, oldest first. */
export class WorkQueue implements Queue<unknown> {
  readonly pending: Pending[] = [];

  async metrics(): Promise<QueueMetrics> {
    return { backlogCount: this.pending.length, backlogBytes: 0 };
  }

  async send(body: unknown): Promise<QueueSendResponse> {
    this.pending.push({ body, attempts: 1 });
    return EMPTY;
  }

  async sendBatch(
    messages: Iterable<MessageSendRequest<unknown>>,
  ): Promise<QueueSendBatchResponse> {
    for (const message of messages) this.pending.push({ body: message.body, attempts: 1 });
    return EMPTY;
  }
}

type Consumer = (batch: MessageBatch, deps: Deps) => Promise<void>;

/**
 * The queues of processing and runs, each with its consumer, its dead letters' consumer and
 * its `max_retries` as wrangler.toml configures them.
 */
export const LANES = {
  processing: {
    name: "video-processing",
    binding: "PROCESSING_QUEUE",
    consume: consumeProcessing,
    deadLetters: consumeVideoDeadLetters,
    maxRetries: 5,
  },
  windows: {
    name: "media-windows",
    binding: "WINDOWS_QUEUE",
    consume: consumeWindows,
    deadLetters: consumeWindowDeadLetters,
    maxRetries: 8,
  },
  frames: {
    name: "media-frames",
    binding: "FRAMES_QUEUE",
    consume: consumeWindows,
    deadLetters: consumeWindowDeadLetters,
    maxRetries: 8,
  },
  indexing: {
    name: "search-indexing",
    binding: "INDEXING_QUEUE",
    consume: consumeIndexing,
    deadLetters: consumeVideoDeadLetters,
    maxRetries: 5,
  },
  analysis: {
    name: "analysis-runs",
    binding: "ANALYSIS_QUEUE",
    consume: consumeAnalysis,
    deadLetters: consumeAnalysisDeadLetters,
    maxRetries: 5,
  },
} as const satisfies Record<
  string,
  {
    name: string;
    binding: string;
    consume: Consumer;
    deadLetters: Consumer;
    maxRetries: number;
  }
>;

/** A queue of the schedule. */
export type Lane = keyof typeof LANES;

/** What the platform does with a message whose invocation died before answering. */
export type Fate = "redelivered" | "lost";

/** How one delivery goes: what happens to a message whose invocation dies, a second copy. */
export interface Delivery {
  fate: Fate;
  /** The message is delivered again after it was acknowledged (at least once). */
  duplicate: boolean;
}

async function run(consume: Consumer, name: string, message: Pending, deps: Deps) {
  const batch = createMessageBatch(name, [
    {
      id: crypto.randomUUID(),
      timestamp: new Date(),
      attempts: message.attempts,
      body: message.body,
    },
  ]);
  await consume(batch, deps).catch(() => undefined);
  const result = await getQueueResult(batch, createExecutionContext());
  return result.ackAll || result.explicitAcks.length > 0;
}

/** The lane itself when it holds a message, else the next one in LANES' order that does. */
export function busyLane(queues: Record<Lane, WorkQueue>, lane: Lane): Lane | null {
  const lanes = Object.keys(LANES) as Lane[];
  const from = lanes.indexOf(lane);
  const order = [...lanes.slice(from), ...lanes.slice(0, from)];
  return order.find((name) => queues[name].pending.length > 0) ?? null;
}

/**
 * Delivers the oldest message of a lane through its real consumer, as the platform would: an
 * acknowledged message is done (or comes again, for `duplicate`); a retried one comes back,
 * or goes to the dead letters past the retries; one whose invocation died comes back or is
 * lost, as `fate` says. Answers false when the lane was empty.
 */
export async function deliverNext(
  queue: WorkQueue,
  lane: Lane,
  deps: Deps,
  delivery: Delivery,
  died: () => boolean,
): Promise<boolean> {
  const message = queue.pending.shift();
  if (!message) return false;
  const { name, consume, deadLetters, maxRetries } = LANES[lane];
  const acked = await run(consume, name, message, deps);
  const again = { body: message.body, attempts: message.attempts + 1 };
  if (died()) {
    if (delivery.fate === "redelivered") queue.pending.push(again);
  } else if (acked) {
    if (delivery.duplicate) queue.pending.push(again);
  } else if (message.attempts >= maxRetries + 1) {
    await run(deadLetters, `${name}-dlq`, again, deps);
  } else {
    queue.pending.push(again);
  }
  return true;
}
